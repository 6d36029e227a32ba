// Requests besides the table's own connection, all to this page's origin:
//   Commands   conn.send wrapped in a promise (resolved by the ack or nack of that command id)
//   Host ops   a short-lived WebSocket as the host token: campaign.create / list / open
//   HTTP       GET /api/join (GM token in the Authorization header: join links + QR codes) and
//              GET /samples/<system> (the rule system's sample characters)

import { PROTOCOL } from './conn.js';
import { routeBase, wsUrl } from './route.js';

// -- commands on the table connection -----------------------------------------------------------

// Returns send(op, args) → Promise<{ok: true, seq, result} | {ok: false, code, message}>. The
// command goes through conn's outbox (same id re-sent after a reconnect until its ack or nack);
// the promise settles with that reply. It never rejects. `seq` is the number the command's log
// entries carry (views find the result in the log by it: the ack's `entry` for the GM).
export function commandSender(conn) {
  const waiting = new Map(); // id -> resolve
  const owned = new Set(); // ids whose replies a view shows itself
  conn.addEventListener('ack', (ev) => {
    const r = waiting.get(ev.detail.id);
    if (r) {
      waiting.delete(ev.detail.id);
      // secret: a secret roll's log entry carries the number of the next public event too (only
      // the GM sees both), so the views tell them apart by it
      r({ ok: true, seq: ev.detail.entry ?? ev.detail.seq, result: ev.detail.result, secret: ev.detail.result?.secret === true });
    }
  });
  conn.addEventListener('nack', (ev) => {
    const r = waiting.get(ev.detail.id);
    if (r) {
      waiting.delete(ev.detail.id);
      r({ ok: false, code: ev.detail.code, message: ev.detail.message });
    }
  });
  // A new seat (switching campaigns, a removed seat) drops the old outbox: its commands failed.
  const failAll = (message) => {
    for (const [id, r] of waiting) {
      waiting.delete(id);
      r({ ok: false, code: 'failed', message });
    }
  };
  conn.addEventListener('unauthorized', () => failAll('this seat is no longer valid'));
  return Object.assign(
    (op, args = {}) =>
      new Promise((resolve) => {
        const id = conn.send(op, args);
        owned.add(id);
        waiting.set(id, resolve);
      }),
    { failAll, owns: (id) => owned.has(id) },
  );
}

// -- host ops -----------------------------------------------------------------------------------


let hostSerial = 0;

// One host command over its own socket: hello as the host, the command, its reply, close.
// Resolves {ok, result} or {ok: false, code, message}; never rejects.
export function hostCall(token, op, args = {}, { timeoutMs = 10000 } = {}) {
  return new Promise((resolve) => {
    let ws;
    let done = false;
    const id = `h${Date.now().toString(36)}-${++hostSerial}-${Math.random().toString(36).slice(2, 8)}`;
    const finish = (reply) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        ws.close(1000);
      } catch {
        /* closed */
      }
      resolve(reply);
    };
    const timer = setTimeout(() => finish({ ok: false, code: 'timeout', message: 'the server did not answer' }), timeoutMs);
    try {
      ws = new WebSocket(wsUrl(), PROTOCOL);
    } catch (e) {
      finish({ ok: false, code: 'network', message: String(e?.message || e) });
      return;
    }
    ws.onopen = () => ws.send(JSON.stringify({ t: 'hello', v: 1, token }));
    ws.onmessage = (ev) => {
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (m.t === 'welcome') {
        if (m.seat?.role !== 'host') finish({ ok: false, code: 'unauthorized', message: 'this is not a host token' });
        else ws.send(JSON.stringify({ t: 'cmd', id, op, args }));
      } else if (m.t === 'error') {
        finish({ ok: false, code: m.code, message: m.message });
      } else if (m.t === 'ack' && m.id === id) {
        finish({ ok: true, result: m.result });
      } else if (m.t === 'nack' && m.id === id) {
        finish({ ok: false, code: m.code, message: m.message });
      }
    };
    ws.onclose = () => finish({ ok: false, code: 'network', message: 'the connection closed' });
  });
}

// -- HTTP ---------------------------------------------------------------------------------------

// The join links and their QR codes (GM only). Resolves {ok, code, links:[{url, loopback, svg}]}
// or {ok: false, status, message}.
export async function fetchJoin(gmToken) {
  try {
    const res = await fetch(`${routeBase()}api/join`, { headers: { Authorization: `Bearer ${gmToken}` }, cache: 'no-store' });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) return { ok: false, status: res.status, message: body?.error?.message || res.statusText };
    return { ok: true, ...body };
  } catch (e) {
    return { ok: false, status: 0, message: String(e?.message || e) };
  }
}

const samplesCache = new Map();

// The sample characters of a rule system: [{file, sheet}] ([] when there are none or on error).
export function fetchSamples(system) {
  if (!system || system === 'generic') return Promise.resolve([]);
  if (!samplesCache.has(system)) {
    samplesCache.set(
      system,
      fetch(`/samples/${encodeURIComponent(system)}`)
        .then((r) => (r.ok ? r.json() : { samples: [] }))
        .then((b) => (Array.isArray(b.samples) ? b.samples : []))
        .catch(() => {
          samplesCache.delete(system);
          return [];
        }),
    );
  }
  return samplesCache.get(system);
}
