#!/usr/bin/env node
// The load benchmark (issue 10), one command from the repository root:
//
//   node tests/bench/load.mjs [--quick] [--sync normal|full|both] [--only LIST] [--seconds N]
//                             [--idle-seats N] [--wide-seats N] [--join-window N] [--json FILE]
//                             [--map [--moves K]] [--no-build]
//
// Builds build/ (plain, optimised) unless --no-build, then for every scenario starts a fresh
// `tabled serve` (temporary database, loopback, --rate-limit 0) and, in the same run, the bare
// libwebsockets relay (tests/bench/bench_relay.c: the floor), drives each with the C load client
// (tests/bench/bench_load.c) and prints every figure, the floor's, their ratio and the issue's
// target. Scenarios (--only takes a comma list of these names):
//   1x8      1 table x 8 seats: latency p50/p90/p99/max, server CPU per command
//   100x8    100 tables x 8 seats: commands/s (plus latency and CPU)
//   1xN      1 table x --wide-seats seats (default 1000): server CPU per recipient
//   idle     --idle-seats idle seats (default 1000): time to join, RSS per seat, then a restart
//            of the server and the time to resume them all (and RSS per seat after the resume)
// 1x8 and 100x8 run once per --sync mode (default both); 1xN and idle with --sync normal.
// --join-window: seats between connect and welcome at once (default 16).
// --quick: 2 s per load phase and 200 seats for 1xN and idle (a run takes well under 2 minutes).
// --map (issue 30): 1x8 and 100x8 also run against three more servers: a Heimr fight with a quick
//   NPC fighter per seat ("scene"), the same with a shown map (a ~60 000-char picture, a token per
//   fighter: "map"), and the same with every K-th command (--moves, default 2) a token's map.move
//   instead of the roll ("map+moves"); each is printed against the floor and against the run
//   without a map (issue 30: no figure more than 10 % worse with a map in the scene).
// TABLED_BIN=PATH runs that server binary instead of build/'s (e.g. main's, beside this build's
// load client and relay). See tests/bench/README.md for what each figure means. Loopback only; stops by itself.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');

function parseArgs(argv) {
  const o = { quick: false, sync: 'both', only: null, seconds: null, idleSeats: null, wideSeats: null, joinWindow: 16, json: null, build: true, map: false, moves: 2 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--quick') o.quick = true;
    else if (a === '--no-build') o.build = false;
    else if (a === '--sync') o.sync = v();
    else if (a === '--only') o.only = v().split(',');
    else if (a === '--seconds') o.seconds = Number(v());
    else if (a === '--idle-seats') o.idleSeats = Number(v());
    else if (a === '--wide-seats') o.wideSeats = Number(v());
    else if (a === '--join-window') o.joinWindow = Number(v());
    else if (a === '--json') o.json = v();
    else if (a === '--map') o.map = true;
    else if (a === '--moves') o.moves = Number(v());
    else if (a === '--help' || a === '-h') {
      console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 27).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
      process.exit(0);
    } else throw new Error(`unknown option ${a} (see --help)`);
  }
  if (!['normal', 'full', 'both'].includes(o.sync)) throw new Error('--sync must be normal, full or both');
  o.seconds ??= o.quick ? 2 : 5;
  o.idleSeats ??= o.quick ? 200 : 1000;
  o.wideSeats ??= o.quick ? 200 : 1000;
  return o;
}

const opt = parseArgs(process.argv.slice(2));
const BUILD = path.join(root, 'build');
const TABLED = process.env.TABLED_BIN || path.join(BUILD, 'server', 'tabled'); // TABLED_BIN: another build's server
const RELAY = path.join(BUILD, 'tests', 'bench', 'bench_relay');
const LOAD = path.join(BUILD, 'tests', 'bench', 'bench_load');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-bench-'));
const children = new Set();

function cleanup() {
  for (const c of children) {
    try {
      c.kill('SIGKILL');
    } catch {
      /* gone */
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.on('exit', cleanup);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts a server process and resolves {proc, port, hostToken} once it printed its port. */
function startProc(cmd, args, portRe) {
  return new Promise((resolve, reject) => {
    const proc = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(proc);
    let out = '';
    let err = '';
    let done = false;
    const timer = setTimeout(() => finish(new Error(`${path.basename(cmd)} did not start within 20 s:\n${out}${err}`)), 20000);
    const finish = (e, v) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (e) {
        proc.kill('SIGKILL');
        reject(e);
      } else resolve(v);
    };
    proc.stderr.on('data', (c) => (err += c));
    proc.stdout.on('data', (c) => {
      out += c;
      const m = portRe.exec(out);
      const host = /^host token: (\S+)$/m.exec(out);
      if (m && (cmd !== TABLED || (host && /^Open the (console|GM) link/m.test(out)))) finish(null, { proc, port: Number(m[1]), hostToken: host && host[1], stderr: () => err });
    });
    proc.on('exit', (code, sig) => {
      children.delete(proc);
      finish(new Error(`${path.basename(cmd)} exited (${code ?? sig}) before it listened:\n${err}`));
    });
  });
}

async function stopProc(p, signal = 'SIGTERM') {
  if (p.proc.exitCode !== null || p.proc.signalCode !== null) return;
  const gone = new Promise((r) => p.proc.once('exit', r));
  p.proc.kill(signal);
  const t = setTimeout(() => p.proc.kill('SIGKILL'), 15000);
  await gone;
  clearTimeout(t);
}

// The bench's seats are bots that send nothing while idle (the web client pings every 20 s): a
// server that closes silent sockets (--idle-timeout) gets an hour.
let serveHelp = null;
// Every bot comes from 127.0.0.1 and joins by code: the limits per address and per campaign
// (issue 27) are lifted for the bench.
function idleArgs() {
  serveHelp ??= spawnSync(TABLED, ['serve', '--help'], { encoding: 'utf8' }).stdout || '';
  const args = serveHelp.includes('--idle-timeout') ? ['--idle-timeout', '3600'] : [];
  if (serveHelp.includes('--max-seats'))
    args.push('--max-seats', '100000', '--joins-per-address', '1000000', '--max-per-address', '1000000');
  return args;
}

async function startTabled(db, sync, port = 0) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await startProc(TABLED, ['serve', '--port', String(port), '--bind', '127.0.0.1', '--db', db, '--web', path.join(root, 'web-static'),
        '--rate-limit', '0', '--sync', sync, ...idleArgs()], /listening on port (\d+)/);
    } catch (e) {
      if (attempt >= 30 || !/cannot listen/.test(e.message)) throw e;
      await sleep(200); // a restart may race the kernel releasing the port
    }
  }
}

/** e with the last lines the server wrote on stderr. */
function withStderr(e, srv) {
  const tail = srv.stderr().trim().split('\n').slice(-10).join('\n');
  return new Error(tail ? `${e.message}\nserver stderr:\n${tail}` : e.message);
}

const startRelay = () => startProc(RELAY, ['--port', '0'], /relay listening on port (\d+)/);

/** Runs the load client; resolves its JSON result. */
function runLoad(args, timeoutS) {
  return new Promise((resolve, reject) => {
    const proc = spawn(LOAD, [...args, '--window', String(opt.joinWindow), '--timeout', String(timeoutS)], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(proc);
    let out = '';
    let err = '';
    proc.stdout.on('data', (c) => (out += c));
    proc.stderr.on('data', (c) => (err += c));
    const killer = setTimeout(() => proc.kill('SIGKILL'), (timeoutS + 30) * 1000);
    proc.on('exit', (code, sig) => {
      clearTimeout(killer);
      children.delete(proc);
      let r = null;
      try {
        r = JSON.parse(out.trim().split('\n').pop());
      } catch {
        /* no result line */
      }
      if (code !== 0 || !r || !r.ok) reject(new Error(`bench_load ${args.join(' ')} failed (${code ?? sig}):\n${err}${out}`));
      else resolve(r);
    });
  });
}

// -------------------------------------------------------------------------------------------
// Scenarios: each returns rows {scenario, figure, tabled, floor, better, target, unit}
// -------------------------------------------------------------------------------------------

const results = [];
const raw = [];
let rowsPrinted = 0;

function row(scenario, figure, unit, tabled, floor, better, target) {
  results.push({ scenario, figure, unit, tabled, floor, better, target });
}

/** --map: the figures of each variant against the floor and against the same figure without a
 * map (the variant "scene": the same fight; the bare campaign for "scene" itself). */
async function mapVariants(name, T, S, sync, figures) {
  if (!opt.map) return;
  const got = {};
  for (const v of VARIANTS) {
    const { r, floor } = await loadScenario(name, T, S, sync, { withRelay: false, variant: v });
    got[v.key] = r;
    const sc = `${name} --sync ${sync}, ${v.label}`;
    const base = v.key === 'scene' ? raw.find((x) => x.kind === 'tabled' && x.name === name && x.sync === sync && !x.variant)?.r : got.scene;
    for (const [figure, unit, pick, better] of figures) {
      const worse = base ? (better === 'lower' ? pick(r) / pick(base) : pick(base) / pick(r)) : NaN;
      row(sc, figure, unit, pick(r), pick(floor), better, { vs: v.key === 'scene' ? 'the bare campaign' : 'the fight without a map', worse, limit: v.key === 'scene' ? null : 1.1 });
    }
    clientCheck(sc, r);
  }
}

// --map: the servers besides the bare one (bench_load's --scene, --map, --moves)
const SCENE = ['--scene', 'heimr.combat'];
const VARIANTS = [
  { key: 'scene', label: 'a fight, no map', args: SCENE },
  { key: 'map', label: 'a fight, a shown map', args: [...SCENE, '--map'] },
  { key: 'moves', label: `a fight, a shown map, 1 command in ${opt.moves} a map.move`, args: [...SCENE, '--map', '--moves', String(opt.moves)] },
];

/** Load scenario T x S against the relay and against tabled with the given sync mode (variant:
 * one of VARIANTS, or none: the bare campaign). */
async function loadScenario(name, T, S, sync, { withRelay, variant }) {
  const timeout = 600;
  const base = ['--tables', String(T), '--seats', String(S), '--seconds', String(opt.seconds)];
  let floor = raw.find((r) => r.kind === 'relay' && r.name === name)?.r;
  if (withRelay || !floor) {
    const relay = await startRelay();
    try {
      floor = await runLoad(['--relay', '--port', String(relay.port), '--pid', String(relay.proc.pid), ...base], timeout);
    } finally {
      await stopProc(relay, 'SIGKILL');
    }
    raw.push({ kind: 'relay', name, r: floor });
  }
  const db = path.join(tmp, `${name}-${sync}${variant ? '-' + variant.key : ''}.db`);
  const srv = await startTabled(db, sync);
  let r;
  try {
    r = await runLoad(['--port', String(srv.port), '--pid', String(srv.proc.pid), '--host-token', srv.hostToken, ...base, ...(variant ? variant.args : [])], timeout);
  } catch (e) {
    throw withStderr(e, srv);
  } finally {
    await stopProc(srv);
  }
  raw.push({ kind: 'tabled', name, sync, variant: variant?.key, r });
  return { r, floor };
}

function clientCheck(label, r) {
  if (r.cli_cpu_pct > 85) console.log(`  warning: the load client used ${r.cli_cpu_pct.toFixed(0)} % of a core during ${label}: it may be the bottleneck`);
}

async function scenarioSmall(sync) {
  const { r, floor } = await loadScenario('1x8', 1, 8, sync, { withRelay: false });
  const sc = `1x8 --sync ${sync}`;
  row(sc, 'latency p50', 'µs', r.lat_us.p50, floor.lat_us.p50, 'lower', { ratio: 1.5 });
  row(sc, 'latency p90', 'µs', r.lat_us.p90, floor.lat_us.p90, 'lower', null);
  row(sc, 'latency p99', 'µs', r.lat_us.p99, floor.lat_us.p99, 'lower', { ratio: 3 });
  row(sc, 'latency max', 'µs', r.lat_us.max, floor.lat_us.max, 'lower', null);
  row(sc, 'commands/s', '/s', r.cmds_per_s, floor.cmds_per_s, 'higher', null);
  row(sc, 'server CPU per command', 'µs', r.srv_cpu_us_per_cmd, floor.srv_cpu_us_per_cmd, 'lower', { abs: 30 });
  clientCheck(sc, r);
  clientCheck('1x8 (relay)', floor);
  await mapVariants('1x8', 1, 8, sync, [
    ['latency p50', 'µs', (x) => x.lat_us.p50, 'lower'],
    ['latency p99', 'µs', (x) => x.lat_us.p99, 'lower'],
    ['server CPU per command', 'µs', (x) => x.srv_cpu_us_per_cmd, 'lower'],
  ]);
}

async function scenarioTables(sync) {
  const { r, floor } = await loadScenario('100x8', 100, 8, sync, { withRelay: false });
  const sc = `100x8 --sync ${sync}`;
  row(sc, 'commands/s', '/s', r.cmds_per_s, floor.cmds_per_s, 'higher', { abs: sync === 'full' ? 5000 : 25000 });
  row(sc, 'latency p50', 'µs', r.lat_us.p50, floor.lat_us.p50, 'lower', null);
  row(sc, 'latency p99', 'µs', r.lat_us.p99, floor.lat_us.p99, 'lower', null);
  row(sc, 'server CPU per command', 'µs', r.srv_cpu_us_per_cmd, floor.srv_cpu_us_per_cmd, 'lower', null);
  row(sc, 'time to join 800 seats', 's', r.join_s, floor.join_s, 'lower', null);
  clientCheck(sc, r);
  clientCheck('100x8 (relay)', floor);
  await mapVariants('100x8', 100, 8, sync, [
    ['commands/s', '/s', (x) => x.cmds_per_s, 'higher'],
    ['latency p50', 'µs', (x) => x.lat_us.p50, 'lower'],
    ['server CPU per command', 'µs', (x) => x.srv_cpu_us_per_cmd, 'lower'],
  ]);
}

async function scenarioWide() {
  const N = opt.wideSeats;
  const { r, floor } = await loadScenario(`1x${N}`, 1, N, 'normal', { withRelay: false });
  const sc = `1x${N} --sync normal`;
  // tabled sends the diff to all N seats (and the ack); the relay to the N-1 others
  row(sc, 'server CPU per recipient', 'µs', r.srv_cpu_us_per_cmd / N, floor.srv_cpu_us_per_cmd / (N - 1), 'lower', { abs: 5 });
  row(sc, 'server CPU per command', 'µs', r.srv_cpu_us_per_cmd, floor.srv_cpu_us_per_cmd, 'lower', null);
  row(sc, 'latency p50 (to the last seat)', 'µs', r.lat_us.p50, floor.lat_us.p50, 'lower', null);
  row(sc, 'commands/s', '/s', r.cmds_per_s, floor.cmds_per_s, 'higher', null);
  row(sc, `time to join ${N} seats`, 's', r.join_s, floor.join_s, 'lower', null);
  clientCheck(sc, r);
}

async function scenarioIdle() {
  const N = opt.idleSeats;
  const timeout = 900;
  const tok = path.join(tmp, 'idle.tokens');
  const args = ['--idle', '--tables', '1', '--seats', String(N)];
  // floor: open N sockets, restart the relay, open them again
  let relay = await startRelay();
  const fJoin = await runLoad(['--relay', '--port', String(relay.port), '--pid', String(relay.proc.pid), ...args], timeout);
  await stopProc(relay, 'SIGKILL');
  relay = await startRelay();
  const fResume = await runLoad(['--relay', '--port', String(relay.port), '--pid', String(relay.proc.pid), ...args], timeout);
  await stopProc(relay, 'SIGKILL');
  // tabled: N seats join (GM + N-1 players), clean restart, all N say hello with last_seq
  const db = path.join(tmp, 'idle.db');
  let srv = await startTabled(db, 'normal');
  const port = srv.port;
  let tJoin;
  try {
    tJoin = await runLoad(['--port', String(port), '--pid', String(srv.proc.pid), '--host-token', srv.hostToken, ...args, '--save', tok], timeout);
  } catch (e) {
    throw withStderr(e, srv);
  } finally {
    await stopProc(srv);
  }
  srv = await startTabled(db, 'normal', port);
  let tResume;
  try {
    tResume = await runLoad(['--port', String(port), '--pid', String(srv.proc.pid), '--resume', tok, '--idle'], timeout);
  } catch (e) {
    throw withStderr(e, srv);
  } finally {
    await stopProc(srv);
  }
  raw.push({ kind: 'relay', name: 'idle-join', r: fJoin }, { kind: 'relay', name: 'idle-resume', r: fResume });
  raw.push({ kind: 'tabled', name: 'idle-join', r: tJoin }, { kind: 'tabled', name: 'idle-resume', r: tResume });
  const sc = `${N} idle seats`;
  row(sc, `time to join ${N} seats`, 's', tJoin.join_s, fJoin.join_s, 'lower', N >= 1000 ? { abs: 2 } : null);
  row(sc, `time to resume ${N} seats after a restart`, 's', tResume.join_s, fResume.join_s, 'lower', N >= 1000 ? { abs: 2 } : null);
  row(sc, 'frames received while joining', '', tJoin.frames_rx, fJoin.frames_rx, 'lower', null);
  row(sc, 'MB received while joining', 'MB', tJoin.bytes_rx / 1e6, fJoin.bytes_rx / 1e6, 'lower', null);
  row(sc, 'frames received while resuming', '', tResume.frames_rx, fResume.frames_rx, 'lower', null);
  row(sc, 'MB received while resuming', 'MB', tResume.bytes_rx / 1e6, fResume.bytes_rx / 1e6, 'lower', null);
  row(sc, 'RSS per seat after joining', 'KB', tJoin.rss_per_seat_b / 1000, fJoin.rss_per_seat_b / 1000, 'lower', { abs: 10 });
  row(sc, 'RSS per seat after resuming', 'KB', tResume.rss_per_seat_b / 1000, fResume.rss_per_seat_b / 1000, 'lower', { abs: 10 });
}

// -------------------------------------------------------------------------------------------
// Output
// -------------------------------------------------------------------------------------------

function fmt(v, unit) {
  if (v === null || v === undefined || Number.isNaN(v)) return '-';
  if (unit === 's') return v < 10 ? v.toFixed(3) : v.toFixed(1);
  if (unit === 'KB') return v.toFixed(1);
  return v >= 100 ? Math.round(v).toLocaleString('en-US').replace(/,/g, ' ') : v.toFixed(1);
}

function verdict(r) {
  if (!r.target) return '';
  if (r.target.vs !== undefined) {
    // worse: the variant's figure over the one it is compared with (higher-is-better inverted)
    const w = r.target.worse;
    const txt = Number.isFinite(w) ? `${((w - 1) * 100).toFixed(1)} % worse than ${r.target.vs}` : '-';
    return r.target.limit && Number.isFinite(w) ? `${txt} (≤ 10 %: ${w <= r.target.limit ? 'met' : 'not met'})` : txt;
  }
  if (r.target.ratio !== undefined) {
    const ratio = r.tabled / r.floor;
    return `≤ ${r.target.ratio}× floor: ${ratio <= r.target.ratio ? 'met' : 'not met'}`;
  }
  const ok = r.better === 'lower' ? r.tabled <= r.target.abs : r.tabled >= r.target.abs;
  return `${r.better === 'lower' ? '≤' : '≥'} ${r.target.abs} ${r.unit}: ${ok ? 'met' : 'not met'}`;
}

function printRows() {
  const rows = results.slice(rowsPrinted);
  rowsPrinted = results.length;
  for (const r of rows) {
    const ratio = r.floor ? r.tabled / r.floor : NaN;
    console.log(
      `| ${r.scenario} | ${r.figure} (${r.unit}) | ${fmt(r.tabled, r.unit)} | ${fmt(r.floor, r.unit)} | ${Number.isFinite(ratio) ? ratio.toFixed(2) + '×' : '-'} | ${verdict(r)} |`,
    );
  }
}

async function main() {
  if (opt.build) {
    const b = spawnSync(path.join(root, 'deploy', 'build'), ['build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (b.status !== 0) throw new Error('deploy/build build failed');
  }
  for (const f of [TABLED, RELAY, LOAD]) if (!fs.existsSync(f)) throw new Error(`${f} is missing: build with deploy/build build`);
  const commit = spawnSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  console.log(`tabled load benchmark — commit ${commit}, ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log(`${opt.seconds} s per load phase; ratio = tabled / floor (the bare lws relay, same run)`);
  console.log('');
  console.log('| scenario | figure | tabled | floor | ratio | target (issue 10) |');
  console.log('|---|---|---|---|---|---|');
  const want = (n) => !opt.only || opt.only.includes(n);
  const syncs = opt.sync === 'both' ? ['normal', 'full'] : [opt.sync];
  const t0 = Date.now();
  const failures = [];
  // a scenario that fails is reported and the others still run
  const run = async (label, fn) => {
    try {
      await fn();
    } catch (e) {
      failures.push(`${label}: ${e.message}`);
      console.log(`| ${label} | FAILED (see below) | | | | |`);
    }
    printRows();
  };
  for (const s of syncs) if (want('1x8')) await run(`1x8 --sync ${s}`, () => scenarioSmall(s));
  for (const s of syncs) if (want('100x8')) await run(`100x8 --sync ${s}`, () => scenarioTables(s));
  if (want('1xN')) await run(`1x${opt.wideSeats}`, scenarioWide);
  if (want('idle')) await run(`${opt.idleSeats} idle seats`, scenarioIdle);
  for (const f of failures) console.log(`\nFAILED ${f}`);
  if (failures.length) process.exitCode = 1;
  console.log('');
  console.log(`done in ${((Date.now() - t0) / 1000).toFixed(0)} s; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  if (opt.json) fs.writeFileSync(opt.json, JSON.stringify({ commit, opt, results, raw }, null, 2));
}

main().catch((e) => {
  console.error(`load benchmark failed: ${e.message}`);
  process.exitCode = 1;
});
