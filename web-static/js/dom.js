// A tiny element builder. Text always goes in through text nodes (never innerHTML): names and
// expressions are typed by people at the table.
//
//   h('li', {class: 'seat', dataset: {seat: 'p1'}, onclick: fn}, h('span', {}, 'Ann'), ' online')
//
// props: `class` (string or array, falsy entries skipped), `dataset`, `attrs` (setAttribute),
// `on<event>` handlers, anything else is assigned as a property (type, value, hidden, title...).
// children: nodes, strings/numbers (text), arrays (flattened), null/undefined/false (skipped).

export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null) continue;
    if (k === 'class') {
      const cls = Array.isArray(v) ? v.filter(Boolean).join(' ') : v;
      if (cls) el.className = cls;
    } else if (k === 'dataset') {
      for (const [dk, dv] of Object.entries(v)) if (dv !== undefined && dv !== null) el.dataset[dk] = String(dv);
    } else if (k === 'attrs') {
      for (const [ak, av] of Object.entries(v)) if (av !== undefined && av !== null && av !== false) el.setAttribute(ak, av === true ? '' : String(av));
    } else if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2), v);
    } else {
      el[k] = v;
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

export const $ = (sel, root = document) => root.querySelector(sel);

// Sets text only when it differs (keeps screen readers and selection calm).
export function setText(el, text) {
  const t = text === null || text === undefined ? '' : String(text);
  if (el.textContent !== t) el.textContent = t;
}

export function show(el, visible) {
  if (el.hidden === visible) el.hidden = !visible;
}
