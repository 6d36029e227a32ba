// The outcome of a command, shown where the person tapped: the log lines the command wrote (same
// seq: every die, the total, success or failure) with a short roll-in of the dice, which
// `prefers-reduced-motion` turns off (style.css). When the command wrote no line, its short text.
//
// resultBox(state, {seq, text, ask?, secret?}, {onClose}) → Node. With `secret` (a roll or a check)
// only the entries of that kind count: a secret entry shares its number with the next public one.

import { h } from '../dom.js';
import { logOf } from './model.js';
import { entryEl } from './log.js';

export function resultBox(state, result, { onClose } = {}) {
  // a roll that waited for the GM's number (result.ask): its outcome is the entry that answers it
  const mine = ({ entry, secret }) =>
    result.ask ? entry.ask === result.ask : entry.seq === result.seq && (typeof result.secret !== 'boolean' || secret === result.secret);
  const items = Number.isFinite(result.seq) || result.ask ? logOf(state).filter(mine).reverse() : [];
  return h(
    'div',
    { class: 'result-box', attrs: { role: 'status', 'aria-live': 'polite' }, dataset: { seq: result.seq ?? '' } },
    items.length ? items.map(({ entry, secret, only }) => entryEl(entry, state, secret, only)) : h('p', { class: 'result-text' }, result.text),
    onClose ? h('button', { type: 'button', class: 'icon-button result-close', attrs: { 'aria-label': 'Dismiss the result' }, onclick: onClose }, '×') : null,
  );
}
