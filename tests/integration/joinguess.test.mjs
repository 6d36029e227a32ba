// Join-code guessing (issue 12, item 6): wrong join codes are limited per remote address and
// server-wide, with growing delays, not only per connection. Clients bind to other loopback
// addresses (127.0.0.x) to stand for other machines.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, closeAll } from './lib.mjs';

/** One join attempt on a fresh connection from addr; resolves the error or joined message. */
async function attempt(srv, addr, code, name = 'Eve') {
  const c = await srv.connect({ localAddress: addr, name: `join@${addr}` });
  try {
    const r = await c.join(code, name);
    return r.error || r.joined;
  } finally {
    await c.close();
  }
}

test('after 5 wrong codes an address must wait, even with the right code; other addresses may join', async (t) => {
  const srv = await startServer(t);
  const wrong = [];
  for (let i = 0; i < 5; i++) wrong.push(await attempt(srv, '127.0.0.2', `ZZZZ-ZZZ${i}`));
  assert.deepEqual(wrong.map((m) => m.code), Array(5).fill('unauthorized'), 'five free wrong guesses');
  // the 6th wrong guess starts the delay
  assert.equal((await attempt(srv, '127.0.0.2', 'ZZZZ-ZZZ9')).code, 'unauthorized');
  const held = await attempt(srv, '127.0.0.2', srv.joinCode, 'Ann');
  assert.equal(held.t, 'error', JSON.stringify(held));
  assert.equal(held.code, 'rate_limited');
  assert.match(held.message, /try again in \d+ seconds?/);
  assert.doesNotMatch(held.message, /_/, 'readable text');
  // a player on another address is not affected
  const other = await attempt(srv, '127.0.0.3', srv.joinCode, 'Bo');
  assert.equal(other.t, 'joined', JSON.stringify(other));
  // the delay passes (1 s for the first), then the address may join with the right code
  await new Promise((r) => setTimeout(r, 1100));
  const later = await attempt(srv, '127.0.0.2', srv.joinCode, 'Ann');
  assert.equal(later.t, 'joined', JSON.stringify(later));
  // and a success forgets the address's failures: five free guesses again
  for (let i = 0; i < 5; i++) assert.equal((await attempt(srv, '127.0.0.2', `YYYY-YYY${i}`)).code, 'unauthorized');
});

test('many addresses guessing together are slowed server-wide (every campaign is a target)', async (t) => {
  const srv = await startServer(t);
  // 11 addresses × 5 free guesses each = 55 wrong codes, past the server-wide 50
  let n = 0;
  for (let a = 10; a < 21; a++)
    for (let i = 0; i < 5; i++) {
      const r = await attempt(srv, `127.0.0.${a}`, `ZZZZ-ZZ${String(n++).padStart(2, '0')}`);
      if (n <= 50) assert.equal(r.code, 'unauthorized', `guess ${n}: ${JSON.stringify(r)}`);
    }
  // A new address's first code is looked at (issue 27 item 2: strangers must not lock out a
  // right code), but once it has guessed wrong the server-wide wait holds it too.
  const fresh = await attempt(srv, '127.0.0.99', 'ZZZZ-ZZZZ');
  assert.equal(fresh.code, 'unauthorized', `a new address's first code is looked at: ${JSON.stringify(fresh)}`);
  const again = await attempt(srv, '127.0.0.99', 'ZZZZ-ZZZY');
  assert.equal(again.code, 'rate_limited', `then it is slowed with the others: ${JSON.stringify(again)}`);
  // the GM's table still works, and a real player gets in at once
  const [gm, w] = await srv.hello(srv.gmToken);
  t.after(() => closeAll(gm));
  assert.equal(w.t, 'welcome');
  const joined = await attempt(srv, '127.0.0.100', srv.joinCode, 'Ann');
  assert.equal(joined.t, 'joined', `a real player got in without waiting: ${JSON.stringify(joined)}`);
});
