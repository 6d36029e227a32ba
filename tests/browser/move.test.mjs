// A campaign moved live between processes, in Chromium (issue 28 item 4): three tabled processes
// (--shard a, b, c) behind a real nginx running deploy/nginx-tabled-shards.conf. The GM's page and
// a player's page sit at a table of process b; the host releases it (campaign.release), the pages
// are told the table is moving and keep retrying with their tokens; a roll made meanwhile waits in
// the player's outbox; the operator exports the campaign from b, imports it into c and gives it a
// map line of its own (nginx reload). Both pages come back by themselves, on c, with the roll made
// once, and the same state as a fresh page there.
// Run alone: cd tests && node --test browser/move.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { launch, waitFor } from './pages.mjs';
import { BIN, Client } from '../integration/lib.mjs';
import { skipNginx as skip } from '../integration/nginx.mjs';
import { routeCampaign, startRouter, startShards } from '../integration/shards.mjs';

test('a table moved from process b to c: its open pages reconnect there by themselves, nothing lost', { skip, timeout: 300000 }, async (t) => {
  const servers = await startShards(t, ['a', 'b', 'c'], { args: ['--rate-limit', '0'] });
  const [, b, c] = servers;
  const proxy = await startRouter(t, servers);
  const { ca, origin } = proxy;
  const ws = (key) => `wss://127.0.0.1:${proxy.httpsPort}/c/${key}/ws`;
  const SLOW = 60000;
  const browser = await launch();
  t.after(() => browser.close());
  const context = () => browser.newContext({ ignoreHTTPSErrors: true });

  const host = await Client.connect(null, { url: ws('b'), ca, origin, name: 'host-b' });
  assert.equal((await host.hello(b.hostToken)).t, 'welcome');
  const made = await host.cmd('campaign.create', { name: 'Moving', system: 'generic' });
  assert.equal(made.t, 'ack', made.raw);
  const X = made.result.campaign;

  const gm = await (await context()).newPage();
  await gm.goto(`${origin}/c/${X}/#token=${made.result.gm_token}`);
  const ann = await (await context()).newPage();
  await ann.goto(`${origin}/c/${X}/#join=${made.result.join_code}`);
  await ann.locator('#join-name').fill('Ann');
  await ann.locator('#join-submit').click();
  const live = (p) => p.evaluate(() => window.tabled.conn.status === 'connected' && window.tabled.conn.pending().length === 0);
  await waitFor('both pages at the table', async () => (await live(gm)) && (await live(ann)), SLOW);
  const annToken = await ann.evaluate(() => window.tabled.conn.token);
  assert.ok(annToken);
  const roll = (p, expr) => p.evaluate((e) => window.tabled.conn.send('roll', { expr: e }), expr);
  await roll(ann, '1d6');
  await waitFor('the first roll acknowledged', () => live(ann), SLOW);

  // b lets the table go: both pages are told it is moving, and keep their tokens
  const rel = await host.cmd('campaign.release', { campaign: X, to: 'c' });
  assert.equal(rel.t, 'ack', rel.raw);
  for (const p of [gm, ann]) {
    await waitFor('the page says the table is moving', async () => /moving to another server/.test(await p.locator('#status-detail').textContent()), SLOW);
    assert.notEqual(await p.evaluate(() => window.tabled.conn.status), 'idle');
  }
  assert.equal(await ann.evaluate(() => window.tabled.conn.token), annToken, 'the token is kept');
  // a roll made while the table is between processes waits in the outbox
  const waiting = await roll(ann, '2d8');
  assert.equal(await ann.evaluate(() => window.tabled.conn.pending().length), 1);

  // the operator: export from b, import into c, the map line, a reload
  const file = path.join(b.dir, `${X}.json`);
  execFileSync(BIN, ['export', '--db', b.db, '--campaign', X, '--out', file]);
  execFileSync(BIN, ['import', '--db', c.db, file]);
  routeCampaign(proxy, X, 'c');

  // both pages come back by themselves (their backoff), the roll that waited is made once
  await waitFor('both pages back, the outbox empty', async () => (await live(gm)) && (await live(ann)), SLOW);
  const fresh = await Client.connect(null, { url: ws(X), ca, origin, name: 'fresh' });
  const fw = await fresh.hello(made.result.gm_token);
  assert.equal(fw.t, 'welcome', fw.raw);
  assert.equal(c.sqliteCampaign(X, "SELECT count(*) FROM events WHERE op = 'roll'"), '2', 'each roll once');
  assert.ok(c.sqliteCampaign(X, "SELECT count(*) FROM events WHERE cmd_id = '" + waiting + "'") === '1', 'the waiting roll, made on c');
  await waitFor('the GM page shows what c has', async () => JSON.stringify(await gm.evaluate(() => window.tabled.conn.state)) === JSON.stringify(fw.state), SLOW);
  await fresh.close();
  await host.close();
  await Promise.all([gm, ann].map((p) => p.context().close()));
  await new Promise((r) => setTimeout(r, 300)); // nginx logs a WebSocket when it closes
  const ports = proxy.accessLog().filter((l) => l.uri.startsWith(`/c/${X}/ws`)).map((l) => l.upstream);
  assert.ok(ports.includes(`127.0.0.1:${c.port}`), 'the pages reached c');
  assert.ok(ports.every((p) => p === `127.0.0.1:${b.port}` || p === `127.0.0.1:${c.port}`), ports.join(' '));
});
