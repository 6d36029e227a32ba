// THE helper module of the browser tests (issue 23: one module, where pages.mjs, enc_page.mjs and
// ui.mjs each had their own waitFor, doing and shot). Every test file imports what it needs from
// here; where two tests meant different things by one name, each has its own name below and the
// test imports it under the name it uses (`shotAt as shot`).
//
//   waiting       sleep, waitFor, seen, STEP
//   the pages     launch, launchBrowser, instrument (errors) / instrumentAll (errors and warnings),
//                 parsed, doing, acked, tapped, arrived, stateOf, seqOf, entryOf, reached
//   what a person reads and touches
//                 JARGON, SHORT_FORMS, assertPlain, axe, noSideways, touchTargets, overflowAt360
//   screenshots   shot (a page or an element), shotPanel (the page and its encounter panel),
//                 shotAt (at a width: the page and the panel)
//   the encounter panel
//                 card, actionButtons, act, logShown, statText, statInBoth
//   a table       Api (a WebSocket client for the set-up), tableOnPages / atTable (made through
//                 the pages: the console link, the join link), tableByApi / finish / teardown
//                 (made through the API, then the pages opened)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import WebSocket from 'ws';
import { chromium } from 'playwright-core';
import { startServer, repoRoot } from './server.mjs';
import { plain } from '../../web-static/js/words.js';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const ARTIFACTS = path.join(repoRoot, 'tests', 'artifacts');
export const LAPTOP = { width: 1366, height: 768 };
export const PHONE = { width: 390, height: 844 };
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const STEP = { timeout: 120000 };

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls fn until it returns something truthy (returned), or throws after timeoutMs. */
export async function waitFor(what, fn, timeoutMs = 15000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/**
 * Waits until `page` has applied every event up to `seq` (its connection's seq): what a page shows
 * after a command made elsewhere (an Api client, another page) may be read only then. The maker's
 * ack can beat this page's diff, above all on a loaded machine. The event must change something
 * this page may see: a seat gets no diff for an event that changes nothing it may see.
 */
export async function seen(page, seq, what = `event ${typeof seq === 'object' ? seq.seq : seq}`) {
  // A reply (an ack) may be given instead of a number (reached, below). A number is a seq as the
  // page counts it (a player's page: its seat's seq; the GM's: the campaign's, protocol/PROTOCOL.md
  // "Two counts, and a seq per seat").
  if (typeof seq === 'object') return waitFor(`the page to see ${what}`, () => reached(page, seq));
  const at = () =>
    page.evaluate((n) => {
      const conn = window.tabled?.conn;
      if (!conn) return false;
      return conn.seq >= n;
    }, seq);
  await waitFor(`the page to see ${what}`, at);
}

/** What a person must never read: [regexp, what it is]. */
export const JARGON = [
  [/\(\d{3}:\d+/, 'a rulebook line reference'],
  [/\b\d{3}:\d+(-\d+)?\b/, 'a rulebook line reference'],
  [/\b[a-z]+_[a-z0-9_]+\b/, 'a snake_case word'],
  [/\b(bad_request|unauthorized|forbidden|not_found|conflict|rule|rate_limited|too_large|internal)\s*:/i, 'an error code'],
  [/\/(gm|enc|private)\/\w+/, 'a JSON path'],
  [/\b(null|undefined|NaN|\[object Object\])\b/, 'a programming value'],
];

/** Short forms the table was left to decode (issue 24): [regexp, what it is]. */
export const SHORT_FORMS = [
  [/\b[a-z] -?\d+, [a-z] -?\d+\b/, "a check's numbers by their parameter letters"],
  [/\b(str|dex|sta|int|soc|emp|cha|tog|agl|cor|mnd|per|rsn) [-+]?\d/, "a stat's short name in lower case"],
  [/\b\d+k\d+ → \d/, 'a rolled pool without its dice in words'],
];

/** The page's visible text (document.body.innerText) holds nothing of JARGON. */
export async function assertPlain(page, where) {
  const text = await page.evaluate(() => document.body.innerText);
  for (const [re, what] of JARGON) {
    const m = re.exec(text);
    assert.equal(m, null, `${where}: the page shows ${what}: "${m && text.slice(Math.max(0, m.index - 60), m.index + 60).replace(/\s+/g, ' ')}"`);
  }
}

/**
 * Records the page's WebSocket frames (and the sockets' URLs, across reloads), the requests it
 * makes, its page errors and console errors: {label, received, sent, sockets, requests, errors}.
 * `warnings`: console warnings count as errors too; `ignore`: console messages expected (a
 * regexp), left out.
 */
export function instrument(page, label, { warnings = false, ignore = null } = {}) {
  const rec = { label, received: [], sent: [], sockets: [], requests: [], errors: [] };
  page.on('websocket', (ws) => {
    rec.sockets.push(ws.url());
    ws.on('framereceived', (f) => rec.received.push(String(f.payload)));
    ws.on('framesent', (f) => rec.sent.push(String(f.payload)));
  });
  page.on('request', (req) => rec.requests.push(req.url()));
  page.on('pageerror', (err) => rec.errors.push(String(err)));
  page.on('console', (msg) => {
    const counts = msg.type() === 'error' || (warnings && msg.type() === 'warning');
    if (counts && !(ignore && ignore.test(msg.text()))) rec.errors.push(warnings ? `console ${msg.type()}: ${msg.text()}` : `console: ${msg.text()}`);
  });
  return rec;
}

/** The same, where a console warning is an error too (the encounter panel tests). */
export const instrumentAll = (page, label) => instrument(page, label, { warnings: true, ignore: /^$/ });

export const parsed = (frames) =>
  frames.flatMap((f) => {
    try {
      return [JSON.parse(f)];
    } catch {
      return [];
    }
  });

/**
 * Runs fn (a tap, a key press) and returns the first `op` command it made and its reply. `nth`:
 * the tap sends several commands of that op, the reply is of the nth (0: the first).
 */
export async function doing(rec, op, fn, { nth = 0, timeoutMs = 15000 } = {}) {
  const n = parsed(rec.sent).filter((m) => m.t === 'cmd' && m.op === op).length;
  await fn();
  const cmd = await waitFor(`a new ${op} cmd from ${rec.label}`, () => parsed(rec.sent).filter((m) => m.t === 'cmd' && m.op === op)[n + nth]);
  const reply = await waitFor(
    `the reply to ${op} (${cmd.id}) on ${rec.label}`,
    () => parsed(rec.received).find((m) => (m.t === 'ack' || m.t === 'nack') && m.id === cmd.id),
    timeoutMs,
  );
  return { cmd, reply };
}

/** doing, and the reply is an ack. */
export async function acked(rec, op, fn) {
  const { cmd, reply } = await doing(rec, op, fn);
  assert.equal(reply.t, 'ack', `${rec.label} ${op} ${JSON.stringify(cmd.args)}: ${JSON.stringify(reply)}`);
  return { cmd, reply };
}

/**
 * The tap succeeded, and its result is on screen where the person is looking: the result box
 * with the log lines of the command's seq, inside p.page's viewport. `nth`: the tap sends several
 * commands of that op, the result shown is of the nth (0: the first).
 */
export async function tapped(p, op, fn, what, nth = 0) {
  const { cmd, reply } = await doing(p.rec, op, fn, { nth });
  assert.equal(reply.t, 'ack', `${p.rec.label}: ${what} (${JSON.stringify(cmd.args)}) was refused: ${reply.message}`);
  const box = p.page.locator(`.result-box[data-seq="${reply.entry ?? reply.seq}"]`);
  await box.first().waitFor({ timeout: 10000 });
  const inView = await waitFor(
    `the result of ${what} in the viewport`,
    () =>
      box.first().evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.height > 0 && r.top < window.innerHeight && r.bottom > 0;
      }),
    5000,
  ).catch(() => false);
  assert.ok(inView, `${p.rec.label}: the result of ${what} is not in the viewport`);
  return { cmd, reply };
}

// The other page received the event: its log shows a line of it (the reply's entry number:
// protocol/PROTOCOL.md, "Two counts"; a bare number is taken as one).
export async function arrived(p, reply) {
  const seq = entryOf(reply);
  await p.page.locator(`#log li.entry[data-seq="${seq}"]`).first().waitFor({ timeout: 10000 });
}

export const stateOf = (page) => page.evaluate(() => window.tabled.conn.state);
export const seqOf = (page) => page.evaluate(() => window.tabled.conn.seq);

// The number a command's log entries carry: a player's ack seq, the GM's ack `entry`
// (protocol/PROTOCOL.md, "Two counts"). A bare number is taken as one.
export const entryOf = (r) => (typeof r === 'number' ? r : Number.isInteger(r.entry) ? r.entry : r.seq);

// Whether the page has seen the event of reply (an ack, or {seq, entry}), which the test holds.
// The numbers first: a player's page counts its seat's seq; the GM's the campaign's, and knows the
// public count from /gm/player_seq: a reply with `entry` is taken as the GM's (its campaign seq),
// one without by its number. Seats told different things alone count differently (issue 29), so
// the numbers may be reached early; a ping settles it: an event's diffs go to every socket before
// its maker's reply, and a pong comes after every diff sent to its socket before the ping arrived
// (PROTOCOL.md). One ping per reply and socket.
export const reached = (page, reply) =>
  page.evaluate(
    ([entry, campaign, key]) => {
      const c = window.tabled?.conn;
      if (!c) return false;
      const counted =
        c.seat?.role !== 'gm' ? c.seq >= entry : campaign !== null ? c.seq >= campaign : (c.state?.gm?.player_seq ?? c.seq) >= entry;
      if (!counted || key === null) return counted;
      if (c.phase !== 'live') return false;
      if (c.settling?.key !== key || c.settling.ws !== c.ws) {
        c.ping();
        c.settling = { key, ws: c.ws, n: c.pingN };
      }
      return (c.pongN ?? 0) >= c.settling.n;
    },
    [
      entryOf(reply),
      typeof reply === 'object' && Number.isInteger(reply.entry) ? reply.seq : null,
      typeof reply === 'object' ? JSON.stringify([reply.id ?? null, entryOf(reply), reply.seq ?? null]) : null,
    ],
  );

/** axe-core finds no serious or critical violation on the page. */
export async function axe(page, where) {
  // Through the DevTools protocol: the page's Content-Security-Policy allows no inline script.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE_SOURCE);
  const r = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const res = await axe.run(document, { resultTypes: ['violations'] });
    return res.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  const bad = r.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad, [], `${where}: axe-core found serious violations`);
}

/** Nothing on the page is wider than the viewport (no sideways scrolling on a phone). */
export async function noSideways(page, where) {
  const w = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(w <= 1, `${where}: the page scrolls sideways by ${w}px`);
}

/** Every visible, enabled control on the phone is at least 44 px tall. */
export async function touchTargets(page, where) {
  const small = await page.evaluate(() =>
    Array.from(document.querySelectorAll('button, select, input:not([type=hidden]), summary, a[href]'))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height || el.closest('[hidden]')) return false;
        if (el.type === 'checkbox' || el.type === 'radio') return false;
        if (el.tagName === 'A' && !el.closest('nav')) return false;
        return r.height < 43.5;
      })
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} "${(el.textContent || el.value || '').trim().slice(0, 20)}" ${Math.round(el.getBoundingClientRect().height)}px`),
  );
  assert.deepEqual(small, [], `${where}: touch targets under 44 px`);
}

/** How far the page (and which elements of the panel) stick out at 360 px. */
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

/** A screenshot into tests/artifacts: a page (the full page) or a locator (that element). */
export async function shot(what, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const full = typeof what.goto === 'function' ? { fullPage: true } : {};
  await what.screenshot({ path: path.join(ARTIFACTS, name), ...full });
}

/** The whole page, and the encounter panel alone (<name>-enc.png: the part to look at). */
export async function shotPanel(page, name) {
  await shot(page, name);
  await shot(page.locator('#enc'), name.replace(/\.png$/, '-enc.png'));
}

/** The whole page at `width` (from its top), and the panel alone (<name>-panel.png). */
export async function shotAt(page, name, width) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const old = page.viewportSize();
  await page.setViewportSize({ width, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0)); // the sticky header belongs at the top
  await sleep(200);
  await page.screenshot({ path: path.join(ARTIFACTS, name), fullPage: true });
  // The panel alone, at full resolution.
  await page.locator('#enc').screenshot({ path: path.join(ARTIFACTS, name.replace(/\.png$/, '-panel.png')) });
  await page.setViewportSize(old);
}

/** Debian's headless Chromium, as every browser test launches it (never a downloaded build). */
export function launchBrowser(browserType = chromium) {
  return browserType.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** launchBrowser, with tests/artifacts ready for screenshots. */
export async function launch() {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return launchBrowser();
}

// ---- the encounter panel ----------------------------------------------------------------------

// The combatant card of `name` in the page's encounter panel.
export const card = (page, name) => page.locator('#enc li.enc-card').filter({ has: page.locator('.enc-name', { hasText: name }) });

// The panel holds the server's answer to enc.moves for what it shows (no question on its way);
// a page without an encounter has nothing to wait for.
export async function movesReady(page) {
  if (!(await page.locator('#enc .enc-moves').count())) return;
  await page.locator('#enc .enc-moves[data-moves="fresh"]').waitFor({ timeout: 15000 });
}

// The encounter action buttons the page shows now (the server's moves, once they came).
export async function actionButtons(page) {
  await movesReady(page);
  return page.locator('#enc .enc-actions [data-action]').evaluateAll((els) => els.map((e) => e.dataset.action));
}

// Clicks the action's button, fills its form and submits it. fields: {name: value}; a <select>
// takes the option with that label, a checkbox is ticked for a truthy value. Returns the reply.
// An action with nothing to ask runs on the tap (no form); one under "More" is reached by opening
// it; when several combatants may take it (one button each), `actor` names whose button, else the
// first (for the GM: whoever has the turn).
export async function act(page, rec, action, { actor, fields = {} } = {}) {
  await movesReady(page);
  // one button per combatant who may take it (the GM's: whoever has the turn first)
  const all = page.locator(`#enc .enc-actions [data-action="${action}"]`);
  const named = actor && (await all.count()) > 1 ? all.filter({ hasText: actor }) : all;
  const button = ((await named.count()) ? named : all).first();
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
      // a yes/no is a pick of the server's choices (values 1/0, or true/false)
      const wanted = typeof v === 'boolean' ? (v ? ['1', 'true', 'yes'] : ['0', 'false', 'no']) : [String(v)];
      const value = await el.evaluate((e, xs) => xs.find((x) => Array.from(e.options).some((o) => o.value === x || o.label === x)) ?? null, wanted);
      const byValue = value !== null && (await el.evaluate((e, x) => Array.from(e.options).some((o) => o.value === x), value));
      await el.selectOption(byValue ? { value } : { label: value ?? String(v) });
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

// ---- a table ----------------------------------------------------------------------------------

/** A small WebSocket client for the set-up that is not about the UI: hello, join, ok(op, args). */
export class Api {
  static async open(url) {
    const c = new Api();
    c.ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, 'tabled.v1');
    c.n = 0;
    c.pending = new Map();
    c.queue = [];
    c.wake = null;
    c.state = null;
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
    if (Number.isInteger(m.seq)) this.seq = m.seq; // the last event this client made (for seen())
    return m.result;
  }

  close() {
    this.ws.close();
  }
}

// A table for `system`: the server (seeded), the campaign, the player "Ann" with the sample
// character `sample`, the prepared NPC (when `npc.sheet`), the GM's page at 1280 px and Ann's at
// 360 px, each connected.
export async function tableByApi(browser, { system, seed, sample, npc }) {
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
    rec[who] = instrumentAll(page[who], `${system}/${who}`);
    await page[who].goto(`${server.url}/#token=${token}`);
    await page[who].locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
  }
  return { server, ctx, page, rec, pc, npcChar, seat: joined.seat, pages: [page.gm, page.ann] };
}

export async function finish(t, system) {
  await shotAt(t.page.gm, `enc-${system}-gm-1280.png`, 1280);
  await shotAt(t.page.ann, `enc-${system}-player-360.png`, 360);
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

// A GM (laptop) and a player "Ann" (phone) at a new campaign of `system`, made through the pages; the player picked the
// first ready-made character. Returns {gm, ann, pcName, contexts} (gm/ann: {page, rec}).
export async function tableOnPages(browser, server, system) {
  const gctx = await browser.newContext({ viewport: LAPTOP });
  const actx = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const gm = { page: await gctx.newPage() };
  gm.rec = instrument(gm.page, `${system}/gm`);
  const ann = { page: await actx.newPage() };
  ann.rec = instrument(ann.page, `${system}/player`);

  await gm.page.goto(`${server.url}/#host=${server.hostToken}`);
  await gm.page.locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
  await gm.page.locator('#new-campaign-name').fill(`Friday ${system}`);
  await gm.page.locator('#new-campaign-system').selectOption(system);
  await gm.page.locator('form.campaign-create button[type=submit]').click();
  await waitFor(`the GM's page on the ${system} campaign`, async () => (await stateOf(gm.page))?.campaign?.system === system);
  await gm.page.locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
  const join = await waitFor('the join link', async () => gm.page.locator('#invite-link').inputValue());

  await ann.page.goto(join.replace('localhost', '127.0.0.1'));
  await ann.page.locator('#join-name').fill('Ann');
  await ann.page.locator('#join-submit').click();
  await ann.page.locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
  const pick = ann.page.locator('.samples li.sample button.primary').first();
  await pick.waitFor();
  await doing(ann.rec, 'char.create', () => pick.click());
  const mine = ann.page.locator('.char-list.mine li.char').first();
  await mine.waitFor();
  const pcName = (await mine.locator('.char-name').textContent()).trim();
  // The GM's page knows the character before the set-up lists it.
  await waitFor('the character on the GM page', async () => Object.values((await stateOf(gm.page))?.chars || {}).some((c) => c.name === pcName));
  return { gm, ann, pcName, contexts: [gctx, actx] };
}

// Runs fn({gm, ann, pcName, server}) at a table of `system` on a fresh server seeded with `seed`;
// checks that neither page logged an error; closes the pages and stops the server either way.
export async function atTable(browser, system, seed, fn) {
  const server = await startServer({ extraArgs: ['--seed', String(seed)] });
  let contexts = [];
  try {
    const t = await tableOnPages(browser, server, system);
    contexts = t.contexts;
    await fn({ ...t, server });
    for (const p of [t.gm, t.ann]) assert.deepEqual(p.rec.errors, [], `${p.rec.label}: page errors`);
  } finally {
    for (const c of contexts) await c.close().catch(() => {});
    await server.stop().catch(() => {});
    fs.rmSync(server.dir, { recursive: true, force: true });
  }
}
