// The systemd recipe (issue 18): deploy/install-service lays out the binary, the web client, the
// sample characters, /etc/tabled/tabled.conf and deploy/tabled.service; the installed files serve
// a table with the installed config; the unit passes `systemd-analyze verify` with no warning and
// keeps its hardening (`systemd-analyze security` exposure); and every system call the server
// makes while a table plays is one the unit's SystemCallFilter allows (strace).
//
// The service runs the plain build (deploy/install-service installs build/server/tabled), so this
// file tests that binary, not $TABLED_BIN (the sanitizer build makes system calls of its own).
// Parts that need systemd-analyze or strace are skipped, with the reason, where those are absent
// (a minimal Debian root has no systemd).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, Server, startServer, table, closeAll, findTool } from './lib.mjs';

const PLAIN_BIN = path.join(repoRoot, 'build', 'server', 'tabled');
const INSTALL = path.join(repoRoot, 'deploy', 'install-service');

const SYSTEMD_ANALYZE = findTool('systemd-analyze');
const STRACE = findTool('strace');
const noBin = fs.existsSync(PLAIN_BIN) ? false : `no plain build at ${PLAIN_BIN} (deploy/build build)`;

/** Runs deploy/install-service --root <tmp> --bin <plain build>; returns the root. */
function installTo(t) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-svc-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  execFileSync(INSTALL, ['--root', root, '--bin', PLAIN_BIN], { encoding: 'utf8', stdio: 'pipe' });
  return root;
}

/** The installed unit with its two absolute paths moved under root (what verify resolves). */
function unitUnder(root) {
  const unit = fs.readFileSync(path.join(root, 'etc/systemd/system/tabled.service'), 'utf8');
  const exec = 'ExecStart=/usr/local/bin/tabled serve --config /etc/tabled/tabled.conf';
  assert.ok(unit.includes(exec), 'the unit starts the installed binary with the installed config');
  const dir = fs.mkdtempSync(path.join(root, 'unit-'));
  const f = path.join(dir, 'tabled.service');
  fs.writeFileSync(f, unit.replace(exec, `ExecStart=${root}/usr/local/bin/tabled serve --config ${root}/etc/tabled/tabled.conf`));
  return f;
}

/** The installed config as `name = value` pairs (the keys of `tabled serve`). */
function readConf(root) {
  const pairs = {};
  for (const l of fs.readFileSync(path.join(root, 'etc/tabled/tabled.conf'), 'utf8').split('\n')) {
    const m = /^\s*([a-z][a-z0-9-]*)\s*=\s*(.*?)\s*$/.exec(l);
    if (m) pairs[m[1]] = m[2];
  }
  return pairs;
}

test('install-service lays out the files, keeps an edited config, and the installed server serves', { skip: noBin }, async (t) => {
  const root = installTo(t);
  const bin = path.join(root, 'usr/local/bin/tabled');
  assert.equal(fs.statSync(bin).mode & 0o777, 0o755);
  assert.match(execFileSync(bin, ['--version'], { encoding: 'utf8' }), /^tabled \d+\.\d+\.\d+\n$/);
  const share = path.join(root, 'usr/local/share/tabled');
  assert.ok(fs.existsSync(path.join(share, 'web-static', 'index.html')));
  for (const sys of ['cot', 'heimr', 'grimwire', 'tenacity', 'fivey'])
    assert.ok(fs.readdirSync(path.join(share, 'rules', sys, 'samples')).some((f) => f.endsWith('.json')), `${sys} samples`);

  const conf = readConf(root);
  assert.deepEqual({ port: conf.port, bind: conf.bind, db: conf.db, web: conf.web, backups: conf['backup-dir'], host: conf['allow-host'] },
    { port: '7777', bind: '127.0.0.1', db: '/var/lib/tabled/tabled.db', web: '/usr/local/share/tabled/web-static',
      backups: '/var/lib/tabled/backups', host: 'play.example.org' },
    'behind the proxy: loopback only, the public name allowed, database and backups in the only writable directory');

  // the installed binary with the installed config (only the paths under / moved to the test root)
  const srv = await startServer(t, { bin, args: ['--config', path.join(root, 'etc/tabled/tabled.conf'),
    '--db', path.join(root, 'tabled.db'), '--web', path.join(share, 'web-static'), '--backup-dir', path.join(root, 'backups')] });
  assert.equal((await srv.get('/')).status, 200);
  const samples = (await srv.get('/samples/cot')).json();
  assert.ok(samples.samples.length > 0, 'sample characters are found beside the installed web client');

  // a second install keeps the host's edited settings
  fs.appendFileSync(path.join(root, 'etc/tabled/tabled.conf'), 'allow-origin = https://play.example.org\n');
  const out = execFileSync(INSTALL, ['--root', root, '--bin', PLAIN_BIN], { encoding: 'utf8' });
  assert.match(out, /keeping .*tabled\.conf/);
  assert.match(fs.readFileSync(path.join(root, 'etc/tabled/tabled.conf'), 'utf8'), /allow-origin = https:\/\/play\.example\.org/);
});

test('systemd-analyze verify accepts deploy/tabled.service with no warning', {
  skip: noBin || (!SYSTEMD_ANALYZE && 'systemd-analyze is not installed (no systemd here): the unit is not verified'),
}, (t) => {
  const root = installTo(t);
  const unit = unitUnder(root);
  const r = spawnSync(SYSTEMD_ANALYZE, ['verify', '--man=no', unit], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr.trim(), '', 'no warning about the unit');
  // and verify does catch a broken unit: an unknown key is a warning
  fs.writeFileSync(unit, fs.readFileSync(unit, 'utf8').replace('[Service]\n', '[Service]\nProtectEverything=yes\n'));
  const bad = spawnSync(SYSTEMD_ANALYZE, ['verify', '--man=no', unit], { encoding: 'utf8' });
  assert.match(bad.stderr, /Unknown key 'ProtectEverything'/);
});

test('the unit runs as its own user with the database under /var/lib/tabled, restarts, and is hardened', {
  skip: noBin || (!SYSTEMD_ANALYZE && 'systemd-analyze is not installed (no systemd here): the hardening is not scored'),
}, (t) => {
  const root = installTo(t);
  const unit = unitUnder(root);
  const text = fs.readFileSync(unit, 'utf8');
  for (const line of ['User=tabled', 'StateDirectory=tabled', 'Restart=on-failure', 'ProtectSystem=strict', 'NoNewPrivileges=yes'])
    assert.match(text, new RegExp(`^${line}$`, 'm'));
  assert.equal(readConf(root).db.startsWith('/var/lib/tabled/'), true);
  const r = spawnSync(SYSTEMD_ANALYZE, ['security', '--offline=yes', '--no-pager', unit], { encoding: 'utf8' });
  const m = /Overall exposure level for tabled\.service: (\d+\.\d+)/.exec(r.stdout);
  assert.ok(m, r.stdout + r.stderr);
  assert.ok(Number(m[1]) <= 2.0, `exposure ${m[1]} (0 = locked down, 10 = none): hardening was lost`);
});

/** Every syscall in a systemd syscall group, groups expanded (systemd-analyze syscall-filter). */
function syscallGroups() {
  const out = execFileSync(SYSTEMD_ANALYZE, ['syscall-filter', '--no-pager'], { encoding: 'utf8', stdio: 'pipe' });
  const groups = new Map();
  let g = null;
  for (const l of out.split('\n')) {
    const s = l.trim();
    if (!s || s.startsWith('#')) continue;
    if (!/^\s/.test(l) && s.startsWith('@')) groups.set((g = s), []);
    else if (g) groups.get(g).push(s);
  }
  const expand = (name) => new Set((groups.get(name) || []).flatMap((m) => (m.startsWith('@') ? [...expand(m)] : [m])));
  return expand;
}

/** The unit's SystemCallFilter lines: {allow: [...], deny: [...]} (groups and names). */
function unitFilter(text) {
  const allow = [];
  const deny = [];
  for (const [, v] of text.matchAll(/^SystemCallFilter=(.*)$/gm)) {
    if (v.startsWith('~')) deny.push(...v.slice(1).trim().split(/\s+/));
    else allow.push(...v.trim().split(/\s+/));
  }
  return { allow, deny };
}

test('every system call of a played table passes the unit\'s SystemCallFilter', {
  skip: noBin || (!SYSTEMD_ANALYZE && 'systemd-analyze is not installed: the filter cannot be expanded')
    || (!STRACE && 'strace is not installed (deploy/install-deps test installs it)'),
}, async (t) => {
  const { allow, deny } = unitFilter(fs.readFileSync(path.join(repoRoot, 'deploy', 'tabled.service'), 'utf8'));
  assert.ok(allow.length > 0 && deny.length > 0);
  const expand = syscallGroups();
  const set = (names) => new Set(names.flatMap((n) => (n.startsWith('@') ? [...expand(n)] : [n])));
  const allowed = set(allow);
  for (const n of set(deny)) allowed.delete(n);

  // the server under strace, as an unprivileged user like the service's (SQLite calls fchown only
  // as root): setpriv drops to nobody when this test runs as root
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-strace-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.chmodSync(dir, 0o777);
  const trace = path.join(dir, 'trace');
  const asUser = process.getuid() === 0 ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', '--'] : [];
  const srv = new Server({ dir, bin: PLAIN_BIN, wrap: [STRACE, '-f', '-qq', '-o', trace, ...asUser], args: ['--sync', 'full'] });
  t.after(() => srv.stop());
  await srv.start();
  // a table plays: the page, the samples, a GM and a player, rolls, the join API, a secret roll
  assert.equal((await srv.get('/')).status, 200);
  assert.equal((await srv.get('/samples/cot')).status, 200);
  const { gm, players } = await table(srv, ['Ann']);
  for (let i = 0; i < 5; i++) assert.equal((await players[0].client.cmd('roll', { expr: '2d6' }, `a${i}`)).t, 'ack');
  assert.equal((await gm.cmd('roll', { expr: '1d20', secret: true }, 'g1')).t, 'ack');
  await fetch(srv.url('/api/join'), { headers: { authorization: `Bearer ${srv.gmToken}` } });
  await fetch(srv.url('/metrics'));
  await closeAll(gm, players[0].client);
  // clean shutdown: SIGTERM to the server itself, as systemd sends it (strace's child, whose
  // pid starts the trace), then strace ends with it
  process.kill(Number(/^\d+/.exec(fs.readFileSync(trace, 'utf8'))[0]), 'SIGTERM');
  assert.equal((await srv.exitPromise).code, 0, 'a clean shutdown');

  // the calls from the server's own execve on (setpriv's, before it, are not the service's)
  const used = new Set();
  let started = false;
  for (const l of fs.readFileSync(trace, 'utf8').split('\n')) {
    const m = /^\d+\s+([a-z0-9_]+)\((.*)$/.exec(l);
    if (!m) continue;
    if (!started) started = m[1] === 'execve' && m[2].startsWith(JSON.stringify(PLAIN_BIN)) && / = 0$/.test(l);
    if (started) used.add(m[1]);
  }
  assert.ok(used.has('epoll_wait') && used.has('getrandom') && used.has('fdatasync'), 'the trace holds the server\'s calls');
  const refused = [...used].filter((s) => !allowed.has(s)).sort();
  assert.deepEqual(refused, [], `system calls the unit's SystemCallFilter refuses: ${refused.join(' ')}`);
});

test('install-service --shards: tabled@.service and a config per process; verify and hardening as tabled.service', {
  skip: noBin || (!SYSTEMD_ANALYZE && 'systemd-analyze is not installed (no systemd here): the unit is not verified'),
}, (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-svc-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  execFileSync(INSTALL, ['--root', root, '--bin', PLAIN_BIN, '--shards', 'a,b,c'], { encoding: 'utf8', stdio: 'pipe' });
  // one config per process: its own port and database, the rest as tabled.conf
  const ports = ['a', 'b', 'c'].map((n) => {
    const conf = fs.readFileSync(path.join(root, `etc/tabled/${n}.conf`), 'utf8');
    assert.match(conf, new RegExp(`^db = /var/lib/tabled/${n}/tabled\\.db$`, 'm'));
    assert.match(conf, /^bind = 127\.0\.0\.1$/m);
    return /^port = (\d+)$/m.exec(conf)[1];
  });
  assert.deepEqual(ports, ['7781', '7782', '7783'], 'the ports of deploy/nginx-tabled-shards.conf');
  assert.throws(() => execFileSync(INSTALL, ['--root', root, '--bin', PLAIN_BIN, '--shards', 'a,B!'], { stdio: 'pipe' }), 'a bad name is refused');
  // the template, as instance b, with its two absolute paths under root
  const unit = fs.readFileSync(path.join(root, 'etc/systemd/system/tabled@.service'), 'utf8');
  const exec = 'ExecStart=/usr/local/bin/tabled serve --config /etc/tabled/%i.conf --shard %i';
  assert.ok(unit.includes(exec));
  const single = fs.readFileSync(path.join(repoRoot, 'deploy', 'tabled.service'), 'utf8');
  const hardening = (u) => u.split('\n').filter((l) => /^(Protect|Restrict|Private|SystemCall|Capability|NoNew|Lock|Memory|RemoveIPC|User=|Group=|Restart|UMask)/.test(l));
  assert.deepEqual(hardening(unit), hardening(single), 'the same hardening line for line');
  const dir = fs.mkdtempSync(path.join(root, 'unit-'));
  const f = path.join(dir, 'tabled@b.service');
  fs.writeFileSync(f, unit.replace(exec, `ExecStart=${root}/usr/local/bin/tabled serve --config ${root}/etc/tabled/%i.conf --shard %i`));
  const r = spawnSync(SYSTEMD_ANALYZE, ['verify', '--man=no', f], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr.trim(), '', 'no warning about the unit');
  const sec = spawnSync(SYSTEMD_ANALYZE, ['security', '--offline=yes', '--no-pager', f], { encoding: 'utf8' });
  const m = /Overall exposure level for tabled@b\.service: (\d+\.\d+)/.exec(sec.stdout);
  assert.ok(m, sec.stdout + sec.stderr);
  assert.ok(Number(m[1]) <= 2.0, `exposure ${m[1]}`);
});
