// The reverse-proxy recipe (issue 18): deploy/nginx-tabled.conf, run by a real nginx on loopback
// with a self-signed certificate made here with openssl, in front of a real tabled. Through it:
// the page over HTTPS, a GM and a player over wss:// (the WebSocket upgrade), a roll that reaches
// both, the Origin check still refusing a foreign site, and port 80 sending browsers to HTTPS.
//
// The recipe is used as it is shipped; only what must differ on a test machine is replaced —
// ports, certificate paths, the host name — and each replacement must match, so a changed recipe
// fails here instead of being silently tested in another shape. Skipped, with the reason, where
// nginx or openssl is missing (deploy/install-deps test installs both).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, startServer, tryHandshake, closeAll, sleep, withoutSecret, findTool } from './lib.mjs';

const RECIPE = path.join(repoRoot, 'deploy', 'nginx-tabled.conf');
const NAME = 'play.example.test'; // the server's public name in this test (in the certificate too)

const NGINX = findTool('nginx');
const OPENSSL = findTool('openssl');
const skip = !NGINX ? 'nginx is not installed (deploy/install-deps test installs it)'
  : !OPENSSL ? 'openssl is not installed (deploy/install-deps test installs it)' : false;

/** A port nothing listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Replaces `from` (string or RegExp) in text; throws if the recipe no longer has it. */
function must(text, from, to) {
  const out = typeof from === 'string' ? text.split(from).join(to) : text.replace(from, to);
  if (out === text) throw new Error(`deploy/nginx-tabled.conf no longer contains ${from}: update this test with the recipe`);
  return out;
}

/** The recipe, adapted to loopback ports and the test certificate, inside a whole nginx.conf. */
function nginxConf(dir, { httpsPort, httpPort, upstreamPort }) {
  let site = fs.readFileSync(RECIPE, 'utf8');
  site = must(site, /^\s*listen \[::\]:(80|443)( ssl)?;\n/gm, ''); // no IPv6 needed on loopback
  site = must(site, 'listen 80;', `listen 127.0.0.1:${httpPort};`);
  site = must(site, 'listen 443 ssl;', `listen 127.0.0.1:${httpsPort} ssl;`);
  site = must(site, '/etc/letsencrypt/live/play.example.org/fullchain.pem', path.join(dir, 'cert.pem'));
  site = must(site, '/etc/letsencrypt/live/play.example.org/privkey.pem', path.join(dir, 'key.pem'));
  site = must(site, 'server_name play.example.org;', 'server_name 127.0.0.1;');
  site = must(site, 'proxy_pass http://127.0.0.1:7777;', `proxy_pass http://127.0.0.1:${upstreamPort};`);
  site = must(site, 'root /var/www/html;', `root ${dir};`);
  for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(dir, t));
  return `# made by tests/integration/proxy.test.mjs from deploy/nginx-tabled.conf
daemon off;
master_process on;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections 64; }
http {
    access_log ${dir}/access.log;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
${site}
}
`;
}

/** GET over http(s) with our CA and the given request headers: {status, headers, body}. */
function get(url, ca, headers = {}) {
  return new Promise((resolve, reject) => {
    const mod = url.startsWith('https:') ? https : http;
    const req = mod.get(url, { ca, headers, timeout: 10000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timeout')));
  });
}

test('nginx recipe: the page, a GM and a player over wss, and a roll through the proxy', { skip }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-proxy-'));
  fs.chmodSync(dir, 0o755); // nginx's workers (user nobody when run as root) read the page path
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));

  // a self-signed certificate for 127.0.0.1, as a host's certificate authority would issue one
  execFileSync(OPENSSL, ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
    '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', `subjectAltName=IP:127.0.0.1,DNS:${NAME},DNS:other.example.test`,
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'pipe' });
  const ca = fs.readFileSync(path.join(dir, 'cert.pem'));

  // as deploy/tabled.conf says for a server with a name: allow-host = <the name>
  const srv = await startServer(t, { args: ['--allow-host', NAME] });

  let nginx;
  let httpsPort;
  let httpPort;
  let log = '';
  for (let attempt = 0; ; attempt++) {
    httpsPort = await freePort();
    httpPort = await freePort();
    fs.writeFileSync(path.join(dir, 'nginx.conf'), nginxConf(dir, { httpsPort, httpPort, upstreamPort: srv.port }));
    if (attempt === 0) {
      const check = spawnSync(NGINX, ['-t', '-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], { encoding: 'utf8' });
      assert.equal(check.status, 0, `nginx -t refuses the recipe:\n${check.stderr}`);
    }
    nginx = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
    nginx.stderr.on('data', (c) => (log += c));
    const up = await waitUp(`https://127.0.0.1:${httpsPort}/healthz`, ca, nginx);
    if (up) break;
    nginx.kill('SIGKILL');
    if (attempt >= 4) assert.fail(`nginx did not serve:\n${log}\n${readIf(path.join(dir, 'error.log'))}`);
  }
  t.after(async () => {
    nginx.kill('SIGQUIT');
    await new Promise((r) => (nginx.exitCode !== null ? r() : nginx.once('exit', r)));
  });

  // the page and /healthz over HTTPS, verified against our certificate
  const page = await get(`https://127.0.0.1:${httpsPort}/`, ca);
  assert.equal(page.status, 200);
  assert.match(page.body, /<html/i);
  const health = await get(`https://127.0.0.1:${httpsPort}/healthz`, ca);
  assert.equal(JSON.parse(health.body).ok, true);

  // port 80 sends a browser to HTTPS, keeping the path
  const plain = await get(`http://127.0.0.1:${httpPort}/some/path`);
  assert.equal(plain.status, 301);
  assert.equal(plain.headers.location, `https://127.0.0.1/some/path`);

  // a GM and a player, as the page at https://127.0.0.1:PORT would open them (its Origin)
  const origin = `https://127.0.0.1:${httpsPort}`;
  const url = `wss://127.0.0.1:${httpsPort}/ws`;
  const gm = await srv.connect({ url, ca, origin, name: 'gm' });
  const gw = await gm.hello(srv.gmToken);
  assert.equal(gw.t, 'welcome', JSON.stringify(gw));
  const ann = await srv.connect({ url, ca, origin, name: 'Ann' });
  const joined = await ann.join(srv.joinCode, 'Ann');
  assert.ok(joined.joined, JSON.stringify(joined));

  const r = await ann.cmd('roll', { expr: '3d6+2' }, 'through-the-proxy');
  assert.equal(r.t, 'ack', JSON.stringify(r));
  assert.equal(r.result.total, r.result.dice.reduce((s, d) => s + d.value, 0) + 2);
  await gm.waitSeq(r.seq);
  const logged = gm.state.log.find((e) => e.seq === r.seq);
  assert.ok(logged, 'the GM, also behind the proxy, got the roll as a diff');
  assert.deepEqual(logged.roll, withoutSecret(r.result));
  assert.deepEqual((await srv.gmView()).state, gm.state, 'what came through the proxy is the server state');

  // the GM's invite shows the join link of the address the GM's page uses, with https
  const invite = await get(`https://127.0.0.1:${httpsPort}/api/join`, ca, { authorization: `Bearer ${srv.gmToken}` });
  assert.equal(invite.status, 200, invite.body);
  assert.equal(JSON.parse(invite.body).links[0].url, `https://127.0.0.1:${httpsPort}/#join=${srv.joinCode}`);

  // a browser that reached the proxy by the server's name (allow-host): the page, and a player
  // whose socket comes from that page; any other name is refused by tabled's Host allow-list
  const named = `${NAME}:${httpsPort}`;
  assert.equal((await get(`https://127.0.0.1:${httpsPort}/`, ca, { host: named })).status, 200);
  assert.equal((await get(`https://127.0.0.1:${httpsPort}/`, ca, { host: `other.example.test:${httpsPort}` })).status, 403);
  const bo = await srv.connect({ url, ca, origin: `https://${named}`, headers: { host: named }, name: 'Bo' });
  const boJoined = await bo.join(srv.joinCode, 'Bo');
  assert.ok(boJoined.joined, JSON.stringify(boJoined));
  const r2 = await bo.cmd('roll', { expr: '1d20' }, 'by-name');
  assert.equal(r2.t, 'ack', JSON.stringify(r2));
  await gm.waitSeq(r2.seq);
  await closeAll(bo);

  // the Origin check still holds behind the proxy: another site's page cannot open a socket
  const foreign = await tryHandshake(url, { ca, origin: 'https://evil.example' });
  assert.equal(foreign.status, 403);
  // and the certificate is really checked: without our CA the TLS handshake fails
  const untrusted = await tryHandshake(url, { origin });
  assert.equal(untrusted.ok, false);
  assert.match(String(untrusted.error), /self.signed|certificate/i);
  await closeAll(gm, ann);
});

function readIf(f) {
  try {
    return fs.readFileSync(f, 'utf8');
  } catch {
    return '';
  }
}

/** Polls url until it answers 200 (true) or the process exits or 10 s pass (false). */
async function waitUp(url, ca, proc) {
  const deadline = Date.now() + 10000;
  while (Date.now() < deadline && proc.exitCode === null) {
    try {
      if ((await get(url, ca)).status === 200) return true;
    } catch {
      /* not yet */
    }
    await sleep(50);
  }
  return false;
}
