// fivey.between through the real server (issue 17; rulebook 004, rules/RULES.md "Between the
// scenes (module fivey.between)"): an evening between the scenes — a day's hex travel with its
// encounter checks (004:519-533), the night's rest actions (004:549-560), a downtime round with
// lifestyles and activities (004:562-639), inspiration cashed in and a level-up (004:385-402) —
// checking the sheets after each step and after a kill -9 restart; the refusals change nothing;
// no /gm byte reaches a player; the log replays to the live state. Seed 4; every expected number
// is computed from the dice the server logged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const values = (entry) => (entry.dice || []).map((d) => d.value);

test('fivey between the scenes: travel, rest, downtime and a level-up land on the sheets and survive kill -9', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '4'] });
  const { gm, players, campaignId, gmToken } = await campaignOf(srv, t, 'fivey');
  const [ann, bob] = players;
  const brunhild = await makeChar(ann.client, { name: 'Brunhild', sheet: sample('fivey', 'brunhild') });
  const vesper = await makeChar(bob.client, { name: 'Vesper', sheet: sample('fivey', 'vesper') });
  await ok(gm, 'enc.start', { module: 'fivey.between' });
  const eB = (await ok(gm, 'enc.add', { char: brunhild })).id;
  const eV = (await ok(gm, 'enc.add', { char: vesper })).id;
  const act = (c, action, params, actor) => ok(c, 'enc.act', { action, params, ...(actor ? { actor } : {}) });
  let s = await settle(gm, players);
  assert.deepEqual([s.enc.day, s.enc.hours, s.enc.limit, s.enc.site], [1, 0, 12, 0]);

  // ---- the day: three hexes of 4 hours, the x-in-20 check each (004:519-533) ----
  await refused(ann.client, 'enc.act', { action: 'travel' }, 'forbidden', /GM/);
  for (let i = 1; i <= 3; i++) {
    const r = await act(gm, 'travel');
    const e = r.log.find((x) => x.action === 'travel');
    const [d20] = values(e);
    assert.equal(e.result.encounter, d20 <= 4, `a ${d20} on a 4-in-20 check`);
    s = await settle(gm, players);
    assert.equal(s.enc.hours, 4 * i);
  }
  await refused(gm, 'enc.act', { action: 'travel', params: { road: 1 } }, 'rule', /only 0 of today's travel time/);

  // ---- the night: Vesper recovers 1d6 + 2 of her 3 damage; Brunhild attunes (004:553-554) ----
  const rr = await act(bob.client, 'rest', { action: 'recover' }, eV);
  const heal = values(rr.log[0])[0] + 2;
  s = await settle(gm, players);
  assert.equal(s.chars[vesper].sheet.hp.damage, Math.max(0, 3 - heal), 'the healing lands on the sheet');
  await refused(bob.client, 'enc.act', { action: 'rest', actor: eV, params: { action: 'cook' } }, 'rule', /already taken tonight/);
  await refused(ann.client, 'enc.act', { action: 'rest', actor: eB, params: { action: 'practice' } }, 'rule', /as many as the level/);
  await act(ann.client, 'rest', { action: 'attune', item: 'Masonry toolkit' }, eB);
  s = await settle(gm, players);
  assert.equal(s.chars[brunhild].sheet.attuned, 'Masonry toolkit');
  await act(gm, 'new_day');
  s = await settle(gm, players);
  assert.deepEqual([s.enc.day, s.enc.hours, s.enc.rested.length], [2, 0, 0]);

  // ---- downtime (004:562-639): Brunhild carouses (modest, 20 crowns) for 1d20 + STR 3 experience ----
  await refused(ann.client, 'enc.act', { action: 'downtime', actor: eB, params: { lifestyle: 'comfortable', activity: 'study', stat: 'int' } }, 'rule', /has 20 crowns/);
  const cr = await act(ann.client, 'downtime', { lifestyle: 'modest', activity: 'carouse', stat: 'str' }, eB);
  const ce = cr.log.find((x) => x.action === 'downtime');
  const [event] = values(ce);
  const rolls = values(ce).slice(1);
  const kept = event >= 16 ? Math.max(...rolls) : event <= 5 ? Math.min(...rolls) : rolls[0];
  assert.equal(rolls.length, event >= 16 || event <= 5 ? 2 : 1, 'a good or bad event rolls two d20');
  s = await settle(gm, players);
  assert.equal(s.chars[brunhild].sheet.crowns, 0, 'the lifestyle is paid');
  assert.equal(s.chars[brunhild].sheet.xp, 100 + kept + 3, 'the experience lands on the sheet');
  await refused(ann.client, 'enc.act', { action: 'downtime', actor: eB, params: { lifestyle: 'squalid', activity: 'beg' } }, 'rule', /already taken this tennite/);

  // ---- Vesper: leftover inspiration into experience, keeping her level's 2 dice (004:402) ----
  const ci = await act(bob.client, 'cash_in', {}, eV);
  const gained = values(ci.log[0]).sort((a, b) => b - a).slice(0, 2).reduce((a, b) => a + b, 0);
  s = await settle(gm, players);
  assert.equal(s.chars[vesper].sheet.xp, 340 + gained);
  assert.equal(s.chars[vesper].sheet.inspiration, 0);
  await act(gm, 'tennite');
  s = await settle(gm, players);
  assert.equal(s.chars[vesper].sheet.inspiration, 2, 'a tennite restores inspiration to the level');
  assert.equal(s.enc.day, 12, 'a tennite is ten days on the campaign clock (004:564)');

  // ---- a level-up (004:385-399): Brunhild has 300 experience after the GM's award ----
  await refused(ann.client, 'enc.act', { action: 'level_up', actor: eB, params: { stat: 'str' } }, 'rule', /level 2 needs 300/);
  await refused(ann.client, 'enc.act', { action: 'award', params: { target: eB, xp: 200 } }, 'forbidden', /GM/);
  await act(gm, 'award', { target: eB, xp: 300 - s.chars[brunhild].sheet.xp });
  s = await settle(gm, players);
  assert.equal(s.chars[brunhild].sheet.xp, 300, 'the award lands on the sheet');
  await act(ann.client, 'level_up', { stat: 'str' }, eB);
  s = await settle(gm, players);
  assert.equal(s.chars[brunhild].sheet.level, 2);
  assert.equal(s.chars[brunhild].sheet.hp.max, 14, '9 + 4, +1 Battle-Hardened (004:337, issue 25)');
  assert.equal(s.chars[brunhild].sheet.stats.str, 4);

  // ---- the site clock (004:547) ----
  await act(gm, 'enter');
  const st = await act(gm, 'site_turn');
  const [d20] = values(st.log[0]);
  s = await settle(gm, players);
  assert.equal(s.enc.site, d20 <= 1 ? 1 : 2);

  // ---- kill -9: everything acknowledged is still there, and the evening goes on ----
  assertNoGmBytes(players);
  await gm.ping();
  const before = structuredClone(gm.state);
  await srv.restart();
  const [gm2, w] = await srv.hello(gmToken);
  t.after(() => gm2.close());
  assert.deepEqual(w.state.chars, before.chars, 'the sheets survive kill -9');
  assert.deepEqual(w.state.enc, before.enc, 'the clocks survive kill -9');
  assert.equal(w.state.chars[brunhild].sheet.level, 2);
  await ok(gm2, 'enc.act', { action: 'new_day' });
  await gm2.ping();
  assert.equal(gm2.state.enc.day, 13);
  await ok(gm2, 'enc.end', {});

  await gm2.ping();
  const [zero] = srv.replay({ campaign: campaignId, fromZero: true });
  assert.equal(zero.seq, gm2.seq);
  assert.deepEqual(zero.state, gm2.state);
});
