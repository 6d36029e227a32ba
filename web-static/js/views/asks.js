// Rolls waiting for a number only the GM knows (a GRIMWIRE target number: roll.check, "A number
// only the GM knows" in protocol/PROTOCOL.md). The GM sees each waiting roll with one number field
// and a Roll button (roll.answer); a player sees that the roll waits, never a number. The card is
// hidden when nothing waits.
//
// AsksView(root, {send}).render({state, isGm, live, describe})

import { h, show } from '../dom.js';
import { seatName } from './model.js';
import { label, plain } from '../words.js';

export class AsksView {
  constructor(root, { send }) {
    this.root = root;
    this.send = send;
    this.reset();
  }

  // A campaign switch starts from nothing.
  reset() {
    this.errors = {}; // ask key -> the refusal's message
    this.busy = {};
    this.sig = null;
  }

  render(m) {
    this.last = m;
    const { state, isGm, live, describe } = m;
    const pub = state?.asks && typeof state.asks === 'object' ? state.asks : {};
    const mine = isGm ? state?.gm?.asks || {} : pub;
    const keys = Object.keys(mine).sort((a, b) => Number(a) - Number(b));
    show(this.root, keys.length > 0);
    const sig = [mine, isGm, live, describe, JSON.stringify(this.errors), JSON.stringify(this.busy)];
    if (this.sig && sig.every((x, i) => x === this.sig[i])) return;
    this.sig = sig;
    if (!keys.length) {
      this.root.replaceChildren();
      return;
    }
    const checks = Array.isArray(describe?.checks) ? describe.checks : [];
    const items = keys.map((k) => (isGm ? this.gmItem(state, k, mine[k], checks, live) : this.playerItem(state, k, mine[k])));
    this.root.replaceChildren(
      h('h2', { id: 'asks-title' }, isGm ? 'Rolls waiting for you' : 'Waiting for the GM'),
      h('ul', { class: 'asks-list' }, items),
    );
  }

  playerItem(state, key, ask) {
    const what = ask.label ? plain(ask.label) : label(ask.check);
    return h('li', { class: 'ask', dataset: { ask: key } }, `${ask.name || seatName(state, ask.seat)}'s ${what} roll waits for the GM's number.`);
  }

  gmItem(state, key, ask, checks, live) {
    const check = checks.find((c) => c.name === ask.check);
    const given = Object.entries(ask.params || {})
      .map(([k, v]) => `${label(k)} ${v}`)
      .join(', ');
    const fields = (Array.isArray(ask.need) ? ask.need : []).map((n) => {
      const p = check?.params?.find((q) => q.name === n) || { name: n, min: 1, max: 60 };
      const id = `ask-${key}-${n}`;
      return h(
        'div',
        { class: 'field ask-field' },
        h('label', { htmlFor: id }, n === 'tn' ? 'Target number' : label(n)),
        h('input', { id, name: n, type: 'number', inputMode: 'numeric', min: p.min, max: p.max, required: true }),
      );
    });
    const form = h(
      'form',
      { class: 'ask-form', noValidate: true, dataset: { ask: key } },
      h('p', {}, h('strong', {}, ask.who?.name || seatName(state, ask.seat)), ` rolls ${ask.who?.label ? plain(ask.who.label) : label(ask.check)}${given ? ` (${given})` : ''}.`),
      h('div', { class: 'ask-row' }, fields, h('button', { type: 'submit', class: 'primary', disabled: !live || this.busy[key] }, 'Roll it')),
      this.errors[key] ? h('p', { class: 'error-box', attrs: { role: 'alert' } }, plain(this.errors[key])) : null,
    );
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const params = {};
      for (const n of ask.need || []) {
        const v = Number(form.elements.namedItem(n)?.value);
        if (!Number.isInteger(v)) {
          this.errors[key] = `${n === 'tn' ? 'The target number' : label(n)} is needed.`;
          this.rerender();
          return;
        }
        params[n] = v;
      }
      this.answer(key, params);
    });
    return h('li', { class: 'ask' }, form);
  }

  async answer(key, params) {
    this.busy[key] = true;
    delete this.errors[key];
    this.rerender();
    const reply = await this.send('roll.answer', { ask: key, params });
    delete this.busy[key];
    if (!reply.ok) this.errors[key] = reply.message || 'The roll was refused.';
    this.rerender();
  }

  rerender() {
    this.sig = null;
    if (this.last) this.render(this.last);
  }
}
