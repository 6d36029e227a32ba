// Operating tabled like the daemons a Debian admin knows (issue 27, "Operating like the
// anchors"): SIGHUP reloads the config file, systemd is told when the server is ready, reloading
// and stopping (Type=notify), log lines carry journald priorities, every command has --help and
// takes --opt=value, the exit codes are the documented ones, the man page and README name every
// flag, and `meson install` installs a server that finds its web files.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { BIN, repoRoot, startServer, closeAll, sleep, findTool } from './lib.mjs';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-op-'));

/** Waits until re matches the server's stderr (10 s at most). */
async function logged(srv, re) {
  const deadline = Date.now() + 10000;
  while (!re.test(srv.stderr) && Date.now() < deadline) await sleep(50);
  assert.match(srv.stderr, re);
}

/** GET from a local address: the status. */
function statusFrom(port, p, localAddress) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: p, localAddress, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode);
    }).on('error', reject);
  });
}

test('SIGHUP reads the config file again: limits and allow-lists change at once, the table plays on', async (t) => {
  const dir = tmp();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const conf = path.join(dir, 'tabled.conf');
  fs.writeFileSync(conf, 'max-seats = 1\nrate-limit = 0\n');
  const srv = await startServer(t, { args: ['--config', conf] });
  const [gm] = await srv.hello(srv.gmToken);
  t.after(() => closeAll(gm));
  const join = async (name, addr) => {
    const c = await srv.connect({ localAddress: addr });
    const r = await c.join(srv.joinCode, name);
    await c.close();
    return r;
  };
  assert.ok((await join('Ann', '127.0.0.2')).joined);
  assert.equal((await join('Bob', '127.0.0.3')).error?.code, 'conflict', 'the table is full at 1');
  assert.equal(await statusFrom(srv.port, '/metrics', '127.0.0.2'), 403);

  fs.writeFileSync(conf, 'max-seats = 5\nrate-limit = 0\nmetrics-allow = 127.0.0.2\nsync = full\n');
  srv.proc.kill('SIGHUP');
  await logged(srv, /SIGHUP: settings reloaded .*5 seats a campaign.*needing a restart: sync/);
  assert.equal(srv.exited, null, 'still running (it used to exit 129)');
  assert.ok((await join('Bob', '127.0.0.3')).joined, 'the new limit holds at once');
  assert.equal(await statusFrom(srv.port, '/metrics', '127.0.0.2'), 200, 'and the new reader');
  assert.equal((await gm.cmd('roll', { expr: '1d6' })).t, 'ack', 'the GM was never disconnected');

  // a config that does not load changes nothing
  fs.writeFileSync(conf, 'max-seats = 5\ncolour = red\n');
  srv.proc.kill('SIGHUP');
  await logged(srv, /SIGHUP: the config did not load; nothing changed/);
  assert.match(srv.stderr, /unknown option --colour/);
  assert.equal(await statusFrom(srv.port, '/metrics', '127.0.0.2'), 200, 'the last good settings stay');
  assert.equal(srv.exited, null);
});

test('systemd: READY=1 once serving, RELOADING=1 and READY=1 on SIGHUP, STOPPING=1 on SIGTERM', { skip: findTool('strace') ? false : 'strace is not installed (deploy/install-deps test installs it)' }, async (t) => {
  const dir = tmp();
  const trace = path.join(dir, 'trace');
  const srv = await startServer(t, {
    wrap: [findTool('strace'), '-f', '-qq', '-e', 'trace=sendto', '-e', 'signal=none', '-s', '64', '-o', trace],
    env: { NOTIFY_SOCKET: path.join(dir, 'notify') }, // nobody listens: the attempts are what is seen
  });
  const said = () => [...fs.readFileSync(trace, 'utf8').matchAll(/sendto\(\d+, "([A-Z]+=1)"/g)].map((m) => m[1]);
  await srv.get('/healthz');
  assert.deepEqual(said(), ['READY=1']);
  // the signals go to tabled itself, strace's child
  const pid = Number(fs.readFileSync(`/proc/${srv.proc.pid}/task/${srv.proc.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
  process.kill(pid, 'SIGHUP');
  await logged(srv, /settings reloaded/);
  assert.deepEqual(said(), ['READY=1', 'RELOADING=1', 'READY=1']);
  process.kill(pid, 'SIGTERM');
  await srv.exitPromise;
  assert.deepEqual(said(), ['READY=1', 'RELOADING=1', 'READY=1', 'STOPPING=1']);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('journald: with stderr in the journal, lines carry their priority; on a terminal they do not', async (t) => {
  // systemd names the journal stream in JOURNAL_STREAM (device:inode of stderr): a file stands
  // in for it here
  const dir = tmp();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const errFile = path.join(dir, 'stderr');
  const fd = fs.openSync(errFile, 'w');
  const st = fs.fstatSync(fd);
  const run = spawnSync(BIN, ['serve', '--port', '0', '--bind', '127.0.0.1', '--db', path.join(dir, 'nope', 't.db')], {
    stdio: ['ignore', 'ignore', fd],
    env: { ...process.env, JOURNAL_STREAM: `${st.dev}:${st.ino}` },
  });
  fs.closeSync(fd);
  assert.equal(run.status, 1);
  assert.match(fs.readFileSync(errFile, 'utf8'), /^<3>tabled: /m, 'an error: priority 3');
  const plain = spawnSync(BIN, ['serve', '--port', '0', '--bind', '127.0.0.1', '--db', path.join(dir, 'nope', 't.db')], { encoding: 'utf8' });
  assert.match(plain.stderr, /^tabled: /m);
  assert.doesNotMatch(plain.stderr, /^<\d>/m);
});

test('every command has --help, and an unknown option is a usage error (exit 2)', () => {
  for (const cmd of ['serve', 'roll', 'links', 'replay', 'backup', 'export', 'import']) {
    const r = spawnSync(BIN, [cmd, '--help'], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${cmd} --help`);
    assert.match(r.stdout, new RegExp(`usage: tabled ${cmd}`), `${cmd} --help prints its usage`);
    const bad = spawnSync(BIN, [cmd, '--no-such-option'], { encoding: 'utf8' });
    assert.equal(bad.status, 2, `${cmd}: an unknown option is a usage error`);
    assert.match(bad.stderr, /no-such-option/);
  }
});

test('--opt=value works like --opt value, and the exit codes are the documented ones', async (t) => {
  const srv = await startServer(t);
  await srv.kill('SIGTERM');
  const a = spawnSync(BIN, ['replay', `--db=${srv.db}`], { encoding: 'utf8' });
  const b = spawnSync(BIN, ['replay', '--db', srv.db], { encoding: 'utf8' });
  assert.equal(a.status, 0, a.stderr);
  assert.equal(a.stdout, b.stdout);
  assert.equal(spawnSync(BIN, ['links', `--db=${path.join(srv.dir, 'none.db')}`]).status, 1, 'no links yet: 1');
  assert.equal(spawnSync(BIN, ['serve', '--port=x']).status, 2, 'a bad value: 2');
  assert.equal(spawnSync(BIN, ['replay', `--db=${path.join(srv.dir, 'none.db')}`]).status, 3, 'no database: 3');
  fs.writeFileSync(path.join(srv.dir, 'noise.db'), Buffer.alloc(8192, 7));
  assert.equal(spawnSync(BIN, ['serve', '--port=0', `--db=${path.join(srv.dir, 'noise.db')}`]).status, 3, 'not a database: 3');
});

test('the man page and README name every flag of tabled serve', () => {
  const help = spawnSync(BIN, ['serve', '--help'], { encoding: 'utf8' }).stdout;
  const flags = [...new Set([...help.matchAll(/(?:^|\s)(--[a-z][a-z-]+)/g)].map((m) => m[1]))].filter((f) => f !== '--help' && f !== '--name');
  assert.ok(flags.length >= 25, `flags found: ${flags}`);
  const man = fs.readFileSync(path.join(repoRoot, 'deploy', 'tabled.1'), 'utf8').replace(/\\-/g, '-');
  const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  for (const f of flags) {
    assert.ok(man.includes(f), `deploy/tabled.1 names ${f}`);
    assert.ok(readme.includes('`' + f), `README.md names ${f}`);
  }
  for (const section of ['SIGNALS', 'EXIT STATUS', 'ENVIRONMENT', 'FILES']) assert.match(man, new RegExp(`^\\.SH ${section}`, 'm'));
});

test('the unit: Type=notify, ExecReload, Documentation, no restart for a wrong config or a refused database', () => {
  const unit = fs.readFileSync(path.join(repoRoot, 'deploy', 'tabled.service'), 'utf8');
  assert.match(unit, /^Type=notify$/m);
  assert.match(unit, /^ExecReload=\/bin\/kill -HUP \$MAINPID$/m);
  assert.match(unit, /^Documentation=man:tabled\(1\)/m);
  assert.match(unit, /^RestartPreventExitStatus=2 3$/m);
});

test('meson install installs a server that finds its web files and sample characters', { skip: findTool('meson') ? false : 'meson is not installed', timeout: 900000 }, async (t) => {
  const dir = tmp();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const build = path.join(dir, 'build');
  const prefix = path.join(dir, 'prefix');
  const opt = { cwd: repoRoot, stdio: 'pipe', timeout: 900000 };
  execFileSync('nice', ['meson', 'setup', build, `--prefix=${prefix}`, '-Dtests=false', '-Dbuildtype=plain'], opt);
  execFileSync('nice', ['ninja', '-C', build, '-j2'], opt);
  execFileSync('meson', ['install', '-C', build, '--no-rebuild', '--quiet'], opt);
  const share = path.join(prefix, 'share', 'tabled');
  for (const f of ['bin/tabled', 'share/tabled/web-static/index.html', 'share/tabled/rules/cot/samples', 'share/man/man1/tabled.1'])
    assert.ok(fs.existsSync(path.join(prefix, f)), `installed: ${f}`);
  // a mark in the installed page proves which copy is served
  fs.appendFileSync(path.join(share, 'web-static', 'index.html'), '\n<!-- installed copy -->\n');
  const srv = await startInstalled(path.join(prefix, 'bin', 'tabled'), path.join(dir, 't.db'));
  t.after(() => srv.kill('SIGTERM'));
  const get = (p) => new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: srv.port, path: p, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, text }));
    }).on('error', reject);
  });
  const page = await get('/');
  assert.equal(page.status, 200);
  assert.match(page.text, /installed copy/, 'the installed web files are served');
  const samples = await get('/samples/cot');
  assert.equal(samples.status, 200);
  assert.ok(JSON.parse(samples.text).samples.length > 0, 'and the sample characters beside them');
});

/** Starts an installed binary as it is run after `meson install`: no --web, from another
 * directory. Resolves {port, kill(signal)}. */
async function startInstalled(bin, db) {
  const { spawn } = await import('node:child_process');
  const proc = spawn(bin, ['serve', '--port', '0', '--bind', '127.0.0.1', '--db', db], { stdio: ['ignore', 'pipe', 'pipe'], cwd: os.tmpdir() });
  let out = '';
  let err = '';
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (c) => (err += c));
  const exited = new Promise((r) => proc.on('exit', r));
  const port = await new Promise((resolve, reject) => {
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (c) => {
      out += c;
      const m = /listening on port (\d+)/.exec(out);
      if (m && /^Open the console link/m.test(out)) resolve(Number(m[1]));
    });
    proc.on('exit', () => reject(new Error(`the installed tabled exited: ${err}`)));
  });
  return { port, kill: async (sig) => { proc.kill(sig); await exited; } };
}
