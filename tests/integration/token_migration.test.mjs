// Token hashes across versions (issue 18): tokens are stored only as SHA-256 hex. 0.1.0 hashed
// them with its own storage/sha256.c; later versions hash with OpenSSL. A database made by 0.1.0
// (fixtures/tokens-v0.1.0.db, written by fixtures/make_v0_1_0_db.mjs) must keep working: the
// links printed back then still open the same seats, the campaign goes on where it was, and the
// hashes the new binary stores are the standard SHA-256 (checked against Node's crypto, which
// knows nothing of our code).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, closeAll } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = JSON.parse(fs.readFileSync(path.join(here, 'fixtures', 'tokens-v0.1.0.json'), 'utf8'));
const sha256hex = (s) => crypto.createHash('sha256').update(s, 'utf8').digest('hex');

/** A server on a copy of the 0.1.0 database (the fixture itself is never written). */
async function serverOnOldDb(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-mig-'));
  fs.copyFileSync(path.join(here, 'fixtures', 'tokens-v0.1.0.db'), path.join(dir, 't.db'));
  return startServer(t, { dir });
}

test('the 0.1.0 fixture stores each token as the standard SHA-256 hex of the token', async (t) => {
  const srv = await serverOnOldDb(t);
  const hashes = srv.sqlite('SELECT hash FROM tokens').split('\n');
  for (const tok of [fixture.gmToken, fixture.player.token])
    assert.ok(hashes.includes(sha256hex(tok)), `sha256(${tok.slice(0, 4)}...) is stored`);
});

test('GM and player links made by 0.1.0 open the same seats and the same campaign state', async (t) => {
  const srv = await serverOnOldDb(t);
  assert.equal(srv.campaignId, fixture.campaign);
  const [gm, gw] = await srv.hello(fixture.gmToken);
  assert.equal(gw.t, 'welcome', JSON.stringify(gw));
  assert.equal(gw.seat.role, 'gm');
  assert.equal(gw.seq, fixture.seq);
  assert.deepEqual(gw.state, fixture.gmState, 'the GM sees exactly what 0.1.0 showed');

  const [ann, aw] = await srv.hello(fixture.player.token);
  assert.equal(aw.t, 'welcome', JSON.stringify(aw));
  assert.equal(aw.seat.id, fixture.player.seat);
  assert.equal(aw.seat.name, fixture.player.name);
  assert.equal(aw.state.gm, undefined, "a player's snapshot still carries nothing of /gm");

  // play goes on from where it stopped
  const r = await ann.cmd('roll', { expr: '1d8' }, 'after-upgrade-1');
  assert.equal(r.t, 'ack', JSON.stringify(r));
  assert.equal(r.seq, fixture.seq + 1);
  await gm.waitSeq(fixture.seq + 1);

  // a wrong token is still refused
  const [bad, bw] = await srv.hello(fixture.gmToken.slice(0, -1) + (fixture.gmToken.endsWith('A') ? 'B' : 'A'));
  assert.equal(bw.t, 'error');
  assert.equal(bw.code, 'unauthorized');
  await closeAll(gm, ann, bad);
});

test('a token minted by the new binary is stored as the same standard hash', async (t) => {
  const srv = await serverOnOldDb(t);
  const c = await srv.connect();
  const r = await c.join(fixture.joinCode, 'Cleo');
  assert.ok(r.joined, JSON.stringify(r));
  const stored = srv.sqlite(`SELECT count(*) FROM tokens WHERE hash = '${sha256hex(r.joined.token)}'`);
  assert.equal(stored, '1');
  assert.equal(srv.sqlite(`SELECT count(*) FROM tokens WHERE hash = '${r.joined.token}'`), '0', 'never the raw token');
  await closeAll(c);
});
