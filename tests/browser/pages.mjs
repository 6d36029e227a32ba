// Helpers for browser tests that drive pages of the real server (tests/browser/server.mjs): wait
// for a condition, record a page's WebSocket frames and errors, run a tap and wait for its reply,
// check that the result is on screen where the person tapped, that the visible text has no
// jargon, axe-core, touch targets and screenshots. The same checks as table.test.mjs, shared for
// the newer tests (social.test.mjs).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import WebSocket from 'ws';
import { repoRoot } from './server.mjs';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const ARTIFACTS = path.join(repoRoot, 'tests', 'artifacts');
export const LAPTOP = { width: 1366, height: 768 };
export const PHONE = { width: 390, height: 844 };
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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
  // A reply (an ack) may be given instead of a number: a player's page counts player seqs, the
  // GM's the campaign's (protocol/PROTOCOL.md, "Two counts"). The GM's ack has `entry`, the number
  // players know it by; the GM's page knows the player seq it is at from /gm/player_seq.
  const [entry, campaign] =
    typeof seq === 'object' ? [Number.isInteger(seq.entry) ? seq.entry : seq.seq, Number.isInteger(seq.entry) ? seq.seq : null] : [seq, seq];
  const at = () =>
    page.evaluate(([n, c]) => {
      const conn = window.tabled?.conn;
      if (!conn) return false;
      if (conn.seat?.role !== 'gm') return conn.seq >= n;
      return c !== null ? conn.seq >= c : (conn.state?.gm?.player_seq ?? conn.seq) >= n;
    }, [entry, campaign]);
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

/** The page's visible text (document.body.innerText) holds nothing of JARGON. */
export async function assertPlain(page, where) {
  const text = await page.evaluate(() => document.body.innerText);
  for (const [re, what] of JARGON) {
    const m = re.exec(text);
    assert.equal(m, null, `${where}: the page shows ${what}: "${m && text.slice(Math.max(0, m.index - 60), m.index + 60).replace(/\s+/g, ' ')}"`);
  }
}

/** Records the page's WebSocket frames, page errors and console errors: {label, received, sent, errors}. */
export function instrument(page, label) {
  const rec = { label, received: [], sent: [], errors: [] };
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => rec.received.push(String(f.payload)));
    ws.on('framesent', (f) => rec.sent.push(String(f.payload)));
  });
  page.on('pageerror', (err) => rec.errors.push(String(err)));
  page.on('console', (msg) => {
    if (msg.type() === 'error') rec.errors.push(`console: ${msg.text()}`);
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

/** Runs fn (a tap) and returns the first `op` command it made and its reply. */
export async function doing(rec, op, fn) {
  const n = parsed(rec.sent).filter((m) => m.t === 'cmd' && m.op === op).length;
  await fn();
  const cmd = await waitFor(`a new ${op} from ${rec.label}`, () => parsed(rec.sent).filter((m) => m.t === 'cmd' && m.op === op)[n]);
  const reply = await waitFor(`the reply to ${op} on ${rec.label}`, () => parsed(rec.received).find((m) => (m.t === 'ack' || m.t === 'nack') && m.id === cmd.id));
  return { cmd, reply };
}

/** The tap succeeded and its result box (the log lines of its seq) is inside p.page's viewport. */
export async function tapped(p, op, fn, what) {
  const { cmd, reply } = await doing(p.rec, op, fn);
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

export const stateOf = (page) => page.evaluate(() => window.tabled.conn.state);

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

/** A screenshot into tests/artifacts: a page (the full page) or a locator (that element). */
export async function shot(what, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const full = typeof what.goto === 'function' ? { fullPage: true } : {};
  await what.screenshot({ path: path.join(ARTIFACTS, name), ...full });
}

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
