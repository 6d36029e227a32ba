// Characters. A player sees their own character (sheet, one-tap checks, edit) — or, before they
// have one, the rule system's sample characters to pick from and "Build your own" — and the
// party's public sheets. The GM sees every PC and every NPC (/gm/npcs), creates and edits them in
// a form built from the sheet schema, and starts NPCs from the samples. Every save goes to the
// server (char.create / char.update), which validates; a refusal is shown beside its field.

import { h, setText } from '../dom.js';
import { seatName, fullSheet } from './model.js';
import { sheetFields, readSheet, blankSheet, pathInMessage, showSheetError } from './sheetform.js';
import { quickRolls } from './quickrolls.js';
import { resultBox } from './result.js';
import { label, words, plain, said, statWord } from '../words.js';
import { sessionBar, LoyaltyChanger } from './loyalty.js';
import { systemName } from './campaign.js';

const isObj = (v) => v && typeof v === 'object' && !Array.isArray(v);

// A value a sheet holds, as a person reads it: a key or a stat's short name in words ("right_leg"
// → "right leg", "str" → "Strength"), other text as it is.
const valueWord = (x) => (typeof x === 'string' && /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(x) ? said(x) : String(x));

function short(v) {
  if (v === null || v === undefined) return '—';
  if (Array.isArray(v)) {
    if (!v.length) return '—';
    // a cot Loyalty reads "Hatred: Germans (Prime)" (000:227-235)
    const item = (x) => x.name ?? (x.kind && x.target ? `${x.kind}: ${x.target}${x.prime ? ' (Prime)' : ''}` : x.kind) ?? objectWords(x);
    return v.map((x) => (isObj(x) ? item(x) : valueWord(x))).join(', ');
  }
  if (isObj(v)) {
    if ('current' in v && 'max' in v) return `${v.current}/${v.max}`;
    if ('max' in v && 'damage' in v) return `${v.max - v.damage}/${v.max}`;
    // a record of records (a skill each, a pool each): "Brawl (attribute Strength, base potential 3); …"
    const entries = Object.entries(v);
    if (entries.length && entries.every(([, x]) => isObj(x))) return entries.map(([k, x]) => `${sayLabel(k)} (${objectWords(x, ', ')})`).join('; ');
    return objectWords(v);
  }
  if (v === true) return 'yes';
  if (v === false) return 'no';
  return valueWord(v);
}

// {str: 2, sta: 1} → "Strength 2 · Stamina 1" (zeros left out of long records).
function objectWords(v, sep = ' · ') {
  return Object.entries(v)
    .filter(([, x]) => x !== 0 || Object.keys(v).length <= 6)
    .map(([k, x]) => `${said(k)} ${isObj(x) || Array.isArray(x) ? short(x) : valueWord(x)}`)
    .join(sep);
}

// A key as a label, a stat's short name spelled out: "str" → "Strength", "base_fatigue" → "Base fatigue".
const sayLabel = (k) => statWord(k) ?? label(k);

// The sheet as a compact list, labelled from the schema; `skip` names fields shown elsewhere (the
// one-tap check buttons already show skills and abilities with their numbers).
export function sheetSummary(sheet, schema, skip = new Set()) {
  const rows = [];
  for (const f of schema || []) {
    if (f.name === 'name' || f.name === 'notes' || skip.has(f.name)) continue;
    const v = sheet?.[f.name];
    if (v === undefined || (Array.isArray(v) && !v.length)) continue;
    rows.push(h('div', { class: 'kv', dataset: { field: f.name } }, h('dt', {}, f.label ? plain(f.label).replace(/\.$/, '') : label(f.name)), h('dd', {}, short(v))));
  }
  const notes = sheet?.notes ? h('p', { class: 'small muted sheet-notes' }, plain(sheet.notes)) : null;
  return [h('dl', { class: 'sheet-summary' }, rows), notes];
}

export class CharsView {
  constructor(els, { send, rollQuick }) {
    this.els = els; // {title, body, formSlot, jump}
    this.send = send;
    this.rollQuick = rollQuick; // (char, quickRoll) → void
    this.loyalty = new LoyaltyChanger(send, () => this.rerender()); // cot: at a session's beginning
    this.reset();
  }

  // What the view keeps of one campaign at one seat; a campaign switch starts from nothing.
  reset() {
    this.sig = null;
    this.form = null; // {key, el}
    this.confirmDelete = null;
    this.note = null;
    this.busy = false;
    this.pickFrom = ''; // sample chosen in "start from"
    this.m = null;
    this.result = null; // {char, seq, text}: the last one-tap check, shown on its character's card
    this.loyalty.reset();
    this.sessionShown = null; // the outcome of the GM's last session.begin / session.close
    this.els.formSlot?.replaceChildren();
  }

  // Shows the outcome of a one-tap check on the card of the character who rolled it.
  // ask: the key of a roll waiting for the GM's number; its outcome replaces the text when it lands.
  // secret: whether the roll was secret (resultBox).
  showResult(charId, seq, text, ask, secret) {
    this.result = { char: charId, seq, text, ask, secret };
    this.rerender();
    document.querySelector(`.char[data-char="${CSS.escape(charId)}"] .result-box`)?.scrollIntoView?.({ block: 'nearest' });
  }

  render(m) {
    // m: {state, seat, isGm, system, describe, samples, live}
    this.m = m;
    const st = m.state || {};
    const sig = [st.chars, st.gm?.npcs, st.seats, st.log, st.session, st.private, this.sessionShown, st.gm?.log, m.seat, m.isGm, m.describe, m.samples, m.live, this.confirmDelete, this.note, this.busy, this.form?.key, this.result];
    if (this.sig && sig.every((x, i) => x === this.sig[i])) return;
    this.sig = sig;
    const mine = this.charsOf(st).filter((c) => c.seat === m.seat);
    setText(this.els.title, m.isGm ? 'Characters and NPCs' : mine.length > 1 ? 'Your characters' : 'Your character');
    setText(this.els.jump, m.isGm ? 'Characters' : 'Character');
    this.els.body.replaceChildren(...this.build(m, st, mine));
  }

  rerender() {
    this.sig = null;
    if (this.m) this.render(this.m);
  }

  // "Bring a character": a file saved from another campaign of the same system (exportCharacter)
  // becomes a new character here — the GM's as an NPC, a player's as their own. The server checks
  // the sheet like any other.
  importButton(m, { npc }) {
    const input = h('input', {
      type: 'file',
      accept: '.json,application/json',
      hidden: true,
      onchange: async () => {
        const file = input.files?.[0];
        input.value = '';
        if (file) await this.importFile(file, m, npc);
      },
    });
    return h(
      'span',
      { class: 'import' },
      input,
      h('button', { type: 'button', class: 'char-import', onclick: () => input.click() }, npc ? 'Bring an NPC from a file' : 'Bring a character from a file'),
    );
  }

  async importFile(file, m, npc) {
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch {
      this.note = 'That file is not a saved character.';
      this.rerender();
      return;
    }
    if (data?.tabled !== 'character' || !isObj(data.sheet) || typeof data.name !== 'string') {
      this.note = 'That file is not a saved character.';
    } else if (data.system !== m.system) {
      this.note = `${data.name} was made for ${systemLabel(data.system)}, not for this campaign's rules.`;
    } else {
      const args = { name: data.name, sheet: data.sheet };
      if (npc) args.npc = true;
      const r = await this.send('char.create', args);
      this.note = r.ok ? `${data.name} joined this campaign.` : `${data.name} could not be brought in: ${r.message}`;
    }
    this.rerender();
  }

  charsOf(st) {
    return Object.entries(isObj(st.chars) ? st.chars : {}).map(([id, c]) => ({ ...c, id: c?.id ?? id }));
  }

  npcsOf(st) {
    return Object.entries(isObj(st.gm?.npcs) ? st.gm.npcs : {}).map(([id, c]) => ({ ...c, id: c?.id ?? id, npc: true }));
  }

  build(m, st, mine) {
    const out = [];
    if (m.system === 'generic' || !m.system) {
      out.push(h('p', { class: 'muted' }, 'This campaign plays with free dice only: no character sheets. (A GM can create a campaign with a rule system.)'));
      return out;
    }
    if (!m.describe) {
      out.push(h('p', { class: 'muted' }, 'Loading the rule system…'));
      return out;
    }
    if (this.note) out.push(h('p', { class: 'enc-note small', attrs: { role: 'status' } }, this.note));
    if (m.isGm) {
      const pcs = this.charsOf(st);
      const npcs = this.npcsOf(st);
      out.push(sessionBar(st, { send: this.send, shown: this.sessionShown, onShown: (x) => ((this.sessionShown = x), this.rerender()) }));
      out.push(
        h(
          'div',
          { class: 'actions' },
          h('button', { type: 'button', id: 'new-npc', onclick: () => this.openCreate({ npc: true }) }, 'New NPC'),
          h('button', { type: 'button', id: 'new-pc', onclick: () => this.openCreate({ npc: false }) }, 'New PC for a player'),
          this.importButton(m, { npc: true }),
        ),
      );
      out.push(h('h3', {}, `Player characters (${pcs.length})`));
      out.push(pcs.length ? h('ul', { class: 'char-list' }, pcs.map((c) => this.card(c, m, { open: false }))) : h('p', { class: 'muted small' }, 'No player characters yet.'));
      out.push(h('h3', {}, `NPCs (${npcs.length})`, h('span', { class: 'badge secret-badge' }, 'GM only')));
      out.push(npcs.length ? h('ul', { class: 'char-list' }, npcs.map((c) => this.card(c, m, { open: false }))) : h('p', { class: 'muted small' }, 'No NPCs yet.'));
      return out;
    }
    if (mine.length) {
      out.push(h('ul', { class: 'char-list mine' }, mine.map((c) => this.card(c, m, { open: true }))));
    } else if (!this.form) {
      out.push(h('p', {}, 'Pick a ready-made character, or build your own.'));
      const samples = Array.isArray(m.samples) ? m.samples : [];
      out.push(
        h(
          'ul',
          { class: 'samples' },
          samples.map((s) =>
            h(
              'li',
              { class: 'sample', dataset: { sample: s.file } },
              h('strong', {}, s.sheet?.name ?? s.file),
              h('span', { class: 'small muted' }, [s.sheet?.origin, s.sheet?.level !== undefined ? `level ${s.sheet.level}` : null].filter(Boolean).join(' · ') || (s.sheet?.notes ? clip(plain(s.sheet.notes), 70) : '')),
              h('button', { type: 'button', class: 'primary', disabled: this.busy, onclick: () => this.pickSample(s) }, `Play ${s.sheet?.name ?? s.file}`),
            ),
          ),
        ),
      );
      out.push(
        h(
          'div',
          { class: 'actions' },
          h('button', { type: 'button', id: 'build-own', onclick: () => this.openCreate({ npc: false, seat: m.seat }) }, 'Build your own'),
          this.importButton(m, { npc: false }),
        ),
      );
    }
    const party = this.charsOf(st).filter((c) => c.seat !== m.seat);
    if (party.length) {
      out.push(h('h3', {}, 'The party'));
      out.push(h('ul', { class: 'char-list party' }, party.map((c) => this.card(c, m, { open: false, readOnly: true }))));
    }
    return out;
  }

  card(c, m, { open, readOnly = false }) {
    const st = m.state || {};
    const schema = m.describe?.sheet || [];
    const canEdit = !readOnly && (m.isGm || c.seat === m.seat);
    const rolls = canEdit ? quickRolls(m.system, c, schema) : [];
    const groups = new Map();
    for (const r of rolls) {
      if (!groups.has(r.group)) groups.set(r.group, []);
      groups.get(r.group).push(r);
    }
    const del = this.confirmDelete === c.id;
    return h(
      'li',
      { class: ['char', c.npc && 'npc'], dataset: { char: c.id } },
      h(
        'details',
        { open },
        h(
          'summary',
          {},
          h('strong', { class: 'char-name' }, c.name ?? c.id),
          c.npc ? h('span', { class: 'badge' }, 'NPC') : h('span', { class: 'small muted' }, ` · ${seatName(st, c.seat)}`),
        ),
        rolls.length
          ? h(
              'div',
              { class: 'quick-checks', attrs: { role: 'group', 'aria-label': `Checks for ${c.name}` } },
              [...groups].map(([g, rs]) =>
                h(
                  'div',
                  { class: 'qc-group' },
                  h('span', { class: 'qc-label small muted' }, g),
                  rs.map((r) =>
                    h(
                      'button',
                      {
                        type: 'button',
                        class: 'chip qc',
                        dataset: { check: r.check, params: JSON.stringify(r.params) },
                        title: askOf(r, m.isGm).length ? `asks for the ${askOf(r, m.isGm).map(words).join(', ')}` : waitsOf(r, m.isGm).length ? "the GM names the target number" : 'rolls at once',
                        onclick: () => this.rollQuick(c, r),
                      },
                      r.label,
                      askOf(r, m.isGm).length ? h('span', { class: 'qc-need' }, ` vs ${askOf(r, m.isGm).map(words).join(', ')}`) : null,
                    ),
                  ),
                ),
              ),
            )
          : null,
        this.result?.char === c.id ? resultBox(st, this.result, { onClose: () => ((this.result = null), this.rerender()) }) : null,
        canEdit && !c.npc ? this.loyalty.render(c, st, m.system) : null,
        sheetSummary(fullSheet(st, c), schema, rolls.length ? new Set(['skills', 'abilities', 'attributes', 'stats']) : new Set()),
        c.derived && Object.keys(c.derived).length ? h('details', { class: 'derived' }, h('summary', { class: 'small' }, 'More numbers'), h('dl', { class: 'sheet-summary' }, Object.entries(c.derived).map(([k, v]) => h('div', { class: 'kv' }, h('dt', {}, sayLabel(k)), h('dd', {}, short(v)))))) : null,
        canEdit
          ? h(
              'div',
              { class: 'actions' },
              h('button', { type: 'button', class: 'char-edit', onclick: () => this.openEdit(c) }, 'Edit'),
              h('button', { type: 'button', class: 'char-export', onclick: () => exportCharacter(st, c, m.system) }, 'Save to a file'),
              del
                ? h('button', { type: 'button', class: 'danger', onclick: () => this.remove(c) }, `Really delete ${c.name}`)
                : h(
                    'button',
                    {
                      type: 'button',
                      class: 'danger',
                      onclick: () => {
                        this.confirmDelete = c.id;
                        this.rerender();
                      },
                    },
                    'Delete',
                  ),
            )
          : null,
      ),
    );
  }

  async pickSample(s) {
    this.busy = true;
    this.rerender();
    const reply = await this.send('char.create', { name: s.sheet?.name ?? s.file, sheet: s.sheet });
    this.busy = false;
    this.note = reply.ok ? null : `Could not take ${s.sheet?.name}: ${plain(reply.message)}`;
    this.rerender();
  }

  async remove(c) {
    this.confirmDelete = null;
    const reply = await this.send('char.delete', { id: c.id });
    this.note = reply.ok ? `${c.name} was deleted.` : `Could not delete ${c.name}: ${plain(reply.message)}`;
    this.rerender();
  }

  openCreate({ npc, seat }) {
    this.openForm({ mode: 'create', npc, seat, sheet: blankSheet(this.m.describe?.sheet) });
  }

  openEdit(c) {
    this.openForm({ mode: 'edit', id: c.id, npc: Boolean(c.npc), sheet: fullSheet(this.m.state, c), name: c.name });
  }

  closeForm() {
    this.form = null;
    this.els.formSlot.replaceChildren();
    this.rerender();
  }

  openForm(spec) {
    const m = this.m;
    const schema = m.describe?.sheet || [];
    const key = `${spec.mode}:${spec.id ?? (spec.npc ? 'npc' : 'pc')}`;
    const samples = Array.isArray(m.samples) ? m.samples : [];
    const players = Object.entries(m.state?.seats || {}).filter(([, s]) => s.role !== 'gm');
    const fieldsBox = h('div', { class: 'sheet-fields' }, sheetFields(schema, spec.sheet));
    const errorBox = h('p', { class: 'error-box sheet-error', hidden: true, attrs: { role: 'alert' } });
    const title = spec.mode === 'edit' ? `Edit ${spec.name}` : spec.npc ? 'New NPC' : 'New character';
    const form = h(
      'form',
      { class: 'sheet-editor stack', noValidate: true, dataset: { mode: spec.mode, npc: String(spec.npc) } },
      h('h3', {}, title),
      spec.mode === 'create' && samples.length
        ? h(
            'div',
            { class: 'field' },
            h('label', { htmlFor: 'sheet-from' }, 'Start from'),
            h(
              'select',
              {
                id: 'sheet-from',
                onchange: (ev) => {
                  const s = samples.find((x) => x.file === ev.target.value);
                  fieldsBox.replaceChildren(sheetFields(schema, s ? s.sheet : blankSheet(schema)));
                },
              },
              h('option', { value: '' }, 'a blank sheet'),
              samples.map((s) => h('option', { value: s.file }, s.sheet?.name ?? s.file)),
            ),
          )
        : null,
      spec.mode === 'create' && !spec.npc && m.isGm
        ? h(
            'div',
            { class: 'field' },
            h('label', { htmlFor: 'sheet-seat' }, 'Player'),
            players.length
              ? h('select', { id: 'sheet-seat' }, players.map(([id, s]) => h('option', { value: id }, s.name || id)))
              : h('p', { class: 'small muted' }, 'Nobody has joined yet; the character will be yours until you give it away.'),
          )
        : null,
      fieldsBox,
      errorBox,
      h(
        'div',
        { class: 'actions sticky-actions' },
        h('button', { type: 'submit', class: 'primary', id: 'sheet-save' }, spec.mode === 'edit' ? 'Save' : 'Create'),
        h('button', { type: 'button', onclick: () => this.closeForm() }, 'Cancel'),
      ),
    );
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const sheet = readSheet(schema, fieldsBox);
      const name = String(sheet.name ?? spec.name ?? '').trim();
      showSheetError(fieldsBox, null);
      errorBox.hidden = true;
      if (!name) {
        showSheetError(fieldsBox, 'name', 'A character needs a name.');
        return;
      }
      const save = form.querySelector('#sheet-save');
      save.disabled = true;
      let reply;
      if (spec.mode === 'edit') {
        reply = await this.send('char.update', { id: spec.id, name, sheet });
      } else {
        const args = { name, sheet };
        if (spec.npc) args.npc = true;
        const seatSel = form.querySelector('#sheet-seat');
        if (seatSel?.value) args.seat = seatSel.value;
        reply = await this.send('char.create', args);
      }
      save.disabled = false;
      if (reply.ok) {
        this.note = spec.mode === 'edit' ? `${name} was saved.` : `${name} was created.`;
        this.closeForm();
        return;
      }
      const path = pathInMessage(reply.message);
      const shown = path ? showSheetError(fieldsBox, path, reply.message) : null;
      if (!shown) {
        errorBox.textContent = plain(reply.message || 'The sheet was not saved.');
        errorBox.hidden = false;
        errorBox.scrollIntoView({ block: 'center' });
      }
    });
    this.form = { key, el: form };
    this.els.formSlot.replaceChildren(form);
    this.rerender();
    form.querySelector('input, select, textarea')?.focus();
  }
}

// The first words of a text, at most n characters, cut at a word: "A veteran bruiser: Expert…".
function clip(text, n) {
  if (text.length <= n) return text;
  const cut = text.slice(0, n);
  return `${cut.slice(0, cut.lastIndexOf(' ') > n / 2 ? cut.lastIndexOf(' ') : n).replace(/[\s,;:(]+$/, '')}…`;
}

// What a sheet button asks of this person before rolling (a player is never asked for a number only
// the GM knows: `gmOnly`, views/quickrolls.js), and what its roll waits for from the GM instead.
function askOf(r, isGm) {
  return isGm ? r.need : r.need.filter((n) => !(r.gmOnly || []).includes(n));
}
function waitsOf(r, isGm) {
  return isGm ? [] : r.need.filter((n) => (r.gmOnly || []).includes(n));
}

// The name a person knows a rule system by.
function systemLabel(system) {
  return typeof system === 'string' && system ? systemName(system) : 'another game';
}

// Saves a character as a file the table can bring into another campaign of the same system:
// {tabled: "character", version: 1, system, name, sheet} (the whole sheet the saver may read).
export function exportCharacter(st, c, system) {
  const data = { tabled: 'character', version: 1, system, name: c.name, sheet: fullSheet(st, c) };
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const a = h('a', { href: URL.createObjectURL(blob), download: `${(c.name || 'character').replace(/[^\w -]+/g, '').trim() || 'character'}.json` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
