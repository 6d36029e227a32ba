// `tabled --version` and `tabled serve --config FILE` (issue 18): a service's flags live in a
// file, one "name = value" a line, named like the long flags; flags on the command line override
// the file (a repeatable one adds to it); a bad file is refused with its line and nothing starts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, WEB_DIR, repoRoot, startServer, tryHandshake, closeAll } from './lib.mjs';

function tmpdir(t) {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-cfg-'));
  t.after(() => fs.rmSync(d, { recursive: true, force: true }));
  return d;
}

function writeConfig(dir, text) {
  const f = path.join(dir, 'tabled.conf');
  fs.writeFileSync(f, text);
  return f;
}

/**
 * Runs `tabled serve ARGS` until its banner is printed, asks /healthz, then stops it with SIGTERM;
 * returns {version, port, db, health, code, stderr} (code: the exit code of the clean shutdown).
 */
function serveUntilBanner(args) {
  return new Promise((resolve, reject) => {
    const p = spawn(BIN, ['serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let done = false;
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`no banner within 20 s: ${out}${err}`));
    }, 20000);
    p.stderr.on('data', (c) => (err += c));
    p.stdout.on('data', async (c) => {
      out += c;
      const m = /^tabled (\S+) listening on port (\d+) \(database (.*)\)$/m.exec(out);
      if (done || !m || !/^Open the console link/m.test(out)) return;
      done = true; // once: a second SIGTERM during the shutdown would end it uncleanly
      clearTimeout(timer);
      const port = Number(m[2]);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status, () => null);
      p.kill('SIGTERM');
      p.on('exit', (code) => resolve({ version: m[1], port, db: m[3], health, code, stderr: err }));
    });
    p.on('exit', (code) => {
      clearTimeout(timer);
      if (!/listening/.test(out)) reject(new Error(`exited ${code}: ${err}`));
    });
  });
}

test('tabled --version prints the version of meson.build, the same as the banner and /healthz', async (t) => {
  const r = spawnSync(BIN, ['--version'], { encoding: 'utf8' });
  assert.equal(r.status, 0);
  const want = /version\s*:\s*'([^']+)'/.exec(fs.readFileSync(path.join(repoRoot, 'meson.build'), 'utf8'))[1];
  assert.equal(r.stdout, `tabled ${want}\n`);
  const srv = await startServer(t);
  assert.equal(srv.banner.version, want);
  assert.equal((await srv.get('/healthz')).json().version, want);
});

test('serve --config FILE alone: the port, address, database and web files come from the file', async (t) => {
  const dir = tmpdir(t);
  const db = path.join(dir, 'from-config.db');
  const f = writeConfig(dir, `# a service's settings
port = 0
bind = 127.0.0.1

db = ${db}
web = ${WEB_DIR}
sync = full
`);
  const b = await serveUntilBanner(['--config', f]);
  assert.equal(b.code, 0, 'a clean shutdown');
  assert.doesNotMatch(b.stderr, /Sanitizer|runtime error/, 'no sanitizer report (leaks included)');
  assert.equal(b.db, db);
  assert.equal(b.health, 200, '/healthz answers on the port the file asked for (bound to 127.0.0.1)');
  assert.ok(fs.existsSync(db), 'the database is where the file says');
  const b2 = await serveUntilBanner([`--config=${f}`]);
  assert.equal(b2.db, db, '--config=FILE reads the same');
});

test('a flag on the command line overrides the file; a repeatable flag from the file adds up', async (t) => {
  const dir = tmpdir(t);
  // the file's database is somewhere nothing can be written: the command line's --db must win
  const f = writeConfig(dir, `db = ${path.join(dir, 'missing', 'dir', 'never.db')}
allow-origin = https://play.example.org
allow-origin = https://other.example.org
rate-limit = 0
`);
  const srv = await startServer(t, { args: ['--config', f, '--allow-origin', 'https://third.example.org'] });
  assert.equal(srv.banner.dbPath, srv.db);
  for (const origin of ['https://play.example.org', 'https://other.example.org', 'https://third.example.org']) {
    const r = await tryHandshake(srv.wsUrl(), { origin });
    assert.equal(r.ok, true, `${origin} is allowed`);
  }
  const r = await tryHandshake(srv.wsUrl(), { origin: 'https://evil.example' });
  assert.equal(r.status, 403, 'any other origin is still refused');
  // rate-limit = 0 from the file: 60 rolls in a burst all go through
  const gm = await srv.connect();
  await gm.hello(srv.gmToken);
  const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => gm.cmd('roll', { expr: '1d6' }, `r${i}`)));
  assert.deepEqual([...new Set(replies.map((x) => x.t))], ['ack']);
  await closeAll(gm);
});

test('a bad config file is refused with its file and line, and nothing starts', async (t) => {
  const dir = tmpdir(t);
  const db = path.join(dir, 'x.db');
  const cases = [
    [`port = 0\ndb = ${db}\nport 7777\n`, /tabled\.conf:3: expected "name = value"/],
    [`db = ${db}\nport =\n`, /tabled\.conf:2: port has no value after "="/],
    [`db = ${db}\nconfig = other.conf\n`, /tabled\.conf:2: a config file cannot name another one/],
    [`db = ${db}\ncolour = red\n`, /unknown option --colour/],
    [`db = ${db}\nport = 70000\n`, /--port must be 0\.\.65535/],
  ];
  for (const [text, re] of cases) {
    const f = writeConfig(dir, text);
    const r = spawnSync(BIN, ['serve', '--config', f], { encoding: 'utf8', timeout: 10000 });
    assert.equal(r.status, 2, text);
    assert.match(r.stderr, re);
    assert.ok(!fs.existsSync(db), 'no database was created');
  }
  const missing = spawnSync(BIN, ['serve', '--config', path.join(dir, 'nope.conf')], { encoding: 'utf8' });
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot read the config file .*nope\.conf/);
  const twice = spawnSync(BIN, ['serve', '--config', 'a', '--config', 'b'], { encoding: 'utf8' });
  assert.equal(twice.status, 2);
  assert.match(twice.stderr, /--config is given twice/);
});
