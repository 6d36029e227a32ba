// A GRIMWIRE blast decided from the scene map through the real server (issue 30; rules/RULES.md
// grimwire reading G26): the GM sets a plain grid, places the fighters' tokens (one of them hidden),
// shows the map and throws a grenade with a centre square and no names. The module catches every
// fighter whose shown token lies within the radius (default 1, measured between the squares'
// centres): the ack's blast rolls and the damage in the state name exactly them; a fighter outside
// the radius and one whose token is hidden are untouched; once that token is shown it is caught.
// Refusals (no map, nobody within the radius) store nothing. `who` still works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const THUG = (name) => ({
  name,
  level: 1,
  xp: 0,
  attributes: { tog: 1, agl: 0, cor: 1, mnd: 0, per: 0, rsn: 0 },
  condition: { current: 30, max: 30 },
  focus: { current: 0, max: 0 },
  armor: 0,
  weapons: [{ name: 'Club', kind: 'light', damage: '1d4' }],
});

const splash = (params) => ({ action: 'splash', params: { damage: '2d6', type: 'explosions', tn: 11, ...params } });

// Whom the blast hurt, in the order of its log (the ack's entries, by ref).
const caught = (res) =>
  res.log.filter((l) => l.event === 'damage' && l.result?.target).sort((a, b) => a.ref - b.ref).map((l) => l.result.target);

test('grimwire: a blast placed on the map catches the shown fighters within its radius; a hidden token is not caught', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '5', '--rate-limit', '0'] });
  const { gm, players } = await campaignOf(srv, t, 'grimwire');
  const [ann, bob] = players;
  const cy = await makeChar(ann.client, { name: 'Cyrus', sheet: sample('grimwire', 'cyrus') });
  const au = await makeChar(bob.client, { name: 'Aune', sheet: sample('grimwire', 'aune') });
  const sc = await makeChar(gm, { name: 'Scrapper', sheet: THUG('Scrapper'), npc: true });
  const lu = await makeChar(gm, { name: 'Lurker', sheet: THUG('Lurker'), npc: true });
  await ok(gm, 'enc.start', { module: 'grimwire.conflict' });
  const CY = (await ok(gm, 'enc.add', { char: cy })).id;
  const AU = (await ok(gm, 'enc.add', { char: au })).id;
  const SC = (await ok(gm, 'enc.add', { char: sc })).id;
  const LU = (await ok(gm, 'enc.add', { char: lu })).id;
  await ok(gm, 'enc.act', { action: 'begin' });

  // no map shown yet: a centre is refused, nothing stored; the GM's word still works
  await refused(gm, 'enc.act', splash({ centre: '1,1' }), 'rule', /no map/);

  // Cyrus at 1,1, Scrapper next to him, Aune far away, the Lurker hidden next to Cyrus
  await ok(gm, 'map.set', { size: 40, cols: 8, rows: 6 });
  await ok(gm, 'map.token', { cid: CY, x: 1, y: 1 });
  await ok(gm, 'map.token', { cid: SC, x: 2, y: 1 });
  await ok(gm, 'map.token', { cid: AU, x: 5, y: 5 });
  await ok(gm, 'map.token', { cid: LU, x: 1, y: 2, hidden: true });
  await ok(gm, 'map.show', {});
  await refused(gm, 'enc.act', splash({ centre: '7,0' }), 'rule', /nobody in the fight is within 1 square of 7,0/);
  // the map is 8 columns by 6 rows: a centre off it is refused, even with a radius reaching Aune
  await refused(gm, 'enc.act', splash({ centre: '5,6', radius: 2 }), 'bad_request', /the centre 5,6 is off the map/);
  await refused(gm, 'enc.act', splash({ centre: '1,1', who: CY }), 'bad_request', /not both/);
  await refused(ann.client, 'enc.act', splash({ centre: '1,1' }), 'forbidden');

  // the GM's move offers the shown fighters' squares as the centre, never the hidden one's
  const moves = await ok(gm, 'enc.moves', {});
  const move = moves.moves.enc.find((m) => m.action === 'splash');
  const centre = move.params.find((p) => p.name === 'centre');
  assert.deepEqual(centre.choices.map((c) => c.value), [null, '1,1', '5,5', '2,1']);

  let s = await settle(gm, players);
  const cond = (st, id) => (st.enc.combatants[id].stats ?? st.gm.enc.combatants[id].stats).condition.current;
  const before = Object.fromEntries([CY, AU, SC, LU].map((id) => [id, cond(s, id)]));

  const res = await ok(gm, 'enc.act', splash({ centre: '1,1' }));
  assert.deepEqual(caught(res), [CY, SC], 'Cyrus and Scrapper are within 1 square; Aune and the hidden Lurker are not');
  s = await settle(gm, players);
  assert.ok(cond(s, CY) < before[CY], 'Cyrus took the blast');
  assert.ok(cond(s, SC) < before[SC], 'Scrapper took the blast');
  assert.equal(cond(s, AU), before[AU], 'Aune, outside the radius, is untouched');
  assert.equal(cond(s, LU), before[LU], 'a hidden token decides nothing');
  assert.equal(ann.client.state.enc.combatants[CY].stats.condition.current, cond(s, CY), 'the table sees Cyrus hurt');

  // the Lurker's token shown: the same blast catches him too (1 square below the centre)
  await ok(gm, 'map.token', { id: LU, x: 1, y: 2, hidden: false });
  const again = await ok(gm, 'enc.act', splash({ centre: '1,1' }));
  assert.deepEqual(caught(again), [CY, SC, LU]);
  s = await settle(gm, players);
  assert.ok(cond(s, LU) < before[LU]);
  assert.equal(cond(s, AU), before[AU]);

  // a radius of 5 from Aune's square: a straight line between the squares' centres, so Scrapper
  // (3 across, 4 up: 5) and the Lurker (4, 3: 5) are in it, Cyrus (4, 4: 5.7) is not
  const wide = await ok(gm, 'enc.act', splash({ centre: '5,5', radius: 5 }));
  assert.deepEqual(caught(wide), [AU, SC, LU]);
  // `who` still names them by hand
  const byHand = await ok(gm, 'enc.act', splash({ who: AU }));
  assert.deepEqual(caught(byHand), [AU]);
  assertNoGmBytes(players);
});
