#!/usr/bin/env node
// The shards benchmark (issue 28 item 6), from the repository root:
//
//   node tests/bench/shards.mjs [--seconds N] [--tables T] [--processes LIST] [--runs R]
//                               [--json FILE]
//
// The 100-table load of load.mjs (T tables x 8 seats, each GM keeping a public `roll d20+5` in
// flight, latency = GM's send to the last seat's diff) against 1, 2 and 3 tabled processes
// (--shard a, b, c; --sync normal, --rate-limit 0) behind a real nginx running
// deploy/nginx-tabled-shards.conf, and, for reference, against one process without nginx. The
// tables are split evenly between the processes: one bench_load client per process creates its
// share through that process's console (/c/<name>/ws) and its seats connect to /c/<campaign>/ws,
// so nginx routes every socket by its key. Prints, per layout: commands/s (sum of the clients),
// latency p50 and p99 (the slowest client's: percentiles do not add up), the CPU each tabled
// process used (% of one core) and nginx's.
// The recipe runs as shipped but for what a benchmark on loopback must change
// (tests/integration/shards.mjs: plain HTTP on the HTTPS port — the C client has no TLS —, no
// limits per address, Debian's worker count). Uses build/ (plain; `deploy/build build`).
// Also, from the CPU each part used per command, the ceiling an idle machine with this many cores
// would reach (each process is one loop thread: at most a core; tabled, nginx and the clients
// share the cores). Results and what they mean on 2 cores: tests/bench/README.md, "The shards
// benchmark".

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRouter, startShards } from '../integration/shards.mjs';
import { Server } from '../integration/lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const LOAD = path.join(root, 'build', 'tests', 'bench', 'bench_load');
const NAMES = ['a', 'b', 'c'];
const CORES = (await import('node:os')).cpus().length;

const opt = { seconds: 5, tables: 100, processes: [1, 2, 3], runs: 1, json: null };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  const v = () => process.argv[++i];
  if (a === '--seconds') opt.seconds = Number(v());
  else if (a === '--tables') opt.tables = Number(v());
  else if (a === '--processes') opt.processes = v().split(',').map(Number);
  else if (a === '--runs') opt.runs = Number(v());
  else if (a === '--json') opt.json = v();
  else if (a === '--help' || a === '-h') {
    console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 20).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
    process.exit(0);
  } else throw new Error(`unknown option ${a} (see --help)`);
}

// every bot comes from 127.0.0.1 and joins by code (load.mjs lifts the same limits)
const ARGS = ['--rate-limit', '0', '--sync', 'normal', '--idle-timeout', '3600', '--max-seats', '100000',
  '--joins-per-address', '1000000', '--max-per-address', '1000000'];

/** The test context shards.mjs wants: teardowns run by close(). */
function scope() {
  const fns = [];
  return { after: (fn) => fns.push(fn), close: async () => { for (const fn of fns.reverse()) await fn(); } };
}

const cpuOf = (pid) => {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, s (USER_HZ 100)
  } catch {
    return 0;
  }
};
const nginxPids = (dir) => {
  const master = Number(fs.readFileSync(path.join(dir, 'nginx.pid'), 'utf8'));
  const kids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
    try {
      return fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ')[1] === String(master);
    } catch {
      return false;
    }
  });
  return [master, ...kids.map(Number)];
};

function runLoad(args) {
  return new Promise((resolve, reject) => {
    const p = spawn(LOAD, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (c) => (out += c));
    p.stderr.on('data', (c) => (err += c));
    p.on('exit', (code) => {
      try {
        const r = JSON.parse(out.trim().split('\n').pop());
        if (code === 0 && r.ok) return resolve(r);
      } catch {
        /* no result */
      }
      reject(new Error(`bench_load ${args.join(' ')} failed (${code}):\n${err}${out}`));
    });
  });
}

/** One layout: n processes behind nginx (proxy) or one without. */
async function layout(n, proxy) {
  const t = scope();
  try {
    const servers = proxy ? await startShards(t, NAMES.slice(0, n), { args: ARGS }) : [await new Server({ args: ARGS }).start()];
    if (!proxy) t.after(() => servers[0].stop());
    const router = proxy ? await startRouter(t, servers, { bench: true }) : null;
    const port = router ? router.httpsPort : servers[0].port;
    const share = (i) => Math.floor(opt.tables / n) + (i < opt.tables % n ? 1 : 0);
    const cpu0 = servers.map((s) => cpuOf(s.proc.pid));
    const ng = router ? nginxPids(router.dir) : [];
    const ng0 = ng.reduce((a, p) => a + cpuOf(p), 0);
    const t0 = Date.now();
    const rs = await Promise.all(servers.map((s, i) => runLoad(['--port', String(port), '--host-token', s.hostToken, '--tables', String(share(i)),
      '--seats', '8', '--seconds', String(opt.seconds), '--window', '16', '--timeout', '600', '--pid', String(s.proc.pid),
      ...(proxy ? ['--route', s.shard] : [])])));
    const wall = (Date.now() - t0) / 1000;
    const perCmd = (pcts, rate) => (pcts.reduce((a, c) => a + c, 0) / 100) * 1e6 / rate; // CPU µs per command
    const runCpu = servers.map((s, i) => (cpuOf(s.proc.pid) - cpu0[i]) / wall * 100);
    const ngCpu = (ng.reduce((a, p) => a + cpuOf(p), 0) - ng0) / wall * 100;
    const cmds = rs.reduce((a, r) => a + r.cmds_per_s, 0);
    const cpu = { tabled: perCmd(rs.map((r) => r.srv_cpu_pct), cmds), clients: perCmd(rs.map((r) => r.cli_cpu_pct), cmds) };
    const r = {
      layout: proxy ? `${n} behind nginx` : '1 direct',
      cpu_us_per_cmd: cpu,
      processes: n,
      cmds_per_s: rs.reduce((a, r) => a + r.cmds_per_s, 0),
      p50_us: Math.max(...rs.map((r) => r.lat_us.p50)),
      p99_us: Math.max(...rs.map((r) => r.lat_us.p99)),
      srv_cpu_pct_load: rs.map((r) => r.srv_cpu_pct),
      srv_cpu_pct_run: runCpu,
      cli_cpu_pct: rs.map((r) => r.cli_cpu_pct),
      nginx_cpu_pct_run: ngCpu,
    };
    // nginx's CPU over the whole run (joins too) per command of the load phase: an upper bound
    r.cpu_us_per_cmd.nginx = proxy ? (ngCpu / 100) * 1e6 * wall / (cmds * opt.seconds) : 0;
    // What an idle machine of CORES cores would reach at these CPU costs: each process is one
    // loop thread (at most one core), and tabled + nginx + the clients share the cores.
    const c = r.cpu_us_per_cmd;
    r.ceiling_per_s = Math.min((n * 1e6) / c.tabled, (CORES * 1e6) / (c.tabled + c.nginx + c.clients));
    return r;
  } finally {
    await t.close();
  }
}

const results = [];
const fmt = (v) => Math.round(v).toLocaleString('en-US').replace(/,/g, ' ');
console.log(`shards benchmark: ${opt.tables} tables x 8 seats, ${opt.seconds} s of load, ${opt.runs} run(s); load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
console.log('layout              commands/s   p50 µs    p99 µs   tabled CPU % (load phase, each)   clients CPU %   nginx CPU % (whole run)   CPU µs/command: tabled, nginx, clients   ceiling on idle cores');
for (let run = 0; run < opt.runs; run++) {
  for (const [n, proxy] of [[1, false], ...opt.processes.map((n) => [n, true])]) {
    const r = await layout(n, proxy);
    results.push({ run, ...r });
    console.log(`${r.layout.padEnd(18)} ${fmt(r.cmds_per_s).padStart(11)} ${fmt(r.p50_us).padStart(8)} ${fmt(r.p99_us).padStart(9)}   ${r.srv_cpu_pct_load.map((c) => c.toFixed(0)).join(' + ').padEnd(32)} ${r.cli_cpu_pct.map((c) => c.toFixed(0)).join(' + ').padEnd(15)} ${(proxy ? r.nginx_cpu_pct_run.toFixed(0) : '-').padEnd(25)} ${[r.cpu_us_per_cmd.tabled, r.cpu_us_per_cmd.nginx, r.cpu_us_per_cmd.clients].map(fmt).join(', ').padEnd(40)} ${fmt(r.ceiling_per_s)}/s`);
  }
}
if (opt.json) fs.writeFileSync(opt.json, JSON.stringify(results, null, 2));
