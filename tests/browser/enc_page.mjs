// The browser side of the encounter panel tests (tests/browser/encounters.test.mjs,
// between_heimr_grimwire.test.mjs): a small WebSocket client for set-up that is not about the UI,
// page instrumentation (frames, page errors), clicking an action and waiting for its reply, log
// and stat checks in the pages, screenshots and the 360 px overflow check.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { startServer, repoRoot } from './server.mjs';
import { plain } from '../../web-static/js/words.js';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const ARTIFACTS = path.join(repoRoot, 'tests', 'artifacts');
export const STEP = { timeout: 120000 };

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function waitFor(what, fn, timeoutMs = 15000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

// ---- the API side: a small WebSocket client for the set-up that is not about the UI ----------

export class Api {
  static async open(url) {
    const c = new Api();
    c.ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, 'tabled.v1');
    c.n = 0;
    c.pending = new Map();
    c.queue = [];
    c.wake = null;
    c.ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      if ((m.t === 'ack' || m.t === 'nack') && c.pending.has(m.id)) {
        c.pending.get(m.id)(m);
        c.pending.delete(m.id);
      } else if (m.t === 'welcome' || m.t === 'joined' || m.t === 'error') {
        c.queue.push(m);
        c.wake?.();
      }
    });
    await new Promise((resolve, reject) => {
      c.ws.once('open', resolve);
      c.ws.once('error', reject);
    });
    return c;
  }

  async next() {
    while (!this.queue.length) await new Promise((r) => (this.wake = r));
    return this.queue.shift();
  }

  async hello(token) {
    this.ws.send(JSON.stringify({ t: 'hello', v: 1, token }));
    const w = await this.next();
    assert.equal(w.t, 'welcome', JSON.stringify(w));
    return w;
  }

  async join(code, name) {
    this.ws.send(JSON.stringify({ t: 'join', code, name }));
    const j = await this.next();
    assert.equal(j.t, 'joined', JSON.stringify(j));
    await this.next(); // welcome
    return j;
  }

  async ok(op, args = {}) {
    const id = `api-${++this.n}`;
    const reply = new Promise((r) => this.pending.set(id, r));
    this.ws.send(JSON.stringify({ t: 'cmd', id, op, args }));
    const m = await reply;
    assert.equal(m.t, 'ack', `${op} ${JSON.stringify(args)}: ${JSON.stringify(m)}`);
    if (Number.isInteger(m.seq)) this.seq = m.seq; // the last event this client made (a page reaches it: seqOf)
    return m.result;
  }

  close() {
    this.ws.close();
  }
}

// ---- the browser side ---------------------------------------------------------------------------

// Console errors that are expected: none for these pages (every system has its panel file).
export const EXPECTED_CONSOLE = /^$/;

export function instrument(page, label) {
  const rec = { label, received: [], sent: [], errors: [] };
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => rec.received.push(String(f.payload)));
    ws.on('framesent', (f) => rec.sent.push(String(f.payload)));
  });
  page.on('pageerror', (err) => rec.errors.push(String(err)));
  page.on('console', (msg) => {
    if ((msg.type() === 'error' || msg.type() === 'warning') && !EXPECTED_CONSOLE.test(msg.text())) rec.errors.push(`console ${msg.type()}: ${msg.text()}`);
  });
  return rec;
}

export const parsed = (frames) =>
  frames.flatMap((f) => {
    try {
      return [JSON.parse(f)];
    } catch {
      return [];
    }
  });

// Runs `fn` (a click) and returns the first `op` command it made and its reply.
export async function doing(rec, op, fn, timeoutMs = 15000) {
  const n = parsed(rec.sent).filter((m) => m.t === 'cmd' && m.op === op).length;
  await fn();
  const cmd = await waitFor(`a new ${op} cmd from ${rec.label}`, () => parsed(rec.sent).filter((m) => m.t === 'cmd' && m.op === op)[n]);
  const reply = await waitFor(
    `the reply to ${op} (${cmd.id}) on ${rec.label}`,
    () => parsed(rec.received).find((m) => (m.t === 'ack' || m.t === 'nack') && m.id === cmd.id),
    timeoutMs,
  );
  return { cmd, reply };
}

export async function acked(rec, op, fn) {
  const { cmd, reply } = await doing(rec, op, fn);
  assert.equal(reply.t, 'ack', `${rec.label} ${op} ${JSON.stringify(cmd.args)}: ${JSON.stringify(reply)}`);
  return { cmd, reply };
}

export const stateOf = (page) => page.evaluate(() => window.tabled.conn.state);
export const seqOf = (page) => page.evaluate(() => window.tabled.conn.seq);

// The number a command's log entries carry: a player's ack seq, the GM's ack `entry`
// (protocol/PROTOCOL.md, "Two counts"). A bare number is taken as one.
export const entryOf = (r) => (typeof r === 'number' ? r : Number.isInteger(r.entry) ? r.entry : r.seq);

// Whether the page has seen the event of reply (an ack, or {seq, entry}). A player's page counts
// player seqs; the GM's counts the campaign's, and knows the player seq it is at from
// /gm/player_seq: a GM's reply (it has `entry`) is waited for by its campaign seq, a player's by
// the player seq.
export const reached = (page, reply) =>
  page.evaluate(
    ([entry, campaign]) => {
      const c = window.tabled.conn;
      if (c.seat?.role !== 'gm') return c.seq >= entry;
      if (campaign !== null) return c.seq >= campaign;
      return (c.state?.gm?.player_seq ?? c.seq) >= entry;
    },
    [entryOf(reply), typeof reply === 'object' && Number.isInteger(reply.entry) ? reply.seq : null],
  );

// The combatant card of `name` in the page's encounter panel.
export const card = (page, name) => page.locator('#enc li.enc-card').filter({ has: page.locator('.enc-name', { hasText: name }) });

// The encounter action buttons the page shows now.
export const actionButtons = (page) => page.locator('#enc .enc-actions [data-action]').evaluateAll((els) => els.map((e) => e.dataset.action));

// Clicks the action's button, fills its form and submits it. fields: {name: value}; a <select>
// takes the option with that label, a checkbox is ticked for a truthy value. Returns the reply.
// An action with nothing to ask runs on the tap (no form); one under "More actions" is reached by
// opening it; "Who acts" is asked only when it is not obvious (else the actor is whoever has the
// turn, checked against `actor` through the log line the caller reads).
export async function act(page, rec, action, { actor, fields = {} } = {}) {
  const button = page.locator(`#enc .enc-actions [data-action="${action}"]`);
  if (await button.evaluate((el) => Boolean(el.closest('details:not([open])')))) await page.locator('#enc details.enc-more > summary').click();
  if (await button.evaluate((el) => el.classList.contains('one-tap'))) {
    assert.deepEqual(fields, {}, `${action} runs on one tap: no fields to fill`);
    const { cmd, reply } = await acked(rec, 'enc.act', () => button.click());
    assert.equal(cmd.args.action, action);
    return reply;
  }
  await button.click();
  const form = page.locator(`#enc form.enc-form[data-key="act-${action}"]`);
  await form.waitFor();
  if (actor && (await form.locator('select[name="actor"]').count())) await form.locator('select[name="actor"]').selectOption({ label: actor });
  const more = form.locator('details.more-options:not([open]) > summary');
  if (Object.keys(fields).length && (await more.count())) await more.click();
  for (const [name, v] of Object.entries(fields)) {
    const el = form.locator(`[name="${name}"]`);
    const kind = await el.evaluate((e) => (e.tagName === 'SELECT' ? 'select' : e.type));
    // A pick: by the value the server takes (a weapon's number, a skill's key) or by its label.
    if (kind === 'select') {
      const byValue = await el.evaluate((e, x) => Array.from(e.options).some((o) => o.value === x), String(v));
      await el.selectOption(byValue ? { value: String(v) } : { label: String(v) });
    }
    else if (kind === 'checkbox') await el.setChecked(Boolean(v));
    else await el.fill(String(v));
  }
  const { cmd, reply } = await acked(rec, 'enc.act', () => form.locator('button[type=submit]').click());
  assert.equal(cmd.args.action, action);
  await form.waitFor({ state: 'detached' });
  return reply;
}

// Every public log line of the event `seq` shows in both pages' logs; the GM-only lines of it
// only in the GM's. Returns the public texts.
export async function logShown(pages, reply) {
  const [gm, player] = pages;
  const seq = entryOf(reply);
  // Both pages, not only the one that did not act: the GM's state is read below, and the tap may
  // have been the player's (its ack reached the player's page, the GM's diff may still be on its way).
  for (const [who, p] of [['the GM', gm], ['the player', player]]) await waitFor(`${who}'s page to reach the event ${seq}`, () => reached(p, reply));
  const st = await stateOf(gm);
  const pub = st.log.filter((e) => e.seq === seq && e.kind === 'enc').map((e) => e.text);
  const secret = (st.gm?.log || []).filter((e) => e.seq === seq && e.kind === 'enc').map((e) => e.text);
  assert.ok(pub.length > 0, `event ${seq} wrote a public log line`);
  for (const p of pages) {
    const entries = p.locator(`#log li.entry[data-seq="${seq}"]:not(.secret)`);
    await waitFor(`the log lines of ${seq}`, async () => (await entries.count()) >= pub.length);
    const shown = await entries.allTextContents();
    // The page shows each line in plain words (no rulebook line reference: issue 15).
    for (const text of pub) assert.ok(shown.some((s) => s.includes(plain(text))), `${plain(text)} in ${shown.join(' | ')}`);
  }
  const playerLog = await player.locator('#log').textContent();
  for (const text of secret) assert.ok(!playerLog.includes(plain(text)), `the player's log shows the GM-only line ${text}`);
  if (secret.length) assert.ok((await gm.locator(`#log li.entry.secret[data-seq="${seq}"]`).count()) > 0, 'the GM sees the GM-only lines');
  return pub;
}

// The text of a stat (data-stat) on a combatant's card.
export const statText = (page, name, stat) => card(page, name).locator(`[data-stat="${stat}"]`).first().textContent();

// Waits until both pages show `expected` for the stat and returns it.
export async function statInBoth(pages, name, stat, expected) {
  for (const p of pages) {
    await waitFor(`${name} ${stat} to show ${expected}`, async () => ((await statText(p, name, stat)) || '').includes(expected));
  }
}

export async function shot(page, name, width) {
  const old = page.viewportSize();
  await page.setViewportSize({ width, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0)); // the sticky header belongs at the top
  await sleep(200);
  await page.screenshot({ path: path.join(ARTIFACTS, name), fullPage: true });
  // The panel alone, at full resolution.
  await page.locator('#enc').screenshot({ path: path.join(ARTIFACTS, name.replace(/\.png$/, '-panel.png')) });
  await page.setViewportSize(old);
}

export async function overflowAt360(page) {
  const old = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 900 });
  await sleep(200);
  // Open every action form in turn would be slow; the panel as it is now must fit.
  const px = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  const wide = await page.evaluate(() =>
    Array.from(document.querySelectorAll('#enc *'))
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName}.${el.className}`),
  );
  await page.setViewportSize(old);
  return { px, wide };
}

// ---- a table: the server, the campaign, the GM's page and a player's ----------------------------

// A table for `system`: the server (seeded), the campaign, the player "Ann" with the sample
// character `sample`, the prepared NPC (when `npc.sheet`), the GM's page at 1280 px and Ann's at
// 360 px, each connected.
export async function table(browser, { system, seed, sample, npc }) {
  const server = await startServer({ extraArgs: ['--seed', String(seed)] });
  const host = await Api.open(server.url);
  await host.hello(server.hostToken);
  const made = await host.ok('campaign.create', { name: `A ${system} fight`, system });
  const gmApi = await Api.open(server.url);
  await gmApi.hello(made.gm_token);
  const annApi = await Api.open(server.url);
  const joined = await annApi.join(made.join_code, 'Ann');
  const samples = await (await fetch(`${server.url}/samples/${system}`)).json();
  const sheet = samples.samples.find((s) => s.file.replace(/\.json$/, '') === sample)?.sheet;
  assert.ok(sheet, `sample ${sample} of ${system}: ${samples.samples.map((s) => s.file)}`);
  const pc = { name: sheet.name, id: (await annApi.ok('char.create', { name: sheet.name, sheet })).id };
  let npcChar = null;
  if (npc.sheet) npcChar = (await gmApi.ok('char.create', { name: npc.name, sheet: { ...npc.sheet, name: npc.name }, npc: true })).id;
  for (const c of [host, gmApi, annApi]) c.close();

  const ctx = {};
  const page = {};
  const rec = {};
  for (const [who, width, token] of [
    ['gm', 1280, made.gm_token],
    ['ann', 360, joined.token],
  ]) {
    ctx[who] = await browser.newContext({ viewport: { width, height: 900 } });
    page[who] = await ctx[who].newPage();
    rec[who] = instrument(page[who], `${system}/${who}`);
    await page[who].goto(`${server.url}/#token=${token}`);
    await page[who].locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
  }
  return { server, ctx, page, rec, pc, npcChar, seat: joined.seat, pages: [page.gm, page.ann] };
}

export async function finish(t, system) {
  await shot(t.page.gm, `enc-${system}-gm-1280.png`, 1280);
  await shot(t.page.ann, `enc-${system}-player-360.png`, 360);
  for (const [who, p] of Object.entries(t.page)) {
    const o = await overflowAt360(p);
    assert.deepEqual(o, { px: 0, wide: [] }, `${system}/${who}: horizontal overflow at 360 px`);
  }
  for (const who of ['gm', 'ann']) assert.deepEqual(t.rec[who].errors, [], `${system}/${who}: page errors`);
}

export async function teardown(t) {
  for (const c of Object.values(t?.ctx || {})) await c.close().catch(() => {});
  await t?.server?.stop().catch(() => {});
  if (t?.server?.dir) fs.rmSync(t.server.dir, { recursive: true, force: true });
}

/* Debian's headless Chromium, as every browser test launches it. */
export function launchBrowser(chromium) {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
