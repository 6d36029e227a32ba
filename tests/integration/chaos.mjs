// A table under load that survives crashes: T campaigns × S seats (the GM and S-1 players) each
// pipeline unique rolls, and every seat behaves like a real client — it keeps the commands it has
// not seen acked, and after a crash it reconnects, resumes from the last seq it saw and re-sends
// them with the same ids. The ledger then checks, against the database: every acked command is
// stored once with its acked result (0 lost), no command is stored twice (0 duplicated), a re-sent
// acked id gets its original ack byte for byte, PRAGMA integrity_check is ok and `tabled replay`
// equals the live state. Used by killloop.test.mjs (kill -9), crash.test.mjs (dropped unsynced
// writes) and diskfull.test.mjs.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { legacyView, sleep } from './lib.mjs';

/** A small seeded generator (mulberry32): the same seed gives the same kill moments. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let uniq = 0; // every roll's expression is unique: 1d6+<uniq>

class Seat {
  constructor(srv, token, tag, ledger) {
    this.srv = srv;
    this.token = token;
    this.tag = tag;
    this.ledger = ledger;
    this.outbox = new Map(); // id -> expr: sent, not seen acked
    this.acked = new Map(); // id -> ack
    this.ackedAt = new Map(); // id -> when the ack arrived (ms)
    this.client = null;
    this.n = 0;
    this.inflight = 0;
  }

  async connect({ mayLose = false } = {}) {
    const prev = this.client;
    if (prev?.state) {
      const [c, w] = await this.srv.resume(this.token, prev, { name: this.tag });
      // what a client saw was committed, so it can always resume (a fresh state here would mean
      // the server lost diffs it had sent) — unless the test allows losing acked commands
      assert.equal(w.t, 'welcome', `${this.tag}: ${w.raw}`);
      if (!mayLose) assert.equal(w.resume, true, `${this.tag} resumes after ${prev.seq}: ${w.raw?.slice(0, 200)}`);
      this.client = c;
    } else {
      const [c, w] = await this.srv.hello(this.token);
      assert.equal(w.t, 'welcome', `${this.tag}: ${w.raw}`);
      this.client = c;
    }
    this.client.name = this.tag;
  }

  send(id, expr) {
    this.inflight++;
    this.client.cmd('roll', { expr }, id).then(
      (r) => {
        this.inflight--;
        if (r.t !== 'ack') {
          this.ledger.nacks.push(r.raw);
          return;
        }
        const before = this.acked.get(id);
        if (before && before.raw !== r.raw) this.ledger.mismatch.push({ id, first: before.raw, again: r.raw });
        if (!before) {
          this.acked.set(id, r);
          this.ackedAt.set(id, Date.now());
        }
        this.outbox.delete(id);
      },
      () => {
        this.inflight--; // no reply: the server went away; the id stays in the outbox
      },
    );
  }

  /** Re-sends every unacknowledged command, and a few acked ones (their ack must not change). */
  resend(rand) {
    for (const [id, expr] of this.outbox) this.send(id, expr);
    const ids = [...this.acked.keys()];
    for (let i = 0; i < 3 && ids.length; i++) {
      const id = ids[Math.floor(rand() * ids.length)];
      this.send(id, this.acked.get(id).result.expr);
    }
  }

  /** Pipelines new rolls, at most `window` in flight, until stop() says so. */
  async pump(stop, window) {
    while (!stop()) {
      if (this.inflight < window && this.client.isOpen) {
        const id = `${this.tag}-${this.n++}`;
        const expr = `1d6+${++uniq}`;
        this.outbox.set(id, expr);
        this.send(id, expr);
      } else {
        await sleep(1);
      }
      if (this.n % 8 === 0) await sleep(0);
    }
  }
}

/**
 * Sets up T campaigns with S seats each on a started server (rate limit off). Returns the table:
 * {seats, camps: [{id, gmToken}], ledger}.
 */
export async function setUp(srv, { tables = 2, seats = 3 } = {}) {
  const ledger = { nacks: [], mismatch: [] };
  const [host] = await srv.hello(srv.hostToken);
  const camps = [];
  const all = [];
  for (let k = 0; k < tables; k++) {
    const cr = await host.cmd('campaign.create', { name: `Table ${k}`, system: 'generic' });
    assert.equal(cr.t, 'ack', cr.raw);
    const { campaign, gm_token: gmToken, join_code: code } = cr.result;
    camps.push({ id: campaign, gmToken });
    all.push(new Seat(srv, gmToken, `t${k}-gm`, ledger));
    for (let s = 1; s < seats; s++) {
      const c = await srv.connect();
      const r = await c.join(code, `P${s}`);
      assert.ok(r.joined, JSON.stringify(r.error));
      await c.close();
      all.push(new Seat(srv, r.joined.token, `t${k}-p${s}`, ledger));
    }
  }
  await host.close();
  for (const s of all) await s.connect();
  return { seats: all, camps, ledger };
}

/** Starts every seat's pump; resolves to an async stop() that waits for the pumps to end. */
export function startLoad(tab, { window = 6 } = {}) {
  let stopped = false;
  const pumps = tab.seats.map((s) => s.pump(() => stopped, window));
  return async () => {
    stopped = true;
    await Promise.all(pumps);
  };
}

/** Runs the load for `ms`, then calls crash() (which must end the server) while it still runs. */
export async function loadThenCrash(tab, ms, crash, opts) {
  const stop = startLoad(tab, opts);
  await sleep(ms);
  await crash();
  await stop();
  await Promise.all(tab.seats.map((s) => s.client.waitClosed().catch(() => {})));
}

/** Resolves once every command sent has its reply. */
export async function settle(tab, timeout = 30000) {
  const deadline = Date.now() + timeout;
  while (tab.seats.some((s) => s.inflight > 0)) {
    if (Date.now() > deadline) throw new Error('replies still missing');
    await sleep(5);
  }
}

/** Re-sends every seat's unacknowledged commands on its open connection; resolves when acked. */
export async function drain(tab, timeout = 30000) {
  const deadline = Date.now() + timeout;
  await settle(tab, timeout);
  for (const s of tab.seats) for (const [id, expr] of s.outbox) s.send(id, expr);
  while (tab.seats.some((s) => s.outbox.size > 0 || s.inflight > 0)) {
    if (Date.now() > deadline) throw new Error(`re-sent commands not all acked: ${tab.seats.map((s) => `${s.tag}:${s.outbox.size}`).join(' ')}`);
    await sleep(5);
  }
}

/** After a restart: every seat resumes and re-sends; resolves when every outbox is empty. */
export async function recover(tab, rand, { timeout = 30000, mayLose = false } = {}) {
  for (const s of tab.seats) await s.connect({ mayLose });
  for (const s of tab.seats) s.resend(rand);
  const deadline = Date.now() + timeout;
  while (tab.seats.some((s) => s.outbox.size > 0 || s.inflight > 0)) {
    if (Date.now() > deadline) throw new Error(`re-sent commands not all acked: ${tab.seats.map((s) => `${s.tag}:${s.outbox.size}`).join(' ')}`);
    await sleep(5);
  }
}

/**
 * Checks the ledger against the database and the live server. Returns the figures
 * {acked, stored, lost, duplicated}.
 */
export async function verify(srv, tab, { mayLose = false } = {}) {
  assert.equal(srv.sqlite('PRAGMA integrity_check'), 'ok');
  const rows = execFileSync('sqlite3', [srv.db, legacyView(srv.db) + "SELECT campaign || ' ' || seq || ' ' || json_extract(args, '$.expr') || ' ' || json(result) FROM events WHERE op = 'roll'"], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const byExpr = new Map();
  let duplicated = 0;
  for (const line of rows.split('\n').filter(Boolean)) {
    const [campaign, seq, expr, ...rest] = line.split(' ');
    if (byExpr.has(expr)) duplicated++;
    byExpr.set(expr, { campaign, seq: Number(seq), result: JSON.parse(rest.join(' ')) });
  }
  let acked = 0;
  let lost = 0;
  const lostIds = [];
  for (const s of tab.seats) {
    for (const [id, a] of s.acked) {
      acked++;
      const e = byExpr.get(a.result.expr);
      // (a lost command re-sent later runs again: same expression, maybe the same seq, new dice)
      if (!e || e.seq !== a.seq || (mayLose && JSON.stringify(e.result) !== JSON.stringify(a.result))) {
        lost++;
        lostIds.push({ id, at: s.ackedAt.get(id) });
        continue;
      }
      assert.deepEqual(e.result, a.result, `${id}: stored result == acked result`);
    }
  }
  // a lost command's id runs again when re-sent: only then may its reply change
  if (!mayLose) assert.deepEqual(tab.ledger.mismatch, [], 'a re-sent acked id got another reply');
  assert.deepEqual(tab.ledger.nacks, [], 'no command was refused');
  // replay == live for every campaign; seqs contiguous
  const replayed = new Map(srv.replay().map((c) => [c.campaign, c]));
  for (const c of tab.camps) {
    const view = await srv.gmView(c.gmToken);
    const r = replayed.get(c.id);
    assert.equal(r.seq, view.seq, `${c.id}: replay seq == live seq`);
    assert.deepEqual(r.state, view.state, `${c.id}: replay == live`);
    assert.equal(srv.sqlite(`SELECT count(*) || ' ' || max(seq) FROM events WHERE campaign = '${c.id}'`), `${view.seq} ${view.seq}`, `${c.id}: seqs 1..n without gaps`);
  }
  return { acked, stored: byExpr.size, lost, lostIds, duplicated };
}

/** Closes every seat's socket. */
export async function tearDown(tab) {
  await Promise.all(tab.seats.map((s) => s.client?.close().catch(() => {})));
}
