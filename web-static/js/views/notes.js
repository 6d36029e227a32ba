// Hidden information. The GM: free notes under /gm/notes/<key> (add, edit, delete), reveal any
// value under /gm to the table (gm.reveal copies it to /revealed/...) and hide it again (gm.hide).
// Everyone: what has been revealed (/revealed), as a list.

import { h, show } from '../dom.js';
import { escapeToken } from '../patch.js';
import { words, plain, label as keyLabel } from '../words.js';

const isObj = (v) => v && typeof v === 'object' && !Array.isArray(v);

function text(v) {
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

// [{path: '/notes/villain', value}] of every leaf-ish value under obj (objects of scalars stay
// whole: a revealed NPC sheet shows as one row).
function flatten(obj, prefix = '') {
  const out = [];
  for (const [k, v] of Object.entries(obj || {})) {
    const p = `${prefix}/${escapeToken(k)}`;
    if (isObj(v) && !Object.keys(v).length) continue; // emptied by gm.hide
    if (isObj(v) && (prefix === '' || Object.values(v).some((x) => isObj(x)))) out.push(...flatten(v, p));
    else out.push({ path: p, value: v });
  }
  return out;
}

const unescape = (t) => t.replace(/~1/g, '/').replace(/~0/g, '~');

// What a revealed (or revealable) value is, by name, as the viewer can tell from the state: a
// path below /revealed (or /gm) → "Watchman Cole: stress", "the GM's note: villain". Never a path.
export function pathLabel(path, state) {
  const t = path.split('/').filter(Boolean).map(unescape);
  if (t[0] === 'gm') t.shift();
  const rest = (from) => t.slice(from).map(words).join(' ');
  if (t[0] === 'notes') return keyLabel(t[1] ?? 'note');
  if (t[0] === 'npcs') {
    const n = state?.gm?.npcs?.[t[1]]?.name ?? state?.revealed?.npcs?.[t[1]]?.name;
    return `${n ?? 'A character'}: ${t[2] === 'sheet' ? rest(3) : rest(2)}`;
  }
  if (t[0] === 'enc' && t[1] === 'combatants') {
    const n = state?.enc?.combatants?.[t[2]]?.name;
    return `${n ?? 'A combatant'}: ${t[3] === 'stats' ? rest(4) : rest(3)}`;
  }
  if (t[0] === 'scenes' && t[2] === 'combatants') {
    const n = state?.scenes?.[t[1]]?.combatants?.[t[3]]?.name;
    return `${n ?? 'A combatant'}: ${t[4] === 'stats' ? rest(5) : rest(4)}`;
  }
  if (t[0] === 'hidden') return `The hidden ${rest(2)} of a roll`;
  if (t[0] === 'enc') return `Encounter: ${rest(1)}`;
  return keyLabel(rest(0));
}

function valueText(v) {
  if (isObj(v)) {
    if (Number.isFinite(v.current) && Number.isFinite(v.max)) return `${v.current}/${v.max}`;
    return Object.entries(v)
      .map(([k, x]) => `${words(k)} ${typeof x === 'object' ? (Array.isArray(x) ? x.map((y) => (isObj(y) ? y.name ?? '' : y)).join(', ') : valueText(x)) : x}`)
      .join(' · ');
  }
  if (Array.isArray(v)) return v.map((y) => (isObj(y) ? y.name ?? valueText(y) : String(y))).join(', ');
  return text(v);
}

// The revealed values, for every seat.
export function renderRevealed(card, list, state) {
  const items = flatten(isObj(state?.revealed) ? state.revealed : {});
  show(card, items.length > 0);
  const sig = JSON.stringify(items);
  if (list.dataset.sig === sig) return;
  list.dataset.sig = sig;
  list.replaceChildren(
    ...items.map((it) => h('div', { class: 'kv', dataset: { path: it.path } }, h('dt', {}, pathLabel(it.path, state)), h('dd', {}, valueText(it.value)))),
  );
}

export class NotesView {
  constructor(root, { send }) {
    this.root = root;
    this.send = send;
    this.reset();
  }

  // A campaign switch starts from nothing.
  reset() {
    this.sig = null;
    this.editing = null; // key being edited
    this.error = null;
    this.m = null;
  }

  render(m) {
    this.m = m;
    const st = m.state || {};
    const sig = [st.gm?.notes, st.revealed, st.gm?.npcs, st.gm?.enc, st.gm?.scenes, m.live, this.editing, this.error];
    if (this.sig && sig.every((x, i) => x === this.sig[i])) return;
    const keep = this.capture();
    this.sig = sig;
    this.root.replaceChildren(...this.build(st, m));
    this.restore(keep);
  }

  rerender() {
    this.sig = null;
    if (this.m) this.render(this.m);
  }

  capture() {
    const vals = {};
    for (const el of this.root.querySelectorAll('input[id], textarea[id]')) vals[el.id] = el.value;
    const a = document.activeElement;
    return { vals, focus: a && this.root.contains(a) ? a.id : null };
  }

  restore({ vals, focus }) {
    for (const [id, v] of Object.entries(vals)) {
      const el = this.root.querySelector(`#${CSS.escape(id)}`);
      if (el && el.dataset.keep !== 'no') el.value = v;
    }
    if (focus) this.root.querySelector(`#${CSS.escape(focus)}`)?.focus();
  }

  async run(op, args) {
    this.error = null;
    const reply = await this.send(op, args);
    if (!reply.ok) this.error = plain(reply.message || "That did not work.");
    this.rerender();
    return reply;
  }

  build(st, m) {
    const notes = isObj(st.gm?.notes) ? st.gm.notes : {};
    const revealed = isObj(st.revealed) ? st.revealed : {};
    const out = [];
    if (this.error) out.push(h('p', { class: 'error-box', attrs: { role: 'alert' } }, this.error));
    out.push(h('h3', {}, 'Notes'));
    const keys = Object.keys(notes).sort();
    out.push(
      keys.length
        ? h(
            'ul',
            { class: 'notes' },
            keys.map((k) => {
              const shown = isObj(revealed.notes) && Object.prototype.hasOwnProperty.call(revealed.notes, k);
              const path = `/gm/notes/${escapeToken(k)}`;
              if (this.editing === k) {
                const form = h(
                  'form',
                  { class: 'stack note-edit', noValidate: true },
                  h('label', { htmlFor: `note-edit-${k}` }, `Note “${k}”`),
                  h('textarea', { id: `note-edit-${k}`, rows: 3, value: text(notes[k]) }),
                  h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Save'), h('button', { type: 'button', onclick: () => { this.editing = null; this.rerender(); } }, 'Cancel')),
                );
                form.addEventListener('submit', async (ev) => {
                  ev.preventDefault();
                  const r = await this.run('gm.set', { key: k, value: form.querySelector('textarea').value });
                  if (r.ok) {
                    this.editing = null;
                    this.rerender();
                  }
                });
                return h('li', { class: 'note', dataset: { key: k } }, form);
              }
              return h(
                'li',
                { class: ['note', shown && 'revealed'], dataset: { key: k } },
                h('div', { class: 'note-head' }, h('strong', {}, words(k)), shown ? h('span', { class: 'badge revealed-badge' }, 'revealed') : h('span', { class: 'badge secret-badge' }, 'hidden')),
                h('p', { class: 'note-text' }, text(notes[k])),
                h(
                  'div',
                  { class: 'actions' },
                  h('button', { type: 'button', onclick: () => { this.editing = k; this.rerender(); this.root.querySelector('textarea')?.focus(); } }, 'Edit'),
                  shown
                    ? h('button', { type: 'button', class: 'note-hide', onclick: () => this.run('gm.hide', { path }) }, 'Hide again')
                    : h('button', { type: 'button', class: 'note-reveal', onclick: () => this.run('gm.reveal', { path }) }, 'Reveal to players'),
                  h('button', { type: 'button', class: 'danger', onclick: () => this.run('gm.unset', { key: k }) }, 'Delete'),
                ),
              );
            }),
          )
        : h('p', { class: 'muted small' }, 'No notes yet. Only you see them until you reveal one.'),
    );
    const add = h(
      'form',
      { class: 'stack note-add', noValidate: true },
      h('div', { class: 'field' }, h('label', { htmlFor: 'note-key' }, 'Name', h('span', { class: 'muted small' }, ' letters, digits, - _ .')), h('input', { id: 'note-key', type: 'text', maxLength: 40, autocomplete: 'off', spellcheck: false, placeholder: 'villain' })),
      h('div', { class: 'field' }, h('label', { htmlFor: 'note-text' }, 'Note'), h('textarea', { id: 'note-text', rows: 2, placeholder: 'The butler did it.' })),
      h('div', { class: 'actions' }, h('button', { type: 'submit', id: 'note-save', class: 'primary' }, 'Add note')),
    );
    add.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const key = add.querySelector('#note-key').value.trim();
      const value = add.querySelector('#note-text').value;
      if (!key) {
        add.querySelector('#note-key').focus();
        return;
      }
      const r = await this.run('gm.set', { key, value });
      if (r.ok) {
        for (const id of ['note-key', 'note-text']) {
          const el = this.root.querySelector(`#${id}`);
          if (el) el.value = '';
        }
      }
    });
    out.push(add);

    // Reveal anything else under /gm: NPC sheet values, hidden check parameters, encounter secrets.
    const suggestions = [];
    for (const [id, n] of Object.entries(isObj(st.gm?.npcs) ? st.gm.npcs : {})) {
      suggestions.push(`/gm/npcs/${escapeToken(id)}/name`);
      for (const k of Object.keys(isObj(n?.sheet) ? n.sheet : {})) suggestions.push(`/gm/npcs/${escapeToken(id)}/sheet/${escapeToken(k)}`);
    }
    for (const [cid, c] of Object.entries(isObj(st.gm?.enc?.combatants) ? st.gm.enc.combatants : {})) {
      for (const k of Object.keys(isObj(c?.stats) ? c.stats : {})) suggestions.push(`/gm/enc/combatants/${escapeToken(cid)}/stats/${escapeToken(k)}`);
    }
    // the scenes beside the first (PROTOCOL.md "Scenes and the clock")
    for (const [sid, sc] of Object.entries(isObj(st.gm?.scenes) ? st.gm.scenes : {})) {
      for (const [cid, c] of Object.entries(isObj(sc?.combatants) ? sc.combatants : {})) {
        for (const k of Object.keys(isObj(c?.stats) ? c.stats : {})) suggestions.push(`/gm/scenes/${escapeToken(sid)}/combatants/${escapeToken(cid)}/stats/${escapeToken(k)}`);
      }
    }
    for (const [seq, hidden] of Object.entries(isObj(st.gm?.hidden) ? st.gm.hidden : {})) {
      for (const k of Object.keys(isObj(hidden) ? hidden : {})) suggestions.push(`/gm/hidden/${seq}/${escapeToken(k)}`);
    }
    const reveal = h(
      'form',
      { class: 'stack reveal-form', noValidate: true },
      h('h3', {}, 'Reveal a hidden value'),
      suggestions.length
        ? h(
            'div',
            { class: 'field' },
            h('label', { htmlFor: 'reveal-path' }, 'What the players learn'),
            h('select', { id: 'reveal-path' }, suggestions.slice(0, 300).map((s) => h('option', { value: s }, pathLabel(s, st)))),
          )
        : h('p', { class: 'muted small' }, 'Nothing hidden to reveal yet: NPC sheets, hidden numbers of rolls and foes’ numbers appear here.'),
      suggestions.length ? h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Reveal')) : null,
    );
    reveal.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const path = reveal.querySelector('#reveal-path')?.value;
      if (!path) return;
      await this.run('gm.reveal', { path });
    });
    out.push(reveal);

    const shownItems = flatten(revealed).filter((it) => !it.path.startsWith('/notes/'));
    if (shownItems.length) {
      out.push(h('h3', {}, 'Revealed'));
      out.push(
        h(
          'ul',
          { class: 'revealed-list' },
          shownItems.map((it) =>
            h(
              'li',
              { class: 'kv', dataset: { path: it.path } },
              h('span', {}, `${pathLabel(it.path, st)}: ${valueText(it.value)}`),
              h('button', { type: 'button', class: 'link-button', onclick: () => this.run('gm.hide', { path: `/gm${it.path}` }) }, 'Hide'),
            ),
          ),
        ),
      );
    }
    return out;
  }
}
