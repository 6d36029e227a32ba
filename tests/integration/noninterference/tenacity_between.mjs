// tenacity.between: the tasks, their progress and the care are public (rules/RULES.md), so what
// is the GM's is an NPC in the scene and what the GM does to it. Varied: the stress of Brakka, an
// NPC of /gm/npcs, set by the GM with enc.set (written to his GM-only sheet at once), and a GM
// note; the task and its progress carry over a second scene either way.
import { sample } from '../enc_lib.mjs';

export const scenario = {
  name: 'tenacity.between',
  system: 'tenacity',
  seed: 9,
  players: ['Ann'],
  variants: [
    { stress: 2, note: 'Brakka sells the charm on' },
    { stress: 9, note: 'Brakka keeps his word' },
  ],
  async script({ gm, p, act, char, ok }, v) {
    const missa = await char(p.Ann, { name: 'Missa', sheet: sample('tenacity', 'missa') });
    const b = await char(gm, { name: 'Brakka Vell', sheet: sample('tenacity', 'brakka'), npc: true });
    await ok(gm, 'enc.start', { module: 'tenacity.between' });
    let eM = (await ok(gm, 'enc.add', { char: missa })).id;
    const eB = (await ok(gm, 'enc.add', { char: b })).id;
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${eB}/stats/stress/current`, value: v.stress });
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${eB}/note`, value: v.note });
    await act(gm, 'task', { task: 'charm', kind: 'craft', need: 30, skill: 'Crafting', challenge_dice: 1 });
    await act(p.Ann, 'work', { task: 'charm' }, eM);
    await act(gm, 'advance');
    await ok(gm, 'enc.end', {});
    await ok(gm, 'enc.start', { module: 'tenacity.between' });
    eM = (await ok(gm, 'enc.add', { char: missa })).id;
    await act(p.Ann, 'work', { task: 'charm' }, eM);
    await ok(gm, 'enc.end', {});
  },
};
