#!/usr/bin/env node
// What a campaign and a seat cost a process (issue 28 item 7, README "A host of 100 000 tables"):
//
//   node tests/bench/footprint.mjs [N]        (default 1000; build/ or $TABLED_BIN)
//
// Starts a server, makes N campaigns (loaded as they are made), waits for them to be put away
// (a minute after their last use), restarts, opens 100 of them with their GM, seats 7 players at
// each, and prints RSS (/proc/<pid>/status VmRSS) and open fds at each step, and the size of the
// campaign files. Results: tests/bench/README.md, "Memory and files per campaign".
import fs from 'node:fs';
import { Server, sleep } from '../integration/lib.mjs';
const rss = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
const fds = (pid) => fs.readdirSync(`/proc/${pid}/fd`).length;
const N = Number(process.argv[2] || 1000);
const s = new Server({ args: ['--rate-limit', '0', '--max-seats', '100000', '--joins-per-address', '1000000', '--max-per-address', '1000000'] });
await s.start();
const pid = s.proc.pid;
await sleep(500);
const r0 = rss(pid), f0 = fds(pid);
const [host] = await s.hello(s.hostToken);
const made = [];
for (let i = 0; i < N; i++) { const r = await host.cmd('campaign.create', { name: `T${i}`, system: 'cot' }); made.push(r.result); }
await host.close();
await sleep(1000);
const r1 = rss(pid), f1 = fds(pid);
console.log(`fresh: ${r0} KB, ${f0} fds; ${N} campaigns just made (loaded): ${r1} KB (+${((r1 - r0) / N).toFixed(1)} KB each), ${f1} fds (+${((f1 - f0) / N).toFixed(2)} each)`);
await sleep(70000);
const r2 = rss(pid), f2 = fds(pid);
console.log(`after the idle close (put away): ${r2} KB (+${((r2 - r0) / N).toFixed(2)} KB each over fresh), ${f2} fds`);
// restart: a host of N campaigns at rest
await s.restart();
await sleep(500);
const pid2 = s.proc.pid;
const r3 = rss(pid2), f3 = fds(pid2);
console.log(`restarted with ${N} campaigns at rest: ${r3} KB, ${f3} fds`);
// 100 campaigns loaded with a GM + 7 players each: per seat
const conns = [];
const rA = rss(pid2);
for (let i = 0; i < 100; i++) {
  const c = made[i];
  const gm = await s.connect(); await gm.hello(c.gm_token); conns.push(gm);
}
await sleep(500);
const rB = rss(pid2), fB = fds(pid2);
console.log(`100 campaigns opened by their GM: +${((rB - rA) / 100).toFixed(1)} KB each (campaign loaded + 1 seat), fds ${fB}`);
for (let i = 0; i < 100; i++) for (let j = 0; j < 7; j++) { const p = await s.connect(); await p.join(made[i].join_code, `P${j}`); conns.push(p); }
await sleep(500);
const rC = rss(pid2), fC = fds(pid2);
console.log(`+700 players: +${((rC - rB) / 700).toFixed(2)} KB each, fds ${fC} (+${((fC - fB) / 700).toFixed(2)} each)`);
await Promise.all(conns.map((c) => c.close()));
const dbBytes = fs.readdirSync(`${s.db}.campaigns`).reduce((a, f) => a + fs.statSync(`${s.db}.campaigns/${f}`).size, 0);
console.log(`campaign files: ${fs.readdirSync(`${s.db}.campaigns`).length}, ${dbBytes} bytes (${(dbBytes / N / 1024).toFixed(1)} KB a campaign); host file ${fs.statSync(s.db).size} bytes`);
await s.stop();
process.exit(0);
