// grimwire.conflict: the GM's standing number for an NPC's attacks (issue 24 item 3). The GM gives
// the number once with Scrapper's attack, it stands as Scrapper's attack_tn, and the next attack is
// one tap. Varied: the number (1 or 2: Cyrus's AGL roll, d20 + 1, beats either unless it is a
// natural 1, which fails both), so every player must see the same frames: the same evasions, the
// same moves (the attack's number is the GM's field, never a player's).
import { sample } from '../enc_lib.mjs';

export const scenario = {
  name: 'grimwire.conflict: a standing number for an NPC',
  system: 'grimwire',
  seed: 2,
  players: ['Ann', 'Bob'],
  variants: [{ tn: 1 }, { tn: 2 }],
  async script({ gm, p, char, ok, act: ctxAct }, v) {
    const cy = await char(p.Ann, { name: 'Cyrus', sheet: sample('grimwire', 'cyrus') });
    const au = await char(p.Bob, { name: 'Aune', sheet: sample('grimwire', 'aune') });
    const sc = await char(gm, {
      name: 'Scrapper',
      npc: true,
      sheet: { name: 'Scrapper', level: 2, xp: 25, attributes: { tog: 3, agl: 0, cor: 2, mnd: -1, per: 1, rsn: 0 }, condition: { current: 15, max: 15 }, focus: { current: 0, max: 2 }, armor: 1 },
    });
    await ok(gm, 'enc.start', { module: 'grimwire.conflict' });
    const CY = (await ok(gm, 'enc.add', { char: cy })).id;
    const AU = (await ok(gm, 'enc.add', { char: au })).id;
    const SC = (await ok(gm, 'enc.add', { char: sc })).id;
    const act = (who, action, actor, params) => ctxAct(who, action, params, actor);
    const turn = async () => {
      await gm.ping();
      const e = gm.state.enc;
      return e.order[e.turn];
    };
    // the others end their turns until Scrapper's comes
    const untilScrapper = async () => {
      for (let cur = await turn(); cur !== SC; cur = await turn()) await act(cur === CY ? p.Ann : cur === AU ? p.Bob : gm, 'end_turn', cur);
    };
    await act(gm, 'begin');
    await untilScrapper();
    await act(gm, 'attack', SC, { target: CY, tn: v.tn, damage: '1d4' });
    await act(gm, 'end_turn', SC);
    await untilScrapper();
    await act(gm, 'attack', SC, { target: CY, damage: '1d4' }); // one tap: the number stands
  },
};
