// Table talk (PROTOCOL.md `chat.send`): the messages this seat may read — /chat for everyone,
// /private/<seat>/chat for whispers to and from it (the GM reads every seat's and /gm/chat) — one
// copy per message id, oldest first; a box to write to everyone, the GM or one person, with the
// commands players know (/roll, /gmroll, /w Name, inline [[2d6]]); the GM deletes a message.
// Rolls show their total, with every die in words on hover and for screen readers.

import { h, show, setText } from '../dom.js';
import { seatsOf } from './model.js';
import { diceEl } from './dice.js';

const SHOWN = 100; // newest messages drawn

// Every message the state holds for this reader, one per id (the full copy over a `hidden` one).
export function chatMessages(state) {
  const lists = [state?.chat, state?.gm?.chat, ...Object.values(state?.private || {}).map((p) => p?.chat)];
  const byId = new Map();
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const m of list) if (m?.id && (!byId.has(m.id) || byId.get(m.id).hidden)) byId.set(m.id, m);
  }
  return [...byId.values()].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
}

const nameOf = (state, seat) => (seat === 'gm' ? 'GM' : seatsOf(state)[seat]?.name ?? 'Someone');

// "Ann to the GM", "Ann whispers to Bob", "Ann" (to everyone); the GM's own secret roll:
// "You, for yourself".
function heading(state, m, me) {
  const from = m.from === me ? 'You' : nameOf(state, m.from);
  if (m.to === 'all') return from;
  if (m.to === 'gm' && m.from === 'gm') return `${from}, for ${m.from === me ? 'yourself' : 'the GM only'}`;
  if (m.to === 'gm') return `${from} to the GM`;
  const to = m.to === me ? 'you' : nameOf(state, m.to);
  return `${from} whispers to ${to}`;
}

function rollChip(roll) {
  if (!Number.isFinite(roll?.total)) return h('span', { class: 'chat-roll hidden-roll' }, `${roll?.expr ?? 'dice'} (for the GM)`);
  return h(
    'span',
    { class: 'chat-roll', title: roll.expr, attrs: { 'aria-label': `${roll.expr}: ${roll.total}` } },
    h('strong', {}, String(roll.total)),
  );
}

// The text with each [[...]] replaced by its roll.
function body(m) {
  const rolls = Array.isArray(m.rolls) ? m.rolls : [];
  if (!m.text) {
    const r = rolls[0];
    if (m.hidden) return [h('span', {}, `rolled ${r?.expr ?? 'dice'} for the GM`)];
    return [h('span', {}, `rolls ${r?.expr ?? ''}: `), rollChip(r), r ? h('div', { class: 'chat-dice' }, diceEl(r)) : null];
  }
  const out = [];
  let i = 0;
  let rest = m.text;
  for (;;) {
    const at = rest.indexOf('[[');
    const end = at < 0 ? -1 : rest.indexOf(']]', at + 2);
    if (at < 0 || end < 0) {
      out.push(rest);
      break;
    }
    out.push(rest.slice(0, at), rollChip(rolls[i++]));
    rest = rest.slice(end + 2);
  }
  return out;
}

export class ChatView {
  constructor(els, { send }) {
    this.els = els;
    this.send = send;
    this.sig = '';
    els.form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.submit();
    });
    els.errorClose?.addEventListener('click', () => show(els.error, false));
  }

  async submit() {
    const text = this.els.text.value.trim();
    if (!text) return;
    const to = this.els.to.value || 'all';
    this.els.send.disabled = true;
    const r = await this.send('chat.send', to === 'all' ? { text } : { text, to });
    this.els.send.disabled = false;
    if (r.ok) {
      this.els.text.value = '';
      show(this.els.error, false);
    } else {
      setText(this.els.errorText, r.message);
      show(this.els.error, true);
    }
    this.els.text.focus();
  }

  render({ state, seat, isGm, live }) {
    const els = this.els;
    els.send.disabled = !live;
    // who a message may go to: everyone, the GM (for a player), each other person at the table
    const seats = Object.entries(seatsOf(state)).filter(([id]) => id !== seat && id !== 'gm');
    const options = [['all', 'Everyone'], ...(isGm ? [] : [['gm', 'The GM only']]), ...seats.map(([id, s]) => [id, `${s.name} (and the GM)`])];
    const optSig = JSON.stringify(options);
    if (els.to.dataset.sig !== optSig) {
      const keep = els.to.value;
      els.to.dataset.sig = optSig;
      els.to.replaceChildren(...options.map(([v, t]) => h('option', { value: v }, t)));
      if (options.some(([v]) => v === keep)) els.to.value = keep;
    }
    const msgs = chatMessages(state).slice(-SHOWN);
    const sig = JSON.stringify([seat, isGm, msgs.map((m) => [m.id, m.hidden, m.text]), Object.keys(seatsOf(state)).length]);
    if (sig === this.sig) return;
    this.sig = sig;
    show(els.empty, msgs.length === 0);
    els.list.replaceChildren(
      ...msgs.map((m) =>
        h(
          'li',
          { class: ['chat-msg', m.to !== 'all' && 'whisper', m.from === seat && 'mine'], dataset: { id: m.id } },
          h('span', { class: 'chat-who' }, `${heading(state, m, seat)}: `),
          h('span', { class: 'chat-text' }, body(m)),
          isGm
            ? h('button', { type: 'button', class: 'icon-button chat-delete', attrs: { 'aria-label': 'Delete this message' }, onclick: () => this.send('chat.delete', { id: m.id }) }, '×')
            : null,
        ),
      ),
    );
    els.list.scrollTop = els.list.scrollHeight;
  }
}
