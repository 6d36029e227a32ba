// A socket that stops reading (a phone's browser frozen in the background) while its table goes on:
// the server writes to it without asking first whether it is writable (server/serve.c
// conns_flush), so the kernel's buffer fills and lws keeps the rest of a write. What reaches the
// page must still be whole frames in order; once the server's own queue for it is full it is closed
// with 1013, and its next hello gets the state (what it missed would not fit in its queue). The
// table never waits for it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { startServer, closeAll } from './lib.mjs';

test('a player that stops reading gets whole frames in order, then is dropped; the table goes on', { timeout: 120000 }, async (t) => {
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

  // the GM shows a handout with a picture (~60 KB in every diff that shows it) and hides it again,
  // over and over: far past what the kernel holds for one socket on loopback and the server's 4 MB
  // for it. The GM's own socket reads on.
  const image = `data:image/png;base64,${crypto.randomBytes(44000).toString('base64')}`;
  const h = await gm.cmd('handout.add', { title: 'The map', image });
  assert.equal(h.t, 'ack', h.raw);
  let shows = 0;
  for (; shows < 400; shows++) {
    const s = await gm.cmd('handout.show', { id: h.result.id });
    assert.equal(s.t, 'ack', s.raw);
    const x = await gm.cmd('handout.hide', { id: h.result.id });
    assert.equal(x.t, 'ack', x.raw);
  }
  slow.ws._socket.resume();
  const info = await slow.waitClosed(60000);
  // told it fell behind (1013), or, had its last write stayed inside lws past the server's own
  // patience, its socket closed (1006): either way it resumes below
  assert.ok([1013, 1006].includes(info.code), `closed for falling behind: ${JSON.stringify(info)}`);

  // what did arrive is whole frames, each diff applied in order, nothing unreadable
  assert.deepEqual(slow.msgs.filter((m) => m.t === '<unparseable>' || m.t === '<binary>'), []);
  assert.deepEqual(slow.gaps, []);
  assert.deepEqual(slow.patchErrors, []);
  const got = slow.diffSeqs.length;
  assert.ok(got > 100, `${got} diffs arrived before the close`);
  assert.ok(got < 2 * shows, `it fell behind: ${got} of ${2 * shows}`);
  t.diagnostic(`${got} diffs of ${2 * shows} reached the page before its close (${info.code})`);

  // the table went on, and the page comes back to the table as it is now
  const again = await srv.connect({ name: 'slow-again' });
  again.adopt(slow);
  const w = await again.hello(token, slow.seq);
  assert.equal(w.t, 'welcome', w.raw);
  // what it missed weighs more than half its queue (hundreds of pictures): the state comes instead
  // of the diffs, which would only fill its queue again (PROTOCOL.md "Resume and ordering")
  assert.ok(w.state && !w.resume, 'a fresh state, not a resume that cannot fit');
  await gm.ping();
  const fresh = await srv.connect({ name: 'fresh' });
  const fw = await fresh.hello(token);
  await again.ping();
  assert.deepEqual(again.state, fw.state, 'resumed to the table as it is now');
  await closeAll(again, fresh);
});
