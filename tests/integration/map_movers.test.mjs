// Who may move a token now, as data (PROTOCOL.md "The scene map", "Moving on your turn"): each
// shown token carries `by`, the seat that may move it now besides the GM, made by the one rule
// map.move checks (server/ops_map.c map_mover) and kept current wherever its inputs change — a
// token placed or shown, the map shown again, a turn moving on, a fighter leaving, the scene
// ending. A player's move is accepted exactly when `by` is their seat. A campaign saved before
// `by` (fixtures/map_turns_v1*.db, made by fixtures/make_map_turns_v1.mjs with main 5d16a1c's
// binary) gets it on load through one recorded "state.upgrade" event; the log replays to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, settle } from './enc_lib.mjs';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

// {token id: by} of the table's copy of the map, as a seat received it.
const movers = (c) => Object.fromEntries(Object.values(c.state.maps.enc.tokens).map((t) => [t.id, t.by ?? null]));

test('`by` follows the turns: a player moves their token exactly when the server says it is theirs now', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '5'] });
  const { gm, players, campaignId, gmToken } = await campaignOf(srv, t, 'heimr');
  const [ann, bob] = players.map((p) => p.client);
  const [sa, sb] = players.map((p) => p.seat);
  const astrid = await makeChar(ann, { name: 'Astrid Ironhand', sheet: sample('heimr', 'astrid_ironhand') });
  const gunnar = await makeChar(bob, { name: 'Old Gunnar', sheet: sample('heimr', 'old_gunnar') });
  await ok(gm, 'enc.start', { module: 'heimr.combat' });
  const A = (await ok(gm, 'enc.add', { char: astrid })).id;
  const G = (await ok(gm, 'enc.add', { char: gunnar })).id;
  const B = (await ok(gm, 'enc.add', { npc: { name: 'Bandit' } })).id;
  await ok(gm, 'map.set', { size: 40, cols: 8, rows: 6 });
  await ok(gm, 'map.token', { cid: A, x: 0, y: 0 });
  await ok(gm, 'map.token', { cid: B, x: 5, y: 3 });
  await ok(gm, 'map.token', { label: 'Door', x: 7, y: 0 });
  await ok(gm, 'map.show', {});
  await settle(gm, players);
  // before the first turn: each fighter's seat; an NPC's and a marker's token: nobody's
  assert.deepEqual(movers(ann), { [A]: sa, [B]: null, m1: null });
  // placed while shown, and a token hidden then shown again
  await ok(gm, 'map.token', { cid: G, x: 2, y: 2, hidden: true });
  await settle(gm, players);
  assert.equal(ann.state.maps.enc.tokens[G], undefined);
  assert.equal(gm.state.gm.maps.enc.tokens[G].by, undefined, 'a hidden token carries no `by`');
  await ok(gm, 'map.token', { id: G, x: 2, y: 2, hidden: false });
  await settle(gm, players);
  assert.deepEqual(movers(bob), { [A]: sa, [G]: sb, [B]: null, m1: null });

  // the turns: exactly the fighter whose turn runs is its seat's to move; every seat sees the same
  await ok(gm, 'enc.act', { action: 'begin' });
  const seatOf = { [A]: sa, [G]: sb, [B]: null };
  const seen = new Set();
  for (let i = 0; i < 4; i++) {
    const s = await settle(gm, players);
    const now = s.enc.order[s.enc.turn];
    seen.add(now);
    const want = { [A]: null, [G]: null, [B]: null, m1: null, [now]: seatOf[now] };
    for (const c of [gm, ann, bob]) assert.deepEqual(movers(c), want, `turn of ${now}`);
    for (const [c, cid, seat] of [[ann, A, sa], [bob, G, sb]]) {
      if (want[cid] === seat) await ok(c, 'map.move', { id: cid, x: i, y: 1 });
      else await refused(c, 'map.move', { id: cid, x: i, y: 1 }, 'rule', /it is not your turn/);
    }
    const before = bob.frames.length;
    await ok(gm, 'enc.act', { action: 'end_turn', actor: now });
    await settle(gm, players);
    // the turn's end and the tokens' new `by` arrive in one diff
    const diffs = bob.frames.slice(before).filter((f) => f.startsWith('{"t":"diff"'));
    assert.equal(diffs.length, 1);
    const next = gm.state.enc.order[gm.state.enc.turn];
    if (seatOf[now] !== seatOf[next]) assert.match(diffs[0], /\/maps\/enc\/tokens\/[^"]+\/by"/);
  }
  assert.equal(seen.size, 3, 'every fighter had a turn');

  // the GM moves any token at any time: `by` stays as the turn says
  const s = await settle(gm, players);
  const now = s.enc.order[s.enc.turn];
  await ok(gm, 'map.move', { id: B, x: 4, y: 4 });
  await ok(gm, 'map.move', { id: now === A ? G : A, x: 6, y: 5 });
  await settle(gm, players);
  assert.deepEqual(movers(ann), { [A]: null, [G]: null, [B]: null, m1: null, [now]: seatOf[now] });

  // hidden and shown again: as the turn says
  await ok(gm, 'map.hide', {});
  await ok(gm, 'map.show', {});
  await settle(gm, players);
  assert.deepEqual(movers(ann), { [A]: null, [G]: null, [B]: null, m1: null, [now]: seatOf[now] });

  // a fighter leaves: its token is nobody's (the page draws it no more), the turn's rule goes on
  await ok(gm, 'enc.remove', { id: G });
  await settle(gm, players);
  const after = gm.state.enc.order[gm.state.enc.turn];
  assert.equal(movers(ann)[G], null);
  assert.equal(movers(ann)[A], after === A ? sa : null);
  await refused(bob, 'map.move', { id: G, x: 0, y: 5 }, 'forbidden');

  // the scene ends: nobody's (a map of a scene that is not running moves for nobody)
  await ok(gm, 'enc.end', {});
  await settle(gm, players);
  assert.deepEqual(movers(ann), { [A]: null, [G]: null, [B]: null, m1: null });
  await refused(ann, 'map.move', { id: A, x: 0, y: 5 }, 'not_found');

  // the log replays to the live maps
  const view = await srv.gmView(gmToken);
  const rebuilt = srv.replay({ campaign: campaignId, fromZero: true }).find((r) => r.campaign === campaignId);
  assert.deepEqual(rebuilt.state.maps, view.state.maps);
  assert.deepEqual(rebuilt.state.gm.maps, view.state.gm.maps);
});

test('a campaign saved before `by`: its shown tokens get it on load, once, and the log replays to it', async (t) => {
  const old = JSON.parse(fs.readFileSync(path.join(fixtures, 'map_turns_v1.json'), 'utf8'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-movers-'));
  fs.copyFileSync(path.join(fixtures, 'map_turns_v1.db'), path.join(dir, 't.db'));
  fs.mkdirSync(path.join(dir, 't.db.campaigns'));
  fs.copyFileSync(path.join(fixtures, 'map_turns_v1.campaign.db'), path.join(dir, 't.db.campaigns', `${old.campaign}.db`));
  const srv = await startServer(t, { dir });
  const [gm, gw] = await srv.hello(old.gm_token);
  const [ann, aw] = await srv.hello(old.ann.token);
  t.after(() => Promise.all([gm.close(), ann.close()]));
  assert.equal(gw.seq, old.seq + 1, 'one upgrade event after the stored ones');
  const now = old.order[old.turn];
  const want = { [old.A]: now === old.A ? old.ann.seat : null, [old.B]: null };
  for (const w of [gw, aw]) assert.deepEqual(Object.fromEntries(Object.values(w.state.maps.enc.tokens).map((x) => [x.id, x.by ?? null])), want);
  // a page resuming from before the upgrade gets it as a diff
  const [gm1, rw] = await srv.hello(old.gm_token, old.seq);
  t.after(() => gm1.close());
  assert.equal(rw.resume, true);
  await gm1.waitSeq(old.seq + 1);
  const diff = gm1.msgs.find((m) => m.t === 'diff' && m.seq === old.seq + 1);
  assert.ok(diff && diff.ops.some((o) => o.path.startsWith('/maps/enc')), JSON.stringify(gm1.msgs));
  // the rule is the same as `by` says: on the bandit's turn refused, on hers accepted
  if (now === old.A) await ok(ann, 'map.move', { id: old.A, x: 2, y: 1 });
  else await refused(ann, 'map.move', { id: old.A, x: 2, y: 1 }, 'rule', /it is not your turn/);
  await ok(gm, 'enc.act', { action: 'end_turn', actor: now });
  await gm.ping();
  await ann.ping();
  const next = ann.state.enc.order[ann.state.enc.turn];
  assert.equal(ann.state.maps.enc.tokens[old.A].by, next === old.A ? old.ann.seat : undefined);
  // the log replays to the live state, and a restart does not upgrade again
  const [zero] = srv.replay({ campaign: old.campaign, fromZero: true });
  assert.deepEqual(zero.state.maps, gm.state.maps);
  const seq = gm.seq;
  await srv.restart();
  const [gm2, gw2] = await srv.hello(old.gm_token);
  t.after(() => gm2.close());
  assert.equal(gw2.seq, seq, 'no second upgrade');
});
