// Sessions of play and the Loyalty a City of Thieves character may change at their beginning
// (server/ops_session.c, protocol/PROTOCOL.md `session.*`; rules/RULES.md "Social Calls", reading
// 17: "A Character may alter one of their Loyalties in the same way at the beginning of a
// session"). Used by views/chars.js:
//
//   sessionBar(state, {send, shown, onShown})     → Node  the GM's line: which session, whether
//                                                  its beginning is open, "Begin the session" /
//                                                  "Start play", and the outcome of the last tap
//   new LoyaltyChanger(send, rerender).render(c, state, system) → Node | null  on a character's
//                                                  card: "Change a Loyalty" while it may, the
//                                                  form, and the outcome where it was tapped
//
// /session = {number, open, altered: {<char id>: number}} is public; the Loyalties themselves are
// the character's private sheet (/private/<seat>/sheets/<id>), which only its player and the GM
// receive.
import { h } from '../dom.js';
import { plain } from '../words.js';
import { fullSheet } from './model.js';
import { resultBox } from './result.js';

const obj = (x) => (x && typeof x === 'object' && !Array.isArray(x) ? x : null);

export const sessionOf = (st) => obj(st?.session);

// Whether character c may change a Loyalty now: a cot PC, the beginning of a session is open and
// it has not changed one in it.
export function mayChangeLoyalty(st, c, system) {
  const s = sessionOf(st);
  return system === 'cot' && !c.npc && Boolean(s?.open) && !obj(s.altered)?.[c.id];
}

// The GM's session line, in plain words. `shown`: the outcome of the GM's last tap here ({seq,
// text} or {error}), shown under the buttons; onShown(next) keeps it (null: dismissed).
export function sessionBar(st, { send, shown = null, onShown }) {
  const s = sessionOf(st);
  const n = Number.isInteger(s?.number) ? s.number : 0;
  const run = async (op, text) => {
    const reply = await send(op, {});
    onShown?.(reply.ok ? { seq: reply.seq, text: text(reply.result) } : { error: plain(reply.message) });
  };
  const begin = h(
    'button',
    { type: 'button', class: s?.open ? null : 'primary', id: 'session-begin', onclick: () => run('session.begin', (r) => `Session ${r?.number} has begun.`) },
    n ? `Begin session ${n + 1}` : 'Begin the session',
  );
  const text = !s
    ? 'No session has begun yet.'
    : s.open
      ? `Session ${n} is beginning: each player may change one Loyalty before play starts.`
      : `Session ${n} is under way.`;
  return h(
    'div',
    { class: 'session-bar', dataset: { session: String(n), open: String(Boolean(s?.open)) } },
    h('p', { class: 'small session-state' }, text),
    h(
      'div',
      { class: 'actions' },
      begin,
      s?.open
        ? h('button', { type: 'button', class: 'primary', id: 'session-close', onclick: () => run('session.close', () => 'Play begins: Loyalties stay as they are until the next session.') }, 'Start play')
        : null,
    ),
    shown?.error ? h('p', { class: 'error-box', attrs: { role: 'alert' } }, shown.error) : null,
    shown && !shown.error ? resultBox(st, shown, { onClose: () => onShown?.(null) }) : null,
  );
}

const loyaltyText = (l) => `${l?.kind ?? '?'}: ${l?.target ?? '?'}${l?.prime ? ' (Prime)' : ''}`;

// "Change a Loyalty" on a character's card. One form open at a time; what is typed is kept here,
// so a re-render (someone else's roll) does not lose it.
export class LoyaltyChanger {
  constructor(send, rerender) {
    this.send = send;
    this.rerender = rerender;
    this.reset();
  }

  // A campaign switch starts from nothing.
  reset() {
    this.open = null; // {char, n, mode: 'to' | 'prime', kind, target}
    this.busy = false;
    this.error = null;
    this.done = null; // {char, seq, text}: the outcome, shown on the card it was tapped on
  }

  render(c, st, system) {
    const may = mayChangeLoyalty(st, c, system);
    const loyalties = Array.isArray(fullSheet(st, c)?.loyalties) ? fullSheet(st, c).loyalties : [];
    const out = [];
    // the outcome in words (the log line of its seq says only that a Loyalty changed)
    if (this.done?.char === c.id)
      out.push(
        h(
          'div',
          { class: 'result-box loyalty-done', attrs: { role: 'status', 'aria-live': 'polite' }, dataset: { seq: this.done.seq } },
          h('p', { class: 'result-text' }, this.done.text),
          h('button', { type: 'button', class: 'icon-button result-close', attrs: { 'aria-label': 'Dismiss the result' }, onclick: () => ((this.done = null), this.rerender()) }, '×'),
        ),
      );
    if (!may || !loyalties.length) return out.length ? h('div', { class: 'loyalty-change' }, out) : null;
    if (this.open?.char !== c.id) {
      out.push(
        h(
          'div',
          { class: 'actions' },
          h('button', { type: 'button', class: 'loyalty-open', onclick: () => this.start(c) }, 'Change a Loyalty'),
          h('span', { class: 'small muted' }, ' once, at the beginning of this session'),
        ),
      );
      return h('div', { class: 'loyalty-change' }, out);
    }
    out.push(this.form(c, loyalties));
    return h('div', { class: 'loyalty-change' }, out);
  }

  start(c) {
    this.open = { char: c.id, n: 1, mode: 'to', kind: '', target: '' };
    this.error = null;
    this.done = null;
    this.rerender();
  }

  form(c, loyalties) {
    const o = this.open;
    const set = (k) => (ev) => {
      o[k] = ev.target.type === 'radio' ? ev.target.value : ev.target.value;
      if (ev.target.type === 'radio' || ev.target.tagName === 'SELECT') this.rerender();
    };
    const id = (x) => `loy-${c.id}-${x}`;
    const picked = loyalties[o.n - 1];
    const form = h(
      'form',
      { class: 'loyalty-form stack', noValidate: true, dataset: { char: c.id } },
      h('h4', {}, 'Change a Loyalty'),
      h(
        'div',
        { class: 'field' },
        h('label', { htmlFor: id('n') }, 'Which Loyalty'),
        h(
          'select',
          { id: id('n'), name: 'loyalty', onchange: (ev) => ((o.n = Number(ev.target.value)), this.rerender()) },
          loyalties.map((l, i) => h('option', { value: String(i + 1), selected: i + 1 === o.n }, `${i + 1}. ${loyaltyText(l)}`)),
        ),
      ),
      h(
        'fieldset',
        { class: 'field' },
        h('legend', {}, 'It becomes'),
        h('label', {}, h('input', { type: 'radio', name: 'mode', value: 'to', checked: o.mode === 'to', onchange: set('mode') }), ' something new'),
        o.mode === 'to'
          ? h(
              'div',
              { class: 'loyalty-new' },
              h('label', { htmlFor: id('kind') }, 'Kind'),
              h('input', { id: id('kind'), name: 'kind', value: o.kind, maxLength: 40, placeholder: 'Desire, Devoted, Hatred…', oninput: set('kind') }),
              h('label', { htmlFor: id('target') }, 'Person or idea'),
              h('input', { id: id('target'), name: 'target', value: o.target, maxLength: 100, placeholder: 'Knowledge', oninput: set('target') }),
            )
          : null,
        picked && !picked.prime
          ? h('label', {}, h('input', { type: 'radio', name: 'mode', value: 'prime', checked: o.mode === 'prime', onchange: set('mode') }), ' my Prime Loyalty (the Prime trades places with it)')
          : null,
      ),
      this.error ? h('p', { class: 'error-box', attrs: { role: 'alert' } }, this.error) : null,
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'submit', class: 'primary', disabled: this.busy }, 'Change it'),
        h('button', { type: 'button', onclick: () => ((this.open = null), (this.error = null), this.rerender()) }, 'Cancel'),
      ),
    );
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.submit(c, picked);
    });
    return form;
  }

  async submit(c, picked) {
    const o = this.open;
    const args = { char: c.id, loyalty: o.n };
    if (o.mode === 'prime' && picked && !picked.prime) args.prime = true;
    else {
      const kind = o.kind.trim();
      const target = o.target.trim();
      if (!kind || !target) {
        this.error = 'Say what kind of Loyalty it becomes and to whom or what.';
        this.rerender();
        return;
      }
      args.to = `${kind}: ${target}`;
    }
    this.busy = true;
    this.error = null;
    this.rerender();
    const reply = await this.send('session.alter', args);
    this.busy = false;
    if (reply.ok) {
      this.open = null;
      const now = reply.result?.now ?? '';
      this.done = { char: c.id, seq: reply.seq, text: `Loyalty ${o.n} is now ${now}.` };
    } else {
      this.error = plain(reply.message || 'The Loyalty did not change.');
    }
    this.rerender();
  }
}
