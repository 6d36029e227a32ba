// An exposed server that one player link or one stranger cannot take down (issue 27): what a
// player holding a link could do to the server, its disk or the other seats, tried for real.
// The proxy-side attacks (join guessing and places through nginx) are in proxy_limits.test.mjs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Server, startServer, table, closeAll, mountTmpfs, umountTmpfs, fill } from './lib.mjs';

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
