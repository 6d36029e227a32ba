// tenacity.between: what a player sees of an NPC between the scenes (issue 23). Sister Vey, an NPC
// with a sheet, tends Brakka (Ann's character): the skill she tends with is on her GM-only sheet
// (varied by name, same rank), so it must not reach /enc/care or the log; then she works on a
// task and pilots (her Pilot rank varied: the pilot bonus and her total are hers), the GM heals
// her stress with an item and ends the scene (her stress varied: the table reads neither how
// much she had nor how much is left). Brakka's recovery from her care stays open: it is his.
import { sample } from '../enc_lib.mjs';

function vey(v) {
  const sheet = { ...sample('tenacity', 'odessa'), name: 'Sister Vey' };
  sheet.attributes = structuredClone(sheet.attributes);
  sheet.attributes[3].skills[0].name = v.skill; // Intellect 3d10, rank 2: one impact die
  sheet.attributes[1].skills[2].rank = v.pilot; // Dexterity 2d10: Pilot
  return sheet;
}

export const scenario = {
  name: 'tenacity.between (an NPC tends, works, pilots and rests)',
  system: 'tenacity',
  seed: 6,
  players: ['Ann'],
  variants: [
    { skill: 'Field Medicine', pilot: 4, stress: 2 },
    { skill: 'Herb Lore', pilot: 3, stress: 4 },
  ],
  async script({ gm, p, act, char, ok }, v) {
    const brakka = await char(p.Ann, { name: 'Brakka Vell', sheet: sample('tenacity', 'brakka') });
    const sv = await char(gm, { name: 'Sister Vey', sheet: vey(v), npc: true });
    await ok(gm, 'enc.start', { module: 'tenacity.between' });
    const eB = (await ok(gm, 'enc.add', { char: brakka })).id;
    const eV = (await ok(gm, 'enc.add', { char: sv })).id;
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${eV}/stats/stress/current`, value: v.stress });
    await act(gm, 'tend', { target: eB, skill: v.skill }, eV);
    await act(gm, 'advance');
    await act(gm, 'heal_item', { stress: 1 }, eV);
    await act(gm, 'task', { task: 'the cliff', need: 3, skill: 'Athletics', challenge_dice: 1 });
    await act(gm, 'work', { task: 'the cliff', skill: v.skill }, eV);
    await act(gm, 'pilot', { vehicle: 2 }, eV);
    await act(gm, 'scene_end');
  },
};
