// cot sessions (000:237; rules/RULES.md "Social Calls", reading 17): the GM begins a session, Ann
// alters one of Vera's Loyalties at its beginning, the first scene (a Social Call with an NPC)
// closes the window, and the GM alters one of the NPC's Loyalties in the call (000:237, 000:271).
// Varied: the NPC's hidden Loyalties (the GM's); no player may tell the runs apart.
import { sample } from '../enc_lib.mjs';

const COUNTESS = (loyalties) => ({
  name: 'The Countess',
  abilities: { muscle: 1, fingers: 1, brains: 2, it: 2 },
  skills: { size_up: 1 },
  loyalties,
});

export const scenario = {
  name: 'cot session',
  system: 'cot',
  seed: 11,
  players: ['Ann', 'Bob'],
  variants: [
    [{ kind: 'Devoted', target: 'Husband Karl', prime: true }, { kind: 'Hatred', target: 'Germans' }],
    [{ kind: 'Desire', target: 'The Crown Jewels', prime: true }, { kind: 'Hatred', target: 'Rivals' }],
  ],
  async script({ gm, p, char, ok, act }, loyalties) {
    const vera = await char(p.Ann, {
      name: 'Vera Lockhart',
      sheet: { ...sample('cot', 'vera_lockhart'), loyalties: [{ kind: 'Devoted', target: 'Crew', prime: true }, { kind: 'Hated', target: 'Police' }] },
    });
    await char(p.Bob, { name: 'Big Tommy Rourke', sheet: sample('cot', 'big_tommy_rourke') });
    const countess = await char(gm, { name: 'The Countess', sheet: COUNTESS(loyalties), npc: true });
    await ok(gm, 'session.begin', {});
    await ok(p.Ann, 'session.alter', { char: vera, loyalty: 2, prime: true });
    await ok(gm, 'enc.start', { module: 'cot.social' });
    await ok(gm, 'enc.add', { char: vera });
    const N = (await ok(gm, 'enc.add', { char: countess, side: 'foes' })).id;
    await act(gm, 'identity', { target: N, identity: 'Countess Orlova' });
    await act(gm, 'alter', { loyalty: 2, to: 'Desire: Vengeance' }, N); // not the Prime (000:237)
    await ok(gm, 'enc.end', {});
    await ok(gm, 'session.begin', {});
  },
};
