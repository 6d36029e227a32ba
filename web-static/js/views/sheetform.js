// A character sheet as a form, built from the rule system's sheet schema (`system.describe` →
// sheet: [{name, type, label, group, min, max, required, default, choices?, fields?, cite}]),
// and read back into a sheet object for char.create / char.update. The server validates; its
// message names the field path ("skills.lockpicking", "weapons[1].name"), and showSheetError puts
// it beside that field.
//
// Types: int (number), bool (checkbox), string (text, a textarea when long), enum (select),
// object (a fieldset of its fields), list (rows of its fields, add/remove), strings (one per line).

import { h } from '../dom.js';

let serial = 0;

function labelOf(f) {
  return f.label && f.label !== f.name ? f.label : f.name.replace(/_/g, ' ');
}

function defaultOf(f) {
  switch (f.type) {
    case 'int':
      if (Number.isFinite(f.default)) return f.default;
      if (!f.required) return undefined;
      return Number.isFinite(f.min) && f.min > 0 ? f.min : 0;
    case 'bool':
      return false;
    case 'object': {
      const o = {};
      for (const sub of f.fields || []) {
        const v = defaultOf(sub);
        if (v !== undefined) o[sub.name] = v;
      }
      return o;
    }
    case 'list': {
      const n = Number.isFinite(f.min) ? f.min : 0;
      return Array.from({ length: n }, () => defaultOf({ type: 'object', fields: f.fields }));
    }
    case 'strings':
      return [];
    case 'enum':
      return f.required && f.choices?.length ? f.choices[0] : undefined;
    default:
      return undefined;
  }
}

// A blank sheet with every default (what "Build your own" starts from).
export function blankSheet(schema) {
  return defaultOf({ type: 'object', fields: schema || [] });
}

function scalarInput(f, path, value) {
  const id = `sf-${++serial}`;
  const common = { id, dataset: { path, type: f.type } };
  let input;
  if (f.type === 'int') {
    input = h('input', {
      ...common,
      type: 'number',
      inputMode: 'numeric',
      step: 1,
      value: Number.isFinite(value) ? String(value) : '',
      attrs: { min: Number.isFinite(f.min) ? f.min : null, max: Number.isFinite(f.max) ? f.max : null },
    });
  } else if (f.type === 'bool') {
    input = h('input', { ...common, type: 'checkbox', checked: value === true });
  } else if (f.type === 'enum') {
    input = h(
      'select',
      common,
      f.required ? null : h('option', { value: '' }, '—'),
      (f.choices || []).map((c) => h('option', { value: c, selected: value === c }, c)),
    );
  } else if (f.type === 'strings') {
    input = h('textarea', { ...common, rows: Math.min(6, Math.max(2, (value || []).length + 1)), value: Array.isArray(value) ? value.join('\n') : '', spellcheck: false });
  } else if ((f.max ?? 0) > 200) {
    input = h('textarea', { ...common, rows: 3, value: value ?? '', maxLength: f.max });
  } else {
    input = h('input', { ...common, type: 'text', value: value ?? '', maxLength: f.max ?? 200, autocomplete: 'off' });
  }
  if (f.required && f.type !== 'bool') input.required = true;
  const range = f.type === 'int' && Number.isFinite(f.min) && Number.isFinite(f.max) ? `${f.min}–${f.max}` : null;
  const hint = f.type === 'strings' ? 'one per line' : range;
  if (f.type === 'bool') {
    return h(
      'div',
      { class: 'sf-field sf-bool', dataset: { for: path } },
      h('label', { class: 'checkline', htmlFor: id }, input, h('span', {}, labelOf(f))),
      h('p', { class: 'field-error', hidden: true, attrs: { role: 'alert' } }),
    );
  }
  return h(
    'div',
    { class: ['sf-field', `sf-${f.type}`], dataset: { for: path } },
    h('label', { htmlFor: id }, labelOf(f), hint ? h('span', { class: 'muted small' }, ` ${hint}`) : null),
    input,
    h('p', { class: 'field-error', hidden: true, attrs: { role: 'alert' } }),
  );
}

function listRow(f, path, i, value) {
  const rowPath = `${path}[${i}]`;
  const row = h(
    'fieldset',
    { class: 'sf-row', dataset: { path: rowPath } },
    h('legend', { class: 'visually-hidden' }, `${labelOf(f)} ${i + 1}`),
    fieldsOf(f.fields || [], rowPath, value || {}, false),
    h(
      'button',
      {
        type: 'button',
        class: 'link-button sf-remove',
        onclick: (ev) => {
          const list = ev.target.closest('.sf-list');
          ev.target.closest('.sf-row').remove();
          renumber(list, f, path);
        },
      },
      `Remove`,
    ),
  );
  return row;
}

// Row paths follow their position: after a removal the rows below move up.
function renumber(list, f, path) {
  const rows = list.querySelectorAll(':scope > .sf-rows > .sf-row');
  rows.forEach((row, i) => {
    const old = row.dataset.path;
    const now = `${path}[${i}]`;
    if (old === now) return;
    row.dataset.path = now;
    for (const el of row.querySelectorAll('[data-path], [data-for]')) {
      for (const k of ['path', 'for']) {
        if (el.dataset[k] && el.dataset[k].startsWith(old)) el.dataset[k] = now + el.dataset[k].slice(old.length);
      }
    }
  });
}

function listField(f, path, value) {
  const rows = h('div', { class: 'sf-rows' });
  const items = Array.isArray(value) ? value : [];
  items.forEach((v, i) => rows.append(listRow(f, path, i, v)));
  const box = h(
    'fieldset',
    { class: 'sf-list', dataset: { path, type: 'list', for: path } },
    h('legend', {}, labelOf(f), Number.isFinite(f.max) ? h('span', { class: 'muted small' }, ` up to ${f.max}`) : null),
    rows,
    h(
      'button',
      {
        type: 'button',
        class: 'sf-add',
        onclick: () => {
          const n = rows.children.length;
          if (Number.isFinite(f.max) && n >= f.max) return;
          const row = listRow(f, path, n, defaultOf({ type: 'object', fields: f.fields }));
          rows.append(row);
          row.querySelector('input, select, textarea')?.focus();
        },
      },
      `Add ${labelOf(f).replace(/s$/, '').toLowerCase()}`,
    ),
    h('p', { class: 'field-error', hidden: true, attrs: { role: 'alert' } }),
  );
  return box;
}

// Fields of one object level. Top level: grouped by `group` into fieldsets; inside an object
// the sub-fields' groups become small headings.
function fieldsOf(fields, prefix, value, top) {
  const out = [];
  let group = null;
  let box = null;
  for (const f of fields) {
    const path = prefix ? `${prefix}.${f.name}` : f.name;
    const v = value?.[f.name];
    let el;
    if (f.type === 'object') {
      el = h(
        'fieldset',
        { class: 'sf-object', dataset: { path, type: 'object', for: path } },
        h('legend', {}, labelOf(f)),
        h('div', { class: 'sf-grid' }, fieldsOf(f.fields || [], path, v || {}, false)),
        h('p', { class: 'field-error', hidden: true, attrs: { role: 'alert' } }),
      );
    } else if (f.type === 'list') {
      el = listField(f, path, v);
    } else {
      el = scalarInput(f, path, v);
    }
    if (top) {
      const g = f.group || '';
      if (!box || g !== group || f.type === 'object' || f.type === 'list') {
        group = f.type === 'object' || f.type === 'list' ? null : g;
        if (f.type === 'object' || f.type === 'list') {
          out.push(el);
          box = null;
          continue;
        }
        box = h('fieldset', { class: 'sf-group' }, h('legend', {}, g || 'Character'), h('div', { class: 'sf-grid' }));
        out.push(box);
      }
      box.lastChild.append(el);
    } else {
      if (f.group && f.group !== group && prefix && !prefix.endsWith(']')) {
        group = f.group;
        out.push(h('p', { class: 'sf-subhead' }, f.group));
      }
      out.push(el);
    }
  }
  return out;
}

// The form's fields for `schema`, filled from `sheet`. Returns a container element. On a phone the
// whole sheet is thousands of pixels (issue 15, item 9), so each top-level group is a section that
// folds (the first open): a person fills one part at a time, and an error opens its section
// (showSheetError).
export function sheetFields(schema, sheet) {
  const parts = fieldsOf(schema || [], '', sheet || {}, true);
  const sections = parts.map((el, i) => {
    const legend = el.querySelector(':scope > legend');
    const title = legend ? legend.textContent : 'More';
    if (legend) legend.classList.add('visually-hidden');
    return h('details', { class: 'sf-section', open: i === 0 }, h('summary', { class: 'sf-summary' }, title), el);
  });
  return h('div', { class: 'sheet-form' }, sections);
}

function readLevel(fields, prefix, root) {
  const out = {};
  for (const f of fields) {
    const path = prefix ? `${prefix}.${f.name}` : f.name;
    if (f.type === 'object') {
      out[f.name] = readLevel(f.fields || [], path, root);
      continue;
    }
    if (f.type === 'list') {
      const list = root.querySelector(`.sf-list[data-path="${CSS.escape(path)}"]`);
      const rows = list ? list.querySelectorAll(':scope > .sf-rows > .sf-row') : [];
      const arr = Array.from(rows, (row) => readLevel(f.fields || [], row.dataset.path, row));
      if (arr.length || f.required) out[f.name] = arr;
      continue;
    }
    const el = root.querySelector(`[data-path="${CSS.escape(path)}"]`);
    if (!el) continue;
    if (f.type === 'bool') {
      if (el.checked || f.required) out[f.name] = el.checked;
      continue;
    }
    const raw = el.value;
    if (f.type === 'strings') {
      const items = raw
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean);
      if (items.length || f.required) out[f.name] = items;
      continue;
    }
    if (raw.trim() === '') {
      if (f.required && f.type === 'string') out[f.name] = '';
      continue;
    }
    if (f.type === 'int') {
      const n = Number(raw);
      out[f.name] = Number.isFinite(n) ? Math.trunc(n) : raw;
    } else {
      out[f.name] = f.type === 'enum' ? raw : raw.trim();
    }
  }
  return out;
}

// The sheet the form describes now.
export function readSheet(schema, root) {
  return readLevel(schema || [], '', root);
}

// The field path a server message names: "field 'skills.lockpicking' must be ...",
// "unknown field 'stats.zzz'", "weapons[1].name: ...".
export function pathInMessage(message) {
  const m = String(message || '');
  let x = /'([A-Za-z0-9_]+(?:\[\d+\])?(?:\.[A-Za-z0-9_]+(?:\[\d+\])?)*)'/.exec(m);
  if (x) return x[1];
  x = /^([A-Za-z0-9_]+(?:\[\d+\])?(?:\.[A-Za-z0-9_]+(?:\[\d+\])?)*):/.exec(m);
  return x ? x[1] : null;
}

// Shows message beside the field of `path` (or the nearest enclosing field that exists); clears
// every earlier error. Returns the element that got it, or null.
export function showSheetError(root, path, message) {
  for (const e of root.querySelectorAll('.field-error')) {
    e.hidden = true;
    e.textContent = '';
  }
  for (const e of root.querySelectorAll('[aria-invalid]')) e.removeAttribute('aria-invalid');
  if (!path) return null;
  let p = path;
  for (;;) {
    const box = root.querySelector(`[data-for="${CSS.escape(p)}"]`);
    if (box) {
      const err = box.querySelector(':scope > .field-error');
      if (err) {
        err.textContent = message;
        err.hidden = false;
        // open the folded section it is in; centre it so the form's sticky Save bar never hides it
        for (let d = box.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
        const input = box.querySelector('input, select, textarea');
        if (input) {
          input.setAttribute('aria-invalid', 'true');
          input.focus({ preventScroll: true });
        }
        box.scrollIntoView({ block: 'center' });
        return box;
      }
    }
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    if (cut <= 0) return null;
    p = p.slice(0, cut);
  }
}
