// The roll log: /log, a seat's own /private/<seat>/log (marked as that seat's alone) and, for the
// GM, /gm/log (marked secret), newest first. Elements are kept per
// entry and rebuilt only when the entry object (unchanged entries keep their identity through
// patch.js) or the roller's name changed.

import { h, show } from '../dom.js';
import { logOf, seatName } from './model.js';
import { diceEl } from './dice.js';
import { label, words, plain, phrase, said } from '../words.js';

// A check's name as the table says it: "Pool check", "Challenge".
export function checkName(c) {
  const n = String(c?.check ?? '');
  return n === 'check' ? 'Check' : label(n);
}

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
    // the numbers it rolled with, named in words ("consistency 2, potential 1", not "c 2, p 1")
    const paramText = Object.entries(params).map(([k, v]) => `${said(k)} ${v}`).join(', ');
    const outcome = c.success === true ? 'success' : c.success === false ? 'failure' : null;
    return [
      h(
        'div',
        { class: 'entry-expr' },
        h('span', { class: 'expr check-name' }, entry.label ? phrase(entry.label) : checkName(c)),
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
  // An encounter event (rules/encounter.h, "The log"): its sentence and every die rolled.
  enc(entry) {
    const dice = Array.isArray(entry.dice) ? entry.dice : [];
    return [
      // the rulebook lines the rule comes from (entry.cite) only as a tooltip, never in the sentence
      h('div', { class: 'entry-expr enc-text', title: entry.cite ? `Rulebook lines ${entry.cite}` : null }, plain(entry.text ?? label(entry.action ?? 'event'))),
      dice.length ? h('div', { class: 'entry-body' }, diceEl({ dice })) : null,
    ];
  },
};

function fallback(entry) {
  return [h('div', { class: 'entry-expr' }, plain(entry.text ?? label(entry.kind ?? 'event')))];
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
  const who = entry.name || seatName(state, entry.seat);
  if (entry.kind === 'roll' && entry.roll) return `${who} rolled ${entry.roll.expr}: ${entry.roll.total}`;
  if (entry.kind === 'check' && entry.check) {
    const c = entry.check;
    const outcome = c.success === true ? ', success' : c.success === false ? ', failure' : '';
    return `${who} rolled ${entry.label ? plain(entry.label) : checkName(c)}: ${c.total}${outcome}`;
  }
  if (entry.text) return plain(entry.text);
  return `${who}: ${words(entry.kind)}`;
}

// One entry as an element (the log's renderers), for the result shown where a person tapped.
export function entryEl(entry, state, secret = false, only = null) {
  const render = Object.prototype.hasOwnProperty.call(entryRenderers, entry.kind) ? entryRenderers[entry.kind] : fallback;
  return h('div', { class: ['entry', secret && 'secret', only && 'private'], dataset: { seq: entry.seq, kind: entry.kind } }, render(entry, state));
}

// The badge of an entry one seat alone reads (with the GM): "only you" for that seat, the seat's
// name for the GM.
function onlyBadge(state, only, mySeat) {
  if (!only) return null;
  const mine = only === mySeat;
  const who = mine ? 'you' : seatName(state, only);
  return h('span', { class: 'badge private-badge', title: `Only ${who} and the GM see this` }, mine ? 'only you' : `${who} only`);
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
    for (const { entry, secret, only, key } of items) {
      // An encounter line names the character who acted (while the encounter lasts), not the seat.
      // (a line of a scene beside the first names it: `scene`, PROTOCOL.md "Scenes and the clock")
      const scene = entry.scene && entry.scene !== 'enc' ? state?.scenes?.[entry.scene] : state?.enc;
      const actor = entry.kind === 'enc' && entry.actor ? scene?.combatants?.[entry.actor]?.name : null;
      // A check rolled from a sheet names the character (roll.check `char`), not the player.
      const name = actor || entry.name || seatName(state, entry.seat);
      const mine = entry.seat === mySeat;
      let c = this.cache.get(key);
      if (!c || c.entry !== entry || c.name !== name || c.mine !== mine) {
        const isNew = !c && this.primed;
        const render = Object.prototype.hasOwnProperty.call(entryRenderers, entry.kind) ? entryRenderers[entry.kind] : fallback;
        const el = h(
          'li',
          {
            class: ['entry', secret && 'secret', only && 'private', mine && 'mine', isNew && 'new'],
            dataset: { seq: entry.seq, kind: entry.kind, seat: entry.seat },
          },
          h(
            'div',
            { class: 'entry-head' },
            h('span', { class: 'who' }, name),
            secret ? h('span', { class: 'badge secret-badge', title: 'Only the GM sees this roll' }, 'secret') : null,
            onlyBadge(state, only, mySeat),
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
