// Helpers for the integration tests: start the real `tabled serve` binary on a free port with a
// temporary database, drive it with real WebSocket clients (npm `ws`), and keep a local copy of
// the state by applying every diff with a small RFC 6902 implementation (below), so tests can
// compare what a client built from diffs with what a fresh client is sent.
//
// Binary: $TABLED_BIN, default <repo>/build/server/tabled (the test command also runs these
// tests against a sanitizer build through TABLED_BIN).

import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
export const BIN = process.env.TABLED_BIN || path.join(repoRoot, 'build', 'server', 'tabled');
export const WEB_DIR = path.join(repoRoot, 'web-static');
export const SUBPROTOCOL = 'tabled.v1';
/** Default wait for a server reply (generous: the sanitizer build is several times slower). */
export const TIMEOUT = Number(process.env.TABLED_TEST_TIMEOUT || 10000);

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The path of an executable on PATH (or in /usr/sbin, /sbin), or null: for tests that skip without it. */
export function findTool(cmd) {
  for (const d of (process.env.PATH || '').split(':').concat(['/usr/sbin', '/sbin'])) {
    try {
      fs.accessSync(path.join(d, cmd), fs.constants.X_OK);
      return path.join(d, cmd);
    } catch {
      /* not here */
    }
  }
  return null;
}

/** Mounts a tmpfs of `size` at a new directory (needs root); returns it, or {error} when
 * mounting is impossible. The caller unmounts it (umountTmpfs). */
export function mountTmpfs(size) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
    return dir;
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { error: String(e.stderr || e.message).trim() };
  }
}

/** Unmounts a directory made by mountTmpfs and removes it (errors left for the OS). */
export function umountTmpfs(dir) {
  try {
    execFileSync('umount', [dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  } catch {
    /* left for the OS */
  }
}

/** Writes zeros into file until the filesystem is full; returns the bytes written. */
export function fill(file) {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  let n = 0;
  try {
    for (;;) n += fs.writeSync(fd, chunk);
  } catch (e) {
    if (e.code !== 'ENOSPC') throw e;
  } finally {
    fs.closeSync(fd);
  }
  return n;
}

/** The number a command's log entries carry: a player's ack seq, or the GM's ack `entry`
 * (protocol/PROTOCOL.md, "Two counts"). */
export const entryOf = (ack) => (Number.isInteger(ack.entry) ? ack.entry : ack.seq);

/**
 * The player seqs of stored events (protocol/PROTOCOL.md, "Two counts"): rows [{seq, patch, ...}]
 * in seq order get `pseq` (the player seq after the event) and `counts` (the event moved it: a
 * player saw it). Before the event that first sets /gm/player_seq it is the campaign seq.
 */
export function withPlayerSeqs(rows) {
  let pseq = null;
  for (const e of rows) {
    const op = (e.patch || []).find((o) => o.path === '/gm/player_seq' || (o.path === '/gm' && Number.isInteger(o.value?.player_seq)));
    const next = op ? (op.path === '/gm' ? op.value.player_seq : op.value) : pseq ?? e.seq;
    e.counts = pseq === null ? !op || next === e.seq : next !== pseq;
    e.pseq = next;
    pseq = next;
  }
  return rows;
}

/** A roll as the log keeps it: the ack's result without its "secret" flag. */
export const withoutSecret = ({ secret, ...roll }) => roll;

// Every process we started, killed if the test process exits without tearing down.
const running = new Set();
process.on('exit', () => {
  for (const p of running) {
    try {
      p.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

// Sanitizer reports that must never appear on a server's stderr.
// Errors found while running (memory errors, undefined behaviour). Leak reports come at exit and
// are checked by the clean-shutdown test (durability.test.mjs), which names them precisely.
const SANITIZER_RE = /(ERROR: AddressSanitizer|ERROR: MemorySanitizer|runtime error:|SUMMARY: UndefinedBehaviorSanitizer)/;
const LEAK_RE = /ERROR: LeakSanitizer/;

// ---------------------------------------------------------------------------------------------
// The server process
// ---------------------------------------------------------------------------------------------

/** Parses the start-up banner. Returns null until it is complete. With more than one campaign
 * the banner shows the first one's links and a summary ("N more campaigns: ..."); `links` is then
 * the output of `tabled links --db` (every campaign's links, issue 15 item 10). */
function parseBanner(lines, links = null) {
  const text = lines.join('\n');
  const listen = /^tabled (\S+) listening on port (\d+) \(database (.*)\)$/m.exec(text);
  // a start that could not make new links (a full disk): the links printed before keep working
  if (listen && /^Open a link printed before/m.test(text))
    return { version: listen[1], port: Number(listen[2]), dbPath: listen[3], hostToken: null, campaigns: [], noLinks: true };
  if (!/^Open the console link/m.test(text)) return null;
  const host = /^host token: (\S+)$/m.exec(text);
  if (!listen || !host) return null;
  const more = /^(\d+) more campaigns: /m.exec(text);
  if (more && links === null) return { more: Number(more[1]), dbPath: listen[3] };
  if (links !== null) lines = links.split('\n');
  const campaigns = [];
  let cur = null;
  for (const l of lines) {
    let m;
    if ((m = /^campaign: (.*) \(([^()]+)\)$/.exec(l))) {
      cur = { name: m[1], id: m[2], gmToken: null, joinCode: null };
      campaigns.push(cur);
    } else if (cur && (m = /^GM link: http:\/\/127\.0\.0\.1:\d+\/(?:c\/[a-z0-9-]+\/)?#token=(\S+)$/.exec(l))) {
      cur.gmToken = m[1];
    } else if (cur && (m = /^join link: http:\/\/127\.0\.0\.1:\d+\/(?:c\/[a-z0-9-]+\/)?#join=(\S+)$/.exec(l))) {
      cur.joinCode = decodeURIComponent(m[1]);
    }
  }
  return { version: listen[1], port: Number(listen[2]), dbPath: listen[3], hostToken: host[1], campaigns };
}

/**
 * SQL that attaches every campaign file of the data directory whose host file is db and creates
 * temp views with the shape the single file had before issue 26/28: events, snapshots and
 * idempotency with a campaign column. A test's SQL then reads the data directory as it read the
 * one file (a write goes to a campaign's own file: Server.sqliteCampaign). PRAGMA integrity_check checks every
 * attached file. At most 9 campaign files (SQLite attaches 10 databases).
 */
export function legacyView(db) {
  const dir = `${db}.campaigns`;
  const ids = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^[a-z0-9]+\.db$/.test(f)).map((f) => f.slice(0, -3)).sort() : [];
  if (ids.length > 9) throw new Error(`legacyView: ${ids.length} campaign files, at most 9`);
  const q = (s) => s.replaceAll("'", "''");
  const parts = ids.map((id, i) => ({ id, c: `c${i}` }));
  const union = (rows, none) => (rows.length ? rows.join(' UNION ALL ') : none);
  return [
    ...parts.map(({ id, c }) => `ATTACH DATABASE '${q(dir)}/${id}.db' AS ${c};`),
    `CREATE TEMP VIEW events AS ${union(parts.map(({ id, c }) => `SELECT '${id}' AS campaign, seq, seat, op, args, result, patch, at_ms FROM ${c}.events`), 'SELECT NULL AS campaign, NULL AS seq, NULL AS seat, NULL AS op, NULL AS args, NULL AS result, NULL AS patch, NULL AS at_ms WHERE 0')};`,
    `CREATE TEMP VIEW snapshots AS ${union(parts.map(({ id, c }) => `SELECT '${id}' AS campaign, seq, state FROM ${c}.snapshots`), 'SELECT NULL AS campaign, NULL AS seq, NULL AS state WHERE 0')};`,
    `CREATE TEMP VIEW idempotency AS SELECT campaign, seat, cmd_id, reply FROM main.idempotency${parts.map(({ id, c }) => ` UNION ALL SELECT '${id}', seat, cmd_id, reply FROM ${c}.replies UNION ALL SELECT '${id}', seat, cmd_id, CASE WHEN ack_entry IS NULL THEN json_object('t', 'ack', 'id', cmd_id, 'seq', coalesce(ack_seq, seq), 'result', json(result)) ELSE json_object('t', 'ack', 'id', cmd_id, 'seq', seq, 'result', json(result), 'entry', ack_entry) END FROM ${c}.events WHERE cmd_id IS NOT NULL`).join('')};`,
    '',
  ].join('\n');
}

export class Server {
  /**
   * args: extra `serve` flags (after the test's own, so they win); wrap: a command the server
   * runs under (e.g. strace and its options), its argv before bin.
   */
  constructor({ args = [], dir, bin, env, wrap = [] } = {}) {
    this.wrap = wrap;
    this.extraArgs = args;
    this.env = env; // extra environment of the next start (e.g. LD_PRELOAD), or undefined
    this.bin = bin || BIN; // e.g. a wrapper script that changes the process's limits first
    this.dir = dir || fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-it-'));
    this.db = path.join(this.dir, 't.db');
    this.port = 0;
    this.proc = null;
    this.stdout = '';
    this.stderr = ''; // all runs, concatenated
    this.exited = null;
    this.banner = null;
    this.campaignId = null; // the first campaign (created at the first start)
  }

  /** Starts (or restarts on the same port and database). Resolves once the banner is printed. */
  async start() {
    if (!fs.existsSync(this.bin)) throw new Error(`tabled binary not found at ${this.bin} (build it, or set TABLED_BIN)`);
    for (let attempt = 0; ; attempt++) {
      try {
        await this._spawn();
        break;
      } catch (e) {
        // A restart may race the kernel releasing the port: retry a few times.
        if (attempt >= 20 || !/cannot listen/.test(String(e.message))) throw e;
        await sleep(100);
      }
    }
    if (!this.campaignId) this.campaignId = this.banner.campaigns[0].id;
    await this.waitHealthy();
    return this;
  }

  _spawn() {
    const args = ['serve', '--port', String(this.port), '--bind', '127.0.0.1', '--db', this.db,
      '--web', WEB_DIR, ...this.extraArgs];
    const env = this.env ? { ...process.env, ...this.env } : process.env;
    const argv = [...this.wrap, this.bin, ...args];
    const proc = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env });
    this.proc = proc;
    this.exited = null;
    running.add(proc);
    const lines = [];
    let partial = '';
    let runErr = '';
    this.exitPromise = new Promise((resolve) => {
      proc.on('exit', (code, signal) => {
        running.delete(proc);
        this.exited = { code, signal };
        resolve(this.exited);
      });
    });
    proc.stdout.setEncoding('utf8');
    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (c) => {
      this.stderr += c;
      runErr += c;
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
        reject(new Error(`tabled did not print its banner within 20 s:\n${lines.join('\n')}\n${runErr}`));
      }, 20000);
      proc.stdout.on('data', (chunk) => {
        this.stdout += chunk;
        partial += chunk;
        const parts = partial.split('\n');
        partial = parts.pop();
        lines.push(...parts);
        let b = parseBanner(lines);
        if (b && b.more) b = parseBanner(lines, execFileSync(BIN, ['links', '--db', b.dbPath], { encoding: 'utf8' }));
        if (b && !this.bannerDone) {
          this.bannerDone = true;
          clearTimeout(timer);
          this.banner = b;
          this.port = b.port;
          resolve();
        }
      });
      this.bannerDone = false;
      this.exitPromise.then((ex) => {
        if (!this.bannerDone) {
          clearTimeout(timer);
          this.bannerDone = true;
          reject(new Error(`tabled exited before its banner (${JSON.stringify(ex)}): ${runErr}`));
        }
      });
    });
  }

  async waitHealthy(timeoutMs = 10000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const r = await fetch(this.url('/healthz'));
        if (r.ok) return;
      } catch {
        /* not yet */
      }
      if (Date.now() > deadline) throw new Error('/healthz did not answer');
      await sleep(25);
    }
  }

  get hostToken() {
    return this.banner.hostToken;
  }
  /** The campaign printed in the banner with this id (default: the first campaign). */
  campaign(id = this.campaignId) {
    return this.banner.campaigns.find((c) => c.id === id);
  }
  get gmToken() {
    return this.campaign().gmToken;
  }
  get joinCode() {
    return this.campaign().joinCode;
  }
  url(p = '/') {
    return `http://127.0.0.1:${this.port}${p}`;
  }
  wsUrl(p = '/ws') {
    return `ws://127.0.0.1:${this.port}${p}`;
  }

  /** Sends signal and waits for the process to exit. */
  async kill(signal = 'SIGKILL') {
    if (!this.proc || this.exited) return this.exited;
    this.proc.kill(signal);
    const t = setTimeout(() => this.proc.kill('SIGKILL'), 10000);
    const r = await this.exitPromise;
    clearTimeout(t);
    return r;
  }

  /** Starts again on the same port and database (the previous process must be gone). */
  async restart() {
    if (this.proc && !this.exited) await this.kill('SIGKILL');
    await this.start();
    return this;
  }

  /** Teardown: SIGTERM (clean shutdown), SIGKILL after 10 s; removes the temp dir. */
  async stop() {
    if (this.proc && !this.exited) await this.kill('SIGTERM');
    if (!process.env.TABLED_KEEP_TMP) fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** Sanitizer error reports (not leaks) on stderr, over every run of this server, or null. */
  sanitizerReport() {
    const m = SANITIZER_RE.exec(this.stderr);
    return m ? this.stderr.slice(Math.max(0, m.index - 200), m.index + 4000) : null;
  }

  /** A LeakSanitizer report on stderr (printed at exit), or null. */
  leakReport() {
    const m = LEAK_RE.exec(this.stderr);
    return m ? this.stderr.slice(m.index, m.index + 4000) : null;
  }

  /** GET a path: {status, headers, text, json()} */
  async get(p) {
    const r = await fetch(this.url(p));
    const text = await r.text();
    return { status: r.status, headers: r.headers, text, json: () => JSON.parse(text) };
  }

  /** `tabled replay --db DB [--from-zero] [--campaign ID]` → array of {campaign, seq, state}. */
  replay({ fromZero = false, campaign } = {}) {
    const args = ['replay', '--db', this.db];
    if (campaign) args.push('--campaign', campaign);
    if (fromZero) args.push('--from-zero');
    const out = execFileSync(BIN, args, { encoding: 'utf8', timeout: 30000 });
    return out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  }

  /** The campaign's events as stored, with their player seqs: [{seq, pseq, counts, seat, op,
   * result, patch}] (withPlayerSeqs). */
  storedEvents(campaign = this.campaignId) {
    const out = this.sqlite(`SELECT json_object('seq', seq, 'seat', seat, 'op', op, 'result', json(result), 'patch', json(patch)) FROM events WHERE campaign='${campaign}' ORDER BY seq`);
    return withPlayerSeqs(out.split('\n').filter(Boolean).map((l) => JSON.parse(l)));
  }

  /**
   * Runs SQL through the sqlite3 CLI; returns its stdout (trimmed). The data directory is read as
   * the single file of before (storage/README.md): legacyView attaches every campaign file.
   */
  sqlite(sql) {
    return execFileSync('sqlite3', [this.db, legacyView(this.db) + sql], { encoding: 'utf8', timeout: 30000 }).trim();
  }

  /** Runs SQL on one campaign's own file (its tables: storage/README.md); returns stdout. */
  sqliteCampaign(campaign, sql) {
    return execFileSync('sqlite3', [`${this.db}.campaigns/${campaign}.db`, sql], { encoding: 'utf8', timeout: 30000 }).trim();
  }

  /** Connects a client (see Client.connect). */
  connect(opts = {}) {
    return Client.connect(this, opts);
  }

  /** A fresh client that says hello with token and returns [client, welcome]. */
  async hello(token, lastSeq) {
    const c = await this.connect();
    const w = await c.hello(token, lastSeq);
    return [c, w];
  }

  /**
   * Resumes on a new connection: the new client starts from `replica`'s state and seq (a client
   * whose socket is gone) and says hello with last_seq = replica.seq. Returns [client, welcome].
   */
  async resume(token, replica, opts = {}) {
    const c = await this.connect(opts);
    c.adopt(replica);
    const w = await c.hello(token, replica.seq);
    return [c, w];
  }

  /** The campaign's current seq and state as a fresh GM client is told (a new connection). */
  async gmView(token = this.gmToken) {
    const c = await this.connect();
    try {
      const w = await c.hello(token);
      if (w.t !== 'welcome') throw new Error(`GM hello refused: ${JSON.stringify(w)}`);
      return { seq: w.seq, state: w.state };
    } finally {
      await c.close();
    }
  }
}

/**
 * Starts a server for a test and registers its teardown with t.after (when t is given).
 * args: extra `serve` flags, e.g. ['--rate-limit', '0'].
 */
export async function startServer(t, { args = [], dir, bin, env, wrap } = {}) {
  const s = new Server({ args, dir, bin, env, wrap });
  if (t) {
    t.after(async () => {
      await s.stop();
      const report = s.sanitizerReport();
      if (report) throw new Error(`sanitizer report on the server's stderr:\n${report}`);
    });
  }
  await s.start();
  return s;
}

// ---------------------------------------------------------------------------------------------
// RFC 6902 JSON Patch (apply) and RFC 6901 JSON Pointer
// ---------------------------------------------------------------------------------------------

export function parsePointer(ptr) {
  if (ptr === '') return [];
  if (typeof ptr !== 'string' || ptr[0] !== '/') throw new Error(`bad JSON pointer ${JSON.stringify(ptr)}`);
  return ptr.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function arrayIndex(tok, arr, forAdd) {
  if (forAdd && tok === '-') return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(tok)) throw new Error(`bad array index ${JSON.stringify(tok)}`);
  const i = Number(tok);
  if (i > arr.length || (!forAdd && i === arr.length)) throw new Error(`array index ${i} out of range`);
  return i;
}

function getAt(doc, tokens) {
  let cur = doc;
  for (const tok of tokens) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(tok, cur, false)];
    else if (cur !== null && typeof cur === 'object' && Object.hasOwn(cur, tok)) cur = cur[tok];
    else throw new Error(`path does not exist: /${tokens.join('/')}`);
  }
  return cur;
}

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
}

/** Applies one op to doc; returns the (possibly new) root. Mutates doc. */
function applyOp(doc, op) {
  const tokens = parsePointer(op.path);
  const clone = (v) => structuredClone(v);
  const add = (root, toks, value) => {
    if (toks.length === 0) return value;
    const parent = getAt(root, toks.slice(0, -1));
    const last = toks[toks.length - 1];
    if (Array.isArray(parent)) parent.splice(arrayIndex(last, parent, true), 0, value);
    else if (parent !== null && typeof parent === 'object') parent[last] = value;
    else throw new Error(`add: parent of ${op.path} is not a container`);
    return root;
  };
  const remove = (root, toks) => {
    if (toks.length === 0) throw new Error('remove: cannot remove the root');
    const parent = getAt(root, toks.slice(0, -1));
    const last = toks[toks.length - 1];
    if (Array.isArray(parent)) parent.splice(arrayIndex(last, parent, false), 1);
    else if (parent !== null && typeof parent === 'object' && Object.hasOwn(parent, last)) delete parent[last];
    else throw new Error(`remove: ${op.path} does not exist`);
    return root;
  };
  switch (op.op) {
    case 'add':
      if (!('value' in op)) throw new Error('add without value');
      return add(doc, tokens, clone(op.value));
    case 'remove':
      return remove(doc, tokens);
    case 'replace': {
      if (!('value' in op)) throw new Error('replace without value');
      if (tokens.length === 0) return clone(op.value);
      getAt(doc, tokens); // must exist
      const parent = getAt(doc, tokens.slice(0, -1));
      const last = tokens[tokens.length - 1];
      if (Array.isArray(parent)) parent[arrayIndex(last, parent, false)] = clone(op.value);
      else parent[last] = clone(op.value);
      return doc;
    }
    case 'move': {
      const from = parsePointer(op.from);
      if (op.path.startsWith(op.from + '/')) throw new Error('move into its own child');
      const v = getAt(doc, from);
      doc = remove(doc, from);
      return add(doc, tokens, v);
    }
    case 'copy':
      return add(doc, tokens, clone(getAt(doc, parsePointer(op.from))));
    case 'test':
      if (!deepEqual(getAt(doc, tokens), op.value)) throw new Error(`test failed at ${op.path}`);
      return doc;
    default:
      throw new Error(`unknown patch op ${JSON.stringify(op.op)}`);
  }
}

/** Returns a new document: doc with the RFC 6902 patch applied (atomically: throws, doc untouched). */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new Error('a patch must be an array');
  let out = structuredClone(doc);
  for (const op of ops) out = applyOp(out, op);
  return out;
}

// ---------------------------------------------------------------------------------------------
// The WebSocket client
// ---------------------------------------------------------------------------------------------

/** Attempts a WebSocket handshake; resolves {ok, status, protocol} without throwing. */
export function tryHandshake(url, { protocols = [SUBPROTOCOL], headers, origin, ca } = {}) {
  return new Promise((resolve) => {
    const opts = { perMessageDeflate: false, handshakeTimeout: TIMEOUT };
    if (headers) opts.headers = headers;
    if (origin) opts.origin = origin;
    if (ca) opts.ca = ca;
    const ws = new WebSocket(url, protocols, opts);
    let done = false;
    const finish = (r) => {
      if (done) return;
      done = true;
      resolve(r);
    };
    ws.on('open', () => {
      const protocol = ws.protocol;
      ws.terminate();
      finish({ ok: true, status: 101, protocol });
    });
    ws.on('unexpected-response', (req, res) => {
      finish({ ok: false, status: res.statusCode });
      req.destroy();
    });
    ws.on('error', (e) => finish({ ok: false, status: null, error: String(e.message) }));
    ws.on('close', () => finish({ ok: false, status: null, error: 'closed' }));
  });
}

let autoId = 0;

export class Client {
  /**
   * Connects to srv (a Server) at /ws with subprotocol tabled.v1.
   * opts: {path, protocols, headers, origin, name, localAddress, url, ca}: localAddress e.g.
   * 127.0.0.2 (another peer); url replaces the server's own (e.g. a wss:// address of a proxy in
   * front of it), ca is the certificate authority to trust for it.
   */
  static connect(srv, opts = {}) {
    return new Promise((resolve, reject) => {
      const wsOpts = { perMessageDeflate: false, handshakeTimeout: TIMEOUT, maxPayload: 64 * 1024 * 1024 };
      if (opts.headers) wsOpts.headers = opts.headers;
      if (opts.origin) wsOpts.origin = opts.origin;
      if (opts.localAddress) wsOpts.localAddress = opts.localAddress; // e.g. 127.0.0.2: another peer
      if (opts.ca) wsOpts.ca = opts.ca;
      const url = opts.url || srv.wsUrl(opts.path || '/ws');
      const ws = new WebSocket(url, opts.protocols || [SUBPROTOCOL], wsOpts);
      const c = new Client(ws, opts.name || 'client');
      ws.once('open', () => resolve(c));
      ws.once('unexpected-response', (req, res) => {
        req.destroy();
        reject(new Error(`handshake refused: HTTP ${res.statusCode}`));
      });
      ws.once('error', (e) => reject(e));
    });
  }

  constructor(ws, name) {
    this.ws = ws;
    this.name = name;
    this.frames = []; // every received frame, raw text, in order
    this.msgs = []; // the same, parsed (or {t: '<unparseable>'})
    this.waiters = new Set();
    this.sentIds = new Map(); // cmd id -> times sent
    this.replyCount = new Map(); // cmd id -> replies received
    // the local replica
    this.state = null;
    this.seq = null;
    this.seat = null;
    this.campaign = null;
    this.presence = null;
    this.diffSeqs = []; // seq of every diff received, in order
    this.gaps = []; // {expected, got} for a diff out of order (seqs increase; jumps are fine)
    this.patchErrors = []; // diffs that did not apply
    this.closeInfo = null;
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString() };
        for (const w of this.waiters) w.check();
        resolve(this.closeInfo);
      });
    });
    ws.on('error', () => {
      /* surfaced through close */
    });
    ws.on('message', (data, isBinary) => this._onFrame(data, isBinary));
  }

  _onFrame(data, isBinary) {
    const raw = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data).toString('utf8');
    this.frames.push(raw);
    let m;
    try {
      m = JSON.parse(raw);
    } catch {
      m = { t: '<unparseable>' };
    }
    if (isBinary) m = { t: '<binary>' };
    Object.defineProperty(m, 'raw', { value: raw, enumerable: false });
    if ((m.t === 'ack' || m.t === 'nack') && typeof m.id === 'string') {
      const nth = (this.replyCount.get(m.id) || 0) + 1; // the n-th reply carrying this id
      this.replyCount.set(m.id, nth);
      Object.defineProperty(m, 'nth', { value: nth, enumerable: false });
    }
    this.msgs.push(m);
    this._apply(m);
    for (const w of this.waiters) w.check();
  }

  _apply(m) {
    if (m.t === 'welcome') {
      this.seat = m.seat;
      this.campaign = m.campaign;
      if (typeof m.history === 'string') this.history = m.history;
      if (m.state !== undefined) {
        this.state = structuredClone(m.state);
        this.seq = m.seq;
      }
      // with resume: the local state stays; the diffs that follow bring it to m.seq. A client
      // with no replica that resumes after 0 starts from the empty document.
      if (m.resume === true && this.state === null && this.lastHelloSeq === 0) {
        this.state = {};
        this.seq = 0;
      }
    } else if (m.t === 'diff') {
      // A seat gets no diff for an event that changes nothing it may see: seqs jump, never go back.
      if (this.seq !== null && m.seq <= this.seq) this.gaps.push({ expected: this.seq + 1, got: m.seq });
      this.diffSeqs.push(m.seq);
      try {
        this.state = applyPatch(this.state, m.ops);
      } catch (e) {
        this.patchErrors.push({ seq: m.seq, error: String(e.message) });
      }
      this.seq = m.seq;
    } else if (m.t === 'ack') {
      // every diff up to the ack's seq this seat may see came before it
      if (this.state !== null && Number.isInteger(m.seq) && m.seq > this.seq) this.seq = m.seq;
    } else if (m.t === 'presence') {
      // the whole list after welcome, then only the seats that changed
      this.presence = { ...(this.presence || {}), ...m.seats };
    }
  }

  /** Copies another client's replica (state and seq), e.g. to resume on a new connection. */
  adopt(other) {
    this.state = structuredClone(other.state);
    this.seq = other.seq;
    this.history = other.history;
    return this;
  }

  /** Sends an object (as JSON) or a raw string/Buffer. */
  send(data, opts) {
    const payload = typeof data === 'string' || Buffer.isBuffer(data) ? data : JSON.stringify(data);
    return new Promise((resolve, reject) => {
      this.ws.send(payload, opts || {}, (err) => (err ? reject(err) : resolve()));
    });
  }

  /**
   * Resolves with the first message at index >= from matching pred; rejects after timeout
   * (or if the socket closes first).
   */
  waitFor(pred, { timeout = TIMEOUT, from = 0, what = 'a message' } = {}) {
    return new Promise((resolve, reject) => {
      let idx = from;
      const w = {
        check: () => {
          for (; idx < this.msgs.length; idx++) {
            if (pred(this.msgs[idx], idx)) {
              done();
              resolve(this.msgs[idx]);
              return;
            }
          }
          if (this.closeInfo) {
            done();
            reject(new Error(`${this.name}: socket closed (${JSON.stringify(this.closeInfo)}) while waiting for ${what}; last frames:\n${this.frames.slice(-5).join('\n')}`));
          }
        },
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${this.name}: timed out after ${timeout} ms waiting for ${what}; last frames:\n${this.frames.slice(-5).join('\n')}`));
      }, timeout);
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(w);
      };
      this.waiters.add(w);
      w.check();
    });
  }

  /** Sends hello; resolves with the welcome (or the error) that answers it. */
  async hello(token, lastSeq, extra = {}) {
    const from = this.msgs.length;
    const msg = { t: 'hello', v: 1, token, ...extra };
    if (lastSeq !== undefined && lastSeq !== null) {
      msg.last_seq = lastSeq;
      // the history that seq belongs to (a restore from a backup is another: PROTOCOL.md)
      if (this.history && !('history' in extra)) msg.history = this.history;
    }
    this.lastHelloSeq = lastSeq;
    await this.send(msg);
    return this.waitFor((m) => m.t === 'welcome' || m.t === 'error', { from, what: 'welcome or error after hello' });
  }

  /** Sends join; resolves {joined, welcome} or {error}. */
  async join(code, name) {
    const from = this.msgs.length;
    await this.send({ t: 'join', code, name });
    const first = await this.waitFor((m) => m.t === 'joined' || m.t === 'error', { from, what: 'joined or error' });
    if (first.t === 'error') return { error: first };
    const idx = this.msgs.indexOf(first);
    const welcome = await this.waitFor((m) => m.t === 'welcome', { from: idx + 1, what: 'welcome after joined' });
    return { joined: first, welcome };
  }

  /**
   * Sends cmd {id, op, args}; resolves with the matching ack or nack. If the same id was sent
   * before on this client, waits for the n-th reply carrying that id.
   */
  async cmd(op, args, id) {
    id = id ?? `c${++autoId}`;
    const n = (this.sentIds.get(id) || 0) + 1;
    this.sentIds.set(id, n);
    const msg = { t: 'cmd', id, op };
    if (args !== undefined) msg.args = args;
    const from = this.msgs.length;
    await this.send(msg);
    return this.waitFor((m) => (m.t === 'ack' || m.t === 'nack') && m.id === id && m.nth === n, {
      from,
      what: `reply #${n} to cmd ${id} (${op})`,
    });
  }

  /** The next message (after the current ones) matching pred. */
  next(pred, opts = {}) {
    return this.waitFor(pred, { ...opts, from: this.msgs.length });
  }

  /** Sends ping n and waits for the pong with that n. */
  async ping(n = Math.floor(Math.random() * 1e9)) {
    const from = this.msgs.length;
    await this.send({ t: 'ping', n });
    return this.waitFor((m) => m.t === 'pong' && m.n === n, { from, what: `pong ${n}` });
  }

  /** Waits until the local replica reached seq (through diffs). */
  waitSeq(seq, opts = {}) {
    return this.waitFor(() => this.seq !== null && this.seq >= seq, { ...opts, what: `seq ${seq} (at ${this.seq})` });
  }

  /** Resolves with {code, reason} when the socket closes (rejects after timeout). */
  async waitClosed(timeout = TIMEOUT) {
    let timer;
    const t = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${this.name}: socket not closed after ${timeout} ms`)), timeout);
    });
    try {
      return await Promise.race([this.closed, t]);
    } finally {
      clearTimeout(timer);
    }
  }

  get isOpen() {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Drops the TCP connection at once (no close handshake): nothing more is received. */
  async terminate() {
    if (this.closeInfo) return this.closeInfo;
    this.ws.terminate();
    return this.closed;
  }

  /** Closes the socket and waits for the close to finish. */
  async close() {
    if (this.closeInfo) return this.closeInfo;
    this.ws.close(1000);
    const t = setTimeout(() => this.ws.terminate(), 2000);
    const r = await this.closed;
    clearTimeout(t);
    return r;
  }

  /** Messages of a given t. */
  of(t) {
    return this.msgs.filter((m) => m.t === t);
  }
}

/** Adds a GM and `names.length` players by join code; returns {gm, players: [{client, token, seat}]} */
export async function table(srv, names = ['Ann', 'Bob'], { code = srv.joinCode } = {}) {
  const gm = await srv.connect({ name: 'gm' });
  const w = await gm.hello(srv.gmToken);
  if (w.t !== 'welcome') throw new Error(`GM hello refused: ${JSON.stringify(w)}`);
  const players = [];
  for (const n of names) {
    const c = await srv.connect({ name: n });
    const r = await c.join(code, n);
    if (r.error) throw new Error(`join refused: ${JSON.stringify(r.error)}`);
    players.push({ client: c, token: r.joined.token, seat: r.joined.seat, name: n });
  }
  return { gm, players };
}

/** Closes every client given (ignores nulls). */
export async function closeAll(...clients) {
  await Promise.all(clients.flat().filter(Boolean).map((c) => c.close()));
}
