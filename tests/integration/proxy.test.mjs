// The reverse-proxy recipe (issue 18): deploy/nginx-tabled.conf, run by a real nginx on loopback
// with a self-signed certificate made here with openssl, in front of a real tabled. Through it:
// the page over HTTPS, a GM and a player over wss:// (the WebSocket upgrade), a roll that reaches
// both, the Origin check still refusing a foreign site, and port 80 sending browsers to HTTPS.
//
// nginx.mjs runs the recipe as it is shipped (only ports, certificate paths and names replaced).
// Skipped, with the reason, where nginx or openssl is missing (deploy/install-deps test installs
// both).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, tryHandshake, closeAll, withoutSecret } from './lib.mjs';
import { NAME, skipNginx as skip, startNginx, get } from './nginx.mjs';

test('nginx recipe: the page, a GM and a player over wss, and a roll through the proxy', { skip }, async (t) => {
  // as deploy/tabled.conf says for a server with a name: allow-host = <the name>
  const srv = await startServer(t, { args: ['--allow-host', NAME] });
  const proxy = await startNginx(t, srv);
  const { ca, httpsPort, httpPort } = proxy;

  // the page and /healthz over HTTPS, verified against our certificate
  const page = await get(`https://127.0.0.1:${httpsPort}/`, ca);
  assert.equal(page.status, 200);
  assert.match(page.body, /<html/i);
  // HSTS: a browser that came once keeps to HTTPS (issue 27, "operating like the anchors")
  assert.match(page.headers['strict-transport-security'] || '', /max-age=\d{7,}/);
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
