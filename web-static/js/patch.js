// RFC 6902 JSON Patch, applied to a JSON document without mutating it.
//
// applyPatch(doc, ops) returns a new document; `doc` and `ops` are left untouched. Containers on
// the paths an op writes to are copied (structural sharing): everything the patch does not touch
// keeps its identity, so views can skip unchanged subtrees by comparing references. The whole
// patch is atomic: when any op fails (a missing path, a failed `test`, a bad pointer) a
// PatchError is thrown and the caller still holds the unchanged input.
//
// Pure: no DOM, no I/O. Used by conn.js and by the Node unit test (tests/browser/patch.test.mjs).

export class PatchError extends Error {
  constructor(message, index, op) {
    super(index === undefined ? message : `op ${index} (${op && op.op} ${op && op.path}): ${message}`);
    this.name = 'PatchError';
    this.index = index;
  }
}

const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// Parses a JSON pointer (RFC 6901) into its reference tokens. "" is the whole document.
export function parsePointer(pointer) {
  if (typeof pointer !== 'string') throw new PatchError('pointer is not a string');
  if (pointer === '') return [];
  if (pointer[0] !== '/') throw new PatchError(`pointer "${pointer}" does not start with "/"`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => {
      if (/~(?![01])/.test(t)) throw new PatchError(`bad escape in pointer "${pointer}"`);
      return t.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

// Escapes one reference token for use in a pointer.
export function escapeToken(token) {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function deepClone(v) {
  if (Array.isArray(v)) return v.map(deepClone);
  if (isObject(v)) {
    const out = {};
    for (const k of Object.keys(v)) setKey(out, k, deepClone(v[k]));
    return out;
  }
  return v;
}

// JSON equality: objects compare by members regardless of order, arrays element-wise.
export function deepEqual(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!hasOwn(b, k) || !deepEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

// "__proto__" arrives from JSON.parse as an ordinary own key; plain assignment would change the
// prototype instead of setting it.
function setKey(obj, key, value) {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

function arrayIndex(arr, token, { allowEnd }) {
  if (token === '-') {
    if (allowEnd) return arr.length;
    throw new PatchError('"-" names no element here');
  }
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`"${token}" is not an array index`);
  const i = Number(token);
  const max = allowEnd ? arr.length : arr.length - 1;
  if (i > max) throw new PatchError(`index ${i} out of range (length ${arr.length})`);
  return i;
}

// Reads the value at `tokens`; throws when it does not exist.
function getAt(doc, tokens) {
  let cur = doc;
  for (const t of tokens) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(cur, t, { allowEnd: false })];
    else if (isObject(cur) && hasOwn(cur, t)) cur = cur[t];
    else throw new PatchError(`path "/${tokens.map(escapeToken).join('/')}" does not exist`);
  }
  return cur;
}

// One patch application: holds the working root and remembers which containers it has already
// copied, so each container on a written path is copied at most once per patch.
class Writer {
  constructor(root) {
    this.root = root;
    this.fresh = new WeakSet();
  }

  own(container) {
    if (this.fresh.has(container)) return container;
    const copy = Array.isArray(container) ? container.slice() : { ...container };
    this.fresh.add(copy);
    return copy;
  }

  // Returns the (copied, writable) parent container of the location `tokens`, re-linking the
  // copies from the root down.
  parent(tokens) {
    if (!Array.isArray(this.root) && !isObject(this.root)) {
      throw new PatchError('the document is not a container');
    }
    this.root = this.own(this.root);
    let cur = this.root;
    for (let n = 0; n < tokens.length - 1; n++) {
      const t = tokens[n];
      let key;
      if (Array.isArray(cur)) key = arrayIndex(cur, t, { allowEnd: false });
      else if (hasOwn(cur, t)) key = t;
      else throw new PatchError(`path "/${tokens.slice(0, n + 1).map(escapeToken).join('/')}" does not exist`);
      const child = cur[key];
      if (!Array.isArray(child) && !isObject(child)) {
        throw new PatchError(`"/${tokens.slice(0, n + 1).map(escapeToken).join('/')}" is not a container`);
      }
      const copy = this.own(child);
      if (Array.isArray(cur)) cur[key] = copy;
      else setKey(cur, key, copy);
      cur = copy;
    }
    return cur;
  }

  add(tokens, value) {
    if (tokens.length === 0) {
      this.root = value;
      return;
    }
    const p = this.parent(tokens);
    const last = tokens[tokens.length - 1];
    if (Array.isArray(p)) p.splice(arrayIndex(p, last, { allowEnd: true }), 0, value);
    else setKey(p, last, value);
  }

  remove(tokens) {
    if (tokens.length === 0) throw new PatchError('cannot remove the whole document');
    const p = this.parent(tokens);
    const last = tokens[tokens.length - 1];
    if (Array.isArray(p)) {
      const i = arrayIndex(p, last, { allowEnd: false });
      return p.splice(i, 1)[0];
    }
    if (!hasOwn(p, last)) throw new PatchError(`member "${last}" does not exist`);
    const v = p[last];
    delete p[last];
    return v;
  }

  replace(tokens, value) {
    if (tokens.length === 0) {
      this.root = value;
      return;
    }
    const p = this.parent(tokens);
    const last = tokens[tokens.length - 1];
    if (Array.isArray(p)) p[arrayIndex(p, last, { allowEnd: false })] = value;
    else if (hasOwn(p, last)) setKey(p, last, value);
    else throw new PatchError(`member "${last}" does not exist`);
  }
}

function applyOne(w, op) {
  if (!isObject(op) || typeof op.op !== 'string') throw new PatchError('operation is not an object with "op"');
  const path = parsePointer(op.path);
  switch (op.op) {
    case 'add':
      if (!hasOwn(op, 'value')) throw new PatchError('missing "value"');
      w.add(path, deepClone(op.value));
      break;
    case 'remove':
      w.remove(path);
      break;
    case 'replace':
      if (!hasOwn(op, 'value')) throw new PatchError('missing "value"');
      w.replace(path, deepClone(op.value));
      break;
    case 'move': {
      const from = parsePointer(op.from);
      if (from.length < path.length && from.every((t, i) => t === path[i])) {
        throw new PatchError('cannot move a value into one of its children');
      }
      if (from.length === path.length && from.every((t, i) => t === path[i])) {
        getAt(w.root, from); // must exist; moving onto itself changes nothing
        break;
      }
      const v = w.remove(from);
      w.add(path, v);
      break;
    }
    case 'copy': {
      // A deep copy: the source may be a container this patch already owns (and writes in place).
      w.add(path, deepClone(getAt(w.root, parsePointer(op.from))));
      break;
    }
    case 'test': {
      if (!hasOwn(op, 'value')) throw new PatchError('missing "value"');
      if (!deepEqual(getAt(w.root, path), op.value)) throw new PatchError('test failed');
      break;
    }
    default:
      throw new PatchError(`unknown op "${op.op}"`);
  }
}

export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new PatchError('patch is not an array');
  const w = new Writer(doc);
  ops.forEach((op, i) => {
    try {
      applyOne(w, op);
    } catch (e) {
      if (e instanceof PatchError && e.index === undefined) throw new PatchError(e.message, i, op);
      throw e;
    }
  });
  return w.root;
}

// Reads the value at a pointer, or `fallback` when it does not exist.
export function getPointer(doc, pointer, fallback = undefined) {
  try {
    return getAt(doc, parsePointer(pointer));
  } catch {
    return fallback;
  }
}
