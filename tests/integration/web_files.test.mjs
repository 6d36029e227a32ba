// The browser client's files (server/static.c): revalidated on every load (`no-cache` + a strong
// ETag → 304), so an upgrade reaches a phone at its next load; gzipped for a browser that takes
// it; the web app manifest and its icons that make the page installable; nothing outside the
// directory; the security headers on every answer.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { startServer, WEB_DIR } from './lib.mjs';

const get = (srv, p, headers = {}) => fetch(srv.url(p), { headers, redirect: 'manual' });

test('a file is revalidated by its ETag, gzipped on request, and a change on disk is a new ETag', async (t) => {
  const web = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-web-'));
  fs.cpSync(WEB_DIR, web, { recursive: true });
  t.after(() => fs.rmSync(web, { recursive: true, force: true }));
  const srv = await startServer(t, { args: ['--web', web] });

  const plain = await get(srv, '/js/app.js');
  assert.equal(plain.status, 200);
  assert.equal(plain.headers.get('cache-control'), 'no-cache');
  assert.match(plain.headers.get('content-type'), /^text\/javascript/);
  const etag = plain.headers.get('etag');
  assert.match(etag, /^"[0-9a-f]{16}"$/);
  const body = Buffer.from(await plain.arrayBuffer());
  assert.deepEqual(body, fs.readFileSync(path.join(web, 'js', 'app.js')));

  // node's fetch asks for gzip and unpacks it: the raw bytes come through a plain request
  const raw = await new Promise((resolve, reject) => {
    const u = new URL(srv.url('/js/app.js'));
    import('node:http').then(({ request }) =>
      request({ host: u.hostname, port: u.port, path: u.pathname, headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const parts = [];
        res.on('data', (c) => parts.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
      })
        .on('error', reject)
        .end(),
    );
  });
  assert.equal(raw.headers['content-encoding'], 'gzip');
  assert.equal(raw.headers.vary, 'accept-encoding');
  assert.ok(raw.body.length < body.length / 2, `gzip ${raw.body.length} of ${body.length} bytes`);
  assert.deepEqual(zlib.gunzipSync(raw.body), body);

  const again = await get(srv, '/js/app.js', { 'if-none-match': etag });
  assert.equal(again.status, 304);
  assert.equal((await again.arrayBuffer()).byteLength, 0);

  // an upgrade: the file changes on disk, the next load gets it
  fs.appendFileSync(path.join(web, 'js', 'app.js'), '\n// upgraded\n');
  const after = await get(srv, '/js/app.js', { 'if-none-match': etag });
  assert.equal(after.status, 200);
  assert.notEqual(after.headers.get('etag'), etag);
  assert.match(await after.text(), /\/\/ upgraded/);
});

test('the manifest and its icons make the page installable; the policy lets the page load them', async (t) => {
  const srv = await startServer(t);
  const index = await get(srv, '/');
  assert.equal(index.status, 200);
  const html = await index.text();
  assert.match(html, /<link rel="manifest" href="\/manifest.webmanifest">/);
  assert.match(index.headers.get('content-security-policy'), /manifest-src 'self'/);
  assert.equal(index.headers.get('x-content-type-options'), 'nosniff');
  const m = await get(srv, '/manifest.webmanifest');
  assert.equal(m.headers.get('content-type'), 'application/manifest+json');
  const manifest = await m.json();
  assert.equal(manifest.display, 'standalone');
  assert.equal(manifest.start_url, '/');
  const sizes = new Set();
  for (const icon of manifest.icons.filter((i) => i.type === 'image/png')) {
    const r = await get(srv, icon.src);
    assert.equal(r.status, 200, icon.src);
    assert.equal(r.headers.get('content-type'), 'image/png');
    const png = Buffer.from(await r.arrayBuffer());
    const w = png.readUInt32BE(16);
    assert.equal(`${w}x${png.readUInt32BE(20)}`, icon.sizes, `${icon.src} is as large as it says`);
    sizes.add(w);
  }
  assert.ok(sizes.has(192) && sizes.has(512), 'icons of 192 and 512 px');
});

test('nothing outside the client directory, no hidden file, a plain 404', async (t) => {
  const srv = await startServer(t);
  const { request } = await import('node:http');
  const u = new URL(srv.url('/'));
  const status = (p) =>
    new Promise((resolve, reject) =>
      request({ host: u.hostname, port: u.port, path: p }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .on('error', reject)
        .end(),
    );
  for (const p of ['/../meson.build', '/js/../../meson.build', '/%2e%2e/meson.build', '/js/%2e%2e/%2e%2e/meson.build', '/.gitignore', '/js/', '/nope.js']) {
    const s = await status(p);
    assert.ok(s === 404 || s === 400 || s === 403, `${p}: ${s}`);
  }
  const r = await get(srv, '/nope.html');
  assert.equal(r.status, 404);
  assert.match(r.headers.get('content-security-policy'), /default-src 'none'/);
});
