// tenacity.spotlight: an NPC's help (issue 30's closing list, "Secrecy to judge"). An NPC's skill
// names are the GM's (rules/RULES.md, "What the table sees (tenacity)"), so the skill an NPC helps
// with is too. Varied: the skill the goblin helps the orc with, and then Missa with; the orc's
// sprint and Missa's sprint take the help's advantage die. The table reads that the goblin helps.
import { sample } from '../enc_lib.mjs';

export const scenario = {
  name: 'tenacity.spotlight (an NPC helps, with a skill the GM keeps)',
  system: 'tenacity',
  seed: 4,
  players: ['Ann'],
  variants: [{ skill: 'Stealth' }, { skill: 'Athletics' }],
  async script({ gm, p, act, char, ok }, v) {
    const missa = await char(p.Ann, { name: 'Missa', sheet: sample('tenacity', 'missa') });
    await ok(gm, 'enc.start', { module: 'tenacity.spotlight' });
    const eM = (await ok(gm, 'enc.add', { char: missa })).id;
    const eG = (await ok(gm, 'enc.add', { npc: { name: 'Goblin' } })).id;
    const eO = (await ok(gm, 'enc.add', { npc: { name: 'Orc', side: 'foes' } })).id;
    await ok(gm, 'enc.add', { npc: { name: 'Friendly Scout', side: 'party' } });
    await act(gm, 'initiative');
    await act(gm, 'spotlight', { target: eG });
    await act(gm, 'help', { target: eO, skill: v.skill }, eG);
    await act(gm, 'spotlight', { target: eO });
    await act(gm, 'sprint', undefined, eO);
    await act(gm, 'spotlight', { target: 'e4' });
    await act(gm, 'help', { target: eM, skill: v.skill }, 'e4');
    await act(gm, 'spotlight', { target: eM });
    await act(p.Ann, 'sprint', undefined, eM);
  },
};
