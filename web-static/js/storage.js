// What the page keeps in the browser between visits.
//
// localStorage (per origin, survives restarts of the browser):
//   tabled.token  the seat token (a secret: it is the seat)
//   tabled.seat   {name, campaign} of that seat, only to say "you already have a seat" on the
//                 join form
// sessionStorage (per tab, survives a reload):
//   tabled.outbox commands not yet acknowledged, re-sent with the same ids after a reload
//
// Every access is guarded: storage may be disabled (private modes, file://), and the page must
// still work for the length of a visit.

import { routeBase } from './route.js';

const TOKEN = 'tabled.token';
const SEAT = 'tabled.seat';
const OUTBOX = 'tabled.outbox';

function get(store, key) {
  try {
    return store.getItem(key);
  } catch {
    return null;
  }
}

function set(store, key, value) {
  try {
    if (value === null || value === undefined) store.removeItem(key);
    else store.setItem(key, value);
  } catch {
    /* storage full or disabled: keep going with what is in memory */
  }
}

const local = () => globalThis.localStorage;
const session = () => globalThis.sessionStorage;

export function loadToken() {
  return get(local(), TOKEN);
}

export function saveToken(token) {
  if (token !== loadToken()) set(local(), SEAT, null);
  set(local(), TOKEN, token);
}

export function forgetToken() {
  set(local(), TOKEN, null);
  set(local(), SEAT, null);
  set(session(), OUTBOX, null);
}

export function loadSeatInfo() {
  try {
    const v = JSON.parse(get(local(), SEAT));
    return v && typeof v.name === 'string' ? v : null;
  } catch {
    return null;
  }
}

export function saveSeatInfo(info) {
  set(local(), SEAT, JSON.stringify(info));
}

// The outbox belongs to one token: commands queued for another seat are never sent with this one.
export function loadOutbox(token) {
  try {
    const v = JSON.parse(get(session(), OUTBOX));
    if (!v || v.token !== token || !Array.isArray(v.items)) return [];
    return v.items.filter((c) => c && typeof c.id === 'string' && typeof c.op === 'string');
  } catch {
    return [];
  }
}

export function saveOutbox(token, items) {
  if (!token || items.length === 0) set(session(), OUTBOX, null);
  else set(session(), OUTBOX, JSON.stringify({ token, items }));
}

// Reads the secrets of the URL fragment (#token=, #join=, #host= or #create=...) and removes the fragment from
// the address bar, so it is not left in the history, bookmarks or a shared screenshot.
export function takeFragment(loc = globalThis.location, hist = globalThis.history) {
  const raw = (loc.hash || '').replace(/^#/, '');
  if (!raw) return {};
  const params = new URLSearchParams(raw);
  const out = {};
  const token = params.get('token');
  const join = params.get('join');
  const host = params.get('host');
  const create = params.get('create');
  if (create) out.create = create.trim(); // an invitation to open a table (views/create.js)
  if (token) out.token = token.trim();
  if (join) out.join = join.trim();
  if (host) out.host = host.trim();
  try {
    hist.replaceState(hist.state, '', loc.pathname + loc.search);
  } catch {
    loc.hash = '';
  }
  return out;
}

// The host token (from the console link's #host=...): it creates, lists and opens campaigns.
// Behind a router of several processes (route.js) each has its own host token, kept under the
// process's name: "b" for a page at /c/b/ (its console) or /c/b-c…/ (one of its campaigns). One
// process, or a campaign of before the shards (/c/c…/): 'tabled.host'.
function hostKey() {
  const key = routeBase().slice(3, -1); // "/c/<key>/" → key; "/" → ""
  const shard = key.includes('-') ? key.split('-')[0] : /^c[0-9a-z]{9}$/.test(key) ? '' : key;
  return shard ? `tabled.host.${shard}` : 'tabled.host';
}
// GM tokens of the campaigns this browser opened, by campaign id (switching back needs no new one).
const GMS = 'tabled.gm';

export function loadHostToken() {
  return get(local(), hostKey());
}

export function saveHostToken(token) {
  set(local(), hostKey(), token);
}

export function forgetHostToken() {
  set(local(), hostKey(), null);
}

export function loadGmTokens() {
  try {
    const v = JSON.parse(get(local(), GMS));
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

export function saveGmToken(campaign, token) {
  const all = loadGmTokens();
  all[campaign] = token;
  set(local(), GMS, JSON.stringify(all));
}
