// "Between the scenes" panels (issue 17: modules heimr.between, grimwire.between; rules/RULES.md,
// "Between the scenes"): no turn order, so no round and no "whose turn" banner; a card per
// character in plain words; the actions by the generic who-rule of ./panel.js (the GM every
// action, a player the own-character ones), so a move with nothing to ask is one tap.
//
// A system's panel file registers one set of hooks for every module of its system; withBetween
// picks, per render, the between-scenes hooks when the running module is `moduleId`, else the
// system's own (its fight panel).
import { isMine, statsOf, h } from './panel.js';

// The enc argument of each hook (renderCombatant gets the combatant first).
const ENC_AT = { renderBanner: 0, renderOrder: 0, renderCombatant: 1, extraFields: 0 };

/* Hooks that dispatch on enc.module: `between` for moduleId, `fight` otherwise. A hook missing
 * on the chosen side returns null (the generic panel's rendering). */
export function withBetween(moduleId, fight, between) {
  const out = { ...fight };
  for (const [name, at] of Object.entries(ENC_AT)) {
    if (!(name in fight) && !(name in between)) continue;
    out[name] = (...args) => {
      const hooks = args[at]?.module === moduleId ? between : fight;
      return typeof hooks[name] === 'function' ? hooks[name](...args) : null;
    };
  }
  return out;
}

/* The banner line: `text` in large type, as the turn banner is. */
export function banner(text) {
  return h('p', { class: 'turn-banner between-banner', attrs: { role: 'status' } }, text);
}

/* A character's card: name, "yours", then [label, value, key] rows (null rows are skipped) and
 * chips (short words: "prone", "hunger"). */
export function card(c, ctx, rows, chips = []) {
  return h(
    'div',
    { class: 'enc-card-body between-card' },
    h(
      'div',
      { class: 'enc-card-head' },
      h('strong', { class: 'enc-name' }, c.name ?? c.id),
      c.npc ? h('span', { class: 'badge' }, 'NPC') : null,
      isMine(c, ctx) ? h('span', { class: 'badge you-badge' }, 'yours') : null,
    ),
    h(
      'dl',
      { class: 'stats' },
      rows.filter(Boolean).map(([label, value, key]) => h('div', { class: 'stat', dataset: { stat: key } }, h('dt', {}, label), h('dd', {}, String(value)))),
    ),
    chips.length ? h('ul', { class: 'enc-conditions', attrs: { 'aria-label': 'Conditions' } }, chips.map((x) => h('li', { class: 'chip cond' }, x))) : null,
  );
}

/* The combatant's sheet copy as the viewer may see it. */
export const sheetStats = (c, ctx) => statsOf(c, ctx) || {};

/* "right_leg" → "right leg". */
export const words = (s) => String(s).replace(/_/g, ' ');

// ---- The head and cards of the tenacity and fivey panels (tenacity.between, fivey.between) ----
// The pieces the "between the scenes" panels share (modules tenacity.between and fivey.between,
// rules/<system>/between.c; rules/RULES.md "Between the scenes"): a head listing where the party
// stands (the day, the clocks, the tasks) and a card per character with the numbers that change
// between the fights. What may be done is the server's moves (./panel.js draws them).

// lines: [text or Node] shown above the cards, in order; null entries are skipped.
export function betweenHead(lines, label = 'Between the scenes') {
  return h(
    'div',
    { class: 'between-head', attrs: { 'aria-label': label } },
    lines.filter((l) => l !== null && l !== undefined && l !== '').map((l) => h('p', { class: 'between-line' }, l)),
  );
}

// rows: [[label, value]] of the character's numbers (value null: the row is left out).
export function betweenCard(c, ctx, rows) {
  const st = statsOf(c, ctx) || {};
  const shown = rows(st).filter(([, v]) => v !== null && v !== undefined);
  return h(
    'div',
    { class: 'enc-card-body between-card' },
    h(
      'div',
      { class: 'enc-card-head' },
      h('strong', { class: 'enc-name' }, c.name ?? c.id),
      c.npc ? h('span', { class: 'badge' }, 'NPC') : null,
      isMine(c, ctx) ? h('span', { class: 'badge you-badge' }, 'yours') : null,
    ),
    shown.length
      ? h(
          'dl',
          { class: 'stats' },
          shown.map(([k, v]) => h('div', { class: 'stat', dataset: { stat: k } }, h('dt', {}, k), h('dd', {}, String(v)))),
        )
      : null,
  );
}

// The name of combatant id in enc (the id when unknown).
export function nameIn(enc, id) {
  return enc?.combatants?.[id]?.name ?? id;
}
