// The roster: every seat of /seats with its presence (from the latest `presence` messages, which
// are not part of the state). While the page itself is disconnected presence is unknown.

import { h } from '../dom.js';
import { rosterOf } from './model.js';

export function renderRoster(list, { state, presence, mySeat, live }) {
  const seats = rosterOf(state);
  const items = seats.map((s) => {
    const known = live && Object.prototype.hasOwnProperty.call(presence, s.id);
    const online = known ? presence[s.id] === true : null;
    const word = online === null ? 'unknown' : online ? 'online' : 'offline';
    return h(
      'li',
      {
        class: ['seat', s.id === mySeat && 'me'],
        dataset: { seat: s.id, role: s.role, online: online === null ? 'unknown' : String(online) },
      },
      h('span', { class: 'dot', attrs: { 'aria-hidden': 'true' } }),
      h('span', { class: 'seat-name' }, s.name || s.id),
      s.role === 'gm' ? h('span', { class: 'badge role-badge' }, 'GM') : null,
      s.id === mySeat ? h('span', { class: 'badge you-badge' }, 'you') : null,
      h('span', { class: 'presence' }, word),
    );
  });
  // Cheap enough to rebuild (a table has a handful of seats); nothing in it takes focus.
  const sig = JSON.stringify(items.map((li) => [li.dataset.seat, li.textContent, li.className, li.dataset.online]));
  if (list.dataset.sig !== sig) {
    list.dataset.sig = sig;
    list.replaceChildren(...items);
  }
}
