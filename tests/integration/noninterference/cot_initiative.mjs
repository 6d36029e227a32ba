// cot.initiative (a heist): what a player sees of two watchmen. Varied: Briggs's Resist (his
// Training, 000:196: Tommy's Drop beats it by 6 or more either way, 000:110) and the watchmen's
// notes. The slots are open (000:37) and do not vary.
import { sample } from '../enc_lib.mjs';

const watchman = (name, resist, notes) => ({
  name,
  abilities: { muscle: 2, fingers: 1, brains: 2, it: 1 },
  skills: { resist, athletics: 1, lookout: 1, hand_to_hand: 1 },
  notes,
});

export const scenario = {
  name: 'cot.initiative',
  system: 'cot',
  seed: 5,
  players: ['Ann', 'Bob'],
  variants: [
    { resist: 1, notes: 'owes the crew boss money' },
    { resist: 2, notes: 'owes the fence a favour' },
  ],
  async script({ gm, p, char, ok }, v) {
    const vera = await char(p.Ann, { name: 'Vera Lockhart', sheet: sample('cot', 'vera_lockhart') });
    const tommy = await char(p.Bob, { name: 'Big Tommy Rourke', sheet: sample('cot', 'big_tommy_rourke') });
    const briggs = await char(gm, { name: 'Watchman Briggs', sheet: watchman('Watchman Briggs', v.resist, v.notes), npc: true });
    const cole = await char(gm, { name: 'Watchman Cole', sheet: watchman('Watchman Cole', 1, v.notes), npc: true });
    await ok(gm, 'enc.start', { module: 'cot.initiative', options: { stage: 'heist' } });
    const V = (await ok(gm, 'enc.add', { char: vera })).id;
    const T = (await ok(gm, 'enc.add', { char: tommy })).id;
    const B = (await ok(gm, 'enc.add', { char: briggs, side: 'guards' })).id;
    const C = (await ok(gm, 'enc.add', { char: cole, side: 'guards' })).id;
    const act = (who, action, actor, params) => ok(who, 'enc.act', { action, ...(actor ? { actor } : {}), ...(params ? { params } : {}) });
    await act(gm, 'begin');
    await act(gm, 'wait', B);
    await act(p.Bob, 'drop', T, { target: B, weapon: 'Brass knuckles' });
    await act(p.Ann, 'claim', V);
    await act(p.Ann, 'wait', V);
    await act(gm, 'wait', C);
  },
};
