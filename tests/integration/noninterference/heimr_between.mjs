// heimr.between: everything the module does is public (a sheet is public), so what is the GM's
// is an NPC in the scene and what the GM does to it. Varied: the hit points of Gunnar, an NPC of
// /gm/npcs, set by the GM with enc.set (written to his GM-only sheet at once), and a GM note.
// He is not a player's character: the XP split and the rest leave him out either way (001:217).
import { sample } from '../enc_lib.mjs';

export const scenario = {
  name: 'heimr.between',
  system: 'heimr',
  seed: 6,
  players: ['Ann', 'Bob'],
  variants: [
    { hp: 4, note: 'Gunnar lies about the road' },
    { hp: -3, note: 'Gunnar tells the truth' },
  ],
  async script({ gm, p, act, char, ok }, v) {
    const astrid = await char(p.Ann, { name: 'Astrid', sheet: sample('heimr', 'astrid_ironhand') });
    const lies = await char(p.Bob, { name: 'Liesbeth', sheet: sample('heimr', 'liesbeth_van_dam') });
    const g = await char(gm, { name: 'Gunnar', sheet: sample('heimr', 'old_gunnar'), npc: true });
    await ok(gm, 'enc.start', { module: 'heimr.between' });
    const eA = (await ok(gm, 'enc.add', { char: astrid })).id;
    await ok(gm, 'enc.add', { char: lies });
    const eG = (await ok(gm, 'enc.add', { char: g })).id;
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${eG}/stats/hp`, value: v.hp });
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${eG}/note`, value: v.note });
    await act(gm, 'award', { xp: 7 });
    await act(gm, 'rest_all');
    await act(p.Ann, 'cross', { cr: 4 }, eA);
    await ok(gm, 'enc.end', {});
    await ok(gm, 'enc.start', { module: 'heimr.between' });
    await ok(gm, 'enc.add', { char: astrid });
    await ok(gm, 'enc.add', { char: lies });
    await act(gm, 'award', { xp: 3 }); // with the XP kept from the first split
    await ok(gm, 'enc.end', {});
  },
};
