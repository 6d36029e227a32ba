// The roster: every seat of /seats with its presence (from the latest `presence` messages, which
// are not part of the state). While the page itself is disconnected presence is unknown.
// The GM may rename any seat and remove players (two clicks); a player may rename their own seat.
// `ctl` = {renaming: seat id | null, confirm: seat id | null, act(kind, seat, value)}.

import { h } from '../dom.js';
import { rosterOf } from './model.js';

export function renderRoster(list, { state, presence, mySeat, live, isGM = false, ctl = null }) {
  const seats = rosterOf(state);
  const items = seats.map((s) => {
    const known = live && Object.prototype.hasOwnProperty.call(presence, s.id);
    const online = known ? presence[s.id] === true : null;
    const word = online === null ? 'unknown' : online ? 'online' : 'offline';
    const canRename = ctl && (isGM || s.id === mySeat);
    const canRemove = ctl && isGM && s.role !== 'gm';
    let tools = null;
    if (ctl && ctl.renaming === s.id) {
      const form = h(
        'form',
        { class: 'seat-rename', noValidate: true },
        h('label', { htmlFor: `rename-${s.id}`, class: 'visually-hidden' }, `New name for ${s.name}`),
        h('input', { id: `rename-${s.id}`, type: 'text', maxLength: 40, value: s.name || '', autocomplete: 'off' }),
        h('button', { type: 'submit', class: 'primary', disabled: !live }, 'Save'),
        h('button', { type: 'button', onclick: () => ctl.act('cancel', s.id) }, 'Cancel'),
      );
      form.addEventListener('submit', (ev) => {
        ev.preventDefault();
        ctl.act('rename', s.id, form.querySelector('input').value.trim());
      });
      tools = form;
    } else if (canRename || canRemove) {
      tools = h(
        'span',
        { class: 'seat-tools' },
        canRename ? h('button', { type: 'button', class: 'link-button seat-rename-open', dataset: { key: `rn-${s.id}` }, onclick: () => ctl.act('renaming', s.id) }, 'Rename') : null,
        canRemove
          ? ctl.confirm === s.id
            ? h('button', { type: 'button', class: 'link-button danger seat-remove-yes', dataset: { key: `rmy-${s.id}` }, disabled: !live, onclick: () => ctl.act('remove', s.id) }, 'Really remove')
            : h('button', { type: 'button', class: 'link-button danger seat-remove', dataset: { key: `rm-${s.id}` }, onclick: () => ctl.act('confirm', s.id) }, 'Remove')
          : null,
      );
    }
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
      tools,
    );
  });
  // Cheap enough to rebuild (a table has a handful of seats); what is typed and the focus survive.
  const sig = JSON.stringify([items.map((li) => [li.dataset.seat, li.textContent, li.className, li.dataset.online]), ctl?.renaming, ctl?.confirm, live]);
  if (list.dataset.sig !== sig) {
    const a = document.activeElement;
    const focus = a && list.contains(a) ? a.id || a.dataset.key : null;
    const typed = {};
    for (const el of list.querySelectorAll('input[id]')) typed[el.id] = el.value;
    list.dataset.sig = sig;
    list.replaceChildren(...items);
    for (const [id, v] of Object.entries(typed)) {
      const el = list.querySelector(`#${CSS.escape(id)}`);
      if (el) el.value = v;
    }
    if (focus) (list.querySelector(`#${CSS.escape(focus)}`) || list.querySelector(`[data-key="${CSS.escape(focus)}"]`))?.focus();
  }
}
