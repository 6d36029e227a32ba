// Issue 26 item 4: a burst of joins (and of reconnects) costs each seat already there about one
// diff and one `presence` per burst window (20 ms: engine.h ENGINE_BURST_WINDOW_MS, PROTOCOL.md
// `join` and `presence`), not one per newcomer; and every seat's presence map ends right.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, closeAll, sleep } from './lib.mjs';

const WINDOW_MS = 20;
const BURST = 60;

/** Resolves once c's presence map equals want (checked on every message c gets). */
function presenceIs(c, want, what) {
  const same = () => c.presence && JSON.stringify(sorted(c.presence)) === JSON.stringify(sorted(want));
  return c.waitFor(() => same(), { what: `${c.name}: presence ${what}` });
}

function sorted(o) {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b)));
}

test('a burst of 60 joins: each seat there gets a few diffs and presences, every map ends right', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0', '--joins-per-address', '1000', '--max-per-address', '1000', '--max-seats', '1000'] });
  const gm = await srv.connect({ name: 'gm' });
  assert.equal((await gm.hello(srv.gmToken)).t, 'welcome');
  // three players already at the table, joined one by one
  const watchers = [gm];
  for (const n of ['W1', 'W2', 'W3']) {
    const c = await srv.connect({ name: n });
    const r = await c.join(srv.joinCode, n);
    assert.ok(r.joined, JSON.stringify(r.error));
    watchers.push(c);
  }
  const newcomers = [];
  for (let i = 0; i < BURST; i++) newcomers.push(await srv.connect({ name: `N${i}` }));
  t.after(() => closeAll(watchers, newcomers));
  const want0 = { gm: true, p1: true, p2: true, p3: true };
  for (const c of watchers) await presenceIs(c, want0, 'before the burst');
  await sleep(3 * WINDOW_MS); // a quiet window: the first join of the burst leaves at once
  const marks = watchers.map((c) => c.msgs.length);

  // The burst: 10 joins in flight, a newcomer joining as soon as an earlier one has its welcome
  // (as tests/bench/bench_load.c does): before the window, each join mostly landed in its own
  // server loop turn and was its own event and presence.
  const t0 = Date.now();
  const results = new Array(BURST);
  let next = 0;
  const lane = async () => {
    while (next < BURST) {
      const i = next++;
      results[i] = await newcomers[i].join(srv.joinCode, `N${i}`);
    }
  };
  await Promise.all(Array.from({ length: 10 }, lane));
  const spanMs = Date.now() - t0;
  const want = { ...want0 };
  results.forEach((r, i) => {
    assert.ok(r.joined, `N${i}: ${JSON.stringify(r.error)}`);
    want[r.joined.seat] = true;
  });
  assert.equal(new Set(results.map((r) => r.joined.seat)).size, BURST, 'every joiner its own seat');

  // every seat, old and new, ends with the whole table online and all seats in its state
  for (const c of [...watchers, ...newcomers]) await presenceIs(c, want, 'after the burst');
  await gm.waitSeq(results.reduce((s, r) => Math.max(s, r.welcome.seq), 0));
  assert.equal(Object.keys(gm.state.seats).length, BURST + 4);
  for (const c of newcomers) {
    // the newcomer's first presence right after its welcome is the whole list
    const w = c.msgs.findIndex((m) => m.t === 'welcome');
    const p = c.msgs.findIndex((m, i) => i > w && m.t === 'presence');
    assert.ok(p === w + 1, `${c.name}: presence right after welcome`);
    assert.ok(Object.keys(c.msgs[p].seats).length >= 5, `${c.name}: the whole list first`);
  }

  // Each seat already there: a handful of frames, not one diff + one presence per joiner.
  await sleep(3 * WINDOW_MS);
  const windows = Math.ceil(spanMs / WINDOW_MS) + 2;
  for (const [i, c] of watchers.entries()) {
    const after = c.msgs.slice(marks[i]);
    const presences = after.filter((m) => m.t === 'presence').length;
    const diffs = after.filter((m) => m.t === 'diff').length;
    t.diagnostic(`${c.name}: ${presences} presence, ${diffs} diffs for ${BURST} joins in ${spanMs} ms`);
    assert.ok(presences <= windows && presences <= BURST / 3, `${c.name}: ${presences} presence frames for ${BURST} joins in ${spanMs} ms`);
    assert.ok(diffs <= windows && diffs <= BURST / 3, `${c.name}: ${diffs} diffs for ${BURST} joins in ${spanMs} ms`);
    assert.deepEqual(c.gaps, [], `${c.name}: seqs in order`);
    assert.deepEqual(c.patchErrors, []);
    assert.equal(Object.keys(c.state.seats).length, BURST + 4, `${c.name}: every seat in /seats`);
  }
});

test('reconnects in a burst: the flags end right, and a seat gone and back inside a window is online', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0', '--joins-per-address', '1000', '--max-per-address', '1000', '--max-seats', '1000'] });
  const gm = await srv.connect({ name: 'gm' });
  assert.equal((await gm.hello(srv.gmToken)).t, 'welcome');
  const seats = [];
  for (let i = 0; i < 20; i++) {
    const c = await srv.connect({ name: `P${i}` });
    const r = await c.join(srv.joinCode, `P${i}`);
    assert.ok(r.joined, JSON.stringify(r.error));
    seats.push({ c, token: r.joined.token, seat: r.joined.seat });
  }
  t.after(() => closeAll(gm, seats.map((s) => s.c)));
  const want = { gm: true };
  for (const s of seats) want[s.seat] = true;
  await presenceIs(gm, want, 'all joined');
  await sleep(3 * WINDOW_MS);
  const mark = gm.msgs.length;

  // 10 seats drop together; 5 of them come back at once (each a close and a hello as fast as
  // the sockets go), the other 5 stay away
  await Promise.all(seats.slice(0, 10).map((s) => s.c.close()));
  const back = await Promise.all(
    seats.slice(0, 5).map(async (s) => {
      const [c, w] = await srv.hello(s.token);
      assert.equal(w.t, 'welcome');
      s.c = c;
      return c;
    }),
  );
  for (const s of seats.slice(5, 10)) want[s.seat] = false;
  for (const c of [gm, ...seats.slice(10).map((s) => s.c), ...back]) await presenceIs(c, want, 'after the reconnects');
  await sleep(3 * WINDOW_MS);
  assert.deepEqual(sorted(gm.presence), sorted(want), 'nothing changes after the last window');
  const presences = gm.msgs.slice(mark).filter((m) => m.t === 'presence').length;
  t.diagnostic(`gm: ${presences} presence frames for 10 drops and 5 reconnects`);
  assert.ok(presences <= 15, `gm: ${presences} presence frames for 15 changes`);
});
