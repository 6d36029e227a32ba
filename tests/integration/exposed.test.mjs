// An exposed server that one player link or one stranger cannot take down (issue 27): what a
// player holding a link could do to the server, its disk or the other seats, tried for real.
// The proxy-side attacks (join guessing and places through nginx) are in proxy_limits.test.mjs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { BIN, WEB_DIR, Server, startServer, table, closeAll, mountTmpfs, umountTmpfs, fill, sleep } from './lib.mjs';

/** Rows of a table of the server's database (sqlite3 CLI). */
const rows = (srv, t) => Number(srv.sqlite(`SELECT count(*) FROM ${t}`));

test('item 1: a read-only op stores nothing, however often a player asks', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann']);
  t.after(() => closeAll(gm, players[0].client));
  const ann = players[0].client;
  srv.sqlite('PRAGMA wal_checkpoint(TRUNCATE)');
  const before = { events: rows(srv, 'events'), idem: rows(srv, 'idempotency'), bytes: fs.statSync(srv.db).size };
  const seqBefore = (await srv.gmView()).seq;
  for (let i = 0; i < 60; i++) {
    const r = await ann.cmd('system.describe', { system: 'cot' }, `d${i % 3}`); // ids re-used too
    assert.equal(r.t, 'ack', r.raw);
    assert.equal(r.seq, null, 'a read-only op has no seq');
    assert.equal(r.result.system, 'cot');
  }
  // a refused read-only op stores nothing either
  const bad = await ann.cmd('system.describe', { system: 'nope' });
  assert.equal(bad.t, 'nack');
  await ann.ping();
  assert.equal(rows(srv, 'events'), before.events, 'no event');
  assert.equal(rows(srv, 'idempotency'), before.idem, 'no idempotency row');
  assert.equal((await srv.gmView()).seq, seqBefore, 'the campaign seq did not move');
  srv.sqlite('PRAGMA wal_checkpoint(TRUNCATE)');
  assert.ok(fs.statSync(srv.db).size <= before.bytes + 8192, `the database did not grow (${before.bytes} -> ${fs.statSync(srv.db).size} bytes)`);
});

test('item 1: tabled serve starts on a full disk, and links printed before keep working', async (t) => {
  const mnt = mountTmpfs('8m');
  if (!mnt || mnt.error) {
    t.skip(`cannot mount a tmpfs here (${mnt?.error}); this test needs root`);
    return;
  }
  const srv = new Server({ dir: mnt });
  t.after(async () => {
    await srv.stop().catch(() => {});
    umountTmpfs(mnt);
  });
  await srv.start();
  const { gm, players } = await table(srv, ['Ann']);
  const gmToken = srv.gmToken;
  const annToken = players[0].token;
  await closeAll(gm, players[0].client);
  // the disk fills while the server runs; it is restarted (kill -9: as a crash or an impatient
  // operator would; a clean stop is below)
  fill(path.join(mnt, 'filler'));
  await srv.kill('SIGKILL');
  fill(path.join(mnt, 'filler2'));
  // a start on the full disk: the server comes up and says why there are no new links
  await srv.start();
  assert.ok(srv.banner.noLinks, 'no new links on a full disk');
  assert.match(srv.stderr, /disk is full/);
  assert.equal((await srv.get('/healthz')).status, 200, 'the server answers');
  const [annAgain, w] = await srv.hello(annToken);
  assert.equal(w.t, 'welcome', 'a player link printed before still works');
  assert.equal(w.seat.name, 'Ann');
  const d = await annAgain.cmd('system.describe', { system: 'cot' });
  assert.equal(d.t, 'ack', 'read-only ops work on a full disk');
  const [gmAgain, gw] = await srv.hello(gmToken);
  assert.equal(gw.t, 'welcome', 'the GM link printed before still works');
  const links = fs.readFileSync(`${srv.db}.links`, 'utf8');
  assert.match(links, /GM link: /, 'the links file of the last start is whole');
  await closeAll(annAgain, gmAgain);
  // after a clean stop on the full disk: it starts again, or (when SQLite could not even make
  // its shared-memory file) refuses and says why in words
  await srv.kill('SIGTERM');
  fill(path.join(mnt, 'filler3'));
  try {
    await srv.start();
    assert.equal((await srv.get('/healthz')).status, 200);
  } catch (e) {
    assert.match(String(e.message), /disk that holds it is full/);
  }
});

test('item 13: a seat cannot take the GM\'s name or another seat\'s', async (t) => {
  const srv = await startServer(t);
  const { gm, players } = await table(srv, ['Ann', 'Bob']);
  t.after(() => closeAll(gm, players.map((p) => p.client)));
  const [ann, bob] = players;
  const seatsBefore = (await srv.gmView()).state.seats;
  for (const name of ['GM', 'gm', ' Gm ', 'Game  master', 'Bob', 'BOB', 'host']) {
    const r = await ann.client.cmd('seat.rename', { seat: ann.seat, name });
    assert.equal(r.t, 'nack', `${name}: ${r.raw}`);
    assert.equal(r.code, 'conflict', r.raw);
    assert.doesNotMatch(r.message, /_|seat\.rename/, 'a sentence a person can read');
  }
  // the GM cannot hand a player another's name either
  const g = await gm.cmd('seat.rename', { seat: bob.seat, name: 'ann' });
  assert.equal(g.code, 'conflict', g.raw);
  // a join under a taken name is refused before any seat is made
  const c = await srv.connect();
  t.after(() => closeAll(c));
  for (const name of ['GM', 'Ann']) {
    const j = await c.join(srv.joinCode, name);
    assert.equal(j.error?.code, 'conflict', JSON.stringify(j));
  }
  assert.deepEqual((await srv.gmView()).state.seats, seatsBefore, 'nothing changed');
  // a name of one's own (or one's own, in other capitals) is fine
  assert.equal((await ann.client.cmd('seat.rename', { seat: ann.seat, name: 'ANN' })).t, 'ack');
  assert.equal((await ann.client.cmd('seat.rename', { seat: ann.seat, name: 'Annie' })).t, 'ack');
  const j = await c.join(srv.joinCode, 'Ann');
  assert.ok(j.joined, 'the name Ann is free again');
});

/** GET over plain HTTP from a chosen local address, with extra headers: {status, text}. */
function getFrom(port, p, { host = '127.0.0.1', localAddress, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host, port, path: p, localAddress, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Resolves true when a TCP connection to host:port is accepted, false when it is refused. */
function connects(host, port) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** A non-loopback address of this machine of the given family, or null. */
function ownAddress(family) {
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list || []) if (a.family === family && !a.internal && !a.address.startsWith('fe80')) return a.address;
  return null;
}

test('item 3: --bind 127.0.0.1 listens on 127.0.0.1 only; --bind ::1 on ::1 only', async (t) => {
  const srv = await startServer(t); // lib.mjs starts every server with --bind 127.0.0.1
  assert.equal(await connects('127.0.0.1', srv.port), true);
  const others = ['127.0.0.2', '::1', ownAddress('IPv4'), ownAddress('IPv6')].filter(Boolean);
  for (const a of others) assert.equal(await connects(a, srv.port), false, `${a} must not reach a server bound to 127.0.0.1`);
  // a server on ::1 (its banner's links are [::1], so it is started here, not by lib.mjs)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-v6-'));
  const v6 = spawn(BIN, ['serve', '--port', '0', '--bind', '::1', '--db', path.join(dir, 't.db'), '--web', WEB_DIR], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => {
    v6.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });
  let out = '';
  const port = await new Promise((resolve, reject) => {
    v6.stdout.on('data', (c) => {
      out += c;
      const m = /listening on port (\d+)/.exec(out);
      if (m && /^Open the console link/m.test(out)) resolve(Number(m[1]));
    });
    v6.on('exit', (code) => reject(new Error(`tabled --bind ::1 exited (${code})`)));
  });
  assert.match(out, /GM link: http:\/\/\[::1\]:\d+\//, 'an IPv6 address is bracketed in links');
  assert.equal(await connects('::1', port), true);
  for (const a of ['127.0.0.1', ownAddress('IPv4')].filter(Boolean))
    assert.equal(await connects(a, port), false, `${a} must not reach a server bound to ::1`);
  t.diagnostic(`refused at ${others.join(', ')} (bound to 127.0.0.1)`);
});

test('item 9: /metrics and the counts of /healthz are for this machine (or --metrics-allow) only', async (t) => {
  const srv = await startServer(t);
  const { gm, players } = await table(srv, ['Ann']);
  t.after(() => closeAll(gm, players[0].client));
  await gm.cmd('gm.set', { key: 'villain', value: 'the Pale Duke' });
  // from the machine itself: everything
  const m = await getFrom(srv.port, '/metrics');
  assert.equal(m.status, 200);
  assert.match(m.text, /tabled_commands_total\{op="gm.set"/);
  assert.deepEqual(Object.keys(JSON.parse((await getFrom(srv.port, '/healthz')).text)).sort(), ['campaigns', 'connections', 'ok', 'version']);
  // from another address: /metrics refused, /healthz says only that the server is up
  const other = { localAddress: '127.0.0.2' };
  const m2 = await getFrom(srv.port, '/metrics', other);
  assert.equal(m2.status, 403);
  assert.doesNotMatch(m2.text, /tabled_|gm\.set/);
  const h2 = await getFrom(srv.port, '/healthz', other);
  assert.equal(h2.status, 200);
  assert.deepEqual(JSON.parse(h2.text), { ok: true });
  // a client behind a trusted proxy (127.0.0.1) is the address the proxy names, not loopback
  const proxied = { headers: { 'X-Forwarded-For': '203.0.113.9' } };
  assert.equal((await getFrom(srv.port, '/metrics', proxied)).status, 403);
  assert.deepEqual(JSON.parse((await getFrom(srv.port, '/healthz', proxied)).text), { ok: true });
  // ... and a client that is not a proxy cannot claim to be loopback
  assert.equal((await getFrom(srv.port, '/metrics', { ...other, headers: { 'X-Forwarded-For': '127.0.0.1' } })).status, 403);
  // the operator names another reader
  const allowed = await startServer(t, { args: ['--metrics-allow', '127.0.0.2'] });
  assert.equal((await getFrom(allowed.port, '/metrics', other)).status, 200);
  assert.equal((await getFrom(allowed.port, '/metrics')).status, 403, 'the list replaces the default');
});

test('item 7: a damaged database, or an empty one beside its WAL, is refused at start; nothing is changed', async (t) => {
  const srv = await startServer(t);
  const { gm, players } = await table(srv, ['Ann']);
  for (let i = 0; i < 30; i++) await players[0].client.cmd('roll', { expr: '2d6' });
  await closeAll(gm, players[0].client);
  await srv.kill('SIGTERM'); // a clean stop: everything is in the database file
  const good = fs.readFileSync(srv.db);

  // a page of noise where the seat tokens' b-tree begins (the database file is the host file:
  // the event log is in the campaign's own file, storage/README.md)
  const root = Number(srv.sqlite("SELECT rootpage FROM main.sqlite_schema WHERE name = 'tokens'"));
  const noisy = Buffer.from(good);
  const rand = Buffer.alloc(4096);
  for (let i = 0; i < rand.length; i++) rand[i] = (i * 131 + 7) & 0xff;
  rand.copy(noisy, (root - 1) * 4096);
  fs.writeFileSync(srv.db, noisy);
  await assert.rejects(srv.start(), /"code":3.*failed its integrity check/s);
  assert.ok(fs.readFileSync(srv.db).equals(noisy), 'the damaged file was not touched');
  assert.doesNotMatch(srv.stderr, /host token/);

  // a 0-byte database beside its write-ahead log (a copy onto a full disk)
  fs.writeFileSync(srv.db, '');
  fs.writeFileSync(`${srv.db}-wal`, good.subarray(0, 8192));
  await assert.rejects(srv.start(), /"code":3.*is empty but .*-wal holds/s);
  assert.equal(fs.statSync(srv.db).size, 0, 'no new database was made');
  fs.rmSync(`${srv.db}-wal`);

  // the good file starts
  fs.writeFileSync(srv.db, good);
  await srv.start();
  assert.equal((await srv.gmView()).state.log.length >= 30, true);
});

test('replay and export refuse a database that does not exist instead of making one', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-nodb-'));
  const db = path.join(dir, 'missing.db');
  for (const args of [['replay', '--db', db], ['export', '--db', db, '--campaign', 'c1']]) {
    const r = spawnSync(BIN, args, { encoding: 'utf8' });
    assert.equal(r.status, 3, `${args[0]}: ${r.stderr}`);
    assert.match(r.stderr, /no database at/);
    assert.equal(fs.existsSync(db), false, `${args[0]} made no file`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Opens a WebSocket as `token` from addr; resolves {client, first} (first: welcome or error). */
async function helloFrom(srv, token, addr) {
  const c = await srv.connect({ localAddress: addr });
  const first = await c.hello(token);
  return { client: c, first };
}

test('item 4: one player link cannot hold every place; other seats still get in', async (t) => {
  const srv = await startServer(t, { args: ['--max-connections', '64'] });
  const { gm, players } = await table(srv, ['Ann', 'Bob']);
  const open = [gm, ...players.map((p) => p.client)];
  t.after(() => closeAll(open));
  const [ann, bob] = players;
  let welcomed = 1; // Ann's own socket from table()
  let refused = 0;
  for (let i = 0; i < 40; i++) {
    const { client, first } = await helloFrom(srv, ann.token, `127.0.0.${2 + (i % 5)}`);
    open.push(client);
    if (first.t === 'welcome') welcomed++;
    else {
      assert.equal(first.code, 'rate_limited', first.raw);
      assert.doesNotMatch(first.message, /_/);
      assert.equal((await client.waitClosed()).code, 1013);
      refused++;
    }
  }
  assert.equal(welcomed, 8, `one link is welcomed on 8 connections at most (${welcomed})`);
  const [bob2, bw] = await srv.hello(bob.token);
  open.push(bob2);
  assert.equal(bw.t, 'welcome', 'another seat still gets in');
  const c = await srv.connect({ localAddress: '127.0.0.9' });
  open.push(c);
  assert.ok((await c.join(srv.joinCode, 'Cyd')).joined, 'and a new player joins');
  t.diagnostic(`40 more sockets with one player link: ${welcomed - 1} welcomed, ${refused} refused`);
});

test('item 4: one address cannot make seats without end, nor a table past --max-seats', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  let made = 0;
  let refusal = null;
  for (let i = 0; i < 30 && !refusal; i++) {
    const c = await srv.connect({ localAddress: '127.0.0.5' });
    const r = await c.join(srv.joinCode, `Bot ${i}`);
    if (r.joined) made++;
    else refusal = r.error;
    await c.close();
  }
  assert.equal(made, 20, 'an address makes 20 seats, then waits');
  assert.equal(refusal?.code, 'rate_limited', JSON.stringify(refusal));
  assert.match(refusal.message, /try again in \d+ minutes/);
  const c = await srv.connect({ localAddress: '127.0.0.6' });
  t.after(() => closeAll(c));
  assert.ok((await c.join(srv.joinCode, 'Ann')).joined, 'another address still joins');

  const small = await startServer(t, { args: ['--max-seats', '3'] });
  const seats = [];
  for (let i = 0; i < 4; i++) {
    const p = await small.connect({ localAddress: `127.0.1.${i + 1}` });
    seats.push(p);
    const r = await p.join(small.joinCode, `P${i}`);
    if (i < 3) assert.ok(r.joined, JSON.stringify(r));
    else {
      assert.equal(r.error?.code, 'conflict', JSON.stringify(r));
      assert.match(r.error.message, /table is full/);
    }
  }
  await closeAll(seats);
  assert.equal(Object.keys((await small.gmView()).state.seats).length, 4, 'the GM and 3 players');
});

test('item 4: 1100 raw TCP sockets at an open-file limit of 1024 take no player\'s place', async (t) => {
  const wrapper = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-nofile-')), 'tabled');
  fs.writeFileSync(wrapper, `#!/bin/sh\nulimit -n 1024 || exit 3\nexec "${BIN}" "$@"\n`, { mode: 0o755 });
  const srv = await startServer(t, { bin: wrapper });
  const { gm, players } = await table(srv, ['Ann']);
  const open = [gm, players[0].client];
  t.after(() => closeAll(open));
  const socks = [];
  t.after(() => socks.forEach((s) => s.destroy()));
  // Opens per sockets from each address and returns how many the server still holds once it
  // has caught up: it closes a refused one at once, but on a loaded machine "at once" may be
  // seconds behind 1 100 connects, so the count is polled (up to 5 s, below lws's 10 s idle
  // drop) until it is at most `until`, or, when until is not given, taken after 300 ms.
  const flood = async (addrs, per, until) => {
    let live = 0;
    await Promise.all(addrs.flatMap((a) => Array.from({ length: per }, () => new Promise((resolve) => {
      const s = net.connect({ port: srv.port, host: '127.0.0.1', localAddress: a });
      socks.push(s);
      s.once('connect', () => { live++; s.once('close', () => live--); resolve(); });
      s.on('error', () => resolve());
    }))));
    const t0 = Date.now();
    do await sleep(300);
    while (until !== undefined && live > until && Date.now() - t0 < 5000);
    return live;
  };
  const one = await flood(['127.0.0.9'], 1100, 32);
  assert.ok(one <= 32, `one address holds at most --max-per-address sockets (${one})`);
  const [ann2, w] = await srv.hello(players[0].token, undefined); // from another address: at once
  open.push(ann2);
  assert.equal(w.t, 'welcome');
  assert.equal((await ann2.cmd('roll', { expr: '1d6' })).t, 'ack', 'and plays');
  socks.forEach((s) => s.destroy());
  socks.length = 0;
  // many addresses: the descriptors kept in reserve keep the server serving (no EMFILE), and
  // the silent sockets are dropped after lws's 10 s, when players get in again
  const many = await flood(Array.from({ length: 40 }, (_, i) => `127.0.2.${i + 1}`), 30);
  assert.equal(players[0].client.isOpen, true, 'a seated player keeps its place');
  assert.equal((await players[0].client.cmd('roll', { expr: '1d6' })).t, 'ack', 'and plays');
  const t0 = Date.now();
  let back = null;
  while (!back && Date.now() - t0 < 20000) {
    try {
      const [c, w2] = await srv.hello(players[0].token);
      open.push(c);
      if (w2.t === 'welcome') back = c;
    } catch {
      await sleep(250);
    }
  }
  assert.ok(back, 'a player gets in once the silent sockets are dropped');
  const took = Date.now() - t0;
  await srv.waitHealthy(20000);
  assert.doesNotMatch(srv.stderr, /accept: errno 24|Too many open files/);
  t.diagnostic(`1100 sockets from one address: ${one} held, a player got in at once; 1200 from 40 addresses: ${many} held, the seated player played on, a new connection got in after ${took} ms`);
});

test('item 6: rolling backups survive a clock that ran ahead (the order of writing counts, not the stamp)', async (t) => {
  const srv = await startServer(t, { args: ['--backup-every', '1s', '--backup-keep', '3'] });
  const dir = `${srv.db}.backups`;
  fs.mkdirSync(dir, { recursive: true });
  // backups an earlier run wrote while the clock was a thousand years ahead
  for (const stamp of ['29990101-000000-001', '29990101-000000-002', '29990101-000000-003'])
    fs.writeFileSync(path.join(dir, `tabled-${stamp}.db`), 'stale');
  const { gm } = await table(srv, []);
  t.after(() => closeAll(gm));
  const deadline = Date.now() + 20000;
  while ((srv.stderr.match(/backup written to /g) || []).length < 4 && Date.now() < deadline) await sleep(100);
  const metrics = (await srv.get('/metrics')).text;
  await srv.kill('SIGTERM');
  const written = [...srv.stderr.matchAll(/backup written to (\S+)/g)].map((m) => path.basename(m[1]));
  assert.ok(written.length >= 4, `backups written: ${written}`);
  const kept = fs.readdirSync(dir).sort();
  assert.deepEqual(kept, written.slice(-3).sort(), 'the three written last are kept; the stale ones went first');
  for (const f of kept)
    assert.equal(execFileSync('sqlite3', [path.join(dir, f), 'PRAGMA integrity_check'], { encoding: 'utf8' }).trim(), 'ok');
  assert.match(metrics, /^tabled_backups_total\{outcome="failed"\} 0$/m);
});

test('item 10: a late joiner\'s hello {last_seq: 0} gets the state as it is, not the history before its seat', async (t) => {
  const srv = await startServer(t);
  const [gm] = await srv.hello(srv.gmToken);
  t.after(() => closeAll(gm));
  await gm.cmd('gm.set', { key: 'plot', value: 'the butler did it' });
  await gm.cmd('gm.reveal', { path: '/gm/notes/plot' });
  await gm.cmd('gm.hide', { path: '/gm/notes/plot' });
  const bob = await srv.connect();
  const j = await bob.join(srv.joinCode, 'Bob');
  assert.ok(j.joined);
  const atJoin = j.welcome.seq;
  for (const last of [0, 1, atJoin - 1]) {
    const c = await srv.connect();
    const w = await c.hello(j.joined.token, last);
    await c.ping();
    assert.equal(w.resume, undefined, `last_seq ${last}: a fresh state, not a resume`);
    assert.equal(c.of('diff').length, 0);
    assert.ok(!c.frames.some((f) => f.includes('butler')), `last_seq ${last}: the hidden note was replayed`);
    await c.close();
  }
  // from its own welcome on it resumes as before
  await gm.cmd('roll', { expr: '1d6' });
  const c = await srv.connect();
  const w = await c.hello(j.joined.token, atJoin);
  await c.ping();
  assert.equal(w.resume, true);
  assert.equal(c.of('diff').length, 1);
  await closeAll(c, bob);
});

test('item 8: after a restore from a backup, an open page gets the restored state, not diffs onto its old history', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann']);
  const ann = players[0];
  for (let i = 0; i < 3; i++) await ann.client.cmd('roll', { expr: '1d6' });
  const copy = path.join(srv.dir, 'copy.db');
  execFileSync(BIN, ['backup', '--db', srv.db, copy]);
  const lost = [];
  for (let i = 0; i < 5; i++) lost.push((await ann.client.cmd('roll', { expr: '1d100+1000' })).result.total);
  await ann.client.ping();
  const page = { state: structuredClone(ann.client.state), seq: ann.client.seq, history: ann.client.history };
  assert.ok(page.history, 'the welcome names the history');
  // a kill -9 and a restart keep the history: the page resumes
  await closeAll(gm, ann.client);
  await srv.kill('SIGKILL');
  await srv.start();
  const [again, w0] = await srv.resume(ann.token, page);
  assert.equal(w0.resume, true, 'same history: a resume');
  assert.equal(w0.history, page.history);
  await again.close();
  // the operator restores the backup (README, "Restore") and the table plays on
  await srv.kill('SIGTERM');
  fs.copyFileSync(copy, srv.db);
  for (const f of [`${srv.db}-wal`, `${srv.db}-shm`]) fs.rmSync(f, { force: true });
  await srv.start();
  const [gm2] = await srv.hello(srv.gmToken);
  for (let i = 0; i < 8; i++) await gm2.cmd('roll', { expr: '1d4' }); // past the page's seq
  // the page that was open resumes: it must not keep the rolls of the other history
  const [back, w] = await srv.resume(ann.token, page);
  t.after(() => closeAll(gm2, back));
  await back.ping();
  assert.notEqual(w.history, page.history, 'a restored copy is another history');
  assert.equal(w.resume, undefined, 'a fresh state, not diffs onto the old one');
  const totals = back.state.log.map((e) => e.roll?.total);
  for (const x of lost) assert.ok(!totals.includes(x), `the lost roll ${x} is gone from the page`);
  assert.deepEqual(back.state, (await srv.connect().then(async (c) => { const r = await c.hello(ann.token); await c.close(); return r.state; })));
});
