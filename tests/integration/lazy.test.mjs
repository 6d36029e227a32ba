// Issue 26 (session 10): the news of a join or a presence change to the seats already there is
// lazy (engine.h ENGINE_LAZY_MS = 100, PROTOCOL.md `join` and `presence`): a seat that is sent
// nothing else gets it within about 100 ms, in one write; a seat that is sent something else first
// gets the news before it, in order.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, closeAll, sleep } from './lib.mjs';

const LAZY_MS = 100;

test('a join: the seats there learn it within the lazy window, and before anything sent later', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const gm = await srv.connect({ name: 'gm' });
  assert.equal((await gm.hello(srv.gmToken)).t, 'welcome');
  const w1 = await srv.connect({ name: 'W1' });
  const r1 = await w1.join(srv.joinCode, 'Watcher');
  assert.ok(r1.joined, JSON.stringify(r1.error));
  const n1 = await srv.connect({ name: 'N1' });
  const n2 = await srv.connect({ name: 'N2' });
  t.after(() => closeAll(gm, w1, n1, n2));
  await w1.waitFor(() => w1.presence && w1.presence.gm === true && w1.presence[r1.joined.seat] === true, { what: 'W1 online' });
  await sleep(3 * LAZY_MS); // quiet: no window open, nothing queued

  // W1 sends nothing: the diff that adds N1 and the presence that says it is online come by
  // themselves, together, about LAZY_MS after N1's welcome (not at once, not never).
  const from = w1.msgs.length;
  const r2 = await n1.join(srv.joinCode, 'First');
  assert.ok(r2.joined, JSON.stringify(r2.error));
  const seat1 = r2.joined.seat;
  const t0 = Date.now();
  await w1.waitFor(() => w1.state.seats[seat1] && w1.presence[seat1] === true, { from, what: 'W1 told of N1' });
  const waited = Date.now() - t0;
  t.diagnostic(`W1 learnt of the join ${waited} ms after the newcomer's welcome`);
  assert.ok(waited >= LAZY_MS / 2, `the news was written lazily (${waited} ms)`);
  const news = w1.msgs.slice(from).map((m) => m.t);
  assert.deepEqual(news, ['diff', 'presence'], 'the diff, then the presence');
  assert.equal(w1.state.seats[seat1].name, 'First');

  // The GM sends a roll as soon as N2 is welcomed: its news of N2 (waiting) comes first, then
  // the roll's diff and its ack, in seq order.
  const gfrom = gm.msgs.length;
  const r3 = await n2.join(srv.joinCode, 'Second');
  assert.ok(r3.joined, JSON.stringify(r3.error));
  const seat2 = r3.joined.seat;
  const ack = await gm.cmd('roll', { expr: '1d6' });
  assert.equal(ack.t, 'ack');
  const after = gm.msgs.slice(gfrom);
  const joinDiff = after.findIndex((m) => m.t === 'diff' && m.ops.some((o) => o.path === `/seats/${seat2}`));
  const told = after.findIndex((m) => m.t === 'presence' && m.seats[seat2] === true);
  const rollDiff = after.findIndex((m) => m.t === 'diff' && m.seq === ack.seq);
  const ackAt = after.indexOf(ack);
  assert.ok(joinDiff >= 0 && told > joinDiff, `join diff then presence: ${after.map((m) => m.t)}`);
  assert.ok(rollDiff > told && ackAt > rollDiff, `then the roll's diff and ack: ${after.map((m) => m.t)}`);
  assert.deepEqual(gm.gaps, [], 'seqs in order');
  assert.deepEqual(gm.patchErrors, []);

  // A seat that leaves is told to the others lazily too, and ends right.
  await n1.close();
  await w1.waitFor(() => w1.presence[seat1] === false, { what: 'W1 told N1 left' });
  await gm.waitFor(() => gm.presence[seat1] === false && gm.presence[seat2] === true, { what: 'GM told N1 left' });
});
