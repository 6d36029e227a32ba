// Durability and recovery (DESIGN.md "Durability and recovery", PROTOCOL.md "Resume and
// ordering"): kill -9 in the middle of a stream of commands loses no acknowledged command, the
// database passes PRAGMA integrity_check, seqs stay contiguous, resume from last_seq delivers
// exactly the missed diffs, and the state rebuilt from the log (`tabled replay`, with and without
// snapshots) equals the live state. A clean SIGTERM shutdown keeps everything too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, table, closeAll, sleep, withoutSecret, entryOf } from './lib.mjs';

/**
 * Two seats stream rolls (unique expressions) without waiting for replies. First each sends
 * `leaveAfter / senders` rolls and waits for their replies; the observer seat then drops its
 * connection (so its last seq is fixed before the rest of the stream exists, however fast the
 * server is), and the stream goes on until the server is killed with SIGKILL once `killAfter`
 * acks arrived. Returns the acks received (by the senders) and the last seq the observer saw.
 */
async function streamAndCrash(srv, { perSeat, killAfter, leaveAfter, observer, senders }) {
  const acks = [];
  const nacks = [];
  let stop = false;
  const send = (c, tag, base, i) => {
    const expr = `1d6+${base + i}`;
    return c.cmd('roll', { expr }, `${tag}-${i}`).then(
      (r) => (r.t === 'ack' ? acks : nacks).push({ r, expr, tag }),
      () => {}, // no reply: the server died first
    );
  };
  const first = Math.ceil(leaveAfter / senders.length);
  const replies = [];
  for (const [c, tag, base] of senders) for (let i = 0; i < first; i++) replies.push(send(c, tag, base, i));
  await Promise.all(replies);
  // (a player's seq counts what players see: the GM's acks say it as `entry`)
  await observer.waitSeq(Math.max(...acks.map((a) => entryOf(a.r))));
  await observer.terminate(); // a dropped network: the observer's last seq is fixed here
  const sendLoop = async (c, tag, base) => {
    for (let i = first; i < perSeat && !stop; i++) {
      send(c, tag, base, i);
      if (i % 4 === 3) await sleep(1); // a stream, not one burst: the kill lands in its middle
    }
  };
  const loops = senders.map(([c, tag, base]) => sendLoop(c, tag, base).catch(() => {}));
  const deadline = Date.now() + 30000;
  while (acks.length < killAfter && Date.now() < deadline) await sleep(1);
  await srv.kill('SIGKILL');
  stop = true;
  await Promise.all(loops);
  await Promise.all([observer, ...senders.map((s) => s[0])].map((c) => c.waitClosed()));
  return { acks, nacks, observerSeq: observer.seq };
}

/** Checks every recovery property after a crash and restart. */
async function checkRecovery(t, srv, { acks, observerSeq, observer, observerToken }) {
  // the database is sound
  assert.equal(srv.sqlite('PRAGMA integrity_check'), 'ok');

  // seqs are contiguous from 1
  const events = srv.storedEvents();
  const view = await srv.gmView();
  assert.equal(events.length, view.seq, 'one stored event per seq');
  events.forEach((e, i) => assert.equal(e.seq, i + 1, 'contiguous seqs'));

  // every acked command is there, with the acked result (a public roll is the event that moved
  // the player seq to its entry number)
  const byEntry = new Map(events.filter((e) => e.counts).map((e) => [e.pseq, e]));
  const ackSeqs = new Set();
  for (const { r, expr } of acks) {
    const e = byEntry.get(entryOf(r));
    assert.ok(e, `acked entry ${entryOf(r)} (${expr}) is in the event log`);
    assert.equal(e.op, 'roll');
    assert.equal(r.result.expr, expr);
    assert.deepEqual(e.result, r.result, `event ${e.seq} holds the acked result`);
    assert.ok(!ackSeqs.has(e.seq), `event ${e.seq} acked once`);
    ackSeqs.add(e.seq);
  }
  // ... and in the live state (its /log keeps the newest 200 rolls)
  const log = view.state.log;
  const rollEvents = events.filter((e) => e.op === 'roll' && !e.result.secret);
  assert.equal(log.length, Math.min(200, rollEvents.length));
  const oldestKept = log[0].seq;
  const logBySeq = new Map(log.map((e) => [e.seq, e]));
  for (const { r } of acks) if (entryOf(r) >= oldestKept) assert.deepEqual(logBySeq.get(entryOf(r))?.roll, withoutSecret(r.result), `entry ${entryOf(r)} in /log`);
  assert.deepEqual(log.map((e) => e.seq), rollEvents.slice(-log.length).map((e) => e.pseq));

  // the state rebuilt from the database equals the live state
  const [snap] = srv.replay({ campaign: srv.campaignId });
  const [zero] = srv.replay({ campaign: srv.campaignId, fromZero: true });
  assert.equal(snap.seq, view.seq);
  assert.equal(zero.seq, view.seq);
  assert.deepEqual(snap.state, view.state, 'replay (snapshot + tail) == live');
  assert.deepEqual(zero.state, view.state, 'replay --from-zero == live');

  // the observer resumes from the last seq it saw: welcome{resume}, then exactly the missed diffs
  const [c, w] = await srv.resume(observerToken, observer, { name: 'observer resumed' });
  t.after(() => c.close());
  assert.equal(w.t, 'welcome', w.raw);
  assert.equal(w.resume, true, `resume expected: ${w.raw}`);
  const pseqNow = events.at(-1).pseq; // a player's seq: what players saw
  assert.equal(w.seq, pseqNow);
  await c.waitSeq(pseqNow);
  await c.ping(99); // anything still queued has arrived
  const want = events.filter((e) => e.counts && e.pseq > observerSeq).map((e) => e.pseq);
  assert.deepEqual(c.diffSeqs, want, 'exactly the diffs last_seq+1..current, in order');
  assert.equal(c.msgs[0].t, 'welcome', 'the welcome comes first');
  assert.deepEqual(c.patchErrors, []);
  const [fresh, fw] = await srv.hello(observerToken);
  assert.deepEqual(c.state, fw.state, 'resumed replica == fresh welcome');
  await fresh.close();
  return { view, events };
}

test('kill -9 in the middle of ~300 streamed rolls: acked rolls survive, resume is exact, replay == live', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann', 'Bob']);
  const [ann, bob] = players;
  t.after(() => closeAll(gm, ann.client, bob.client));
  const seqStart = (await srv.gmView()).seq;

  const r = await streamAndCrash(srv, {
    perSeat: 150,
    killAfter: 120,
    leaveAfter: 30,
    observer: bob.client,
    senders: [[gm, 'g', 1000], [ann.client, 'a', 5000]],
  });
  assert.ok(r.acks.length >= 120, `acks before the crash: ${r.acks.length}`);
  assert.ok(r.acks.length < 300, `the crash landed mid-stream (${r.acks.length} of 300 acked)`);
  assert.deepEqual(r.nacks.map((n) => n.r.raw), [], 'no nack with the rate limit off');
  assert.ok(r.observerSeq > seqStart, 'the observer saw some diffs');
  assert.ok(r.observerSeq < seqStart + r.acks.length, 'the observer left before the end');
  assert.deepEqual(bob.client.gaps, []);

  await srv.restart();
  const { view } = await checkRecovery(t, srv, { ...r, observer: bob.client, observerToken: bob.token });
  assert.ok(view.seq >= seqStart + r.acks.length);
  t.diagnostic(`acked before kill -9: ${r.acks.length}/300; committed: ${view.seq - seqStart}; observer resumed from ${r.observerSeq} to ${view.seq}`);
  // every roll in the log is one of ours: seats and expressions match what was sent
  for (const e of view.state.log) {
    const m = /^1d6\+(\d+)$/.exec(e.roll.expr);
    assert.ok(m, e.roll.expr);
    assert.equal(e.seat, Number(m[1]) >= 5000 ? 'p1' : 'gm');
  }
  // the table goes on after recovery
  const [g2] = await srv.hello(srv.gmToken);
  t.after(() => g2.close());
  const more = await g2.cmd('roll', { expr: '2d6' });
  assert.equal(more.seq, view.seq + 1);
});

test('with --snapshot-every 10: snapshots + tail rebuild the live state after kill -9', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0', '--snapshot-every', '10'] });
  const { gm, players } = await table(srv, ['Ann', 'Bob']);
  const [ann, bob] = players;
  t.after(() => closeAll(gm, ann.client, bob.client));
  // some GM-only and roster events too, so the snapshot holds /gm and seat changes
  await gm.cmd('roll', { expr: '7d7+77', secret: true });
  await gm.cmd('seat.rename', { seat: 'p2', name: 'Robert' });
  const r = await streamAndCrash(srv, {
    perSeat: 60,
    killAfter: 50,
    leaveAfter: 15,
    observer: bob.client,
    senders: [[gm, 'g', 1000], [ann.client, 'a', 5000]],
  });
  await srv.restart();
  const [g2] = await srv.hello(srv.gmToken);
  t.after(() => g2.close());
  // leave a tail after the newest snapshot
  let seq = (await srv.gmView()).seq;
  while (seq % 10 !== 3) seq = (await g2.cmd('roll', { expr: '1d6' })).seq;
  const snaps = srv.sqlite(`SELECT seq FROM snapshots WHERE campaign='${srv.campaignId}' ORDER BY seq`).split('\n').map(Number);
  assert.ok(snaps.length >= 1, 'snapshots were written');
  assert.ok(snaps.at(-1) >= 40, `a recent snapshot exists (newest at ${snaps.at(-1)})`);
  assert.ok(snaps.at(-1) < seq, 'the newest snapshot has a tail after it');
  const { view } = await checkRecovery(t, srv, { ...r, observer: bob.client, observerToken: bob.token });
  assert.equal(view.state.seats.p2.name, 'Robert');
  assert.equal(view.state.gm.log.length, 1);
});

test('a clean SIGTERM shutdown and restart keeps everything, and writes a snapshot at the last seq', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann', 'Bob']);
  const [ann, bob] = players;
  t.after(() => closeAll(gm, ann.client, bob.client));
  const acks = [];
  for (let i = 0; i < 25; i++) acks.push(await [gm, ann.client, bob.client][i % 3].cmd('roll', { expr: `2d6+${i}` }));
  await gm.cmd('roll', { expr: '1d20', secret: true });
  await gm.cmd('join.rotate', {});
  const before = await srv.gmView();
  await bob.client.ping(); // the secret roll and the new join code send Bob nothing; the pong follows every diff
  const bobSeq = bob.client.seq;

  const exit = await srv.kill('SIGTERM');
  assert.equal(exit.signal, null, `exited by itself: ${JSON.stringify(exit)}`);
  assert.equal(srv.sqlite(`SELECT max(seq) FROM snapshots WHERE campaign='${srv.campaignId}'`), String(before.seq), 'snapshot at shutdown');
  assert.equal(srv.sqlite('PRAGMA integrity_check'), 'ok');
  for (const c of [gm, ann.client, bob.client]) await c.waitClosed();

  await srv.restart();
  const after = await srv.gmView();
  assert.equal(after.seq, before.seq);
  assert.deepEqual(after.state, before.state);
  const [snap] = srv.replay({ campaign: srv.campaignId });
  assert.deepEqual(snap.state, before.state);
  const [zero] = srv.replay({ campaign: srv.campaignId, fromZero: true });
  assert.deepEqual(zero.state, before.state);
  for (const a of acks) assert.deepEqual(after.state.log.find((e) => e.seq === entryOf(a))?.roll, withoutSecret(a.result));
  // the rotated join code is what the banner prints now
  assert.equal(srv.joinCode, before.state.gm.join.code);
  // a resume after a clean restart: nothing missed, nothing sent (Bob's last diff was the last
  // public roll; the secret roll and the rotation after it change nothing he may see)
  const [c, w] = await srv.resume(bob.token, bob.client);
  t.after(() => c.close());
  assert.equal(w.resume, true, w.raw);
  // his seq counts only what players see: the secret roll and the rotation are not in it
  assert.equal(bobSeq, before.state.gm.player_seq);
  assert.equal(bobSeq, before.seq - 2);
  assert.equal(w.seq, bobSeq);
  await c.ping(5);
  assert.deepEqual(c.diffSeqs, []);
  const [f, fw] = await srv.hello(bob.token);
  assert.deepEqual(c.state, fw.state);
  await f.close();
  // a last_seq from the future (e.g. a database restored from backup) gets a fresh state
  const [fut, fwut] = await srv.hello(bob.token, before.seq + 5);
  assert.equal(fwut.resume, undefined, fwut.raw);
  assert.deepEqual(fwut.state, fw.state);
  assert.equal(fwut.seq, bobSeq);
  await fut.close();
  // last: the clean shutdown exits 0 and (in the sanitizer build) leaks nothing — after a
  // session with joins, rolls, secrets, a rotation and a resume
  assert.equal(srv.leakReport(), null, `LeakSanitizer at clean shutdown:\n${srv.leakReport()}`);
  assert.equal(exit.code, 0, `clean exit status: ${JSON.stringify(exit)}`);
});

test('a client more than 1000 events behind gets a fresh state instead of a resume', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann']);
  const ann = players[0];
  t.after(() => closeAll(gm, ann.client));
  await ann.client.waitSeq(2);
  const annSeq = ann.client.seq;
  await ann.client.terminate();
  // 1001 events after Ann's last seq: one more than the server replays
  const N = 1001;
  for (let done = 0; done < N; ) {
    const batch = Math.min(200, N - done);
    const acks = await Promise.all(Array.from({ length: batch }, (_, i) => gm.cmd('roll', { expr: `1d4+${done + i}` })));
    for (const a of acks) assert.equal(a.t, 'ack', a.raw);
    done += batch;
  }
  const seq = annSeq + N;
  assert.equal((await srv.gmView()).seq, seq);
  const [c, w] = await srv.resume(ann.token, ann.client);
  t.after(() => c.close());
  assert.equal(w.resume, undefined, 'no resume beyond 1000 missed events');
  assert.ok(w.state, 'a fresh state');
  assert.equal(w.seq, seq);
  assert.equal(w.state.log.length, 200, '/log keeps the newest 200');
  assert.equal(w.state.log.at(-1).seq, seq);
  await c.ping(1);
  assert.deepEqual(c.diffSeqs, []);
  // exactly 1000 behind still resumes, with all 1000 diffs
  const [c2, w2] = await srv.hello(ann.token, seq - 1000);
  t.after(() => c2.close());
  assert.equal(w2.resume, true, w2.raw.slice(0, 200));
  await c2.ping(2);
  assert.equal(c2.diffSeqs.length, 1000);
  assert.equal(c2.diffSeqs[0], seq - 999);
  assert.equal(c2.diffSeqs.at(-1), seq);
});

test('resume while the table is busy: no gap, no duplicate between the replayed and the live diffs', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann', 'Bob']);
  const [ann, bob] = players;
  t.after(() => closeAll(gm, ann.client, bob.client));
  for (let i = 0; i < 20; i++) await gm.cmd('roll', { expr: `1d6+${i}` });
  await ann.client.waitSeq(23);
  await ann.client.terminate();
  // Bob and the GM keep rolling while Ann reconnects several times
  let stop = false;
  const streams = [gm, bob.client].map(async (c, k) => {
    for (let i = 0; !stop; i++) {
      await c.cmd('roll', { expr: `1d8+${k * 10000 + i}` });
      if (i % 3 === 0) await sleep(1);
    }
  });
  let replica = ann.client;
  for (let round = 0; round < 5; round++) {
    await sleep(20);
    const [c, w] = await srv.resume(ann.token, replica, { name: `Ann round ${round}` });
    assert.equal(w.resume, true, w.raw);
    const from = replica.seq;
    await sleep(30);
    await c.terminate();
    assert.deepEqual(c.gaps, [], `round ${round}: no gap`);
    assert.deepEqual(c.patchErrors, [], `round ${round}: every diff applied`);
    assert.ok(c.diffSeqs.length > 0, `round ${round}: diffs arrived`);
    assert.deepEqual(c.diffSeqs, Array.from({ length: c.diffSeqs.length }, (_, i) => from + 1 + i), `round ${round}: consecutive from last_seq+1`);
    replica = c;
  }
  stop = true;
  await Promise.all(streams);
  const view = await srv.gmView();
  const [c, w] = await srv.resume(ann.token, replica);
  t.after(() => c.close());
  await c.waitSeq(w.seq);
  assert.equal(w.seq, view.seq);
  const [f, fw] = await srv.hello(ann.token);
  assert.deepEqual(c.state, fw.state, 'after 6 resumes under load: replica == fresh');
  await f.close();
});
