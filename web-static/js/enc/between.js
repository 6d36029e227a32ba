// The pieces the "between the scenes" panels share (modules tenacity.between and fivey.between,
// rules/<system>/between.c; rules/RULES.md "Between the scenes"): a head listing where the party
// stands (the day, the clocks, the tasks) and a card per character with the numbers that change
// between the fights. Who may take which move is the generic panel's rule (gm / owner), so the
// system panels return null from actionsFor for these modules.
import { isMine, statsOf, h } from './panel.js';

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
