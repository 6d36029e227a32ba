// Renders a roll (the `roll` of a log entry, or an ack's result): every die, grouped by the term
// it belongs to, dropped dice struck through, constants and signs between terms, and the total.
// Roll shape (rules/dice.h): {expr, dice: [{sides, value, kept, term, fate?, rerolled?,
// exploded?, rolls?, success?, failure?}], terms: [{text, sign, subtotal, label?}], total,
// formula?}. With a formula (the roll multiplies or divides) the terms are shown without signs
// and the formula after them.

import { h } from '../dom.js';

const MINUS = '\u2212';

// A Fate die reads +, blank or −.
function faceText(d) {
  if (!d.fate) return String(d.value);
  return d.value > 0 ? '+' : d.value < 0 ? MINUS : '\u2007';
}

function dieLabel(d, kept, sides) {
  const face = d.fate ? (d.value > 0 ? 'plus' : d.value < 0 ? 'minus' : 'blank') : String(d.value);
  const kind = d.fate ? 'Fate die' : `d${sides ?? '?'}`;
  const how = [
    d.rerolled ? 'rerolled away' : '',
    d.exploded ? 'from an explosion' : '',
    Array.isArray(d.rolls) ? `adds up ${d.rolls.join(' + ')}` : '',
    d.success ? 'a success' : d.failure ? 'a failure' : '',
  ].filter(Boolean);
  return `${!kept && !d.rerolled ? 'dropped ' : ''}${kind}: ${face}${how.length ? `, ${how.join(', ')}` : ''}`;
}

function dieEl(d) {
  const kept = d.kept !== false;
  const sides = Number.isFinite(d.sides) ? d.sides : null;
  const label = dieLabel(d, kept, sides);
  const plain = !d.fate && !Array.isArray(d.rolls);
  return h(
    'span',
    {
      class: [
        'die',
        !kept && 'dropped',
        d.fate && 'fate',
        d.exploded && 'exploded',
        d.success && 'success',
        d.failure && 'failure',
        plain && kept && sides && d.value === sides && sides > 1 && 'max',
        plain && kept && sides && d.value === 1 && sides > 1 && 'min',
      ],
      dataset: { sides: sides ?? '', kept: String(kept) },
      title: label,
      attrs: { 'aria-label': label },
    },
    faceText(d),
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
  const formula = typeof roll.formula === 'string' ? roll.formula : null;
  terms.forEach((term, i) => {
    const own = dice.filter((d) => d.term === i);
    if (formula && own.length === 0) return; // the formula shows the numbers
    const neg = !formula && term.sign < 0;
    if (!formula && (i > 0 || neg)) box.append(h('span', { class: 'sign', attrs: { 'aria-hidden': 'true' } }, neg ? MINUS : '+'));
    const name = term.label ? `${term.text} (${term.label})` : term.text;
    if (own.length) {
      box.append(h('span', { class: 'term', title: name, attrs: { role: 'group', 'aria-label': `${neg ? 'minus ' : ''}${name}` } }, own.map(dieEl)));
    } else {
      box.append(h('span', { class: 'const' }, String(term.text ?? term.subtotal)));
    }
    if (term.label) box.append(h('span', { class: 'dice-label' }, term.label));
  });
  if (formula) box.append(h('span', { class: 'formula' }, formula.replaceAll('-', MINUS).replaceAll('*', '\u00d7').replaceAll('/', '\u00f7')));
  return box;
}

export function rollSummary(roll) {
  return `${roll.expr}: ${roll.total}`;
}
