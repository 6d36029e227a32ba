// Campaigns as shards, in Chromium (issue 28 items 2 and 5): two tabled processes (--shard a, b)
// behind a real nginx running deploy/nginx-tabled-shards.conf. The host opens process b's console
// (/c/b/#host=…) and makes an invitation link in "Invite a GM"; a new GM opens it in another
// browser, names a campaign and becomes its GM; the page moves to /c/<campaign>/ and its join
// link carries the key; a player opens that link, joins, rolls, and reloads into the same seat.
// Every WebSocket of the new campaign went to process b (nginx's log), and the host token never
// reached the new GM's browser.
// Run alone: cd tests && node --test browser/shards.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, waitFor, instrument, parsed } from './pages.mjs';
import { skipNginx as skip } from '../integration/nginx.mjs';
import { startRouter, startShards } from '../integration/shards.mjs';

test('an invitation link behind the router: a new GM opens a table on process b; a player joins by its keyed link', { skip, timeout: 300000 }, async (t) => {
  const servers = await startShards(t, ['a', 'b']);
  const b = servers[1];
  const proxy = await startRouter(t, servers);
  const origin = `https://127.0.0.1:${proxy.httpsPort}`;
  const browser = await launch();
  t.after(() => browser.close());
  const SLOW = 60000; // a step may wait this long on a loaded machine
  const context = () => browser.newContext({ ignoreHTTPSErrors: true });

  // the host: process b's console, through the router
  const host = await (await context()).newPage();
  await host.goto(`${origin}/c/b/#host=${b.hostToken}`);
  await waitFor('the console opened b\'s first campaign', async () => new URL(host.url()).pathname === `/c/${b.campaignId}/`, SLOW);
  assert.match(b.campaignId, /^b-c[0-9a-z]{9}$/);
  await host.locator('#invite-gm-make').waitFor({ state: 'attached', timeout: SLOW });
  const admin = host.locator('details.campaign-admin');
  if ((await admin.count()) && !(await admin.evaluate((d) => d.open))) await admin.locator('summary').click();
  await host.locator('#invite-gm-campaigns').fill('1');
  await host.locator('#invite-gm-make').click();
  await host.locator('.invite-gm-link').waitFor({ timeout: SLOW });
  const invite = await host.locator('.invite-gm-link').inputValue();
  assert.match(invite, new RegExp(`^${origin}/c/${b.campaignId}/#create=[A-Za-z0-9_-]{22}$`));
  // each process's console keeps its own host token in the browser (one site, several processes)
  assert.equal(await host.evaluate(() => localStorage.getItem('tabled.host.b')), b.hostToken);
  assert.equal(await host.evaluate(() => localStorage.getItem('tabled.host')), null);

  // the new GM, in a browser of their own
  const dana = await (await context()).newPage();
  const rec = instrument(dana, 'dana');
  await dana.goto(invite);
  await dana.locator('#create-name').fill('Thursday');
  await waitFor('the rule systems', async () => (await dana.locator('#create-system option').count()) > 1, SLOW);
  await dana.locator('#create-system').selectOption('cot');
  await dana.locator('#create-submit').click();
  await waitFor('Dana at her table', async () => (await dana.locator('#campaign-name').textContent()) === 'Thursday', SLOW);
  const welcome = parsed(rec.received).filter((m) => m.t === 'welcome' && m.campaign).at(-1);
  assert.equal(welcome.seat.role, 'gm');
  const id = welcome.campaign.id;
  assert.match(id, /^b-c[0-9a-z]{9}$/, 'made by process b');
  await waitFor('the page at the campaign\'s path', async () => new URL(dana.url()).pathname === `/c/${id}/`, SLOW);
  assert.ok(!rec.received.some((f) => f.includes(b.hostToken)), 'the host token never reached the new GM');
  // her invite shows the join link with the campaign's key
  const link = await dana.locator('#invite-link').inputValue();
  const code = await dana.locator('#invite-code').textContent();
  assert.equal(link, `${origin}/c/${id}/#join=${code}`);

  // a player by the keyed join link; a roll; a reload keeps the seat
  const ann = await (await context()).newPage();
  await ann.goto(link);
  await ann.locator('#join-name').fill('Ann');
  await ann.locator('#join-submit').click();
  await waitFor('Ann seated', async () => (await ann.evaluate(() => window.tabled.conn.seat?.role)) === 'player', SLOW);
  assert.equal(new URL(ann.url()).pathname, `/c/${id}/`);
  await ann.reload();
  await waitFor('Ann back in her seat', async () => (await ann.evaluate(() => window.tabled.conn.seat?.name)) === 'Ann', SLOW);

  await Promise.all([host, dana, ann].map((p) => p.context().close()));
  await new Promise((r) => setTimeout(r, 300)); // nginx logs a WebSocket when it closes
  const mine = proxy.accessLog().filter((l) => l.uri.startsWith(`/c/${id}/ws`) || l.uri.startsWith(`/c/${id}/api/`));
  assert.ok(mine.length >= 3, `${mine.length} requests of the new campaign`);
  for (const l of mine) assert.equal(l.upstream, `127.0.0.1:${b.port}`, `${l.uri} went to b`);
});
