// grimwire.conflict's combat options (issue 17): what a player sees of the GM's numbers behind
// them. Varied: the target number to grab and shove the Scrapper (both land), the number to evade him (both
// evade), how much harder the GM makes his targeted attack (`raise`), the blast's AGL number (the
// same rolls pass), the number to stabilize him (both fail), his COR, 3 or 4 (the shield's roll beats
// it either way; both give two light-weapon attacks, a count the table sees in his budget) and his
// notes. His hidden burnout
// rises and falls with agony, and his opposed rolls (grapple, shield, trip) show only their dice
// and outcome.
import { sample } from '../enc_lib.mjs';

const scrapper = (v) => ({
  name: 'Scrapper',
  level: 2,
  xp: 25,
  attributes: { tog: 3, agl: 0, cor: v.cor, mnd: -1, per: 1, rsn: 0 },
  condition: { current: 15, max: 15 },
  focus: { current: 0, max: 2 },
  armor: 1,
  weapons: [{ name: 'Rivet-cleaver', kind: 'light', damage: '1d6' }],
  notes: v.notes,
});

export const scenario = {
  name: 'grimwire.conflict combat options',
  system: 'grimwire',
  seed: 2,
  players: ['Ann', 'Bob'],
  variants: [
    { tn: 8, attack_tn: 9, raise: 3, cor: 3, splash_tn: 10, stabilize_tn: 3, notes: 'hates salt' },
    { tn: 9, attack_tn: 10, raise: 1, cor: 4, splash_tn: 11, stabilize_tn: 4, notes: 'hates sugar' },
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
    await act(gm, 'begin'); // Cyrus, Scrapper, Aune
    await act(p.Ann, 'grapple', CY, { target: SC });
    await act(p.Ann, 'end_turn', CY);
    await act(gm, 'attack', SC, { target: CY, effect: 'sensory', raise: v.raise });
    await act(gm, 'end_turn', SC);
    await act(p.Bob, 'trip', AU, { target: SC });
    await act(p.Bob, 'end_turn', AU);
    // round 2: Cyrus shoves the Scrapper (the hidden number to land it); Aune shields Cyrus
    await act(p.Ann, 'shove', CY, { target: SC });
    await act(p.Ann, 'end_turn', CY);
    await act(p.Bob, 'shield', AU, { target: CY });
    await act(gm, 'attack', SC, { target: CY });
    await act(gm, 'end_turn', SC);
    await act(gm, 'splash', null, { who: `${CY},${AU}`, damage: '2d6', type: 'explosions', tn: v.splash_tn });
    await act(gm, 'status', null, { target: SC, name: 'agony' });
    await act(gm, 'status', null, { target: SC, name: 'agony', on: false });
    await act(gm, 'damage', null, { target: SC, amount: 16 });
    await act(gm, 'set_tn', null, { target: SC, stabilize_tn: v.stabilize_tn });
    await act(p.Bob, 'stabilize', AU, { target: SC, medkit: true });
  },
};
