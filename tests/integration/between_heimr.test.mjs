// heimr.between through the real server (issue 17; rulebook 001_660a93111b0de833.txt, cited
// 001:LINE): an evening between the scenes. Astrid Ironhand (Ann) comes out of a fight with 2 of
// 6 hit points, Liesbeth van Dam (Bob) unhurt, Old Gunnar (Bob) bloodied. A short rest (001:149,
// 001:164), the GM's XP split among the three present with the remainder kept (001:217), training
// with that XP (001:219-232), a window to climb through (001:494) and a jump down (001:521). The
// sheets are checked after every step, and again after a kill -9 restart, where the kept XP still
// counts in the next award.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const sheetOf = (s, id) => s.chars[id].sheet;
const ability = (sheet, name) => sheet.abilities.find((a) => a.name === name);

test('heimr.between: rest, XP split with the remainder kept, training, a crossing and a jump, and a kill -9', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '17'] });
  const { gm, players, gmToken } = await campaignOf(srv, t, 'heimr');
  const [ann, bob] = players;
  const astrid = await makeChar(ann.client, { name: 'Astrid Ironhand', sheet: { ...sample('heimr', 'astrid_ironhand'), hp: 2 } });
  const lies = await makeChar(bob.client, { name: 'Liesbeth van Dam', sheet: sample('heimr', 'liesbeth_van_dam') });
  const gunnar = await makeChar(bob.client, { name: 'Old Gunnar', sheet: sample('heimr', 'old_gunnar') });

  await ok(gm, 'enc.start', { module: 'heimr.between' });
  const A = (await ok(gm, 'enc.add', { char: astrid })).id;
  const L = (await ok(gm, 'enc.add', { char: lies })).id;
  const G = (await ok(gm, 'enc.add', { char: gunnar })).id;
  const act = (who, action, actor, params) => ok(who, 'enc.act', { action, actor, params });
  const no = (who, action, actor, params, code, re) => refused(who, 'enc.act', { action, actor, params }, code, re);

  // ---- short rest (001:149): HP to the maximum; bloodied can't (001:164) ----
  await no(bob.client, 'rest', A, {}, 'forbidden', /not your character/);
  const rest = await act(ann.client, 'rest', A);
  assert.match(rest.log[0].text, /Astrid Ironhand takes a short rest/);
  let s = await settle(gm, players);
  assert.equal(sheetOf(s, astrid).hp, 6);
  await no(bob.client, 'rest', G, {}, 'rule', /injured .* cannot take a short rest/);
  assert.equal(sheetOf(await settle(gm, players), gunnar).hp, -1);

  // ---- XP: 10 among the three present, 3 each, 1 kept (001:217) ----
  await no(ann.client, 'award', undefined, { xp: 10 }, 'forbidden', /only the GM/);
  const award = await act(gm, 'award', undefined, { xp: 10 });
  assert.deepEqual(award.log[0].result, { xp: 10, carried_in: 0, present: 3, each: 3, carried: 1 });
  s = await settle(gm, players);
  assert.equal(sheetOf(s, astrid).xp, 4 + 3);
  assert.equal(sheetOf(s, lies).xp, 12 + 3);
  assert.equal(sheetOf(s, gunnar).xp, 3);
  assert.equal(s.enc.xp_carry, 1);

  // ---- training (001:219-223 the cost; 001:227-232 attribute progress) ----
  // Agility consistency 1 -> 2 costs 10; Astrid has 7
  await no(ann.client, 'train', A, { ability: 'Agility', kind: 'consistency' }, 'rule', /costs 10 XP; Astrid Ironhand has 7/);
  await act(ann.client, 'train', A, { ability: 'Brawl', kind: 'potential' }); // level 1: 5 XP
  s = await settle(gm, players);
  assert.equal(sheetOf(s, astrid).xp, 2);
  assert.equal(ability(sheetOf(s, astrid), 'Brawl').trained_potential, 1);
  assert.equal(sheetOf(s, astrid).attribute_progress.str, 3);
  assert.equal(s.chars[astrid].derived.abilities.find((a) => a.name === 'Brawl').potential, 3 + 1, 'derived values follow the sheet');
  await act(bob.client, 'train', L, { ability: 'Perception', kind: 'consistency' }); // level 2: 10 XP
  s = await settle(gm, players);
  assert.equal(sheetOf(s, lies).xp, 5);
  assert.equal(ability(sheetOf(s, lies), 'Perception').trained_consistency, 2);
  assert.deepEqual(sheetOf(s, lies).attribute_progress, { int: 1 });

  // ---- a window (CR 5, 001:494) and a jump down from height 3 (CR 6, 001:521) ----
  const fatigueBefore = sheetOf(s, lies).fatigue;
  const cross = await act(bob.client, 'cross', L, { cr: 5 });
  const cr = cross.log.find((l) => l.action === 'cross' && l.result);
  assert.equal(cr.result.cr, 5);
  assert.equal(cr.dice[0].sides, 6);
  s = await settle(gm, players);
  assert.equal(sheetOf(s, lies).fatigue, cr.result.fatigue);
  assert.ok(sheetOf(s, lies).fatigue >= fatigueBefore);
  assert.equal((sheetOf(s, lies).conditions ?? []).includes('prone'), !cr.result.success, '001:494 a failed crossing: prone');

  const jump = await act(ann.client, 'fall', A, { height: 3, jump: 1 });
  const j = jump.log.find((l) => l.action === 'fall' && l.result?.cr !== undefined);
  assert.equal(j.result.cr, 6, '001:521 two times the height');
  s = await settle(gm, players);
  const astridHp = j.result.success ? 6 : 0; // failed: 3 - 3 = 0 and the legs
  assert.equal(sheetOf(s, astrid).hp, astridHp);
  assert.equal((sheetOf(s, astrid).injuries ?? []).includes('right_leg'), !j.result.success);

  // ---- kill -9: every sheet and the kept XP come back ----
  const before = JSON.stringify({ chars: s.chars, enc: s.enc });
  await srv.restart();
  const [gm2, w] = await srv.hello(gmToken);
  t.after(() => gm2.close());
  assert.equal(JSON.stringify({ chars: w.state.chars, enc: w.state.enc }), before);
  // 2 + the 1 kept = 3 among three: 1 each, none kept
  const award2 = await ok(gm2, 'enc.act', { action: 'award', params: { xp: 2 } });
  assert.equal(award2.log[0].result.each, 1);
  await gm2.ping();
  assert.equal(gm2.state.enc.xp_carry, 0);
  assert.equal(gm2.state.chars[astrid].sheet.xp, 3);
  assert.equal(gm2.state.chars[gunnar].sheet.xp, 4);
  await ok(gm2, 'enc.end', {});
  await gm2.ping();
  assert.equal(gm2.state.enc, undefined);
  assert.equal(gm2.state.chars[lies].sheet.xp, 6, 'the sheets keep what happened');
  assertNoGmBytes(players);
});
