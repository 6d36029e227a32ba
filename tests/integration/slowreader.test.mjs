// A socket that stops reading (a phone's browser frozen in the background) while its table goes on:
// the server writes to it without asking first whether it is writable (server/serve.c
// conns_flush), so the kernel's buffer fills and lws keeps the rest of a write. What reaches the
// page must still be whole frames in order; once the server's own queue for it is full it is closed
// with 1013 and resumes from its last seq. The table never waits for it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, closeAll } from './lib.mjs';

test('a player that stops reading gets whole frames in order, then 1013; the table goes on', { timeout: 300000 }, async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const gm = await srv.connect({ name: 'gm' });
  assert.equal((await gm.hello(srv.gmToken)).t, 'welcome');
  const slow = await srv.connect({ name: 'slow' });
  const j = await slow.join(srv.joinCode, 'Ann');
  assert.ok(j.joined, JSON.stringify(j.error));
  const token = j.joined.token;
  t.after(() => closeAll(gm, slow));
  await slow.waitFor((m) => m.t === 'presence');
  slow.ws._socket.pause(); // the page stops reading: the kernel's buffers fill, then the server's queue

  // the GM rolls on, 16 commands in flight, each diff ~4 KB (100 dice): far past what the kernel
  // holds for one socket on loopback and the server's 4 MB / 2 048 messages for it
  let rolls = 0;
  const lane = async () => {
    while (rolls < 4000 && !slow.closeInfo) {
      rolls++;
      const r = await gm.cmd('roll', { expr: '100d6' });
      assert.equal(r.t, 'ack', r.raw);
    }
  };
  const lanes = [];
  for (let i = 0; i < 16; i++) lanes.push(lane());
  const stopped = setInterval(() => {
    if (rolls >= 4000) slow.ws._socket.resume(); // (it never filled: read, and fail below)
  }, 200);
  await Promise.all(lanes);
  clearInterval(stopped);
  slow.ws._socket.resume();
  const info = await slow.waitClosed(60000);
  assert.equal(info.code, 1013, `closed for falling behind after ${rolls} rolls: ${JSON.stringify(info)}`);

  // what did arrive is whole frames, each diff applied in order, nothing unreadable
  assert.deepEqual(slow.msgs.filter((m) => m.t === '<unparseable>' || m.t === '<binary>'), []);
  assert.deepEqual(slow.gaps, []);
  assert.deepEqual(slow.patchErrors, []);
  const got = slow.diffSeqs.length;
  assert.ok(got > 100, `${got} diffs arrived before the close`);
  assert.ok(got < rolls, `it fell behind: ${got} of ${rolls}`);
  t.diagnostic(`${got} diffs of ${rolls} rolls reached the page before its close`);

  // the table went on, and the page resumes from its last seq to the table's state
  const again = await srv.connect({ name: 'slow-again' });
  again.adopt(slow);
  const w = await again.hello(token, slow.seq);
  assert.equal(w.t, 'welcome', w.raw);
  await gm.ping();
  const fresh = await srv.connect({ name: 'fresh' });
  const fw = await fresh.hello(token);
  await again.ping();
  assert.deepEqual(again.state, fw.state, 'resumed to the table as it is now');
  await closeAll(again, fresh);
});
