// Unit tests of web-static/js/conn.js in Node, with a fake WebSocket and fake timers: the
// hello/welcome/resume handshake, diff ordering (apply, ignore the old, accept seq jumps), the
// outbox (same id re-sent after a reconnect, removed on ack/nack), backoff, unauthorized, join.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Connection, Status, PROTOCOL } from '../../web-static/js/conn.js';

// Browsers have CustomEvent; Node has it as a global only from 19 on, and Debian 12's Node is 18.
// The same shape (an Event with `detail`) for conn.js when it runs here.
if (typeof globalThis.CustomEvent !== 'function') {
  globalThis.CustomEvent = class CustomEvent extends Event {
    constructor(type, init = {}) {
      super(type, init);
      this.detail = init.detail ?? null;
    }
  };
}

class Clock {
  constructor() {
    this.t = 1000;
    this.queue = [];
    this.nextId = 1;
  }
  setTimeout = (fn, ms) => {
    const id = this.nextId++;
    this.queue.push({ id, at: this.t + ms, fn });
    return id;
  };
  clearTimeout = (id) => {
    this.queue = this.queue.filter((x) => x.id !== id);
  };
  now = () => this.t;
  advance(ms) {
    const end = this.t + ms;
    for (;;) {
      this.queue.sort((a, b) => a.at - b.at);
      const next = this.queue[0];
      if (!next || next.at > end) break;
      this.queue.shift();
      this.t = next.at;
      next.fn();
    }
    this.t = end;
  }
  pending() {
    return this.queue.map((x) => x.at - this.t).sort((a, b) => a - b);
  }
}

function harness({ token = 'tok', random = () => 0.5, online = () => true, stored = [] } = {}) {
  const sockets = [];
  class FakeSocket {
    constructor(url, protocol) {
      this.url = url;
      this.protocol = protocol;
      this.sent = [];
      this.closed = false;
      sockets.push(this);
    }
    send(data) {
      if (this.closed) throw new Error('closed');
      this.sent.push(JSON.parse(data));
    }
    close() {
      this.closed = true;
    }
    // test side
    open() {
      this.onopen?.({});
    }
    recv(msg) {
      this.onmessage?.({ data: JSON.stringify(msg) });
    }
    serverClose(code = 1006) {
      this.closed = true;
      this.onclose?.({ code, reason: '' });
    }
    last() {
      return this.sent[this.sent.length - 1];
    }
  }
  const clock = new Clock();
  const saved = { token: null, forgot: false, outbox: null };
  const store = {
    saveToken: (t) => (saved.token = t),
    forgetToken: () => (saved.forgot = true),
    loadOutbox: (t) => (t === 'tok' ? stored : []),
    saveOutbox: (tok, items) => (saved.outbox = items),
  };
  const conn = new Connection({
    url: 'ws://example.test/ws',
    WebSocket: FakeSocket,
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    now: clock.now,
    random,
    isOnline: online,
    store,
    idPrefix: 'r4nd',
  });
  const events = [];
  for (const t of ['welcome', 'joined', 'joinfailed', 'unauthorized', 'ack', 'nack', 'servererror', 'moved']) {
    conn.addEventListener(t, (e) => events.push([t, e.detail]));
  }
  if (token) conn.useToken(token);
  return { conn, sockets, clock, saved, events, sock: () => sockets[sockets.length - 1] };
}

const STATE = {
  campaign: { id: 'c1', name: 'T', system: 'generic' },
  seats: { gm: { name: 'GM', role: 'gm' }, p1: { name: 'Ann', role: 'player' } },
  log: [],
};
const welcome = (seq, extra = {}) => ({
  t: 'welcome',
  seat: { id: 'p1', role: 'player', name: 'Ann' },
  campaign: STATE.campaign,
  seq,
  ...extra,
});
const logAdd = (seq, expr = 'd20') => ({
  t: 'diff',
  seq,
  ops: [{ op: 'add', path: '/log/-', value: { seq, seat: 'p1', kind: 'roll', roll: { expr, total: seq } } }],
});

test('hello on open; welcome with state; diffs in order, duplicates ignored, seq jumps accepted', () => {
  const { conn, sock } = harness();
  const s = sock();
  assert.equal(s.url, 'ws://example.test/ws');
  assert.equal(s.protocol, PROTOCOL);
  assert.equal(conn.status, Status.CONNECTING);
  s.open();
  assert.deepEqual(s.sent, [{ t: 'hello', v: 1, token: 'tok' }]);
  s.recv(welcome(5, { state: STATE }));
  assert.equal(conn.status, Status.CONNECTED);
  assert.equal(conn.seq, 5);
  assert.deepEqual(conn.state, STATE);

  s.recv(logAdd(6));
  assert.equal(conn.seq, 6);
  assert.equal(conn.state.log.length, 1);
  s.recv(logAdd(6)); // duplicate
  s.recv(logAdd(4)); // old
  assert.equal(conn.state.log.length, 1);

  // 7 changed nothing this seat may see, so the server sent nothing for it: 8 follows 6
  s.recv(logAdd(8));
  assert.equal(conn.seq, 8);
  const hellos = () => s.sent.filter((m) => m.t === 'hello').length;
  assert.equal(hellos(), 1, 'a seq jump is not a loss: no resync');
  s.recv(logAdd(9));
  assert.equal(conn.seq, 9);
  assert.deepEqual(conn.state.log.map((e) => e.seq), [6, 8, 9]);
  // an ack's seq: every diff up to it that this seat may see has arrived
  s.recv({ t: 'ack', id: 'other', seq: 12, result: {} });
  assert.equal(conn.seq, 12);
  s.recv(logAdd(11)); // older than what the ack covered: ignored
  assert.equal(conn.state.log.length, 3);
});

test('a diff that does not apply asks for a fresh state', () => {
  const { conn, sock } = harness();
  const s = sock();
  s.open();
  s.recv(welcome(1, { state: STATE }));
  s.recv({ t: 'diff', seq: 2, ops: [{ op: 'replace', path: '/nope', value: 1 }] });
  assert.deepEqual(s.last(), { t: 'hello', v: 1, token: 'tok' });
  assert.equal(conn.state, null);
  s.recv(welcome(2, { state: { ...STATE, log: [] } }));
  assert.equal(conn.seq, 2);
  assert.equal(conn.status, Status.CONNECTED);
});

test('commands: queued while down, sent after welcome, re-sent with the same id after a drop', () => {
  const { conn, sock, sockets, clock, events, saved } = harness();
  const id = conn.send('roll', { expr: '4d6kh3+2' });
  assert.match(id, /^r4nd-\d+$/);
  assert.equal(conn.pending().length, 1);
  assert.equal(saved.outbox.length, 1, 'the outbox is persisted');
  const s1 = sock();
  s1.open();
  assert.equal(s1.sent.filter((m) => m.t === 'cmd').length, 0, 'no cmd before welcome');
  s1.recv(welcome(3, { state: STATE }));
  assert.deepEqual(s1.last(), { t: 'cmd', id, op: 'roll', args: { expr: '4d6kh3+2' } });

  s1.serverClose();
  assert.equal(conn.status, Status.RECONNECTING);
  assert.ok(conn.nextAttemptAt > clock.now());
  clock.advance(10000);
  assert.equal(sockets.length, 2);
  const s2 = sock();
  s2.open();
  assert.deepEqual(s2.sent[0], { t: 'hello', v: 1, token: 'tok', last_seq: 3 });
  s2.recv(welcome(4, { resume: true }));
  s2.recv(logAdd(4, '4d6kh3+2'));
  assert.deepEqual(s2.last(), { t: 'cmd', id, op: 'roll', args: { expr: '4d6kh3+2' } }, 'same id again');
  s2.recv({ t: 'ack', id, seq: 4, result: { total: 4 } });
  assert.equal(conn.pending().length, 0);
  assert.deepEqual(saved.outbox, []);
  assert.deepEqual(events.filter((e) => e[0] === 'ack').map((e) => e[1].seq), [4]);
  s2.recv({ t: 'ack', id, seq: 4, result: { total: 4 } }); // a duplicate ack changes nothing
  assert.equal(events.filter((e) => e[0] === 'ack').length, 1);

  const id2 = conn.send('roll', { expr: 'bad' });
  assert.notEqual(id2, id);
  assert.deepEqual(s2.last(), { t: 'cmd', id: id2, op: 'roll', args: { expr: 'bad' } }, 'sent at once while live');
  s2.recv({ t: 'nack', id: id2, code: 'bad_request', message: 'dice expression: bad' });
  assert.equal(conn.pending().length, 0);
  assert.equal(events.at(-1)[0], 'nack');
  assert.equal(events.at(-1)[1].message, 'dice expression: bad');
});

test('backoff doubles from 0.5 s to at most 10 s with jitter, and resets after a welcome', () => {
  let r = 0;
  const { conn, sock, clock } = harness({ random: () => r });
  const delays = [];
  for (let i = 0; i < 8; i++) {
    sock().serverClose();
    delays.push(conn.nextAttemptAt - clock.now());
    clock.advance(conn.nextAttemptAt - clock.now());
  }
  // random() = 0 gives the lower end of the jitter window: half of the full delay.
  assert.deepEqual(delays, [250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
  r = 0.999999;
  sock().serverClose();
  assert.ok(conn.nextAttemptAt - clock.now() <= 10000 && conn.nextAttemptAt - clock.now() > 9900);
  clock.advance(10000);
  sock().open();
  sock().recv(welcome(1, { state: STATE }));
  sock().serverClose();
  assert.ok(conn.nextAttemptAt - clock.now() <= 500, 'the first retry after a good session is quick');
});

test('connectNow retries at once; offline status when the browser has no network', () => {
  let online = false;
  const { conn, sock, sockets } = harness({ online: () => online });
  sock().serverClose();
  assert.equal(conn.status, Status.OFFLINE);
  online = true;
  conn.wake();
  assert.equal(sockets.length, 2);
  assert.equal(conn.status, Status.CONNECTING);
});

test('a silent socket is dropped after an unanswered ping', () => {
  const { conn, sock, sockets, clock } = harness();
  sock().open();
  sock().recv(welcome(1, { state: STATE }));
  clock.advance(20000);
  assert.equal(sock().last().t, 'ping');
  clock.advance(10000);
  assert.equal(conn.status, Status.RECONNECTING);
  assert.equal(sockets[0].closed, true);
});

test('unauthorized after hello forgets the token and does not reconnect', () => {
  const { conn, sock, sockets, clock, saved, events } = harness();
  sock().open();
  sock().recv({ t: 'error', code: 'unauthorized', message: 'unknown or revoked token' });
  assert.equal(saved.forgot, true);
  assert.equal(conn.token, null);
  assert.equal(conn.status, Status.IDLE);
  assert.equal(events.at(-1)[0], 'unauthorized');
  clock.advance(60000);
  assert.equal(sockets.length, 1);
});

test('moved (the table moves to another process): token and outbox kept, retried with the same id until welcomed', () => {
  const { conn, sock, sockets, clock, saved, events } = harness();
  sock().open();
  sock().recv(welcome(3, { state: STATE }));
  const id = conn.send('roll', { expr: 'd20' });
  const moved = { t: 'error', code: 'moved', message: 'this table is moving to another server; your page reconnects by itself' };
  sock().recv(moved);
  assert.deepEqual(events.at(-1), ['moved', { code: 'moved', message: moved.message }]);
  assert.equal(saved.forgot, false);
  assert.equal(conn.token, 'tok');
  assert.equal(conn.status, Status.RECONNECTING);
  assert.equal(conn.lastClose.reason, 'moved');
  assert.equal(conn.pending().length, 1);
  // the old owner says moved again (the router still sends the page there): still kept
  clock.advance(10000);
  assert.equal(sockets.length, 2);
  sock().open();
  assert.deepEqual(sock().sent, [{ t: 'hello', v: 1, token: 'tok', last_seq: 3 }]);
  sock().recv(moved);
  assert.equal(conn.token, 'tok');
  // the new owner: resumed, and the command sent again with its id
  clock.advance(10000);
  assert.equal(sockets.length, 3);
  sock().open();
  assert.deepEqual(sock().sent[0], { t: 'hello', v: 1, token: 'tok', last_seq: 3 });
  sock().recv(welcome(3, { resume: true }));
  assert.equal(conn.status, Status.CONNECTED);
  assert.deepEqual(sock().last(), { t: 'cmd', id, op: 'roll', args: { expr: 'd20' } });
  assert.equal(events.filter((e) => e[0] === 'servererror' || e[0] === 'unauthorized').length, 0);
});

test('moved during a join: the join is sent again (it made no seat), not given up', () => {
  const { conn, sock, sockets, clock, events } = harness({ token: null });
  conn.join('K7QF-2M9X', 'Ann');
  sock().open();
  sock().recv({ t: 'error', code: 'moved', message: 'moving' });
  assert.equal(events.filter((e) => e[0] === 'joinfailed').length, 0);
  clock.advance(10000);
  assert.equal(sockets.length, 2);
  sock().open();
  assert.deepEqual(sock().sent, [{ t: 'join', code: 'K7QF-2M9X', name: 'Ann' }]);
});

test('join: sends join, stores the token from joined, then lives on as that seat', () => {
  const { conn, sock, saved, events, clock, sockets } = harness({ token: null });
  conn.join('K7QF-2M9X', 'Ann');
  sock().open();
  assert.deepEqual(sock().sent, [{ t: 'join', code: 'K7QF-2M9X', name: 'Ann' }]);
  sock().recv({ t: 'joined', token: 'newtok', seat: 'p1' });
  assert.equal(saved.token, 'newtok');
  sock().recv(welcome(2, { state: STATE }));
  assert.equal(conn.status, Status.CONNECTED);
  assert.deepEqual(events.map((e) => e[0]), ['joined', 'welcome']);
  sock().serverClose();
  clock.advance(1000);
  assert.equal(sockets.length, 2);
  sock().open();
  assert.deepEqual(sock().sent[0], { t: 'hello', v: 1, token: 'newtok', last_seq: 2 });
});

test('join refused: joinfailed, nothing stored, no reconnect', () => {
  const { conn, sock, saved, events, clock, sockets } = harness({ token: null });
  conn.join('NOPE-NOPE', 'Ann');
  sock().open();
  sock().recv({ t: 'error', code: 'unauthorized', message: 'join code closed' });
  assert.equal(saved.token, null);
  assert.equal(saved.forgot, false);
  assert.deepEqual(events.at(-1), ['joinfailed', { code: 'unauthorized', message: 'join code closed' }]);
  clock.advance(60000);
  assert.equal(sockets.length, 1);
  assert.equal(conn.status, Status.IDLE);
});

test('presence merges and is forgotten when the socket drops', () => {
  const { conn, sock } = harness();
  sock().open();
  sock().recv(welcome(1, { state: STATE }));
  sock().recv({ t: 'presence', seats: { gm: true, p1: true } });
  sock().recv({ t: 'presence', seats: { gm: false } });
  assert.deepEqual(conn.presence, { gm: false, p1: true });
  sock().serverClose();
  assert.deepEqual(conn.presence, {});
});

test('commands left in the outbox by a reloaded page are re-sent with their ids, once', () => {
  const stored = [{ id: 'old-7', op: 'roll', args: { expr: '2d6' }, queuedAt: 1 }];
  const { conn, sock } = harness({ stored });
  assert.deepEqual(conn.pending().map((c) => c.id), ['old-7']);
  sock().open();
  sock().recv(welcome(1, { state: STATE }));
  assert.deepEqual(sock().sent.filter((m) => m.t === 'cmd'), [{ t: 'cmd', id: 'old-7', op: 'roll', args: { expr: '2d6' } }]);
  const id = conn.send('roll', { expr: 'd4' });
  assert.notEqual(id, 'old-7');
  sock().recv({ t: 'ack', id: 'old-7', seq: 2, result: {} });
  assert.deepEqual(conn.pending().map((c) => c.id), [id]);
});

test('while the browser has no network, a retry attempt keeps the status offline', () => {
  let online = true;
  const { conn, sock, sockets, clock } = harness({ online: () => online });
  sock().open();
  sock().recv(welcome(1, { state: STATE }));
  assert.equal(conn.status, Status.CONNECTED);
  online = false;
  sock().serverClose();
  assert.equal(conn.status, Status.OFFLINE);
  clock.advance(20000); // the retry timer fires: a new attempt is under way
  assert.ok(sockets.length >= 2, 'it still tries');
  assert.equal(conn.status, Status.OFFLINE, 'but says offline, not reconnecting');
  online = true;
  sock().serverClose();
  assert.equal(conn.status, Status.RECONNECTING, 'with the network back it says reconnecting');
});
