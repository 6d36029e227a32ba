// The limits of an exposed server (issue 12): the Host allow-list against DNS rebinding (HTTP
// and WebSocket), a deadline for hello, an idle timeout, RLIMIT_NOFILE raised to its hard limit,
// and a connection cap that refuses with a clear answer while keeping room for the GM.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { BIN, startServer, table, closeAll, tryHandshake, sleep } from './lib.mjs';

/** GET path with explicit Host and Origin headers: resolves {status, text}. */
function getWithHost(srv, p, host, origin) {
  return new Promise((resolve, reject) => {
    const headers = { Host: host };
    if (origin) headers.Origin = origin;
    const req = http.request({ host: '127.0.0.1', port: srv.port, path: p, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A non-loopback IPv4 address of this machine, or null. */
function ownAddress() {
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list || []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return null;
}

test('DNS rebinding: Host and Origin both evil.example are refused, over HTTP and WebSocket', async (t) => {
  const srv = await startServer(t, { args: ['--allow-host', 'table.example'] });
  const evil = 'evil.example';
  for (const p of ['/', '/index.html', '/healthz', '/metrics', '/samples/cot', '/api/join']) {
    const r = await getWithHost(srv, p, `${evil}:${srv.port}`, `http://${evil}:${srv.port}`);
    assert.equal(r.status, 403, `${p}: ${r.status}`);
    assert.ok(!r.text.includes('tabled_') && !r.text.includes('<script'), `${p}: nothing served`);
  }
  const ws = await tryHandshake(srv.wsUrl(), { headers: { Host: `${evil}:${srv.port}` }, origin: `http://${evil}:${srv.port}` });
  assert.equal(ws.ok, false, JSON.stringify(ws));
  assert.equal(ws.status, 403);
  // the names this server answers to
  const own = ownAddress();
  const good = ['127.0.0.1', 'localhost', 'table.example', '[::1]', ...(own ? [own] : [])];
  for (const h of good) {
    const host = `${h}:${srv.port}`;
    const r = await getWithHost(srv, '/healthz', host, `http://${host}`);
    assert.equal(r.status, 200, `${host}: ${r.status}`);
    const w = await tryHandshake(srv.wsUrl(), { headers: { Host: host }, origin: `http://${host}` });
    assert.equal(w.ok, true, `${host}: ${JSON.stringify(w)}`);
  }
  // another name of a machine on the network is not this server
  assert.equal((await getWithHost(srv, '/healthz', `tabled.evil.example:${srv.port}`)).status, 403);
  // the server is still up and serving
  assert.equal((await srv.get('/healthz')).status, 200);
});

test('a WebSocket that never says hello is closed at the deadline; one that does stays', async (t) => {
  const srv = await startServer(t, { args: ['--hello-timeout', '1'] });
  const silent = await srv.connect({ name: 'silent' });
  const [gm, w] = await srv.hello(srv.gmToken);
  t.after(() => closeAll(gm, silent));
  assert.equal(w.t, 'welcome');
  const t0 = Date.now();
  const closed = await silent.waitClosed(5000);
  assert.equal(closed.code, 1008, JSON.stringify(closed));
  assert.match(closed.reason, /hello/);
  assert.ok(Date.now() - t0 < 3000, 'closed soon after the deadline');
  await sleep(500);
  assert.equal((await gm.ping(7)).n, 7, 'a seated socket is not touched by the hello deadline');
});

test('a socket silent for the idle timeout is closed; a pinging one stays', async (t) => {
  const srv = await startServer(t, { args: ['--idle-timeout', '1.5'] });
  const [quiet] = await srv.hello(srv.gmToken);
  const [busy] = await srv.hello(srv.gmToken);
  t.after(() => closeAll(quiet, busy));
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    await busy.ping();
    await sleep(300);
  }
  const closed = await quiet.waitClosed(3000);
  assert.equal(closed.code, 1001, JSON.stringify(closed));
  assert.match(closed.reason, /idle/);
  assert.ok(busy.isOpen, 'the pinging socket is open');
});

test('RLIMIT_NOFILE is raised to the hard limit at start: 400 idle TCP connections do not lock players out', async (t) => {
  const wrapper = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-ulimit-')), 'tabled');
  fs.writeFileSync(wrapper, `#!/bin/sh\nulimit -Sn 256 || exit 3\nexec "${BIN}" "$@"\n`, { mode: 0o755 });
  const srv = await startServer(t, { bin: wrapper });
  const limits = fs.readFileSync(`/proc/${srv.proc.pid}/limits`, 'utf8');
  const m = /^Max open files\s+(\d+)\s+(\d+)/m.exec(limits);
  assert.ok(m, limits);
  if (Number(m[2]) <= 600) {
    t.skip(`the hard open-file limit here is ${m[2]}: nothing to raise`);
    return;
  }
  assert.equal(m[1], m[2], `soft limit raised to the hard one: ${m[0]}`);
  // 400 idle TCP connections (more than the 256 the process was started with)
  const idle = [];
  t.after(() => idle.forEach((s) => s.destroy()));
  await Promise.all(Array.from({ length: 400 }, () => new Promise((resolve) => {
    const s = net.connect(srv.port, '127.0.0.1', resolve);
    s.on('error', resolve);
    idle.push(s);
  })));
  const { gm, players } = await table(srv, ['Ann']);
  t.after(() => closeAll(gm, players[0].client));
  assert.equal((await players[0].client.cmd('roll', { expr: '1d6' })).t, 'ack', 'a player still gets in and plays');
});

test('near the connection cap only a GM gets in; at the cap the handshake is refused with 503', async (t) => {
  const srv = await startServer(t, { args: ['--max-connections', '8', '--hello-timeout', '3'] });
  const { gm, players } = await table(srv, ['Ann']); // 2 sockets
  const ann = players[0];
  const open = [gm, ann.client];
  t.after(() => closeAll(open));
  for (let i = 0; i < 4; i++) {
    const [c, w] = await srv.hello(ann.token); // players up to 6 of 8
    assert.equal(w.t, 'welcome');
    open.push(c);
  }
  // the 7th: a player is told the server is full; the GM gets in
  const [p7] = await srv.hello(ann.token);
  const closed = await p7.waitClosed(3000);
  assert.equal(closed.code, 1013, JSON.stringify(closed));
  assert.match(closed.reason, /full/);
  // ... and a join there is refused before any seat is made
  const j7 = await srv.connect();
  const jr = await j7.join(srv.joinCode, 'Crowd');
  assert.equal(jr.error?.code, 'rate_limited', JSON.stringify(jr));
  assert.match(jr.error.message, /full/);
  assert.equal((await j7.waitClosed(3000)).code, 1013);
  assert.equal(Object.keys((await srv.gmView()).state.seats).length, 2, 'no seat was created');
  const [g7, w7] = await srv.hello(srv.gmToken);
  const [g8, w8] = await srv.hello(srv.gmToken);
  open.push(g7, g8);
  assert.equal(w7.t, 'welcome');
  assert.equal(w8.t, 'welcome');
  // at 8 the handshake itself is refused, with a status a client can show
  const r = await tryHandshake(srv.wsUrl());
  assert.equal(r.status, 503, JSON.stringify(r));
  await sleep(3500);
  assert.equal((await g8.ping(1)).n, 1, 'the GM in the kept room stays past the hello deadline');
  // one player leaves: a GM may come in again (the room is still kept for GMs)
  await open[2].close();
  await sleep(100);
  const [g9, w9] = await srv.hello(srv.gmToken);
  open.push(g9);
  assert.equal(w9.t, 'welcome');
  assert.equal((await srv.get('/healthz')).status, 200);
});
