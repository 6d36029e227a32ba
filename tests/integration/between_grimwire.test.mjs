// grimwire.between through the real server (issue 17; rulebook 002_c1f3df0ad7b1e31f.txt, cited
// 002:LINE): days between the scenes. Cyrus (Ann) rests, gets the XP for level 3 and its rewards
// (002:262-298), learns a technique with his new learning hours (002:306-314) and readies it on a
// long rest (002:302-304); VEX-9 (Bob) eases its burnout on a long rest (002:252) and then goes a
// day without maintenance (002:237, 002:240); Aune (Bob) builds a lockpick set (002:336-364) and
// never sleeps, so the third day without a rest burns her out (002:228). The sheets are checked
// after every step and after a kill -9 restart, where the days keep counting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const sheetOf = (s, id) => s.chars[id].sheet;

test('grimwire.between: rests, a level, learning, crafting, days and burnout, and a kill -9', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '17'] });
  const { gm, players, gmToken } = await campaignOf(srv, t, 'grimwire');
  const [ann, bob] = players;
  const cyrus = await makeChar(ann.client, { name: 'Cyrus', sheet: sample('grimwire', 'cyrus') });
  const aune = await makeChar(bob.client, { name: 'Aune', sheet: sample('grimwire', 'aune') });
  const vex = await makeChar(bob.client, { name: 'VEX-9', sheet: sample('grimwire', 'vex9') });

  await ok(gm, 'enc.start', { module: 'grimwire.between' });
  const C = (await ok(gm, 'enc.add', { char: cyrus })).id;
  const A = (await ok(gm, 'enc.add', { char: aune })).id;
  const V = (await ok(gm, 'enc.add', { char: vex })).id;
  const act = (who, action, actor, params) => ok(who, 'enc.act', { action, actor, params });
  const no = (who, action, actor, params, code, re) => refused(who, 'enc.act', { action, actor, params }, code, re);
  let s = await settle(gm, players);
  assert.equal(s.enc.day, 1);

  // ---- rests (002:208, 002:212, 002:252) ----
  await no(bob.client, 'short_rest', C, {}, 'forbidden', /not your character/);
  await act(ann.client, 'short_rest', C); // Condition 14 + 20% of 16 (3) = 16, Focus 6 + 4 = 8
  s = await settle(gm, players);
  assert.deepEqual(sheetOf(s, cyrus).condition, { current: 16, max: 16 });
  assert.deepEqual(sheetOf(s, cyrus).focus, { current: 8, max: 8 });
  const vr = await act(bob.client, 'long_rest', V); // burnout 2 -> 1 lifts the 80% cap
  assert.match(vr.log[0].text, /burnout eases to 1/);
  s = await settle(gm, players);
  assert.equal(sheetOf(s, vex).burnout, 1);
  assert.equal(sheetOf(s, vex).condition.current, 22); // 17 + 11, the max
  assert.equal(sheetOf(s, vex).focus.current, 5); // 002:200: -2 + 7
  await no(bob.client, 'long_rest', V, {}, 'rule', /one a day/);

  // ---- XP and level 3 (002:264, 002:274) ----
  await no(ann.client, 'award', undefined, { xp: 25, target: C }, 'forbidden', /only the GM/);
  await no(ann.client, 'level_up', C, { raise: 'cor' }, 'rule', /needs 60 XP; Cyrus has 35/);
  await act(gm, 'award', undefined, { xp: 25, target: C });
  await act(ann.client, 'level_up', C, { raise: 'cor' });
  s = await settle(gm, players);
  let cs = sheetOf(s, cyrus);
  assert.equal(cs.level, 3);
  assert.equal(cs.xp, 60);
  assert.equal(cs.attributes.cor, 4);
  assert.deepEqual(cs.condition, { current: 16, max: 19 });
  assert.deepEqual(cs.focus, { current: 8, max: 11 });
  assert.equal(cs.learning_hours, 3 + 8);
  assert.equal(s.chars[cyrus].derived.next_level_xp, 120, 'derived values follow the sheet');

  // ---- learning (002:306-314) and exchanging on a long rest (002:302-304) ----
  await act(ann.client, 'learn', C, { technique: 'Quickdraw', attribute: 'cor', effort: 12 }); // 3 h x COR 4
  s = await settle(gm, players);
  assert.equal(sheetOf(s, cyrus).learning_hours, 8);
  assert.deepEqual(sheetOf(s, cyrus).learned, ['Quickdraw']);
  await no(ann.client, 'exchange', C, { take: 'Quickdraw' }, 'rule', /long rest first/);
  await act(ann.client, 'long_rest', C);
  await act(ann.client, 'exchange', C, { take: 'Quickdraw' }); // 11 / 2 = 5 slots, 2 used
  s = await settle(gm, players);
  cs = sheetOf(s, cyrus);
  assert.deepEqual(cs.techniques, ['Kneecap', 'Throwing Expert', 'Quickdraw']);
  assert.deepEqual(cs.learned, []);
  assert.deepEqual(cs.condition, { current: 19, max: 19 });
  assert.equal(cs.focus.current, 11);

  // ---- building (002:340-364): MND for a new kind of object, COR to assemble; the GM's numbers
  // (002:53) wait in /gm/enc and never reach a player ----
  await no(bob.client, 'craft', A, { item: 'Lockpick set', cor_tn: 2 }, 'forbidden', /only the GM/);
  await act(gm, 'set_build', undefined, { target: A, mnd_tn: 10, cor_tn: 10 });
  const craft = await act(bob.client, 'craft', A, { item: 'Lockpick set' });
  const c = craft.log.find((l) => l.action === 'craft');
  assert.equal(c.result.cor_tn, undefined, 'the public entry has no target number');
  assert.ok(!/against/.test(c.text), c.text);
  assert.deepEqual(c.dice.map((d) => d.sides), [20, 20]);
  const q = c.result.mnd_ok && c.result.cor_ok ? 'well made' : c.result.mnd_ok || c.result.cor_ok ? 'unstable' : 'failed';
  assert.equal(c.result.quality, q);
  s = await settle(gm, players);
  const as = sheetOf(s, aune);
  assert.equal((as.items ?? []).length, q === 'failed' ? 0 : 1);
  if (q === 'unstable') assert.equal(as.items[0].unstable_die, 20);
  assert.equal((as.blueprints ?? []).includes('Lockpick set'), c.result.mnd_ok);

  // ---- a fall of one story onto something soft: broken by itself, half of a d6 (002:485-497) ----
  const fall = await act(bob.client, 'fall', A, { stories: 1, soft: 1 });
  const fl = fall.log.find((l) => l.action === 'fall');
  assert.deepEqual(fl.dice.map((d) => d.sides), [6]);
  assert.equal(fl.result.broken, true);
  assert.equal(fl.result.damage, Math.floor(fl.dice[0].value / 2));
  s = await settle(gm, players);
  assert.equal(sheetOf(s, aune).condition.current, 12 - fl.result.damage);
  assert.ok(!(sheetOf(s, aune).status ?? []).includes('knocked_down'));

  // ---- the days (002:214, 002:228, 002:237-240) ----
  await no(ann.client, 'next_day', undefined, {}, 'forbidden', /only the GM/);
  await act(gm, 'cause', undefined, { target: V, cause: 'no_maintenance' });
  await act(gm, 'next_day'); // day 2: VEX-9's missed maintenance: burnout 2, the 80% cap
  s = await settle(gm, players);
  assert.equal(s.enc.day, 2);
  assert.equal(sheetOf(s, vex).burnout, 2);
  assert.equal(sheetOf(s, vex).condition.current, 17);
  assert.equal(s.enc.combatants[C].long_rest, false, 'a new day, new rests');
  await act(gm, 'cause', undefined, { target: V, cause: 'no_maintenance', on: 0 });
  await act(gm, 'next_day'); // day 3
  await act(gm, 'next_day'); // day 4: Aune's third day without a rest
  s = await settle(gm, players);
  assert.equal(s.enc.day, 4);
  assert.equal(sheetOf(s, aune).burnout, 1);
  assert.equal(sheetOf(s, cyrus).burnout ?? 0, 0);
  assert.equal(sheetOf(s, vex).burnout, 2);

  // ---- kill -9: the sheets and the days come back, and keep counting ----
  const before = JSON.stringify({ chars: s.chars, enc: s.enc });
  await srv.restart();
  const [gm2, w] = await srv.hello(gmToken);
  t.after(() => gm2.close());
  assert.equal(JSON.stringify({ chars: w.state.chars, enc: w.state.enc }), before);
  await ok(gm2, 'enc.act', { action: 'next_day' }); // day 5
  await gm2.ping();
  const s2 = gm2.state;
  assert.equal(s2.enc.day, 5);
  assert.equal(s2.chars[aune].sheet.burnout, 2);
  assert.equal(s2.chars[aune].sheet.condition.current, 9, '002:246 80% of 12');
  assert.equal(s2.chars[cyrus].sheet.burnout, 1, 'three days since his long rest on day 1');
  assert.equal(s2.chars[vex].sheet.burnout, 3);
  assert.equal(s2.chars[vex].sheet.condition.current, 11, '002:248 50% of 22');
  await ok(gm2, 'enc.end', {});
  await gm2.ping();
  assert.equal(gm2.state.chars[cyrus].sheet.level, 3, 'the sheets keep what happened');
  assertNoGmBytes(players);
});
