// cot.chase: what a player sees of a constable who closes on Vera (000:169). Varied, after the
// slots and Cover are rolled: his Cover Score (the GM's, 000:146; a Close does not use it) and
// his notes. His chase pool does not vary: it decides whether he closes, which the table sees.
// (Distance 2: a Close to 0 would go on into a Takedown in the same turn, 000:169, issue 25.)
import { sample } from '../enc_lib.mjs';

const COP = (notes) => ({
  name: 'Constable Pike',
  abilities: { muscle: 3, fingers: 2, brains: 1, it: 1 },
  skills: { athletics: 2, resist: 1 },
  notes,
});

export const scenario = {
  name: 'cot.chase',
  system: 'cot',
  seed: 7,
  players: ['Ann', 'Bob'],
  variants: [
    { cover: 4, notes: 'on the take' },
    { cover: 9, notes: 'honest to a fault' },
  ],
  async script({ gm, p, char, ok }, v) {
    const vera = await char(p.Ann, { name: 'Vera Lockhart', sheet: sample('cot', 'vera_lockhart') });
    const pike = await char(gm, { name: 'Constable Pike', sheet: COP(v.notes), npc: true });
    await ok(gm, 'enc.start', { module: 'cot.chase', options: { target_side: 'party', distance: 2 } });
    const V = (await ok(gm, 'enc.add', { char: vera })).id;
    const P = (await ok(gm, 'enc.add', { char: pike, side: 'law' })).id;
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${P}/stats/cover`, value: v.cover });
    const act = (who, action, actor, params) => ok(who, 'enc.act', { action, ...(actor ? { actor } : {}), ...(params ? { params } : {}) });
    await act(gm, 'begin');
    await act(gm, 'close', P, { target: V });
    await act(p.Ann, 'accelerate', V);
  },
};
