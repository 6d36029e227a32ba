// The connection to the table: one WebSocket at /ws (subprotocol tabled.v1), the hello/resume
// handshake, the local copy of the state kept in step with the server's diffs, reconnect with
// backoff, and the outbox of commands waiting for their ack.
//
// Nothing here touches the DOM; the page listens to the events below and re-renders from
// `conn.state`. Environment hooks (WebSocket, timers, clock, randomness, storage, online) are
// injectable so tests/browser/conn.test.mjs can drive it in Node with a fake socket.
//
// Events (CustomEvent, `detail` as listed):
//   change        anything a view shows changed (state, seq, seat, presence, status, outbox)
//   welcome       {seat, campaign, seq, resume}
//   joined        {token, seat}                  a join was accepted; the token is stored
//   joinfailed    {code, message}                a join was refused or the socket dropped during it
//   unauthorized  {code, message}                the stored token was refused: it is forgotten
//   ack           {id, seq, result, cmd}
//   nack          {id, code, message, cmd}
//   servererror   {code, message}                an `error` not tied to a command
//   moved         {code, message}                the campaign is moving to another server: the
//                                                page keeps its token and reconnects by itself

import { applyPatch } from './patch.js';
import { wsUrl } from './route.js';

export const PROTOCOL = 'tabled.v1';

export const Status = Object.freeze({
  IDLE: 'idle', // no credentials, nothing to connect to
  CONNECTING: 'connecting', // the first attempt of this visit
  CONNECTED: 'connected', // welcome received: the state is live
  RECONNECTING: 'reconnecting', // lost; `nextAttemptAt` says when the next try is (null: trying now)
  OFFLINE: 'offline', // lost, and the browser says there is no network
});


function randomId() {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(36).padStart(2, '0')).join('');
}

export class Connection extends EventTarget {
  constructor(opts = {}) {
    super();
    this.url = opts.url || null; // null: the page's own (route.js), read at each connect
    this.WebSocket = opts.WebSocket || globalThis.WebSocket;
    this.setTimeout = opts.setTimeout || globalThis.setTimeout.bind(globalThis);
    this.clearTimeout = opts.clearTimeout || globalThis.clearTimeout.bind(globalThis);
    this.now = opts.now || (() => Date.now());
    this.random = opts.random || Math.random;
    this.isOnline = opts.isOnline || (() => globalThis.navigator?.onLine !== false);
    this.store = opts.store || null; // {saveToken, forgetToken, loadOutbox, saveOutbox}
    this.backoff = { base: 500, max: 10000, ...opts.backoff };
    this.timeouts = { open: 10000, hello: 10000, ping: 20000, pong: 10000, ...opts.timeouts };

    this.token = null;
    this.pendingJoin = null; // {code, name} until `joined`
    this.resetSession();

    this.status = Status.IDLE;
    this.nextAttemptAt = null;
    this.attempt = 0;
    this.everConnected = false;
    this.lastClose = null; // {code, reason} of the last socket that closed

    this.idPrefix = opts.idPrefix || randomId();
    this.counter = 0;
    this.pingN = 0;

    this.ws = null;
    this.phase = 'closed'; // closed | opening | hello | live
    this.timers = {};
  }

  // -- what the page calls -------------------------------------------------------------------

  // Connect as the seat of `token`. A different token than before starts from a blank state.
  useToken(token) {
    if (token !== this.token) {
      this.drop();
      this.token = token;
      this.resetSession();
      this.outbox = new Map((this.store?.loadOutbox(token) || []).map((c) => [c.id, { ...c, sent: false }]));
      if (this.outbox.size) this.counter = Math.max(this.counter, this.outbox.size);
    }
    this.pendingJoin = null;
    this.connectNow();
  }

  // Become a new player seat: connects (if needed) and sends `join`.
  join(code, name) {
    this.drop();
    this.token = null;
    this.resetSession();
    this.pendingJoin = { code, name };
    this.connectNow();
  }

  // Queues a command; returns its id. It is sent now when the state is live, else after the next
  // welcome, and re-sent with the same id after every reconnect until its ack or nack arrives.
  send(op, args = {}) {
    this.counter += 1;
    const id = `${this.idPrefix}-${this.counter}`;
    const cmd = { id, op, args, queuedAt: this.now(), sent: false };
    this.outbox.set(id, cmd);
    this.persistOutbox();
    if (this.phase === 'live') this.transmit(cmd);
    this.emit('change');
    return id;
  }

  pending() {
    return Array.from(this.outbox.values());
  }

  // Try at once (the "retry now" button, `online`, the tab becoming visible).
  connectNow() {
    if (this.ws) return;
    if (!this.token && !this.pendingJoin) return;
    this.clearTimer('retry');
    this.nextAttemptAt = null;
    this.open();
  }

  // The tab became visible or the network came back: reconnect if down, check the socket if up.
  wake() {
    if (!this.ws) {
      this.connectNow();
    } else if (this.phase === 'live') {
      this.ping();
    }
  }

  // The browser says the network is gone.
  networkLost() {
    if (this.ws) {
      if (this.phase === 'live') this.ping();
      return;
    }
    if (this.status === Status.RECONNECTING) this.setStatus(Status.OFFLINE);
  }

  // Forget everything and close (e.g. the user leaves the seat).
  stop() {
    this.drop();
    this.clearTimer('retry');
    this.token = null;
    this.pendingJoin = null;
    this.resetSession();
    this.setStatus(Status.IDLE);
  }

  // -- internals -----------------------------------------------------------------------------

  resetSession() {
    this.state = null;
    this.seq = null;
    this.history = null; // the server's history id (welcome), sent back with last_seq
    this.seat = null;
    this.campaign = null;
    this.presence = {};
    this.outbox = new Map();
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  setStatus(status) {
    this.status = status;
    if (status !== Status.RECONNECTING && status !== Status.OFFLINE) this.nextAttemptAt = null;
    this.emit('change');
  }

  timer(name, ms, fn) {
    this.clearTimer(name);
    this.timers[name] = this.setTimeout(() => {
      delete this.timers[name];
      fn();
    }, ms);
  }

  clearTimer(name) {
    if (this.timers[name] !== undefined) {
      this.clearTimeout(this.timers[name]);
      delete this.timers[name];
    }
  }

  persistOutbox() {
    if (this.store && this.token) {
      this.store.saveOutbox(
        this.token,
        Array.from(this.outbox.values(), ({ id, op, args, queuedAt }) => ({ id, op, args, queuedAt })),
      );
    }
  }

  open() {
    let ws;
    try {
      ws = new this.WebSocket(this.url || wsUrl(), PROTOCOL);
    } catch (e) {
      this.lastClose = { code: 0, reason: String(e && e.message) };
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.phase = 'opening';
    // While the browser reports no network, an attempt still runs (the report can be wrong), but
    // the status stays "offline": that is what the person needs to know.
    if (!this.everConnected) this.setStatus(Status.CONNECTING);
    else this.setStatus(this.isOnline() ? Status.RECONNECTING : Status.OFFLINE);
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.clearTimer('open');
      this.sendHello();
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      this.received(ev.data);
    };
    ws.onclose = (ev) => {
      if (ws !== this.ws) return;
      this.lastClose = { code: ev.code, reason: ev.reason };
      this.socketGone();
    };
    ws.onerror = () => {
      /* a close event always follows */
    };
    this.timer('open', this.timeouts.open, () => this.dropAndRetry('connect timeout'));
  }

  // Closes the current socket (if any) without scheduling anything.
  drop() {
    const ws = this.ws;
    this.clearTimer('open');
    this.clearTimer('hello');
    this.clearTimer('ping');
    this.clearTimer('pong');
    this.ws = null;
    this.phase = 'closed';
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
      try {
        ws.close(1000);
      } catch {
        /* already closing */
      }
    }
  }

  dropAndRetry(reason) {
    this.lastClose = { code: 0, reason };
    this.socketGone();
  }

  socketGone() {
    const wasJoining = this.pendingJoin && this.phase !== 'opening';
    this.drop();
    this.presence = {};
    for (const c of this.outbox.values()) c.sent = false;
    if (wasJoining) {
      // The join may or may not have happened; sending it again could make a second seat.
      this.pendingJoin = null;
      this.setStatus(Status.IDLE);
      this.emit('joinfailed', { code: 'disconnected', message: 'The connection dropped while joining. Please try again.' });
      return;
    }
    this.scheduleReconnect();
  }

  scheduleReconnect() {
    if (!this.token && !this.pendingJoin) {
      this.setStatus(Status.IDLE);
      return;
    }
    const full = Math.min(this.backoff.max, this.backoff.base * 2 ** this.attempt);
    const delay = Math.round(full / 2 + (this.random() * full) / 2);
    this.attempt += 1;
    this.nextAttemptAt = this.now() + delay;
    this.timer('retry', delay, () => {
      this.nextAttemptAt = null;
      this.open();
    });
    this.status = this.isOnline() ? Status.RECONNECTING : Status.OFFLINE;
    this.emit('change');
  }

  raw(msg) {
    if (!this.ws) return false;
    try {
      this.ws.send(JSON.stringify(msg));
      return true;
    } catch {
      return false;
    }
  }

  sendHello() {
    if (this.pendingJoin) {
      this.raw({ t: 'join', code: this.pendingJoin.code, name: this.pendingJoin.name });
    } else {
      const hello = { t: 'hello', v: 1, token: this.token };
      if (this.state !== null && Number.isInteger(this.seq)) {
        hello.last_seq = this.seq;
        // the history that seq belongs to: after a restore from a backup the server's is
        // another, and it sends the whole state instead of diffs onto ours (PROTOCOL.md)
        if (this.history) hello.history = this.history;
      }
      this.raw(hello);
    }
    this.phase = 'hello';
    this.timer('hello', this.timeouts.hello, () => this.dropAndRetry('no welcome'));
  }

  // Asks again from the current seq, or from scratch (the local state is unusable).
  resync(fresh) {
    if (fresh) {
      this.state = null;
      this.seq = null;
    }
    this.sendHello();
  }

  transmit(cmd) {
    if (this.raw({ t: 'cmd', id: cmd.id, op: cmd.op, args: cmd.args })) cmd.sent = true;
  }

  ping() {
    this.pingN += 1;
    this.raw({ t: 'ping', n: this.pingN });
    if (this.timers.pong === undefined) {
      this.timer('pong', this.timeouts.pong, () => this.dropAndRetry('no answer to ping'));
    }
  }

  heartbeat() {
    this.timer('ping', this.timeouts.ping, () => {
      this.ping();
      this.heartbeat();
    });
  }

  received(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (!msg || typeof msg !== 'object' || typeof msg.t !== 'string') return;
    this.clearTimer('pong'); // anything at all proves the socket is alive
    // Subclasses (or the page) may add handlers for message types of later issues.
    const handlers = this.constructor.handlers;
    if (Object.prototype.hasOwnProperty.call(handlers, msg.t)) handlers[msg.t].call(this, msg);
  }

  static handlers = {
    joined(msg) {
      if (typeof msg.token !== 'string') return;
      this.token = msg.token;
      this.pendingJoin = null;
      this.store?.saveToken(msg.token);
      this.emit('joined', { token: msg.token, seat: msg.seat });
      // `welcome` follows, exactly as after a hello.
    },

    welcome(msg) {
      if (this.pendingJoin) return; // a join must be answered by `joined` first
      this.clearTimer('hello');
      this.seat = msg.seat || null;
      this.campaign = msg.campaign || null;
      if (msg.resume === true && typeof msg.history === 'string' && this.history && msg.history !== this.history) {
        // another history than the one our state is from: never apply its diffs onto it
        this.history = msg.history;
        this.resync(true);
        return;
      }
      if (typeof msg.history === 'string') this.history = msg.history;
      if (msg.state !== undefined && msg.state !== null) {
        this.state = msg.state;
        this.seq = msg.seq;
      } else if (msg.resume !== true || this.state === null) {
        // Nothing to resume from: ask for the whole state.
        this.resync(true);
        return;
      }
      // resume: keep the local state; the missed diffs follow.
      this.phase = 'live';
      this.attempt = 0;
      this.everConnected = true;
      this.setStatus(Status.CONNECTED);
      this.heartbeat();
      this.emit('welcome', { seat: this.seat, campaign: this.campaign, seq: msg.seq, resume: msg.resume === true });
      for (const cmd of this.outbox.values()) if (!cmd.sent) this.transmit(cmd);
    },

    diff(msg) {
      if (this.state === null || !Number.isInteger(msg.seq)) return;
      if (msg.seq <= this.seq) return; // already have it
      // Seqs increase but skip the events that change nothing this seat may see (the server
      // sends no empty diffs: protocol/PROTOCOL.md). One socket loses nothing in between; a
      // lost socket resumes with hello and last_seq.
      try {
        this.state = applyPatch(this.state, msg.ops || []);
        this.seq = msg.seq;
      } catch (e) {
        // Our copy no longer matches the server's: start over from a fresh state.
        console.warn('tabled: diff', msg.seq, 'did not apply:', e.message);
        this.phase = 'hello';
        this.resync(true);
        return;
      }
      this.emit('change');
    },

    ack(msg) {
      // Every diff up to the ack's seq that this seat may see came before it: the local state is
      // current up to there, so a resume need not ask for the events in between again.
      if (this.state !== null && Number.isInteger(msg.seq) && msg.seq > this.seq) this.seq = msg.seq;
      const cmd = this.outbox.get(msg.id);
      if (!cmd) return;
      this.outbox.delete(msg.id);
      this.persistOutbox();
      // entry: the number the command's log entries carry (the GM's acks say it, a player's when
      // it is not the player's seq: the seat was told something alone before)
      const entry = Number.isInteger(msg.entry) ? msg.entry : msg.seq;
      this.emit('ack', { id: msg.id, seq: msg.seq, entry, result: msg.result, cmd });
      this.emit('change');
    },

    nack(msg) {
      const cmd = this.outbox.get(msg.id);
      if (!cmd) return;
      this.outbox.delete(msg.id);
      this.persistOutbox();
      this.emit('nack', { id: msg.id, code: msg.code, message: msg.message, cmd });
      this.emit('change');
    },

    presence(msg) {
      if (!msg.seats || typeof msg.seats !== 'object') return;
      this.presence = { ...this.presence, ...msg.seats };
      this.emit('change');
    },

    pong(msg) {
      // the newest ping answered: every diff sent to this socket before it arrived came first
      if (Number.isInteger(msg.n)) this.pongN = msg.n;
    },

    error(msg) {
      const detail = { code: msg.code, message: msg.message };
      if (msg.code === 'moved') {
        // The campaign is moving to another process (a live move): the token, the join being
        // made and the outbox are kept; the next attempt reaches the new owner once the router
        // sends it there, and resumes (a re-sent command gets its original ack).
        // A join refused this way made no seat: it is sent again, unlike one lost mid-way.
        this.lastClose = { code: 0, reason: 'moved' };
        this.drop();
        this.presence = {};
        for (const c of this.outbox.values()) c.sent = false;
        this.scheduleReconnect();
        this.emit('moved', detail);
        return;
      }
      if (this.pendingJoin) {
        this.pendingJoin = null;
        this.drop();
        this.setStatus(Status.IDLE);
        this.emit('joinfailed', detail);
        return;
      }
      if (msg.code === 'unauthorized' && this.phase !== 'live') {
        // The token was refused: it is gone for good (removed seat, or another server's token).
        this.drop();
        this.clearTimer('retry');
        this.store?.forgetToken();
        this.token = null;
        this.resetSession();
        this.setStatus(Status.IDLE);
        this.emit('unauthorized', detail);
        return;
      }
      this.emit('servererror', detail);
    },
  };
}
