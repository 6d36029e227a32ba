// GM only: the players' join link (from /gm/join, which only the GM receives), whether joining is
// open, the join.rotate / join.close buttons, and the QR code of the link for phones at the table
// (rendered by the server from GET /api/join, which wants the GM token: the code is a secret).

import { h, setText, show } from '../dom.js';
import { joinOf } from './model.js';
import { routeBase } from '../route.js';

export function joinLink(code, origin = globalThis.location.origin, base = routeBase()) {
  return `${origin}${base}#join=${encodeURIComponent(code)}`;
}

// A link on 127.0.0.1 / localhost cannot be opened by a phone at the table.
export function isLoopback(hostname) {
  const h = String(hostname).replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\./.test(h);
}

// qr: {code, links: [{url, loopback, svg}]} from /api/join for the current code, or null.
export function renderInvite(els, { state, isGM, live, busy, qr = null }) {
  const j = isGM ? joinOf(state) : null;
  show(els.section, j !== null);
  if (!j) return;
  const open = j.open && j.code;
  els.section.dataset.open = String(Boolean(open));
  setText(els.state, open ? 'Joining is open' : 'Joining is closed');
  show(els.linkRow, Boolean(open));
  show(els.closedHint, !open);
  const onLoopback = isLoopback(globalThis.location.hostname);
  const links = qr && qr.code === j.code && Array.isArray(qr.links) ? qr.links : [];
  // On the laptop's own 127.0.0.1 page, the link players need is the network one.
  const lan = links.find((l) => !l.loopback);
  const main = open ? (onLoopback && lan ? lan : links.find((l) => l.url === joinLink(j.code)) || null) : null;
  if (open) {
    const link = main ? main.url : joinLink(j.code);
    if (els.link.value !== link) els.link.value = link;
    setText(els.code, j.code);
  }
  const qrLink = main || lan || links[0] || null;
  show(els.qrBox, Boolean(open && qrLink?.svg));
  if (open && qrLink?.svg) {
    const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrLink.svg)}`;
    if (els.qr.getAttribute('src') !== src) els.qr.setAttribute('src', src);
    els.qr.alt = `QR code of the join link ${qrLink.url}`;
    setText(els.qrCaption, qrLink.loopback ? 'Scan to join (this address works on this computer only)' : 'Scan with a phone camera to join');
  }
  const others = open ? links.filter((l) => l !== main && l.url !== els.link.value) : [];
  show(els.others, others.length > 0);
  const sig = JSON.stringify(others.map((l) => l.url));
  if (els.others.dataset.sig !== sig) {
    els.others.dataset.sig = sig;
    els.others.replaceChildren(
      h('li', { class: 'muted' }, 'Other addresses of this server:'),
      ...others.map((l) => h('li', {}, h('code', {}, l.url))),
    );
  }
  show(els.localHint, Boolean(open) && isLoopback(new URL(els.link.value || globalThis.location.href).hostname));
  setText(els.rotate, open ? 'New code' : 'Open with a new code');
  show(els.close, Boolean(open));
  els.rotate.disabled = !live || busy;
  els.close.disabled = !live || busy;
}
