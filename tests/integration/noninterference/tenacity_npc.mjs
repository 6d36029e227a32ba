// tenacity.spotlight: what a player sees of an NPC's own rolls that no PC opposes (issue 23). Varied:
// the goblin's challenge bonus, set by the GM after initiative (its sprint adds its total to its
// movement: 9 spaces with bonus 0, 14 with bonus 5 under this seed, and the table must read
// neither), and its
// wounds when it tries to wake up (the challenge is 2d6 + 1d6 per wound: its size is the wounds).
// Missa's own sprint stays open.
import { sample } from '../enc_lib.mjs';

export const scenario = {
  name: 'tenacity.spotlight (an NPC sprints and wakes up)',
  system: 'tenacity',
  seed: 4,
  players: ['Ann'],
  variants: [
    { bonus: 0, wounds: 0 },
    { bonus: 5, wounds: 1 },
  ],
  async script({ gm, p, act, char, ok }, v) {
    const missa = await char(p.Ann, { name: 'Missa', sheet: sample('tenacity', 'missa') });
    await ok(gm, 'enc.start', { module: 'tenacity.spotlight' });
    const eM = (await ok(gm, 'enc.add', { char: missa })).id;
    const eG = (await ok(gm, 'enc.add', { npc: { name: 'Goblin' } })).id;
    await act(gm, 'initiative');
    const stat = (k, value) => ok(gm, 'enc.set', { path: `/gm/enc/combatants/${eG}/stats/${k}`, value });
    await stat('challenge_bonus', v.bonus);
    await act(gm, 'spotlight', { target: eM });
    await act(p.Ann, 'sprint', undefined, eM);
    await act(gm, 'spotlight', { target: eG });
    await act(gm, 'sprint', undefined, eG);
    // the goblin is knocked out (the GM's hand): it tries to wake up on its next turn
    await stat('challenge_bonus', 0);
    await stat('wounds/max', 1);
    await stat('wounds/current', v.wounds);
    await stat('unconscious', true);
    await act(gm, 'spotlight', { target: eG });
    await act(gm, 'recover', undefined, eG);
  },
};
