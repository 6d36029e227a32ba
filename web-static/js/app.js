// Start-up and the two screens of the page: "join" (a name, and a code when the link had none)
// and "table": for a player their character (sheet, one-tap checks), the encounter, dice and
// checks, the party, what the GM revealed and the log; for the GM the console — the same plus
// campaigns, seats, the join link with its QR code, every character and NPC, hidden notes and
// reveals, secret rolls and the encounter controls. Everything on the table screen is rendered
// from the connection's local copy of the state (conn.state), never from message bodies;
// presence comes from `presence` messages, which are not part of the state.

import { $, setText, show } from './dom.js';
import { Connection, Status } from './conn.js';
import * as storage from './storage.js';
import { seatsOf } from './views/model.js';
import { LogView, entryText } from './views/log.js';
import { renderRoster } from './views/roster.js';
import { renderStatus } from './views/status.js';
import { renderInvite } from './views/invite.js';
import { renderRollBox } from './views/rollbox.js';
import { commandSender, fetchJoin, fetchSamples, hostCall } from './api.js';
import { CharsView } from './views/chars.js';
import { ChecksView } from './views/checks.js';
import { AsksView } from './views/asks.js';
import { NotesView, renderRevealed } from './views/notes.js';
import { CampaignView, systemName, learnSystem } from './views/campaign.js';
import { EncounterPanel } from './enc/panel.js';
import { ChatView } from './views/chat.js';
import { JournalView } from './views/journal.js';
import { HandoutsView } from './views/handouts.js';
import { MapView } from './views/map.js';
import { plain, words } from './words.js';
import { keepRoute } from './route.js';
import { showCreate } from './views/create.js';

const els = {
  campaignName: $('#campaign-name'),
  campaignMeta: $('#campaign-meta'),
  seatLabel: $('#seat-label'),
  seatName: $('#seat-name'),
  seatRole: $('#seat-role'),
  status: {
    box: $('#conn-status'),
    label: $('#status-label'),
    detail: $('#status-detail'),
    retry: $('#retry-now'),
  },
  joinScreen: $('#screen-join'),
  tableScreen: $('#screen-table'),
  join: {
    form: $('#join-form'),
    intro: $('#join-intro'),
    message: $('#join-message'),
    codeField: $('#join-code-field'),
    code: $('#join-code'),
    name: $('#join-name'),
    submit: $('#join-submit'),
    existing: $('#join-existing'),
    existingName: $('#join-existing-name'),
    back: $('#join-back'),
  },
  roll: {
    form: $('#roll-form'),
    expr: $('#roll-expr'),
    submit: $('#roll-submit'),
    quick: $('#quick-rolls'),
    secretWrap: $('#secret-wrap'),
    secret: $('#roll-secret'),
    error: $('#roll-error'),
    errorTitle: $('#roll-error-title'),
    errorText: $('#roll-error-text'),
    errorClose: $('#roll-error-close'),
    pending: $('#pending'),
  },
  roster: $('#roster'),
  rosterError: $('#roster-error'),
  checks: $('#checks'),
  enc: $('#enc'),
  chars: { title: $('#chars-title'), body: $('#chars-body'), formSlot: $('#chars-form-slot'), jump: $('#jump-chars') },
  notesCard: $('#notes-card'),
  notes: $('#notes-body'),
  jumpNotes: $('#jump-notes'),
  revealedCard: $('#revealed-card'),
  revealed: $('#revealed'),
  campaignCard: $('#campaign-card'),
  admin: $('#admin'),
  adminSummary: $('#admin-summary'),
  campaign: $('#campaign-body'),
  invite: {
    section: $('#invite'),
    state: $('#invite-state'),
    linkRow: $('#invite-link-row'),
    link: $('#invite-link'),
    copy: $('#invite-copy'),
    code: $('#invite-code'),
    closedHint: $('#invite-closed-hint'),
    localHint: $('#invite-local-hint'),
    qrBox: $('#invite-qr-box'),
    qr: $('#invite-qr'),
    qrCaption: $('#invite-qr-caption'),
    others: $('#invite-others'),
    rotate: $('#invite-rotate'),
    close: $('#invite-close'),
  },
  log: $('#log'),
  logEmpty: $('#log-empty'),
  logLoading: $('#log-loading'),
  announce: $('#announce'),
};

const conn = new Connection({ store: storage });

// The sticky top bar's height, for the scroll padding (style.css): a result scrolled into view
// lands below the bar, on every phone size, also when the bar wraps to two lines.
const topbar = document.querySelector('.topbar');
if (topbar && 'ResizeObserver' in window) {
  new ResizeObserver(() => document.documentElement.style.setProperty('--topbar-h', `${topbar.offsetHeight}px`)).observe(topbar);
}
const logView = new LogView(els.log, els.logEmpty);
const send = commandSender(conn);
const announce = (text) => setText(els.announce, text);

const checksView = new ChecksView(els.checks, { send, secretBox: els.roll.secret, announce });
const charsView = new CharsView(els.chars, { send, rollQuick });
const notesView = new NotesView(els.notes, { send });
const campaignView = new CampaignView(els.campaign, {
  send,
  hostToken: () => storage.loadHostToken(),
  useGmToken: (campaign, token) => {
    storage.saveGmToken(campaign, token);
    storage.saveToken(token);
    showTable(token);
  },
});
const encPanel = new EncounterPanel(els.enc);
const asksView = new AsksView($('#asks'), { send });
const chatView = new ChatView(
  {
    list: $('#chat-list'),
    empty: $('#chat-empty'),
    form: $('#chat-form'),
    to: $('#chat-to'),
    text: $('#chat-text'),
    send: $('#chat-send'),
    error: $('#chat-error'),
    errorText: $('#chat-error-text'),
    errorClose: $('#chat-error-close'),
  },
  { send },
);

const journalView = new JournalView($('#journal'), { send });
const handoutsView = new HandoutsView($('#handouts-card'), $('#handouts'), { send });
const mapView = new MapView($('#map-card'), { send });

const ui = {
  screen: null, // 'join' | 'table'
  nack: null, // {title, message} of the last refused command
  joinCode: null, // the code from a #join= link (the code field is hidden then)
  joining: false,
  savedSeatInfo: null, // what was last written to storage (write only on change)
  describe: {}, // system id -> system.describe result (or {error})
  describing: new Set(), // systems asked for
  systemsAsked: false, // system.list sent (the names of every system)
  samples: {}, // system id -> [{file, sheet}]
  panels: new Set(), // systems whose js/enc/<system>.js was imported (or tried)
  qr: null, // /api/join answer for the current join code
  qrFor: null, // the join code qr was asked for
  roster: { renaming: null, confirm: null },
};

// -- screens ---------------------------------------------------------------------------------

function showScreen(name) {
  ui.screen = name;
  show(els.joinScreen, name === 'join');
  show(els.tableScreen, name === 'table');
  render();
}

function showJoin({ code = null, message = null } = {}) {
  els.joinScreen.querySelector('.create-card')?.remove(); // an invitation's form (views/create.js)
  show(els.joinScreen.querySelector('.join-card'), true);
  ui.joinCode = code;
  ui.joining = false;
  const j = els.join;
  show(j.codeField, !code);
  j.code.required = !code;
  if (code) j.code.value = code;
  setText(
    j.intro,
    code
      ? 'You have been invited to a table. Enter the name the others should see.'
      : 'Enter the join code your GM gave you and the name the others should see.',
  );
  setText(j.message, message || '');
  show(j.message, Boolean(message));
  const token = storage.loadToken();
  const info = storage.loadSeatInfo();
  show(j.existing, Boolean(token));
  setText(j.existingName, info ? ` (${info.name}${info.campaign ? ` at ${info.campaign}` : ''})` : '');
  j.submit.disabled = false;
  setText(j.submit, 'Join');
  showScreen('join');
  (code ? j.name : j.code).focus();
}

function showTable(token) {
  logView.reset();
  ui.nack = null;
  ui.qr = null;
  ui.qrFor = null;
  ui.roster = { renaming: null, confirm: null };
  showScreen('table');
  conn.useToken(token);
}

// -- rendering -------------------------------------------------------------------------------

let scheduled = false;
function render() {
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    renderNow();
  });
}

// A campaign switch (the GM's console, a phone joining another campaign, another seat) starts
// every view from nothing: no result box, status line or open form of the campaign before.
function startCleanOnSwitch() {
  const key = `${conn.campaign?.id ?? ''}/${conn.seat?.id ?? ''}`;
  if (key === ui.viewKey) return;
  ui.viewKey = key;
  ui.nack = null;
  setText(els.announce, '');
  for (const v of [charsView, checksView, asksView, notesView, encPanel, campaignView]) v.reset?.();
}

function renderNow() {
  renderStatus(els.status, conn);
  startCleanOnSwitch();
  const state = conn.state;
  const seatId = conn.seat?.id ?? null;
  const mySeat = seatId !== null ? seatsOf(state)[seatId] : null;
  const isGM = (mySeat?.role ?? conn.seat?.role) === 'gm';
  const live = conn.status === Status.CONNECTED;

  // Header: campaign and seat from the state (a rename arrives as a diff).
  const campaign = state?.campaign ?? conn.campaign;
  const inTable = ui.screen === 'table';
  setText(els.campaignName, inTable && campaign?.name ? campaign.name : 'tabled');
  const sysLabel = campaign?.system ? systemName(campaign.system) : '';
  setText(els.campaignMeta, inTable && sysLabel ? (sysLabel.toLowerCase() === campaign.system ? sysLabel : `${sysLabel} (${campaign.system})`) : '');
  show(els.campaignMeta, Boolean(inTable && campaign?.system));
  const myName = mySeat?.name ?? conn.seat?.name;
  show(els.seatLabel, inTable && Boolean(myName));
  setText(els.seatName, myName ?? '');
  show(els.seatRole, isGM && (myName ?? '').trim().toUpperCase() !== 'GM');
  document.title = inTable && campaign?.name ? `${campaign.name} · tabled` : 'tabled';
  show(els.status.box, inTable || ui.joining);

  if (!inTable) return;

  show(els.logLoading, state === null);
  const added = logView.render(state, seatId);
  if (added.length) {
    setText(els.announce, added.map((e) => entryText(state, e)).join('. '));
  }
  const pending = conn.pending();
  renderInvite(els.invite, {
    state,
    isGM,
    live,
    busy: pending.some((c) => c.op.startsWith('join.')),
    qr: ui.qr,
  });
  renderRollBox(els.roll, { isGM, pending, live, nack: ui.nack });
  els.roll.submit.disabled = state === null;
  renderRoster(els.roster, { state, presence: conn.presence, mySeat: seatId, live, isGM, ctl: rosterCtl });
  show(els.rosterError, Boolean(ui.rosterError));
  setText(els.rosterError, ui.rosterError || '');

  const system = campaign?.system ?? 'generic';
  const describe = system !== 'generic' ? ui.describe[system] : null;
  if (state && live) ensureSystem(system);
  if (isGM && live) ensureQr(state);
  const d = describe && !describe.error ? describe : null;
  const m = { state, seat: seatId, isGm: isGM, system, describe: d, samples: ui.samples[system] || [], live };
  checksView.setLive(live);
  checksView.render({ describe: d, live, state, isGm: isGM });
  asksView.render(m);
  chatView.render(m);
  journalView.render(m);
  handoutsView.render(m);
  mapView.render(m);
  charsView.render(m);
  encPanel.render({ state: state || {}, seat: seatId, isGm: isGM, system, describe: d, live, send });
  show(els.notesCard, isGM);
  show(els.jumpNotes, isGM);
  if (isGM) notesView.render(m);
  renderRevealed(els.revealedCard, els.revealed, isGM ? null : state);
  show(els.campaignCard, isGM);
  // Campaign admin out of the way during play (issue 15, item 6): while an encounter runs, the
  // campaign and invitation cards fold under one summary; the GM opens it when needed. Only a
  // change of phase folds or unfolds it, so the GM's own choice holds within a phase.
  const inPlay = isGM && Boolean(state?.enc);
  show(els.adminSummary, isGM);
  if (ui.inPlay !== inPlay) {
    ui.inPlay = inPlay;
    els.admin.open = !inPlay;
  }
  if (isGM) campaignView.render(m);

  if (mySeat && campaign) {
    const info = JSON.stringify({ name: mySeat.name, campaign: campaign.name, campaignId: campaign.id });
    if (info !== ui.savedSeatInfo) {
      ui.savedSeatInfo = info;
      storage.saveSeatInfo(JSON.parse(info));
    }
  }
}

// -- what the views need besides the state -------------------------------------------------------

// system.describe and the sample characters of the campaign's system, and its encounter panel.
function ensureSystem(system) {
  if (!ui.systemsAsked) {
    // the names of every system (a character file made for another one names it): system.list
    ui.systemsAsked = true;
    send('system.list', {}).then((r) => {
      if (!r.ok) {
        ui.systemsAsked = false;
        return;
      }
      for (const s of r.result.systems || []) learnSystem(s.id, s.name, s.summary);
      render();
    });
  }
  if (system === 'generic' || ui.describing.has(system)) return;
  ui.describing.add(system);
  send('system.describe', {}).then((r) => {
    ui.describe[system] = r.ok ? r.result : { error: r.message || r.code };
    if (r.ok) learnSystem(system, r.result.name); // the header names the system as the server does
    if (!r.ok) ui.describing.delete(system); // ask again after the next welcome
    render();
  });
  fetchSamples(system).then((list) => {
    ui.samples[system] = list;
    render();
  });
  if (!ui.panels.has(system) && /^[a-z0-9_]+$/.test(system)) {
    ui.panels.add(system);
    import(`./enc/${system}.js`)
      .then(() => {
        encPanel.rerender();
        render();
      })
      .catch(() => {
        /* no panel of its own: the generic one */
      });
  }
}

// The join links with QR codes, asked again whenever the join code changes.
function ensureQr(state) {
  const j = state?.gm?.join;
  const code = j && j.open ? j.code : null;
  if (!code || ui.qrFor === code) return;
  ui.qrFor = code;
  const token = conn.token;
  fetchJoin(token).then((r) => {
    if (conn.token !== token || ui.qrFor !== code) return;
    ui.qr = r.ok ? r : null;
    if (!r.ok) ui.qrFor = null;
    render();
  });
}

// A one-tap check from a sheet: rolled at once when the sheet gives every parameter, else the
// check form opens with what is missing focused.
function rollQuick(char, r) {
  // a number only the GM knows (a GRIMWIRE target number) is never asked of a player: the roll
  // waits for the GM (views/asks.js)
  const isGM = (seatsOf(conn.state)[conn.seat?.id]?.role ?? conn.seat?.role) === 'gm';
  const need = isGM ? r.need : r.need.filter((n) => !(r.gmOnly || []).includes(n));
  if (need.length) {
    checksView.open(r.check, r.params, need, `${char.name}: ${r.label}`, { check: r.check, char: char.seat ? char.id : undefined, label: r.label });
    return;
  }
  ui.nack = null;
  // the log names the character and what was rolled, not the player (roll.check `char`, `label`)
  const args = { check: r.check, params: r.params, label: r.label };
  if (char.seat) args.char = char.id;
  if (!els.roll.secretWrap.hidden && els.roll.secret.checked) args.secret = true;
  send('roll.check', args).then((reply) => {
    if (reply.ok && reply.result?.asked) {
      const text = `${char.name} rolled ${r.label}: waiting for the GM's target number.`;
      announce(text);
      charsView.showResult(char.id, reply.seq, text, reply.result.asked, reply.secret);
    } else if (reply.ok) {
      announce(`${char.name} rolled ${r.label}: ${reply.result?.total}`);
      charsView.showResult(char.id, reply.seq, `${char.name} rolled ${r.label}: ${reply.result?.total}`, undefined, reply.secret);
    } else {
      ui.nack = { title: `Could not roll ${r.label}:`, message: plain(reply.message || 'the server refused it') };
    }
    render();
  });
  render();
}

// Roster controls: rename (GM any seat, a player their own), remove (GM, two clicks).
const rosterCtl = {
  get renaming() {
    return ui.roster.renaming;
  },
  get confirm() {
    return ui.roster.confirm;
  },
  act(kind, seat, value) {
    ui.rosterError = null;
    if (kind === 'renaming') ui.roster = { renaming: seat, confirm: null };
    else if (kind === 'confirm') ui.roster = { renaming: null, confirm: seat };
    else if (kind === 'cancel') ui.roster = { renaming: null, confirm: null };
    else if (kind === 'rename' || kind === 'remove') {
      const args = kind === 'rename' ? { seat, name: value } : { seat };
      ui.roster = { renaming: null, confirm: null };
      send(kind === 'rename' ? 'seat.rename' : 'seat.remove', args).then((r) => {
        if (!r.ok) ui.rosterError = plain(r.message || 'That did not work.');
        render();
      });
    }
    render();
    if (kind === 'renaming') queueMicrotask(() => document.getElementById(`rename-${seat}`)?.select());
  },
};

// The "next try in N s" countdown.
setInterval(() => {
  if (conn.status === Status.RECONNECTING || conn.status === Status.OFFLINE) renderStatus(els.status, conn);
}, 1000);

// -- connection events -----------------------------------------------------------------------

conn.addEventListener('change', render);

conn.addEventListener('joined', () => {
  ui.joining = false;
  logView.reset();
  showScreen('table');
});

conn.addEventListener('joinfailed', (ev) => {
  const { code, message } = ev.detail;
  let text;
  if (code === 'unauthorized') text = 'This join code is not valid, or joining is closed. Ask your GM for a new link.';
  else if (code === 'bad_request') text = `The server refused the join: ${plain(message || 'check the name')}`;
  else text = plain(message || 'The join failed.');
  showJoin({ code: code === 'unauthorized' ? null : ui.joinCode, message: text });
  if (code === 'unauthorized') els.join.code.value = ui.joinCode || els.join.code.value;
});

conn.addEventListener('unauthorized', () => {
  logView.reset();
  showJoin({
    message: 'This browser’s seat is no longer valid (it was removed, or the link belongs to another server). Join again with a code from your GM.',
  });
});

conn.addEventListener('welcome', (ev) => {
  keepRoute(ev.detail.campaign?.id); // behind a router: the page's path names its campaign
  // Another campaign (a switch): its own system, join code and seat.
  if (ev.detail.campaign?.id !== ui.campaignId) {
    ui.campaignId = ev.detail.campaign?.id ?? null;
    ui.qr = null;
    ui.qrFor = null;
    campaignView.list = null;
  }
  render();
});

conn.addEventListener('nack', (ev) => {
  if (send.owns(ev.detail.id)) return; // the view that sent it shows the refusal
  const { cmd, code, message } = ev.detail;
  const what = cmd.op === 'roll' ? `Could not roll ${cmd.args?.expr ?? ''}` : cmd.op.startsWith('join.') ? 'Could not change the join code' : `Could not do that (${words(cmd.op.split('.').pop())})`;
  ui.nack = { title: `${what}:`, message: plain(message || 'the server refused it') };
  if (cmd.op === 'roll' && !els.roll.expr.value) els.roll.expr.value = cmd.args?.expr ?? '';
  render();
});

conn.addEventListener('servererror', (ev) => {
  const { code, message } = ev.detail;
  console.warn('tabled: server error', code, message);
  if (code === 'rate_limited' || code === 'too_large' || code === 'internal') {
    ui.nack = { title: 'The server says:', message: code === 'rate_limited' ? 'Too many actions at once: wait a moment.' : plain(message || 'something went wrong') };
    render();
  }
});

// -- user input ------------------------------------------------------------------------------

function roll(expr) {
  expr = expr.trim();
  if (!expr) {
    els.roll.expr.focus();
    return;
  }
  ui.nack = null;
  const args = { expr };
  if (!els.roll.secretWrap.hidden && els.roll.secret.checked) args.secret = true;
  conn.send('roll', args);
  render();
}

els.roll.form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const v = els.roll.expr.value;
  if (!v.trim()) {
    els.roll.expr.focus();
    return;
  }
  roll(v);
  els.roll.expr.value = '';
  els.roll.expr.focus();
});

els.roll.quick.addEventListener('click', (ev) => {
  const b = ev.target.closest('button[data-expr]');
  if (b) roll(b.dataset.expr);
});

els.roll.secret.addEventListener('change', render);

els.roll.errorClose.addEventListener('click', () => {
  ui.nack = null;
  render();
  els.roll.expr.focus();
});

els.join.form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const j = els.join;
  const code = (ui.joinCode || j.code.value).trim().toUpperCase();
  const name = j.name.value.trim();
  let problem = null;
  if (!code) problem = 'Enter the join code.';
  else if (!name) problem = 'Enter your name.';
  else if ([...name].length > 40) problem = 'Your name can have at most 40 characters.';
  if (problem) {
    setText(j.message, problem);
    show(j.message, true);
    (!code ? j.code : j.name).focus();
    return;
  }
  show(j.message, false);
  j.submit.disabled = true;
  setText(j.submit, 'Joining…');
  ui.joining = true;
  ui.joinCode = ui.joinCode || null;
  conn.join(code, name);
  render();
});

els.join.back.addEventListener('click', () => {
  const token = storage.loadToken();
  if (token) keepRoute(storage.loadSeatInfo()?.campaignId); // a bookmark of / : to its owner
  if (token) showTable(token);
});

els.status.retry.addEventListener('click', () => conn.connectNow());

els.invite.copy.addEventListener('click', async () => {
  const link = els.invite.link.value;
  let ok = false;
  try {
    await navigator.clipboard.writeText(link);
    ok = true;
  } catch {
    els.invite.link.select();
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
  }
  setText(els.invite.copy, ok ? 'Copied' : 'Select and copy');
  setTimeout(() => setText(els.invite.copy, 'Copy'), 2000);
});
els.invite.link.addEventListener('focus', () => els.invite.link.select());
els.invite.rotate.addEventListener('click', () => conn.send('join.rotate', {}));
els.invite.close.addEventListener('click', () => conn.send('join.close', {}));

// -- network and visibility ------------------------------------------------------------------

window.addEventListener('online', () => conn.wake());
window.addEventListener('offline', () => conn.networkLost());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') conn.wake();
});
window.addEventListener('pageshow', (ev) => {
  if (ev.persisted) conn.wake();
});

// -- start -----------------------------------------------------------------------------------

// The console link (#host=...) without a GM token: open the campaign this browser used last, or
// the server's first one.
async function openAsHost(hostToken) {
  const list = await hostCall(hostToken, 'campaign.list', {});
  if (!list.ok) {
    storage.forgetHostToken();
    showJoin({ message: `The console link did not work (${plain(list.message || 'refused')}) Use the newest link tabled serve printed.` });
    return;
  }
  const camps = list.result.campaigns || [];
  const known = storage.loadGmTokens();
  // The campaign this browser used last, else the one played most (the highest seq), a campaign
  // with a rule system before the free-dice one the server made on its first start.
  const last = storage.loadSeatInfo()?.campaignId;
  const ranked = [...camps].sort((a, b) => (a.system === 'generic') - (b.system === 'generic') || (b.seq ?? 0) - (a.seq ?? 0));
  const pick = camps.find((c) => c.id === last && known[c.id]) || ranked.find((c) => known[c.id]) || ranked[0];
  if (!pick) {
    showJoin({ message: 'This server has no campaign yet.' });
    return;
  }
  if (known[pick.id]) {
    storage.saveToken(known[pick.id]);
    showTable(known[pick.id]);
    return;
  }
  const r = await hostCall(hostToken, 'campaign.open', { campaign: pick.id });
  if (!r.ok) {
    showJoin({ message: `Could not open ${pick.name}: ${plain(r.message || 'refused')}` });
    return;
  }
  storage.saveGmToken(pick.id, r.result.gm_token);
  storage.saveToken(r.result.gm_token);
  showTable(r.result.gm_token);
}

// A link opened in the tab that already shows the page (a second campaign's join link, the
// console link) changes only the fragment: start again from it.
window.addEventListener('hashchange', () => {
  if (/^#(host|token|join|create)=/.test(window.location.hash)) start();
});

function start() {
  const frag = storage.takeFragment();
  if (frag.host) {
    storage.saveHostToken(frag.host);
    if (!frag.token) {
      openAsHost(frag.host);
      return;
    }
  }
  if (frag.token) {
    storage.saveToken(frag.token);
    showTable(frag.token);
    return;
  }
  if (frag.join) {
    showJoin({ code: frag.join });
    return;
  }
  if (frag.create) {
    showScreen('join');
    showCreate(els.joinScreen, frag.create, {
      onCreated: ({ campaign, gm_token: token }) => {
        storage.saveGmToken(campaign, token);
        storage.saveToken(token);
        keepRoute(campaign);
        showTable(token);
      },
    });
    return;
  }
  const token = storage.loadToken();
  if (token) showTable(token);
  else showJoin();
}

// For tests and debugging in the console: read-only look at the connection.
Object.defineProperty(window, 'tabled', { value: Object.freeze({ conn, ui }) });

start();
