// Forms built from parameter lists: a check's params, an encounter action's params, a module's
// options (the shapes `system.describe` returns: [{name, type, min, max, default, required,
// secret, label}]). One field per parameter; `readParams` turns the filled form back into the
// `params` object a command takes (only what was filled in, typed).
//
// A STRING parameter named `target` (or `actor`) becomes a <select> of the encounter's
// combatants when `opts.combatants` is given.

import { h } from '../dom.js';
import { label as keyLabel, phrase, plain, choicesIn } from '../words.js';

let serial = 0;

export function paramType(p) {
  const t = String(p?.type ?? 'int').toLowerCase();
  if (t.startsWith('bool')) return 'bool';
  if (t.startsWith('str') || t === 'enum') return 'string';
  return 'int';
}

// The label a person reads: the parameter's description in plain words, else its name as words.
export function paramLabel(p) {
  const d = p.label ? phrase(String(p.label).replace(/^1:\s*/, '')) : '';
  return d || keyLabel(p.name);
}

// One labelled field. opts: {combatants: [{id, name}], value, idPrefix, picks: [{value, label}]}
// An optional number is left empty (its default is the placeholder): a pre-filled default is a
// value the person never chose, and the server may refuse it in context (GRIMWIRE's friendly-fire
// range outside an attack, a weapon number on a sheet without weapons).
export function paramField(p, opts = {}) {
  const id = `${opts.idPrefix || 'pf'}-${++serial}-${p.name}`;
  const type = paramType(p);
  const label = paramLabel(p);
  const value = opts.value;
  // Picks from the sheet default to their first entry; choices the rules name default to the one
  // marked "(default)", else (an optional parameter) to none.
  const fromSheet = Boolean(opts.picks);
  const picks = opts.picks || (type === 'string' && Array.isArray(p.choices) && p.choices.length ? p.choices.map((c) => ({ value: c, label: keyLabel(c) })) : null) || (type === 'string' ? choicesIn(p.label) : null);
  let input;
  if (type === 'bool') {
    input = h('input', { type: 'checkbox', id, name: p.name, checked: value === true || value === 1 || (value === undefined && p.default === 1) });
    return h(
      'div',
      { class: 'field field-check', dataset: { param: p.name } },
      h('label', { class: 'checkline', htmlFor: id }, input, h('span', {}, label)),
      h('p', { class: 'field-error', attrs: { role: 'alert' }, hidden: true }),
    );
  }
  if (picks && picks.length) {
    input = h(
      'select',
      { id, name: p.name, dataset: { kind: 'pick' } },
      !p.required && !fromSheet && !picks.some((c) => c.isDefault) ? h('option', { value: '' }, 'none') : null,
      picks.map((c, i) => h('option', { value: String(c.value), selected: value !== undefined ? String(value) === String(c.value) : Boolean(c.isDefault) || (fromSheet && i === 0) }, c.label)),
      !p.required && !picks.some((c) => c.value === '') && (fromSheet || picks.some((c) => c.isDefault)) ? h('option', { value: '' }, 'none') : null,
    );
  } else if (type === 'string' && (p.name === 'target' || p.name === 'actor') && Array.isArray(opts.combatants)) {
    const def = value ?? opts.defaultTarget;
    input = h(
      'select',
      { id, name: p.name, dataset: { kind: 'combatant' } },
      p.required ? null : h('option', { value: '' }, 'nobody'),
      opts.combatants.map((c) => h('option', { value: c.id, selected: def === c.id }, `${c.name ?? c.id}`)),
    );
  } else if (type === 'string') {
    input = h('input', { type: 'text', id, name: p.name, value: value ?? '', autocomplete: 'off', spellcheck: false, maxLength: Number.isFinite(p.max) && p.max > 0 ? p.max : 200 });
  } else {
    input = h('input', {
      type: 'number',
      id,
      name: p.name,
      inputMode: 'numeric',
      step: 1,
      value: value ?? (Number.isFinite(p.default) && p.required ? String(p.default) : ''),
      placeholder: Number.isFinite(p.default) ? String(p.default) : '',
      attrs: { min: Number.isFinite(p.min) ? p.min : null, max: Number.isFinite(p.max) ? p.max : null },
    });
  }
  if (p.required) input.required = true;
  const range = type === 'int' && Number.isFinite(p.min) && Number.isFinite(p.max) ? ` (${p.min}–${p.max})` : '';
  return h(
    'div',
    { class: 'field', dataset: { param: p.name } },
    h('label', { htmlFor: id }, label, h('span', { class: 'muted small' }, range), p.secret ? h('span', { class: 'badge secret-badge' }, 'hidden from players') : null),
    input,
    h('p', { class: 'field-error', attrs: { role: 'alert' }, hidden: true }),
  );
}

// opts as paramField, plus values: {name: value} and picks: {name: [{value, label}]}.
export function paramFields(params, opts = {}) {
  return (Array.isArray(params) ? params : []).map((p) => paramField(p, { ...opts, value: opts.values?.[p.name], picks: opts.picks?.[p.name] }));
}

// Reads the form's values for `params`: {params, error: {name, message} | null}. Empty optional
// fields are left out (the server uses its default).
export function readParams(form, params) {
  const out = {};
  for (const p of Array.isArray(params) ? params : []) {
    const el = form.elements.namedItem(p.name);
    if (!el) continue;
    const type = paramType(p);
    if (type === 'bool') {
      if (el.checked || p.required) out[p.name] = el.checked ? 1 : 0;
      continue;
    }
    const raw = String(el.value ?? '').trim();
    if (raw === '') {
      if (p.required) return { params: out, error: { name: p.name, message: `${paramLabel(p)}: this one is needed.` } };
      continue;
    }
    if (type === 'int') {
      if (!/^-?\d+$/.test(raw)) return { params: out, error: { name: p.name, message: `${paramLabel(p)}: a whole number, please.` } };
      out[p.name] = Number(raw);
    } else {
      out[p.name] = raw;
    }
  }
  return { params: out, error: null };
}

// Shows `message` under the field of parameter `name` inside `form` (or clears every error
// when name is null). Returns true when such a field exists.
export function showFieldError(form, name, message) {
  for (const f of form.querySelectorAll('.field-error')) {
    f.hidden = true;
    f.textContent = '';
  }
  for (const f of form.querySelectorAll('[aria-invalid]')) f.removeAttribute('aria-invalid');
  if (!name) return false;
  const field = form.querySelector(`.field[data-param="${CSS.escape(name)}"]`);
  if (!field) return false;
  const err = field.querySelector('.field-error');
  err.textContent = plain(message);
  err.hidden = false;
  const input = field.querySelector('input, select, textarea');
  if (input) {
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  }
  return true;
}

// Which parameter a server message is about: "parameter 'dc' ...", "target: ...", "'skill' must".
export function paramInMessage(message, params) {
  const names = (Array.isArray(params) ? params : []).map((p) => p.name).sort((a, b) => b.length - a.length);
  const m = String(message || '');
  for (const n of names) {
    const re = new RegExp(`(^|[^A-Za-z0-9_])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z0-9_]|$)`);
    if (re.test(m)) return n;
  }
  return null;
}
