// The roll log: /log (and /gm/log for the GM, marked secret), newest first. Elements are kept per
// entry and rebuilt only when the entry object (unchanged entries keep their identity through
// patch.js) or the roller's name changed.

import { h, show } from '../dom.js';
import { logOf, seatName } from './model.js';
import { diceEl } from './dice.js';

// Renderers per entry kind; later modules register theirs (e.g. checks, encounter events).
export const entryRenderers = {
  roll(entry) {
    const roll = entry.roll || {};
    return [
      h('div', { class: 'entry-expr' }, h('code', { class: 'expr' }, String(roll.expr ?? ''))),
      h(
        'div',
        { class: 'entry-body' },
        diceEl(roll),
        h('output', { class: 'total', attrs: { 'aria-label': `total ${roll.total}` } }, String(roll.total ?? '?')),
      ),
    ];
  },
  // roll.check: a rule system's check (rules/RULES.md). The GM also sees the parameters the
  // rulebook hides from players (e.g. a grimwire target number), kept under /gm/hidden/<seq>.
  check(entry, state) {
    const c = entry.check || {};
    const hidden = state?.gm?.hidden?.[String(entry.seq)] || {};
    const params = { ...(c.params || {}), ...hidden };
    const paramText = Object.entries(params).map(([k, v]) => `${k} ${v}`).join(', ');
    const outcome = c.success === true ? 'success' : c.success === false ? 'failure' : null;
    return [
      h(
        'div',
        { class: 'entry-expr' },
        h('code', { class: 'expr' }, `${c.system ?? '?'} ${c.check ?? ''}`),
        paramText ? h('span', { class: 'check-params' }, ` \u00b7 ${paramText}`) : null,
      ),
      h(
        'div',
        { class: 'entry-body' },
        diceEl({ dice: c.dice }),
        outcome ? h('span', { class: ['outcome', outcome] }, outcome) : null,
        h('output', { class: 'total', attrs: { 'aria-label': `total ${c.total}` } }, String(c.total ?? '?')),
      ),
    ];
  },
};

function fallback(entry) {
  return [h('div', { class: 'entry-expr' }, String(entry.text ?? entry.kind ?? 'event'))];
}

function timeEl(at) {
  if (!Number.isFinite(at)) return null;
  const d = new Date(at);
  return h(
    'time',
    { dateTime: d.toISOString(), title: d.toLocaleString() },
    d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }),
  );
}

export function entryText(state, entry) {
  const who = seatName(state, entry.seat);
  if (entry.kind === 'roll' && entry.roll) return `${who} rolled ${entry.roll.expr}: ${entry.roll.total}`;
  if (entry.kind === 'check' && entry.check) {
    const c = entry.check;
    const outcome = c.success === true ? ', success' : c.success === false ? ', failure' : '';
    return `${who} rolled ${c.system} ${c.check}: ${c.total}${outcome}`;
  }
  return `${who}: ${entry.kind}`;
}

export class LogView {
  constructor(list, empty) {
    this.list = list;
    this.empty = empty;
    this.cache = new Map(); // key -> {entry, name, mine, el}
    this.primed = false; // false until the first render with a state: nothing there is "new"
  }

  // Returns the entries that appeared since the last render (for the live announcement).
  render(state, mySeat) {
    const items = state ? logOf(state) : [];
    const next = new Map();
    const els = [];
    const added = [];
    for (const { entry, secret } of items) {
      const key = `${secret ? 'gm' : 'pub'}:${entry.seq}`;
      const name = seatName(state, entry.seat);
      const mine = entry.seat === mySeat;
      let c = this.cache.get(key);
      if (!c || c.entry !== entry || c.name !== name || c.mine !== mine) {
        const isNew = !c && this.primed;
        const render = Object.prototype.hasOwnProperty.call(entryRenderers, entry.kind) ? entryRenderers[entry.kind] : fallback;
        const el = h(
          'li',
          {
            class: ['entry', secret && 'secret', mine && 'mine', isNew && 'new'],
            dataset: { seq: entry.seq, kind: entry.kind, seat: entry.seat },
          },
          h(
            'div',
            { class: 'entry-head' },
            h('span', { class: 'who' }, name),
            secret ? h('span', { class: 'badge secret-badge', title: 'Only the GM sees this roll' }, 'secret') : null,
            timeEl(entry.at),
          ),
          render(entry, state),
        );
        c = { entry, name, mine, el };
        if (isNew) added.push(entry);
      }
      next.set(key, c);
      els.push(c.el);
    }
    this.cache = next;
    const same = els.length === this.list.children.length && els.every((el, i) => this.list.children[i] === el);
    if (!same) this.list.replaceChildren(...els);
    show(this.empty, state !== null && els.length === 0);
    if (state) this.primed = true;
    return added;
  }

  // A fresh state (new seat, or a full resync) makes every entry look new; don't announce them.
  reset() {
    this.primed = false;
    this.cache.clear();
  }
}
