// Progress between the scenes outlives enc.end, and the between scenes run on the campaign clock
// (issue 17, rules/RULES.md "Between the scenes: what carries over" and "... on the campaign
// clock"). For each system: a between scene makes progress that takes in-world time, ends, a
// fight runs, and a new between scene of the same module continues where the first stopped, the
// clock having moved by both; a kill -9 in the middle loses nothing. What the GM keeps secret (a
// build's target numbers) waits under /gm/between and never reaches a player.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, closeAll } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const HOUR = 3600;
const DAY = 24 * HOUR;

/** A fight of `rounds` rounds between the between scenes: the characters join, the GM moves the
 * round on (enc.set /enc/round, as a GM does when a fight was played out at the table), it ends.
 * Returns the campaign clock after it. */
async function fight(gm, players, module, chars, rounds) {
  await ok(gm, 'enc.start', { module });
  for (const char of chars) await ok(gm, 'enc.add', { char });
  await ok(gm, 'enc.add', { npc: { name: 'Thug' } });
  await ok(gm, 'enc.set', { path: '/enc/round', value: rounds });
  await ok(gm, 'enc.end', {});
  return (await settle(gm, players)).clock;
}

test('grimwire: the day, rests taken today, burnout causes and the GM\'s build numbers carry over a fight and a kill -9', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '17'] });
  const { gm, players, gmToken } = await campaignOf(srv, t, 'grimwire');
  const [ann, bob] = players;
  const cyrus = await makeChar(ann.client, { name: 'Cyrus', sheet: sample('grimwire', 'cyrus') });
  const aune = await makeChar(bob.client, { name: 'Aune', sheet: sample('grimwire', 'aune') });
  const act = (who, action, actor, params) => ok(who, 'enc.act', { action, actor, params });

  await ok(gm, 'enc.start', { module: 'grimwire.between' });
  let C = (await ok(gm, 'enc.add', { char: cyrus })).id;
  let A = (await ok(gm, 'enc.add', { char: aune })).id;
  await act(ann.client, 'long_rest', C); // 5 hours (002:212)
  let s = await settle(gm, players);
  assert.equal(s.clock.elapsed_s, 5 * HOUR, 'the long rest took 5 hours of the campaign clock');
  assert.equal(s.clock.scenes.enc.spent_s, 5 * HOUR);
  await act(gm, 'set_build', undefined, { target: A, mnd_tn: 11, cor_tn: 13 });
  await act(gm, 'cause', undefined, { target: A, cause: 'hunger' });
  await act(gm, 'next_day'); // to the start of day 2: hunger burns Aune out (002:240)
  s = await settle(gm, players);
  assert.equal(s.enc.day, 2);
  assert.equal(s.clock.elapsed_s, DAY, 'the next day begins at the day boundary of the clock');
  assert.equal(s.chars[aune].sheet.burnout, 1);
  await act(ann.client, 'short_rest', C); // 30 minutes (002:208), the first of today's two
  await ok(gm, 'enc.end', {});
  s = await settle(gm, players);
  assert.equal(s.enc, undefined);
  assert.equal(s.between['grimwire.between'].day, 2);
  assert.equal(s.between['grimwire.between'].chars[cyrus].short_rests, 1);
  assert.deepEqual(s.between['grimwire.between'].chars[aune].causes, ['hunger']);
  assert.deepEqual(s.gm.between['grimwire.between'].chars[aune].build, { mnd_tn: 11, cor_tn: 13 });
  assert.equal(ann.client.state.between['grimwire.between'].day, 2, 'the public half reaches the players');
  const ended = DAY + 30 * 60;
  assert.equal(s.clock.settled_s, ended);

  // ---- a fight of 4 rounds (24 seconds, 002:415) ----
  const clock = await fight(gm, players, 'grimwire.conflict', [cyrus, aune], 4);
  assert.equal(clock.elapsed_s, ended + 24);

  // ---- the next between scene continues ----
  await ok(gm, 'enc.start', { module: 'grimwire.between' });
  C = (await ok(gm, 'enc.add', { char: cyrus })).id;
  A = (await ok(gm, 'enc.add', { char: aune })).id;
  s = await settle(gm, players);
  assert.equal(s.enc.day, 2, 'still day 2, not a new day 1');
  assert.equal(s.clock.scenes.enc.start_s, ended + 24, 'it starts when the fight ended');
  assert.equal(s.enc.combatants[C].short_rests, 1, "Cyrus's short rest today counts");
  assert.deepEqual(s.enc.combatants[A].causes, ['hunger']);
  assert.deepEqual(s.gm.enc.combatants[A].build, { mnd_tn: 11, cor_tn: 13 }, 'the GM numbers wait under /gm');
  await act(ann.client, 'short_rest', C);
  await refused(ann.client, 'enc.act', { action: 'short_rest', actor: C }, 'rule', /two short rests today/);

  // ---- kill -9 in the middle ----
  await gm.ping();
  const before = structuredClone(gm.state);
  await srv.restart();
  const [gm2, w] = await srv.hello(gmToken);
  t.after(() => gm2.close());
  for (const k of ['enc', 'clock', 'between', 'chars']) assert.deepEqual(w.state[k], before[k], `${k} survives kill -9`);
  assert.deepEqual(w.state.gm.enc, before.gm.enc);
  const [bob2] = await srv.hello(players[1].token);
  t.after(() => bob2.close());
  // Aune builds with the numbers the GM set in the first scene: no new set_build needed
  const craft = await ok(bob2, 'enc.act', { action: 'craft', actor: A, params: { item: 'Lockpick set' } });
  const c = craft.log.find((l) => l.action === 'craft');
  assert.equal(c.result.cor_tn, undefined, 'the public entry has no target number');
  await ok(gm2, 'enc.act', { action: 'next_day' });
  await gm2.ping();
  assert.equal(gm2.state.enc.day, 3);
  assert.equal(gm2.state.clock.elapsed_s, 2 * DAY);
  assert.equal(gm2.state.enc.combatants[C].short_rests, 0, 'a new day, new rests');
  await ok(gm2, 'enc.end', {});
  await gm2.ping();
  assert.equal(gm2.state.between['grimwire.between'].day, 3);
  assert.equal(gm2.state.gm.between?.['grimwire.between']?.chars?.[aune]?.build, undefined, 'the numbers were for that build');
  await bob2.ping();
  assertNoGmBytes([...players, bob2], ['mnd_tn', 'cor_tn']);
});

test('heimr: the XP kept from a split carries over, a short rest takes 5 minutes', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '5'] });
  const { gm, players } = await campaignOf(srv, t, 'heimr');
  const [ann, bob] = players;
  const astrid = await makeChar(ann.client, { name: 'Astrid', sheet: sample('heimr', 'astrid_ironhand') });
  const lies = await makeChar(bob.client, { name: 'Liesbeth', sheet: sample('heimr', 'liesbeth_van_dam') });
  const gunnar = await makeChar(bob.client, { name: 'Gunnar', sheet: sample('heimr', 'old_gunnar') });
  const xp0 = (id) => gm.state.chars[id].sheet.xp ?? 0;

  await ok(gm, 'enc.start', { module: 'heimr.between' });
  for (const char of [astrid, lies, gunnar]) await ok(gm, 'enc.add', { char });
  let s = await settle(gm, players);
  const before = [astrid, lies, gunnar].map(xp0);
  await ok(gm, 'enc.act', { action: 'award', params: { xp: 10 } }); // 3 each, 1 kept (001:217)
  await ok(gm, 'enc.act', { action: 'rest_all' });
  s = await settle(gm, players);
  assert.equal(s.enc.xp_carry, 1);
  assert.equal(s.clock.elapsed_s, 5 * 60, 'a short rest is five minutes of the clock (001:149)');
  await ok(gm, 'enc.end', {});
  const clock = await fight(gm, players, 'heimr.combat', [astrid, lies], 3); // 3 two-second turns (001:238)
  assert.equal(clock.elapsed_s, 5 * 60 + 6);

  await ok(gm, 'enc.start', { module: 'heimr.between' });
  for (const char of [astrid, lies, gunnar]) await ok(gm, 'enc.add', { char });
  s = await settle(gm, players);
  assert.equal(s.enc.xp_carry, 1, 'the XP kept comes back');
  await ok(gm, 'enc.act', { action: 'award', params: { xp: 8 } }); // 8 + 1 = 9: 3 each, none kept
  s = await settle(gm, players);
  assert.equal(s.enc.xp_carry, 0);
  assert.deepEqual([astrid, lies, gunnar].map(xp0), before.map((x) => x + 6));
  // an option of the same name replaces what was kept (the GM's word)
  await ok(gm, 'enc.end', {});
  await ok(gm, 'enc.start', { module: 'heimr.between', options: { xp_carry: 2 } });
  s = await settle(gm, players);
  assert.equal(s.enc.xp_carry, 2);
  await ok(gm, 'enc.end', {});
  assertNoGmBytes(players);
});

test('tenacity: a craft in progress, the day count and a healer\'s care carry over; days follow the clock', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '3'] });
  const { gm, players, gmToken } = await campaignOf(srv, t, 'tenacity');
  const [ann, bob] = players;
  const ms = sample('tenacity', 'missa');
  ms.attributes[3].skills[3].rank = 2; // Medicine 2
  const missa = await makeChar(ann.client, { name: 'Missa', sheet: ms });
  const brakka = await makeChar(bob.client, { name: 'Brakka Vell', sheet: { ...sample('tenacity', 'brakka'), wounds: { current: 3, max: 5 }, recovery: 0 } });

  await ok(gm, 'enc.start', { module: 'tenacity.between' });
  let M = (await ok(gm, 'enc.add', { char: missa })).id;
  let B = (await ok(gm, 'enc.add', { char: brakka })).id;
  await ok(gm, 'enc.act', { action: 'task', params: { task: 'charm', kind: 'craft', need: 40, skill: 'Crafting', challenge_dice: 1 } });
  await ok(ann.client, 'enc.act', { action: 'work', actor: M, params: { task: 'charm' } });
  await ok(ann.client, 'enc.act', { action: 'tend', actor: M, params: { target: B, skill: 'Medicine' } });
  await ok(gm, 'enc.act', { action: 'advance' }); // day 1: the clock runs to the day's end
  let s = await settle(gm, players);
  assert.equal(s.enc.day, 1);
  assert.equal(s.clock.elapsed_s, DAY);
  const total = s.enc.tasks.charm.total;
  assert.deepEqual(s.enc.care[B], { by: M, skill: 'Medicine' });
  await ok(gm, 'enc.end', {});
  s = await settle(gm, players);
  assert.deepEqual(s.between['tenacity.between'].care, { [`char:${brakka}`]: { by: `char:${missa}`, skill: 'Medicine' } },
    'care names the characters, not the scene\'s combatant ids');

  const clock = await fight(gm, players, 'tenacity.spotlight', [missa, brakka], 2);
  assert.equal(clock.elapsed_s, DAY + 12);

  // the next scene adds the characters the other way round: new combatant ids, same people
  await ok(gm, 'enc.start', { module: 'tenacity.between' });
  B = (await ok(gm, 'enc.add', { char: brakka })).id;
  M = (await ok(gm, 'enc.add', { char: missa })).id;
  s = await settle(gm, players);
  assert.equal(s.enc.day, 1);
  assert.equal(s.enc.tasks.charm.total, total, 'the craft goes on from where it was');
  assert.deepEqual(s.enc.care[B], { by: M, skill: 'Medicine' }, 'Missa still cares for Brakka');
  const wounds = s.chars[brakka].sheet.wounds.current;

  await srv.restart(); // kill -9 in the middle
  const [gm2, w] = await srv.hello(gmToken);
  t.after(() => gm2.close());
  assert.deepEqual(w.state.between, s.between);
  assert.deepEqual(w.state.enc.care, s.enc.care);
  const adv = await ok(gm2, 'enc.act', { action: 'advance' }); // day 2: Missa rolls for Brakka
  assert.ok(adv.log.some((e) => e.action === 'care' && e.dice), 'the carried care rolls on the next day');
  await gm2.ping();
  assert.equal(gm2.state.enc.day, 2);
  assert.equal(gm2.state.clock.elapsed_s, 2 * DAY);
  assert.ok(gm2.state.chars[brakka].sheet.wounds.current <= wounds);
  await ok(gm2, 'enc.end', {});
  assertNoGmBytes(players);
});

test('fivey: the day, the hours travelled and the site clock carry over; a fight in a site raises the clock', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '4'] });
  const { gm, players } = await campaignOf(srv, t, 'fivey');
  const [ann, bob] = players;
  const brunhild = await makeChar(ann.client, { name: 'Brunhild', sheet: sample('fivey', 'brunhild') });
  const vesper = await makeChar(bob.client, { name: 'Vesper', sheet: sample('fivey', 'vesper') });

  await ok(gm, 'enc.start', { module: 'fivey.between' });
  let V = (await ok(gm, 'enc.add', { char: vesper })).id;
  await ok(gm, 'enc.add', { char: brunhild });
  await ok(gm, 'enc.act', { action: 'travel', params: { check: 0 } }); // 4 hours (004:521)
  await ok(bob.client, 'enc.act', { action: 'rest', actor: V, params: { action: 'cook' } });
  await ok(gm, 'enc.act', { action: 'enter' });
  let s = await settle(gm, players);
  assert.equal(s.clock.elapsed_s, 4 * HOUR);
  assert.equal(s.enc.site, 1);
  await ok(gm, 'enc.end', {});

  // a fight of 70 rounds in the site (700 s: 10-second rounds, the fivey reading) crosses a
  // 10-minute boundary of the clock: a site turn passes (004:543)
  const clock = await fight(gm, players, 'fivey.combat', [brunhild, vesper], 70);
  assert.equal(clock.elapsed_s, 4 * HOUR + 700);

  await ok(gm, 'enc.start', { module: 'fivey.between' });
  V = (await ok(gm, 'enc.add', { char: vesper })).id;
  await ok(gm, 'enc.add', { char: brunhild });
  s = await settle(gm, players);
  assert.deepEqual([s.enc.day, s.enc.hours, s.enc.site], [1, 4, 2], 'day 1, 4 hours travelled, the site clock raised by the turn');
  assert.deepEqual(s.enc.rested, [V], "Vesper's rest action tonight is used");
  await refused(bob.client, 'enc.act', { action: 'rest', actor: V, params: { action: 'cook' } }, 'rule', /already taken tonight/);
  await ok(gm, 'enc.act', { action: 'new_day' });
  s = await settle(gm, players);
  assert.deepEqual([s.enc.day, s.enc.hours, s.enc.rested.length], [2, 0, 0]);
  assert.equal(s.clock.elapsed_s, DAY);
  await ok(gm, 'enc.end', {});
  assertNoGmBytes(players);
});

test('a campaign saved with a between scene running (before progress outlived scenes) loads, acts and ends keeping its progress', async (t) => {
  const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
  const old = JSON.parse(fs.readFileSync(path.join(fixtures, 'between_running_v1.json'), 'utf8'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-between-'));
  fs.copyFileSync(path.join(fixtures, 'between_running_v1.db'), path.join(dir, 't.db'));
  const srv = await startServer(t, { dir, args: ['--seed', '5'] });
  const [gm, gw] = await srv.hello(old.gm_token);
  const [ann, aw] = await srv.hello(old.ann.token);
  t.after(() => closeAll(gm, ann));
  assert.equal(gw.seq, old.seq, 'opening it records nothing');
  assert.equal(gw.state.enc.module, 'grimwire.between');
  assert.equal(gw.state.enc.day, 2);
  assert.equal(gw.state.between, undefined);
  assert.equal(aw.state.gm, undefined);
  // it acts: today's second short rest, then no third
  await ok(ann, 'enc.act', { action: 'short_rest', actor: old.C });
  await refused(ann, 'enc.act', { action: 'short_rest', actor: old.C }, 'rule', /two short rests today/);
  let s = await settle(gm, [ann]);
  assert.equal(s.clock.elapsed_s, 30 * 60, 'its time on the clock starts where it stood');
  await ok(gm, 'enc.end', {});
  s = await settle(gm, [ann]);
  assert.equal(s.enc, undefined);
  assert.equal(s.between['grimwire.between'].day, 2);
  assert.equal(s.between['grimwire.between'].chars[old.cyrus].short_rests, 2);
  assert.deepEqual(s.gm.between['grimwire.between'].chars[old.aune].build, { mnd_tn: 9, cor_tn: 12 });
  // and the next between scene continues it
  await ok(gm, 'enc.start', { module: 'grimwire.between' });
  await ok(gm, 'enc.add', { char: old.aune });
  s = await settle(gm, [ann]);
  assert.equal(s.enc.day, 2);
  assert.deepEqual(s.gm.enc.combatants.e1.build, { mnd_tn: 9, cor_tn: 12 });
  const [zero] = srv.replay({ campaign: old.campaign, fromZero: true });
  assert.deepEqual(zero.state, s, 'replay == live');
  assertNoGmBytes([ann], ['mnd_tn', 'cor_tn']);
});
