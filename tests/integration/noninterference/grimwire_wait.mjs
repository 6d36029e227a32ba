// grimwire.conflict: a player's attack that waits for the GM's hidden target number (issue 15,
// item 5). Varied: the number the GM then names (5 or 6: Cyrus's 14 + COR 3 hits either), so every
// player must see the same frames: the wait, then the same hit.
import { sample } from '../enc_lib.mjs';

export const scenario = {
  name: 'grimwire.conflict: an attack waiting for the target number',
  system: 'grimwire',
  seed: 2,
  players: ['Ann', 'Bob'],
  variants: [{ tn: 5 }, { tn: 6 }],
  async script({ gm, p, char, ok, act: ctxAct }, v) {
    const cy = await char(p.Ann, { name: 'Cyrus', sheet: sample('grimwire', 'cyrus') });
    const au = await char(p.Bob, { name: 'Aune', sheet: sample('grimwire', 'aune') });
    const sc = await char(gm, {
      name: 'Scrapper',
      npc: true,
      sheet: { name: 'Scrapper', level: 2, xp: 25, attributes: { tog: 3, agl: 0, cor: 2, mnd: -1, per: 1, rsn: 0 }, condition: { current: 15, max: 15 }, focus: { current: 0, max: 2 }, armor: 1, weapons: [{ name: 'Rivet-cleaver', kind: 'heavy', damage: '1d8', tog_req: 2 }] },
    });
    await ok(gm, 'enc.start', { module: 'grimwire.conflict' });
    const CY = (await ok(gm, 'enc.add', { char: cy })).id;
    await ok(gm, 'enc.add', { char: au });
    const SC = (await ok(gm, 'enc.add', { char: sc })).id;
    // through the harness's act: after each action every player asks for its moves too
    const act = (who, action, actor, params) => ctxAct(who, action, params, actor);
    await act(gm, 'begin');
    await act(p.Ann, 'attack', CY, { target: SC, weapon: 2 });
    await act(gm, 'set_tn', null, { target: SC, tn: v.tn });
  },
};
