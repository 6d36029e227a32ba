// Backups a GM can trust (issue 12): `tabled backup` copies the database while the server keeps
// writing, and the copy is a database `tabled serve` starts from; `--backup-every` writes rolling
// backups from a worker thread and keeps the newest N; `tabled export` / `tabled import` move one
// campaign, with its seats' token hashes, to another server.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { BIN, Server, startServer, table, closeAll, sleep } from './lib.mjs';

const run = promisify(execFile);

/** Streams rolls from every client until stop() is called; returns {acks, stop}. */
function load(clients) {
  const acks = [];
  let stopped = false;
  const loops = clients.map(async (c, k) => {
    for (let i = 0; !stopped; i++) {
      const r = await c.cmd('roll', { expr: `1d6+${i}` }, `load-${k}-${i}`).catch(() => null);
      if (r?.t === 'ack') acks.push(r);
    }
  });
  return {
    acks,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

const sqlite = (db, sql) => execFileSync('sqlite3', [db, sql], { encoding: 'utf8' }).trim();
const replay = (db) => execFileSync(BIN, ['replay', '--db', db], { encoding: 'utf8' }).split('\n').filter(Boolean).map((l) => JSON.parse(l));

test('tabled backup under write load: every copy is complete, checked, and a server starts from it', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann', 'Bo', 'Cy']);
  t.after(() => closeAll(gm, players.map((p) => p.client)));
  const l = load(players.map((p) => p.client));
  const copies = [];
  try {
    for (let i = 0; i < 5; i++) {
      await sleep(150);
      const seqBefore = Math.max(0, ...l.acks.map((a) => a.seq));
      const dest = path.join(srv.dir, `copy-${i}.db`);
      const { stdout } = await run(BIN, ['backup', '--db', srv.db, dest]);
      assert.match(stdout, /backup of .* written to/);
      copies.push({ dest, seqBefore });
    }
  } finally {
    await l.stop();
  }
  assert.ok(l.acks.length > 50, `the load ran (${l.acks.length} acks)`);
  const live = await srv.gmView();
  for (const { dest, seqBefore } of copies) {
    assert.equal(sqlite(dest, 'PRAGMA integrity_check'), 'ok', dest);
    assert.deepEqual(fs.readdirSync(srv.dir).filter((f) => f.includes('.tmp-')), [], 'no temporary file left');
    const [camp] = replay(dest);
    assert.ok(camp.seq >= seqBefore, `the copy holds every command acked before it started (${camp.seq} >= ${seqBefore})`);
    assert.ok(camp.seq <= live.seq);
  }
  // a backup refuses to overwrite
  await assert.rejects(run(BIN, ['backup', '--db', srv.db, copies[0].dest]), /already exists/);
  // the last copy is a database `tabled serve` starts from, with the state replay gives
  const last = copies[copies.length - 1].dest;
  const want = replay(last)[0];
  const dir2 = fs.mkdtempSync(path.join(srv.dir, 'restore-'));
  fs.copyFileSync(last, path.join(dir2, 't.db'));
  const restored = new Server({ dir: dir2, args: ['--rate-limit', '0'] });
  t.after(() => restored.stop());
  await restored.start();
  assert.equal(restored.campaignId, want.campaign);
  const view = await restored.gmView();
  assert.equal(view.seq, want.seq);
  assert.deepEqual(view.state, want.state);
  // and a player's token still works there
  const [ann, w] = await restored.hello(players[0].token);
  t.after(() => ann.close());
  assert.equal(w.t, 'welcome', JSON.stringify(w));
});

test('--backup-every writes rolling backups off the loop and keeps the newest N', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0', '--backup-every', '1s', '--backup-keep', '2'] });
  const { gm, players } = await table(srv, ['Ann']);
  t.after(() => closeAll(gm, players[0].client));
  const l = load([players[0].client]);
  const pings = [];
  const deadline = Date.now() + 4500;
  while (Date.now() < deadline) {
    const t0 = Date.now();
    await gm.ping();
    pings.push(Date.now() - t0);
    await sleep(50);
  }
  await l.stop();
  const metrics = (await srv.get('/metrics')).text;
  await srv.kill('SIGTERM'); // no backup is written (or pruned) while the files are looked at
  const dir = `${srv.db}.backups`;
  const files = fs.readdirSync(dir).filter((f) => /^tabled-\d{8}-\d{6}-\d{3}-n\d+\.db$/.test(f)).sort();
  assert.equal(files.length, 2, `the newest 2 kept: ${fs.readdirSync(dir)}`);
  const written = (srv.stderr.match(/backup written to /g) || []).length;
  assert.ok(written >= 3, `a backup every second (${written} written)`);
  for (const f of files) {
    assert.equal(sqlite(path.join(dir, f), 'PRAGMA integrity_check'), 'ok');
    assert.ok(replay(path.join(dir, f))[0].seq > 1);
  }
  const ok = Number(/^tabled_backups_total\{outcome="ok"\} (\d+)$/m.exec(metrics)?.[1]);
  assert.ok(ok >= 3 && ok <= written, `/metrics counts the backups: ${ok} (${written} written)`);
  const last = Number(/^tabled_backup_last_success_seconds (\d+)$/m.exec(metrics)?.[1]);
  assert.ok(Math.abs(last - Date.now() / 1000) < 30, `last backup time: ${last}`);
  // the loop kept answering while the worker copied
  assert.ok(Math.max(...pings) < 2000, `pings answered during backups (slowest ${Math.max(...pings)} ms)`);
});

test('export / import move a campaign between servers: seats keep their links, re-sent ids their acks', async (t) => {
  const a = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(a, ['Ann', 'Bo']);
  const ann = players[0];
  t.after(() => closeAll(gm, players.map((p) => p.client)));
  const ack = await ann.client.cmd('roll', { expr: '2d6+1' }, 'moved-1');
  assert.equal(ack.t, 'ack');
  await gm.cmd('roll', { expr: '1d20', secret: true }, 'gm-secret');
  const file = path.join(a.dir, 'camp.json');
  // exported while the server runs
  await run(BIN, ['export', '--db', a.db, '--campaign', a.campaignId, '--out', file]);
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(doc.format, 'tabled-campaign');
  const text = fs.readFileSync(file, 'utf8');
  assert.ok(!text.includes(ann.token) && !text.includes(a.gmToken), 'no token in the file, only hashes');
  const liveA = await a.gmView();

  // server B: a database of its own with another campaign; import while it is stopped
  const b = new Server({ args: ['--rate-limit', '0'] });
  t.after(() => b.stop());
  await b.start();
  await b.kill('SIGTERM');
  const out = execFileSync(BIN, ['import', '--db', b.db, file], { encoding: 'utf8' });
  assert.match(out, new RegExp(`imported campaign ${a.campaignId}`));
  await b.start();
  assert.ok(b.banner.campaigns.some((c) => c.id === a.campaignId), 'B lists the moved campaign');
  const [annB, w] = await b.hello(ann.token);
  t.after(() => annB.close());
  assert.equal(w.t, 'welcome', JSON.stringify(w));
  assert.equal(w.seq, liveA.state.gm.player_seq, "a player's seq: what players saw (the GM's secret roll not)");
  const gmB = b.banner.campaigns.find((c) => c.id === a.campaignId).gmToken;
  assert.deepEqual((await b.gmView(gmB)).state, liveA.state, 'the same state, secrets included, for the GM');
  const again = await annB.cmd('roll', { expr: '2d6+1' }, 'moved-1');
  assert.equal(again.raw, ack.raw, 'a re-sent id gets its original ack on the new server');
  const next = await annB.cmd('roll', { expr: '1d4' });
  assert.equal(next.seq, liveA.state.gm.player_seq + 1, 'the log goes on from where it was');

  // refused imports change nothing
  await b.kill('SIGTERM');
  const count = () => b.sqlite('SELECT count(*) FROM campaigns') + '/' + b.sqlite('SELECT count(*) FROM events');
  const before = count();
  await assert.rejects(run(BIN, ['import', '--db', b.db, file]), /already in this database/);
  const bad = structuredClone(doc);
  bad.campaign.id = 'cnewid0001';
  bad.events.splice(2, 1); // a gap
  fs.writeFileSync(path.join(a.dir, 'bad.json'), JSON.stringify(bad));
  await assert.rejects(run(BIN, ['import', '--db', b.db, path.join(a.dir, 'bad.json')]), /numbered from 1 without gaps/);
  fs.writeFileSync(path.join(a.dir, 'junk.json'), '{"format":"something else"}');
  await assert.rejects(run(BIN, ['import', '--db', b.db, path.join(a.dir, 'junk.json')]), /not a tabled campaign export/);
  assert.equal(count(), before, 'nothing written by the refused imports');
  await assert.rejects(run(BIN, ['export', '--db', a.db, '--campaign', 'cnosuchone']), /no campaign/);
});
