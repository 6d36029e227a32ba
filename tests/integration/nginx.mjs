// A real nginx (Debian's package) running deploy/nginx-tabled.conf on loopback, in front of a
// real tabled, with a self-signed certificate made here with openssl: for proxy.test.mjs and
// proxy_limits.test.mjs.
//
// The recipe is used as it is shipped; only what must differ on a test machine is replaced —
// ports, certificate paths, the host name, the upstream port — and each replacement must match,
// so a changed recipe fails here instead of being silently tested in another shape.

import assert from 'node:assert/strict';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, sleep, findTool } from './lib.mjs';

/** The recipe ($TABLED_NGINX_RECIPE: another one, e.g. an older release's, to compare). */
export const RECIPE = process.env.TABLED_NGINX_RECIPE || path.join(repoRoot, 'deploy', 'nginx-tabled.conf');
/** The server's public name in these tests (in the certificate too). */
export const NAME = 'play.example.test';

const NGINX = findTool('nginx');
const OPENSSL = findTool('openssl');
/** A reason to skip, or false. */
export const skipNginx = !NGINX ? 'nginx is not installed (deploy/install-deps test installs it)'
  : !OPENSSL ? 'openssl is not installed (deploy/install-deps test installs it)' : false;

/** A port nothing listens on right now. */
export function freePort() {
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
export function must(text, from, to) {
  const out = typeof from === 'string' ? text.split(from).join(to) : text.replace(from, to);
  if (out === text) throw new Error(`deploy/nginx-tabled.conf no longer contains ${from}: update tests/integration/nginx.mjs with the recipe`);
  return out;
}

/** The recipe, adapted to loopback ports and the test certificate, inside a whole nginx.conf.
 * workerConnections: as Debian's /etc/nginx/nginx.conf has it (768) unless a test says. */
function nginxConf(dir, { httpsPort, httpPort, upstreamPort, workerConnections = 768 }) {
  let site = loopbackSite(fs.readFileSync(RECIPE, 'utf8'), dir, { httpsPort, httpPort });
  site = must(site, 'proxy_pass http://127.0.0.1:7777;', `proxy_pass http://127.0.0.1:${upstreamPort};`);
  return wholeConf(dir, site, { workerConnections });
}

/** What every recipe changes on loopback: its listen ports, certificate, name and webroot. */
export function loopbackSite(site, dir, { httpsPort, httpPort }) {
  site = must(site, /^\s*listen \[::\]:(80|443)( ssl)?;\n/gm, ''); // no IPv6 needed on loopback
  site = must(site, 'listen 80;', `listen 127.0.0.1:${httpPort};`);
  site = must(site, 'listen 443 ssl;', `listen 127.0.0.1:${httpsPort} ssl;`);
  site = must(site, '/etc/letsencrypt/live/play.example.org/fullchain.pem', path.join(dir, 'cert.pem'));
  site = must(site, '/etc/letsencrypt/live/play.example.org/privkey.pem', path.join(dir, 'key.pem'));
  site = must(site, 'server_name play.example.org;', 'server_name 127.0.0.1;');
  site = must(site, 'root /var/www/html;', `root ${dir};`);
  return site;
}

/** A site inside a whole nginx.conf of its own (pid, logs and temp files in dir). httpExtra: more
 * lines of the http block (e.g. a log_format). */
export function wholeConf(dir, site, { workerConnections = 768, workerProcesses = 1, accessLog = `${dir}/access.log`, httpExtra = '' } = {}) {
  for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(dir, t), { recursive: true });
  return `# made by tests/integration/nginx.mjs from a deploy/ recipe
daemon off;
master_process on;
worker_processes ${workerProcesses};
worker_rlimit_nofile ${Math.max(1024, 2 * workerConnections + 64)};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections ${workerConnections}; }
http {
${httpExtra}
    access_log ${accessLog};
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
${site}
}
`;
}

/** GET over http(s) with our CA and the given request headers (and local address):
 * {status, headers, body}. */
export function get(url, ca, headers = {}, localAddress) {
  return new Promise((resolve, reject) => {
    const mod = url.startsWith('https:') ? https : http;
    const req = mod.get(url, { ca, headers, timeout: 10000, localAddress, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timeout')));
  });
}

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

/**
 * Starts nginx with the recipe in front of srv (a started lib.mjs Server) and registers its
 * teardown with t.after. Returns {httpsPort, httpPort, ca, origin, wsUrl, url(p), dir}.
 */
export function startNginx(t, srv, opts = {}) {
  return startNginxConf(t, (dir, ports) => nginxConf(dir, { ...ports, upstreamPort: srv.port, ...opts }));
}

/** Starts nginx with the whole configuration makeConf(dir, {httpsPort, httpPort}) returns (the
 * same teardown and answer as startNginx). scheme 'http': the conf serves plain HTTP on
 * httpsPort (a benchmark's client without TLS). */
export async function startNginxConf(t, makeConf, { scheme = 'https' } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-proxy-'));
  fs.chmodSync(dir, 0o755); // nginx's workers (user nobody when run as root) read the page path
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  // a self-signed certificate for 127.0.0.1, as a host's certificate authority would issue one
  execFileSync(OPENSSL, ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
    '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', `subjectAltName=IP:127.0.0.1,DNS:${NAME},DNS:other.example.test`,
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'pipe' });
  const ca = fs.readFileSync(path.join(dir, 'cert.pem'));
  let nginx;
  let httpsPort;
  let httpPort;
  let log = '';
  for (let attempt = 0; ; attempt++) {
    httpsPort = await freePort();
    httpPort = await freePort();
    fs.writeFileSync(path.join(dir, 'nginx.conf'), makeConf(dir, { httpsPort, httpPort }));
    if (attempt === 0) {
      const check = spawnSync(NGINX, ['-t', '-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], { encoding: 'utf8' });
      assert.equal(check.status, 0, `nginx -t refuses the recipe:\n${check.stderr}`);
    }
    nginx = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
    nginx.stderr.on('data', (c) => (log += c));
    const up = await waitUp(`${scheme}://127.0.0.1:${httpsPort}/healthz`, ca, nginx);
    if (up) break;
    nginx.kill('SIGKILL');
    if (attempt >= 4) assert.fail(`nginx did not serve:\n${log}\n${readIf(path.join(dir, 'error.log'))}`);
  }
  t.after(async () => {
    nginx.kill('SIGQUIT');
    await new Promise((r) => (nginx.exitCode !== null ? r() : nginx.once('exit', r)));
  });
  return {
    dir,
    ca,
    httpsPort,
    httpPort,
    origin: `https://127.0.0.1:${httpsPort}`,
    wsUrl: `wss://127.0.0.1:${httpsPort}/ws`,
    url: (p = '/') => `https://127.0.0.1:${httpsPort}${p}`,
    conf: path.join(dir, 'nginx.conf'),
    /** What an operator's `nginx -s reload` does: the master reads the config again. */
    reload: () => nginx.kill('SIGHUP'),
    pid: nginx.pid,
  };
}
