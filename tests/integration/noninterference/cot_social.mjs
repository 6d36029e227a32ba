// cot.social (000:224-271): what a player sees of a Social Call with two NPCs. Vera reads the
// room on the Countess (her identity, then her Loyalty 1) and the Countess, once she has read
// Vera, sets an agenda against her and builds her up. Varied: the Countess's other Loyalties
// (nobody reads them), the Baron's true identity (nobody reads him), the text of the Countess's
// agenda (the GM's: the table learns only that she set one, 000:258) and the GM's notes. The
// same dice are drawn in both runs.
import { sample } from '../enc_lib.mjs';
import { slotFor as slotOf } from '../cot_slots.mjs';

const COUNTESS = (loyalties) => ({
  name: 'The Countess',
  abilities: { muscle: 1, fingers: 1, brains: 2, it: 2 },
  skills: { size_up: 1, convince: 2 },
  loyalties,
});
const BARON = { name: 'The Baron', abilities: { muscle: 1, fingers: 1, brains: 1, it: 2 }, skills: { size_up: 1 } };

export const scenario = {
  name: 'cot.social',
  system: 'cot',
  seed: 12,
  players: ['Ann', 'Bob'],
  variants: [
    {
      loyalties: [{ kind: 'Devoted', target: 'Husband Karl', prime: true }, { kind: 'Hatred', target: 'Germans' }],
      baron: 'Baron von Trapp',
      agenda: 'Give up the crew',
      note: 'she owes the bank',
    },
    {
      loyalties: [
        { kind: 'Devoted', target: 'Husband Karl', prime: true },
        { kind: 'Desire', target: 'The Crown Jewels' },
        { kind: 'Fear', target: 'Her brother' },
      ],
      baron: 'A police informer',
      agenda: 'Steal the ledger for me',
      note: 'she is the fence',
    },
  ],
  async script(ctx, v) {
    const { gm, p, char, ok, act } = ctx;
    const vera = await char(p.Ann, { name: 'Vera Lockhart', sheet: sample('cot', 'vera_lockhart') });
    const ada = await char(p.Bob, { name: 'Professor Ada Quill', sheet: sample('cot', 'professor_ada_quill') });
    const countess = await char(gm, { name: 'The Countess', sheet: COUNTESS(v.loyalties), npc: true });
    const baron = await char(gm, { name: 'The Baron', sheet: BARON, npc: true });
    await ok(gm, 'enc.start', { module: 'cot.social' });
    const V = (await ok(gm, 'enc.add', { char: vera })).id;
    await ok(gm, 'enc.add', { char: ada });
    const C = (await ok(gm, 'enc.add', { char: countess, side: 'salon' })).id;
    const B = (await ok(gm, 'enc.add', { char: baron, side: 'salon' })).id;
    await act(gm, 'identity', { target: B, identity: v.baron });
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${C}/note`, value: v.note });
    await act(gm, 'begin');
    const slotFor = (cid) => slotOf(ctx, cid);
    await slotFor(V);
    await act(p.Ann, 'read_room', { target: C }, V);
    await slotFor(C);
    await act(gm, 'read_room', { target: V }, C);
    await act(gm, 'agenda', { target: V, text: v.agenda }, C);
    await slotFor(V);
    await act(p.Ann, 'read_room', { target: C, ask: 'loyalty', loyalty: 1 }, V);
    await slotFor(C);
    await act(gm, 'build_up', { target: V, skill: 'convince' }, C);
  },
};
