// Renders a roll (the `roll` of a log entry, or an ack's result): every die, grouped by the term
// it belongs to, dropped dice struck through, constants and signs between terms, and the total.
// Roll shape: {expr, dice: [{sides, value, kept, term}], terms: [{text, sign, subtotal}], total}.

import { h } from '../dom.js';

const MINUS = '\u2212';

function dieEl(d) {
  const kept = d.kept !== false;
  const sides = Number.isFinite(d.sides) ? d.sides : null;
  const label = `${kept ? '' : 'dropped '}d${sides ?? '?'}: ${d.value}`;
  return h(
    'span',
    {
      class: [
        'die',
        !kept && 'dropped',
        kept && sides && d.value === sides && sides > 1 && 'max',
        kept && sides && d.value === 1 && sides > 1 && 'min',
      ],
      dataset: { sides: sides ?? '', kept: String(kept) },
      title: label,
      attrs: { 'aria-label': label },
    },
    String(d.value),
  );
}

export function diceEl(roll) {
  const dice = Array.isArray(roll.dice) ? roll.dice : [];
  const terms = Array.isArray(roll.terms) ? roll.terms : [];
  const box = h('span', { class: 'dice' });
  if (terms.length === 0) {
    // No term breakdown: the dice as they came.
    box.append(...dice.map(dieEl));
    return box;
  }
  terms.forEach((term, i) => {
    const neg = term.sign < 0;
    if (i > 0 || neg) box.append(h('span', { class: 'sign', attrs: { 'aria-hidden': 'true' } }, neg ? MINUS : '+'));
    const own = dice.filter((d) => d.term === i);
    if (own.length) {
      box.append(
        h('span', { class: 'term', title: term.text, attrs: { role: 'group', 'aria-label': `${neg ? 'minus ' : ''}${term.text}` } }, own.map(dieEl)),
      );
    } else {
      box.append(h('span', { class: 'const' }, String(term.text ?? term.subtotal)));
    }
  });
  return box;
}

export function rollSummary(roll) {
  return `${roll.expr}: ${roll.total}`;
}
