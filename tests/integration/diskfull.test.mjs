// Disk full (issue 12): the database lives on a small tmpfs made by the test; mid-load the
// filesystem is filled. Commands are then refused with a clear error and the server stays up;
// nothing acknowledged is lost; when space returns the refused commands, re-sent, are applied
// once, and after a kill -9 everything acked is still there. Needs root (mount); skipped with a
// message otherwise.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Server, sleep, mountTmpfs, fill } from './lib.mjs';
import { rng, setUp, startLoad, settle, drain, recover, verify, tearDown } from './chaos.mjs';

// One table commits its file on the loop's thread; several commit theirs on the store's committer
// as well (storage/store.c, issue 26): a file that fails there fails its own table's commands alone.
for (const shape of [
  { tables: 1, seats: 3 },
  { tables: 6, seats: 2 },
])
test(`disk full mid-load (${shape.tables} table${shape.tables > 1 ? 's' : ''}): commands refused clearly, nothing acked lost, recovery when space returns`, async (t) => {
  const mnt = mountTmpfs('16m');
  if (!mnt || mnt.error) {
    t.skip(`cannot mount a tmpfs here (${mnt?.error}); this test needs root`);
    return;
  }
  const srv = new Server({ dir: mnt, args: ['--rate-limit', '0', '--snapshot-every', '20'] });
  let tab = null;
  t.after(async () => {
    if (tab) await tearDown(tab);
    await srv.stop().catch(() => {});
    try {
      execFileSync('umount', [mnt]);
      fs.rmSync(mnt, { recursive: true, force: true });
    } catch {
      /* left for the OS */
    }
  });
  await srv.start();
  const rand = rng(7);
  tab = await setUp(srv, shape);

  const stop = startLoad(tab);
  await sleep(300);
  const filler = path.join(mnt, 'filler');
  const filled = fill(filler);
  // the load goes on against a full disk until commands are refused
  const deadline = Date.now() + 15000;
  while (tab.ledger.nacks.length < 5 && Date.now() < deadline) {
    fill(path.join(mnt, `filler-${Date.now()}`)); // whatever SQLite freed meanwhile
    await sleep(50);
  }
  await stop();
  await settle(tab); // every reply of the full-disk period is in
  const refused = tab.ledger.nacks.map((raw) => JSON.parse(raw));
  assert.ok(refused.length >= 5, `commands were refused on the full disk (${refused.length})`);
  for (const n of refused) {
    assert.equal(n.code, 'internal', JSON.stringify(n));
    assert.match(n.message, /disk is full/);
    assert.doesNotMatch(n.message, /_|SQLITE|\//, 'a sentence for a person');
  }
  assert.equal((await srv.get('/healthz')).status, 200, 'the server stays up');
  const ackedWhileFull = tab.seats.reduce((n, s) => n + s.acked.size, 0);

  // space returns: the refused commands, re-sent with their ids, are applied once
  for (const f of fs.readdirSync(mnt).filter((f) => f.startsWith('filler'))) fs.rmSync(path.join(mnt, f));
  tab.ledger.nacks = [];
  await drain(tab);
  const figures = await verify(srv, tab);
  assert.equal(figures.lost, 0);
  assert.equal(figures.duplicated, 0);
  assert.ok(figures.acked > ackedWhileFull, 'new commands are acked again');

  // and everything acked survives a kill -9
  await srv.kill('SIGKILL');
  await srv.restart();
  await recover(tab, rand);
  const after = await verify(srv, tab);
  assert.equal(after.lost, 0);
  assert.equal(after.duplicated, 0);
  t.diagnostic(`disk full, ${shape.tables} table(s) (16 MiB tmpfs, ${(filled / 1048576).toFixed(1)} MiB of filler): ${refused.length} commands refused with 'internal', ${after.acked} acked in all, 0 lost, 0 duplicated, integrity ok, replay == live`);
});
