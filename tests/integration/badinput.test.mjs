// Bad input (PROTOCOL.md "Transport", "Error codes"): each refusal carries its documented code,
// writes nothing (the campaign's seq, read by a GM, is unchanged and no diff goes out), and leaves
// the connection usable (ping → pong) and the server up (/healthz). Handshakes without the
// subprotocol, on another path or from a foreign Origin are refused; a connection that keeps
// sending bad frames is closed (1008) while the server stays up.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Server, tryHandshake, closeAll } from './lib.mjs';

let srv;
let gm; // watches for diffs: none may arrive during a refusal
let player; // {token, seat}
let lastPing = 1000;

before(async () => {
  srv = new Server();
  await srv.start();
  gm = await srv.connect({ name: 'gm watcher' });
  assert.equal((await gm.hello(srv.gmToken)).t, 'welcome');
  const c = await srv.connect();
  const j = await c.join(srv.joinCode, 'Pat');
  player = { token: j.joined.token, seat: j.joined.seat };
  await c.close();
  await gm.waitSeq(2);
});

after(async () => {
  await closeAll(gm);
  await srv.stop();
  const report = srv.sanitizerReport();
  if (report) throw new Error(`sanitizer report on the server's stderr:\n${report}`);
});

/**
 * Opens a connection (after hello as the player when asHello), runs send(c), expects one reply
 * of type `t` with `code`, then checks: nothing written, the connection answers a ping, /healthz.
 * Returns the reply.
 */
async function refused(send, { t = 'error', code, asHello = false, message }) {
  const c = await srv.connect({ name: 'bad' });
  try {
    if (asHello) assert.equal((await c.hello(player.token)).t, 'welcome');
    const seq0 = (await srv.gmView()).seq;
    const gmFrames = gm.frames.length;
    const from = c.msgs.length;
    await send(c);
    const reply = await c.waitFor((m) => m.t === 'error' || m.t === 'nack' || m.t === 'ack' || m.t === 'welcome' || m.t === 'pong', {
      from,
      what: `${t} ${code}`,
    });
    assert.equal(reply.t, t, reply.raw);
    assert.equal(reply.code, code, reply.raw);
    assert.equal(typeof reply.message, 'string');
    assert.ok(reply.message.length > 0);
    if (message) assert.match(reply.message, message);
    // the connection is still usable
    const n = ++lastPing;
    assert.equal((await c.ping(n)).n, n);
    assert.ok(c.isOpen, 'connection still open');
    // exactly one reply to the bad input, then the pong
    assert.equal(c.msgs.slice(from).filter((m) => m.t !== 'presence').length, 2, c.frames.slice(from).join('\n'));
    // nothing written
    assert.equal((await srv.gmView()).seq, seq0, 'seq unchanged');
    await gm.ping(++lastPing);
    assert.deepEqual(gm.frames.slice(gmFrames).filter((f) => f.startsWith('{"t":"diff"')), [], 'no diff went out');
    // the server is up
    const h = await srv.get('/healthz');
    assert.equal(h.status, 200);
    assert.equal(h.json().ok, true);
    return reply;
  } finally {
    await c.close();
  }
}

const cmd = (id, op, args) => ({ t: 'cmd', id, op, args });

describe('malformed frames → error bad_request', () => {
  it('non-JSON', () => refused((c) => c.send('hello there'), { code: 'bad_request', message: /JSON/ }));
  it('JSON that is not an object', () => refused((c) => c.send('[1,2,3]'), { code: 'bad_request' }));
  it('invalid UTF-8 bytes in a text frame', () =>
    refused((c) => c.send(Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), { binary: false }), {
      code: 'bad_request',
      message: /UTF-8/,
    }));
  it('a binary frame', () => refused((c) => c.send(Buffer.from('{"t":"ping","n":1}'), { binary: true }), { code: 'bad_request', message: /binary/ }));
  it('unknown t', () => refused((c) => c.send({ t: 'bogus' }), { code: 'bad_request', message: /bogus/ }));
  it('missing t', () => refused((c) => c.send({ v: 1, token: srv.gmToken }), { code: 'bad_request', message: /'t'/ }));
  it('t that is not a string', () => refused((c) => c.send({ t: 5 }), { code: 'bad_request' }));
  it('ping with a non-numeric n', () => refused((c) => c.send({ t: 'ping', n: 'x' }), { code: 'bad_request' }));
});

describe('wrong field types → error bad_request', () => {
  it('cmd with a numeric id', () => refused((c) => c.send(cmd(5, 'roll', { expr: '1d6' })), { code: 'bad_request', asHello: true, message: /'id'/ }));
  it('cmd with args that are not an object', () => refused((c) => c.send(cmd('a1', 'roll', ['1d6'])), { code: 'bad_request', asHello: true, message: /'args'/ }));
  it('cmd with an id over 64 characters', () => refused((c) => c.send(cmd('x'.repeat(65), 'roll', { expr: '1d6' })), { code: 'bad_request', asHello: true }));
  it('cmd with a numeric op', () => refused((c) => c.send(cmd('a2', 7, {})), { code: 'bad_request', asHello: true }));
  it('hello with v = 2', () => refused((c) => c.send({ t: 'hello', v: 2, token: player.token }), { code: 'bad_request' }));
  it('hello with a negative last_seq', () => refused((c) => c.send({ t: 'hello', v: 1, token: player.token, last_seq: -1 }), { code: 'bad_request', message: /last_seq/ }));
  it('hello with a string last_seq', () => refused((c) => c.send({ t: 'hello', v: 1, token: player.token, last_seq: '3' }), { code: 'bad_request' }));
  it('hello with a numeric token', () => refused((c) => c.send({ t: 'hello', v: 1, token: 12345 }), { code: 'bad_request' }));
  it('join with a numeric name', () => refused((c) => c.send({ t: 'join', code: srv.joinCode, name: 42 }), { code: 'bad_request' }));
  it('join with an empty name', () => refused((c) => c.send({ t: 'join', code: srv.joinCode, name: '   ' }), { code: 'bad_request' }));
  it('roll with a numeric expr', () => refused((c) => c.send(cmd('a3', 'roll', { expr: 20 })), { t: 'nack', code: 'bad_request', asHello: true }));
  it('roll with an unknown argument', () => refused((c) => c.send(cmd('a4', 'roll', { expr: '1d6', extra: 1 })), { t: 'nack', code: 'bad_request', asHello: true }));
  it('roll with a string secret', () => refused((c) => c.send(cmd('a5', 'roll', { expr: '1d6', secret: 'yes' })), { t: 'nack', code: 'bad_request', asHello: true }));
});

describe('size limit (64 KiB, counted over all fragments)', () => {
  const pingOfSize = (size) => {
    const base = JSON.stringify({ t: 'ping', n: 1, pad: '' });
    return JSON.stringify({ t: 'ping', n: 1, pad: 'x'.repeat(size - base.length) });
  };
  it('one frame over the limit → too_large', () => refused((c) => c.send(pingOfSize(70000)), { code: 'too_large' }));
  it('one byte over the limit → too_large; exactly the limit is accepted', async () => {
    await refused((c) => c.send(pingOfSize(64 * 1024 + 1)), { code: 'too_large' });
    const c = await srv.connect();
    const from = c.msgs.length;
    await c.send(pingOfSize(64 * 1024));
    const r = await c.waitFor((m) => m.t === 'pong' || m.t === 'error', { from });
    assert.equal(r.t, 'pong', r.raw);
    await c.close();
  });
  it('a message split across fragments that together exceed the limit → too_large', () =>
    refused(
      async (c) => {
        const big = pingOfSize(80000);
        for (let i = 0; i < 5; i++) await c.send(big.slice(i * 16000, (i + 1) * 16000), { fin: i === 4 });
      },
      { code: 'too_large' },
    ));
  it('a fragmented message under the limit is reassembled', async () => {
    const c = await srv.connect();
    const text = pingOfSize(60000);
    for (let i = 0; i < 4; i++) await c.send(text.slice(i * 15000, (i + 1) * 15000), { fin: i === 3 });
    const r = await c.waitFor((m) => m.t === 'pong' || m.t === 'error');
    assert.equal(r.t, 'pong', r.raw);
    await c.close();
  });
  it('--max-message lowers the limit', async (t) => {
    const small = new Server({ args: ['--max-message', '2048'] });
    t.after(() => small.stop());
    await small.start();
    const c = await small.connect();
    const from = c.msgs.length;
    await c.send(pingOfSize(2049));
    const r = await c.waitFor((m) => m.t === 'error' || m.t === 'pong', { from });
    assert.equal(r.code, 'too_large', r.raw);
    assert.equal((await c.ping(3)).n, 3);
    const from2 = c.msgs.length;
    await c.send(pingOfSize(2048));
    assert.equal((await c.waitFor((m) => m.t === 'error' || m.t === 'pong', { from: from2 })).t, 'pong');
    await c.close();
  });
});

describe('authorization', () => {
  it('a bad token → error unauthorized', () => refused((c) => c.send({ t: 'hello', v: 1, token: 'A'.repeat(22) }), { code: 'unauthorized' }));
  it('cmd before hello → nack unauthorized', async () => {
    const r = await refused((c) => c.send(cmd('early', 'roll', { expr: '1d6' })), { t: 'nack', code: 'unauthorized' });
    assert.equal(r.id, 'early');
  });
  it('a join with an unknown code → error unauthorized', () => refused((c) => c.send({ t: 'join', code: 'ZZZZ-ZZZZ', name: 'Eve' }), { code: 'unauthorized' }));
  it('a join with a closed code → error unauthorized', async () => {
    const code = srv.joinCode;
    const cl = await gm.cmd('join.close', {});
    assert.equal(cl.t, 'ack', cl.raw);
    try {
      const r = await refused((c) => c.send({ t: 'join', code, name: 'Eve' }), { code: 'unauthorized' });
      assert.doesNotMatch(r.message, new RegExp(code));
    } finally {
      // reopen with a new code for the other tests
      const rot = await gm.cmd('join.rotate', {});
      assert.equal(rot.t, 'ack');
      srv.campaign().joinCode = rot.result.join_code;
    }
  });
  it('an unknown op → nack not_found', async () => {
    const r = await refused((c) => c.send(cmd('u1', 'no.such.op', {})), { t: 'nack', code: 'not_found', asHello: true });
    assert.equal(r.id, 'u1');
  });
  it("the engine's internal op seat.join is not callable → nack not_found", () =>
    refused((c) => c.send(cmd('u2', 'seat.join', { name: 'Mallory' })), { t: 'nack', code: 'not_found', asHello: true }));
});

describe('dice expressions over the limits → nack bad_request', () => {
  const roll = (id, expr) => (c) => c.send(cmd(id, 'roll', { expr }));
  it('101 dice', () => refused(roll('d1', '101d6'), { t: 'nack', code: 'bad_request', asHello: true, message: /100/ }));
  it('101 dice across terms', () => refused(roll('d2', '60d6+41d4'), { t: 'nack', code: 'bad_request', asHello: true, message: /100/ }));
  it('1001 sides', () => refused(roll('d3', '1d1001'), { t: 'nack', code: 'bad_request', asHello: true, message: /1000/ }));
  it('201 characters', () => refused(roll('d4', `1d6+${'1'.repeat(197)}`), { t: 'nack', code: 'bad_request', asHello: true, message: /200/ }));
  it('21 terms', () => refused(roll('d5', Array(21).fill('1').join('+')), { t: 'nack', code: 'bad_request', asHello: true, message: /20/ }));
  it('a constant over 100000', () => refused(roll('d6', '1d6+100001'), { t: 'nack', code: 'bad_request', asHello: true }));
  it('syntax errors', async () => {
    for (const [i, e] of ['', 'd', '2d', '1d6+', 'abc', '1d6kh', '1d0', '1d6kh7x'].entries())
      await refused(roll(`s${i}`, e), { t: 'nack', code: 'bad_request', asHello: true });
  });
  it('the limits themselves are accepted (100 dice, 1000 sides, 200 characters, 20 terms)', async () => {
    const [c] = await srv.hello(player.token);
    try {
      const e200 = `${Array(19).fill('1d1000kh1').join('+')}+10d1000kh1`; // 200 characters, 20 terms
      assert.equal(e200.length, 200);
      for (const expr of ['100d1000', '60d6+40d4', e200, Array(20).fill('1d2').join('+'), '1d6+100000']) {
        const r = await c.cmd('roll', { expr });
        assert.equal(r.t, 'ack', `${expr.slice(0, 40)}…: ${r.raw.slice(0, 300)}`);
        assert.equal(r.result.expr, expr);
      }
    } finally {
      await c.close();
    }
  });
});

describe('handshakes', () => {
  it('without the tabled.v1 subprotocol is refused', async () => {
    for (const protocols of [[], ['chat'], ['tabled.v2']]) {
      const r = await tryHandshake(srv.wsUrl(), { protocols });
      assert.equal(r.ok, false, `protocols ${JSON.stringify(protocols)}: ${JSON.stringify(r)}`);
    }
    assert.equal((await srv.get('/healthz')).status, 200);
  });
  it('on a path other than /ws is refused', async () => {
    for (const p of ['/', '/other', '/ws/x', '/wss', '/healthz']) {
      const r = await tryHandshake(srv.wsUrl(p));
      assert.equal(r.ok, false, `${p}: ${JSON.stringify(r)}`);
    }
    assert.equal((await srv.get('/healthz')).status, 200);
  });
  it('same-origin and no Origin are accepted and can play', async () => {
    for (const origin of [`http://127.0.0.1:${srv.port}`, undefined]) {
      const c = await srv.connect({ origin });
      const w = await c.hello(player.token);
      assert.equal(w.t, 'welcome', w.raw);
      assert.equal((await c.ping(1)).n, 1);
      await c.close();
    }
  });
  it('an Origin from another site is refused', async () => {
    for (const origin of ['http://evil.example', `http://evil.example:${srv.port}`, `http://127.0.0.1:${srv.port}.evil.example`, 'null']) {
      const r = await tryHandshake(srv.wsUrl(), { origin });
      assert.equal(r.ok, false, `${origin}: ${JSON.stringify(r)}`);
    }
    assert.equal((await srv.get('/healthz')).status, 200);
  });
  it('a refused Origin gets HTTP 403 (PROTOCOL.md "Transport")', async () => {
    const r = await tryHandshake(srv.wsUrl(), { origin: 'http://evil.example' });
    assert.equal(r.ok, false);
    assert.equal(r.status, 403, `refusal was ${JSON.stringify(r)}`);
  });
  it('--allow-origin admits that origin only', async (t) => {
    const s2 = new Server({ args: ['--allow-origin', 'https://table.example'] });
    t.after(() => s2.stop());
    await s2.start();
    assert.equal((await tryHandshake(s2.wsUrl(), { origin: 'https://table.example' })).ok, true);
    assert.equal((await tryHandshake(s2.wsUrl(), { origin: 'https://other.example' })).ok, false);
  });
});

describe('abuse', () => {
  it('more than 50 bad frames quickly close the connection (1008); the server stays up', async () => {
    const bystander = await srv.connect();
    assert.equal((await bystander.hello(player.token)).t, 'welcome');
    const seq0 = (await srv.gmView()).seq;
    const c = await srv.connect();
    // one bad frame at a time, each answered before the next: a burst would leave frames unread
    // in the server's socket when it closes, and the kernel's RST may then drop the replies (and
    // the 1008) still on their way to us; that is TCP, not the rule under test
    for (let i = 0; i < 60 && c.isOpen; i++) {
      const n = c.of('error').length;
      c.send('not json').catch(() => {});
      // the close may come instead of a reply (the frame crossed the server's 1008 on the way)
      await c
        .waitFor(() => c.of('error').length > n, { what: `the reply to bad frame ${i + 1}` })
        .catch((err) => {
          if (c.isOpen) throw err;
        });
    }
    const closed = await c.waitClosed();
    const errors = c.of('error');
    assert.ok(errors.length >= 50 && errors.length <= 51, `errors before the close: ${errors.length}`);
    for (const e of errors) assert.equal(e.code, 'bad_request');
    // the server is up, other connections are fine, nothing was written
    assert.equal((await srv.get('/healthz')).json().ok, true);
    assert.equal((await bystander.ping(77)).n, 77);
    assert.equal((await srv.gmView()).seq, seq0);
    await bystander.close();
    // a fresh connection works
    const again = await srv.connect();
    assert.equal((await again.hello(player.token)).t, 'welcome');
    await again.close();
    // last (known server bug, see the report): the close must carry status 1008
    assert.equal(closed.code, 1008, `close after abuse: ${JSON.stringify(closed)}`);
  });
  it('50 bad frames are tolerated: the connection stays usable', async () => {
    const c = await srv.connect();
    for (let i = 0; i < 50; i++) c.send('not json').catch(() => {});
    await c.waitFor(() => c.of('error').length === 50, { what: '50 errors' });
    assert.equal((await c.ping(5)).n, 5);
    assert.ok(c.isOpen);
    await c.close();
  });
});
