// GM only: the players' join link (from /gm/join, which only the GM receives), whether joining is
// open, and the join.rotate / join.close buttons.

import { setText, show } from '../dom.js';
import { joinOf } from './model.js';

export function joinLink(code, origin = globalThis.location.origin) {
  return `${origin}/#join=${encodeURIComponent(code)}`;
}

// A link on 127.0.0.1 / localhost cannot be opened by a phone at the table.
export function isLoopback(hostname) {
  const h = String(hostname).replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\./.test(h);
}

export function renderInvite(els, { state, isGM, live, busy }) {
  const j = isGM ? joinOf(state) : null;
  show(els.section, j !== null);
  if (!j) return;
  const open = j.open && j.code;
  els.section.dataset.open = String(Boolean(open));
  setText(els.state, open ? 'Joining is open' : 'Joining is closed');
  show(els.linkRow, Boolean(open));
  show(els.closedHint, !open);
  if (open) {
    const link = joinLink(j.code);
    if (els.link.value !== link) els.link.value = link;
    setText(els.code, j.code);
  }
  show(els.localHint, Boolean(open) && isLoopback(globalThis.location.hostname));
  setText(els.rotate, open ? 'New code' : 'Open with a new code');
  show(els.close, Boolean(open));
  els.rotate.disabled = !live || busy;
  els.close.disabled = !live || busy;
}
