// cot.warfare: what a player sees of a watchman who breaks free (000:133). Varied, after the
// slots and Cover are rolled: his Muscle and Athletics (the same three dice, kept 2 or 1: he
// fails to break free either way, 000:13) and his notes. The GM sets them with enc.set: varied
// in his sheet, they would change his slot, which is open (000:37).
import { sample } from '../enc_lib.mjs';

const WATCHMAN = {
  name: 'Watchman Cole',
  abilities: { muscle: 2, fingers: 1, brains: 2, it: 1 },
  skills: { resist: 1, athletics: 1, lookout: 1, hand_to_hand: 1 },
  notes: 'owes the crew boss money',
};

export const scenario = {
  name: 'cot.warfare',
  system: 'cot',
  seed: 5,
  players: ['Ann', 'Bob'],
  variants: [
    { muscle: 2, athletics: 1, notes: 'owes the crew boss money' },
    { muscle: 1, athletics: 2, notes: 'owes the fence a favour' },
  ],
  async script({ gm, p, char, ok }, v) {
    const vera = await char(p.Ann, { name: 'Vera Lockhart', sheet: sample('cot', 'vera_lockhart') });
    const tommy = await char(p.Bob, { name: 'Big Tommy Rourke', sheet: sample('cot', 'big_tommy_rourke') });
    const cole = await char(gm, { name: 'Watchman Cole', sheet: WATCHMAN, npc: true });
    await ok(gm, 'enc.start', { module: 'cot.warfare' });
    const V = (await ok(gm, 'enc.add', { char: vera })).id;
    const T = (await ok(gm, 'enc.add', { char: tommy })).id;
    const C = (await ok(gm, 'enc.add', { char: cole, side: 'guards' })).id;
    const stats = `/gm/enc/combatants/${C}/stats`;
    await ok(gm, 'enc.set', { path: `${stats}/abilities/muscle`, value: v.muscle });
    await ok(gm, 'enc.set', { path: `${stats}/skills/athletics`, value: v.athletics });
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${C}/note`, value: v.notes });
    const act = (who, action, actor, params) => ok(who, 'enc.act', { action, ...(actor ? { actor } : {}), ...(params ? { params } : {}) });
    await act(gm, 'begin');
    await act(p.Bob, 'attack', T, { target: C, weapon: 'Brass knuckles', restrain: true });
    await act(p.Ann, 'wait', V);
    await act(gm, 'break_free', C);
  },
};
