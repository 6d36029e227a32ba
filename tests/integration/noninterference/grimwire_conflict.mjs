// grimwire.conflict: what a player sees of Scrapper and of the GM's hidden target numbers (002:53).
// Varied: the target number to hit him and the one to evade him (every hit, miss and evasion is
// the same), his PER (he still acts last), his notes, and the target number of an assisted check
// the GM rolls openly: one helper's roll beats one of them and not the other, the highest roll
// succeeds against both.
import { sample } from '../enc_lib.mjs';

const scrapper = (v) => ({
  name: 'Scrapper',
  level: 2,
  xp: 25,
  attributes: { tog: 3, agl: 0, cor: 2, mnd: -1, per: v.per, rsn: 0 },
  condition: { current: 15, max: 15 },
  focus: { current: 0, max: 2 },
  armor: 1,
  weapons: [{ name: 'Rivet-cleaver', kind: 'heavy', damage: '1d8', tog_req: 2 }],
  notes: v.notes,
});

export const scenario = {
  name: 'grimwire.conflict',
  system: 'grimwire',
  seed: 2,
  players: ['Ann', 'Bob'],
  variants: [
    { tn: 12, attack_tn: 13, per: 1, notes: 'hates salt', assist_tn: 8 },
    { tn: 11, attack_tn: 14, per: 2, notes: 'hates sugar', assist_tn: 12 },
  ],
  async script({ gm, p, char, ok, act: ctxAct }, v) {
    const cy = await char(p.Ann, { name: 'Cyrus', sheet: sample('grimwire', 'cyrus') });
    const au = await char(p.Bob, { name: 'Aune', sheet: sample('grimwire', 'aune') });
    const sc = await char(gm, { name: 'Scrapper', sheet: scrapper(v), npc: true });
    await ok(gm, 'enc.start', { module: 'grimwire.conflict' });
    const CY = (await ok(gm, 'enc.add', { char: cy })).id;
    const AU = (await ok(gm, 'enc.add', { char: au })).id;
    const SC = (await ok(gm, 'enc.add', { char: sc })).id;
    // through the harness's act: after each action every player asks for its moves too
    const act = (who, action, actor, params) => ctxAct(who, action, params, actor);
    await act(gm, 'set_tn', null, { target: SC, tn: v.tn, attack_tn: v.attack_tn });
    await act(gm, 'begin');
    await act(p.Ann, 'attack', CY, { target: SC, weapon: 2 });
    await act(p.Ann, 'attack', CY, { target: SC, weapon: 2 });
    await act(p.Ann, 'end_turn', CY);
    await act(gm, 'move', SC);
    await act(p.Ann, 'reaction', CY, { name: 'Kneecap', focus: 1, target: SC });
    await act(gm, 'attack', SC, { target: CY });
    await act(gm, 'end_turn', SC);
    await ok(gm, 'roll.check', { check: 'assist', params: { attr: 2, attr2: 1, tn: v.assist_tn } });
  },
};
