// fivey.between: the day, travel, the site clock and downtime are public, so what is the GM's is
// an NPC in the scene and what the GM does to it. Varied: the crowns and experience of Sylla, an
// NPC of /gm/npcs, set by the GM with enc.set (written to her GM-only sheet at once), and a GM
// note; the GM then awards her experience (the same amount: her total is hers to know, issue 27
// item 12) and has her beg through a tennite (what she ends with is hers to know too: an NPC's
// numbers are the GM's, issue 23); the GM sets her institution's capital (nothing to offer, or a
// large one's 100 crowns of credit) and a tennite passes: whether she has an institution at all
// is the GM's (issue 25 item 21); the clocks carry over a second scene either way.
import { sample } from '../enc_lib.mjs';

export const scenario = {
  name: 'fivey.between',
  system: 'fivey',
  seed: 5,
  players: ['Ann'],
  variants: [
    { crowns: 5, xp: 10, note: 'Sylla is a spy', capital: 0 },
    { crowns: 500, xp: 250, note: 'Sylla is a friend', capital: 400 },
  ],
  async script({ gm, p, act, char, ok }, v) {
    const brunhild = await char(p.Ann, { name: 'Brunhild', sheet: sample('fivey', 'brunhild') });
    const s = await char(gm, { name: 'Sylla', sheet: sample('fivey', 'sylla'), npc: true });
    await ok(gm, 'enc.start', { module: 'fivey.between' });
    let eB = (await ok(gm, 'enc.add', { char: brunhild })).id;
    const eS = (await ok(gm, 'enc.add', { char: s })).id;
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${eS}/stats/crowns`, value: v.crowns });
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${eS}/stats/xp`, value: v.xp });
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${eS}/note`, value: v.note });
    await act(gm, 'award', { target: eS, xp: 20 });
    await act(gm, 'downtime', { lifestyle: 'squalid', activity: 'beg', event: 0 }, eS);
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${eS}/institution/capital`, value: v.capital });
    await act(gm, 'tennite');
    await act(gm, 'travel');
    await act(gm, 'enter');
    await act(gm, 'site_turn');
    await act(p.Ann, 'rest', { action: 'cook' }, eB);
    await ok(gm, 'enc.end', {});
    await ok(gm, 'enc.start', { module: 'fivey.between' });
    eB = (await ok(gm, 'enc.add', { char: brunhild })).id;
    await act(gm, 'site_turn');
    await act(gm, 'new_day');
    await ok(gm, 'enc.end', {});
  },
};
