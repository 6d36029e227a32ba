// grimwire.conflict: the damage the GM deals an NPC by hand (issue 23). How much it was, with the
// NPC's hidden Condition, armor and traits, tells how hurt it is: the amount is the GM's; the table
// reads that the GM dealt damage (and its type). Varied: the amount (3 or 5; the NPC stands either
// way), so every player must see the same frames.
import { sample } from '../enc_lib.mjs';

export const scenario = {
  name: 'grimwire.conflict: the GM deals an NPC damage',
  system: 'grimwire',
  seed: 2,
  players: ['Ann'],
  variants: [{ amount: 3 }, { amount: 5 }],
  async script({ gm, p, char, ok, act: ctxAct }, v) {
    const cy = await char(p.Ann, { name: 'Cyrus', sheet: sample('grimwire', 'cyrus') });
    const brute = await char(gm, {
      name: 'Brute',
      npc: true,
      sheet: { name: 'Brute', level: 1, xp: 0, attributes: { tog: 2, agl: 0, cor: 1, mnd: 0, per: 0, rsn: 0 }, condition: { current: 14, max: 14 }, focus: { current: 0, max: 2 }, armor: 1 },
    });
    await ok(gm, 'enc.start', { module: 'grimwire.conflict' });
    await ok(gm, 'enc.add', { char: cy });
    const BR = (await ok(gm, 'enc.add', { char: brute })).id;
    // through the harness's act: after each action every player asks for its moves too
    const act = (who, action, actor, params) => ctxAct(who, action, params, actor);
    await act(gm, 'begin');
    await act(gm, 'damage', null, { target: BR, amount: v.amount, type: 'blunt' });
    await act(gm, 'damage', null, { target: BR, amount: v.amount });
  },
};
