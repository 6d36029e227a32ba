// Unit tests of web-static/js/patch.js (the page's RFC 6902 apply), in Node: the examples of
// RFC 6902 appendix A, pointer escaping, atomicity, and that the input is never mutated.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch, parsePointer, escapeToken, deepEqual, PatchError, getPointer } from '../../web-static/js/patch.js';

function frozen(v) {
  if (v && typeof v === 'object') {
    Object.values(v).forEach(frozen);
    Object.freeze(v);
  }
  return v;
}

// [name, doc, patch, expected] — expected `Error` means the patch must fail.
const cases = [
  ['A.1 add an object member', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { baz: 'qux', foo: 'bar' }],
  ['A.2 add an array element', { foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }], { foo: ['bar', 'qux', 'baz'] }],
  ['A.3 remove an object member', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
  ['A.4 remove an array element', { foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] }],
  ['A.5 replace a value', { baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }], { baz: 'boo', foo: 'bar' }],
  [
    'A.6 move a value',
    { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
    [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
    { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
  ],
  ['A.7 move an array element', { foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }], { foo: ['all', 'cows', 'eat', 'grass'] }],
  [
    'A.8 test success',
    { baz: 'qux', foo: ['a', 2, 'c'] },
    [
      { op: 'test', path: '/baz', value: 'qux' },
      { op: 'test', path: '/foo/1', value: 2 },
    ],
    { baz: 'qux', foo: ['a', 2, 'c'] },
  ],
  ['A.9 test failure', { baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }], Error],
  ['A.10 add a nested member object', { foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }], { foo: 'bar', child: { grandchild: {} } }],
  ['A.11 ignore unrecognized elements', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }], { foo: 'bar', baz: 'qux' }],
  ['A.12 add to a nonexistent target', { foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }], Error],
  ['A.14 ~ escape ordering', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }],
  ['A.15 comparing strings and numbers', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }], Error],
  ['A.16 add an array value', { foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }], { foo: ['bar', ['abc', 'def']] }],
  ['~1 in a member name', { 'a/b': 1 }, [{ op: 'replace', path: '/a~1b', value: 2 }], { 'a/b': 2 }],
  ['~0 in a member name', { 'a~b': 1 }, [{ op: 'remove', path: '/a~0b' }], {}],
  ['bad escape', { a: 1 }, [{ op: 'remove', path: '/a~2' }], Error],
  ['append with -', { log: [1, 2] }, [{ op: 'add', path: '/log/-', value: 3 }], { log: [1, 2, 3] }],
  ['add at the end index', { log: [1, 2] }, [{ op: 'add', path: '/log/2', value: 3 }], { log: [1, 2, 3] }],
  ['add past the end', { log: [1, 2] }, [{ op: 'add', path: '/log/3', value: 3 }], Error],
  ['leading zero index', { log: [1, 2] }, [{ op: 'remove', path: '/log/01' }], Error],
  ['remove a missing member', { a: 1 }, [{ op: 'remove', path: '/b' }], Error],
  ['replace a missing member', { a: 1 }, [{ op: 'replace', path: '/b', value: 1 }], Error],
  ['remove - is not an element', { a: [1] }, [{ op: 'remove', path: '/a/-' }], Error],
  ['replace the root', { a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }], { b: 2 }],
  ['add replaces an existing member', { a: 1 }, [{ op: 'add', path: '/a', value: [1] }], { a: [1] }],
  ['copy', { a: { x: [1, 2] } }, [{ op: 'copy', from: '/a', path: '/b' }], { a: { x: [1, 2] }, b: { x: [1, 2] } }],
  [
    'copy then write into the copy leaves the source alone',
    { a: { x: 1 } },
    [
      { op: 'add', path: '/a/y', value: 2 },
      { op: 'copy', from: '/a', path: '/b' },
      { op: 'add', path: '/b/z', value: 3 },
    ],
    { a: { x: 1, y: 2 }, b: { x: 1, y: 2, z: 3 } },
  ],
  ['move into own child', { a: { b: {} } }, [{ op: 'move', from: '/a', path: '/a/b/c' }], Error],
  ['move onto itself', { a: 1 }, [{ op: 'move', from: '/a', path: '/a' }], { a: 1 }],
  ['test an object regardless of key order', { a: { x: 1, y: [1, { z: null }] } }, [{ op: 'test', path: '/a', value: { y: [1, { z: null }], x: 1 } }], { a: { x: 1, y: [1, { z: null }] } }],
  ['unknown op', { a: 1 }, [{ op: 'frob', path: '/a' }], Error],
  ['__proto__ is a plain member', {}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }], JSON.parse('{"__proto__":{"polluted":true}}')],
];

for (const [name, doc, patch, expected] of cases) {
  test(`applyPatch: ${name}`, () => {
    const input = frozen(structuredClone(doc));
    const before = JSON.stringify(input);
    if (expected === Error) {
      assert.throws(() => applyPatch(input, patch), PatchError);
    } else {
      const out = applyPatch(input, patch);
      assert.ok(deepEqual(out, expected), `got ${JSON.stringify(out)}`);
    }
    assert.equal(JSON.stringify(input), before, 'the input document must not change');
  });
}

test('applyPatch is atomic: a failing op leaves nothing applied', () => {
  const doc = frozen({ log: [1], n: 0 });
  assert.throws(
    () =>
      applyPatch(doc, [
        { op: 'add', path: '/log/-', value: 2 },
        { op: 'replace', path: '/missing', value: 1 },
      ]),
    /op 1/,
  );
  assert.deepEqual(doc, { log: [1], n: 0 });
});

test('applyPatch shares untouched subtrees and copies touched ones', () => {
  const doc = { seats: { gm: { name: 'GM' } }, log: [{ seq: 1 }], gm: { log: [] } };
  const out = applyPatch(doc, [{ op: 'add', path: '/log/-', value: { seq: 2 } }]);
  assert.equal(out.seats, doc.seats);
  assert.equal(out.gm, doc.gm);
  assert.equal(out.log[0], doc.log[0]);
  assert.notEqual(out.log, doc.log);
  assert.equal(doc.log.length, 1);
  assert.equal(out.log.length, 2);
});

test('applyPatch does not keep references to the patch values', () => {
  const value = { seq: 2, roll: { dice: [1] } };
  const out = applyPatch({ log: [] }, [{ op: 'add', path: '/log/0', value }]);
  value.roll.dice.push(9);
  assert.deepEqual(out.log[0].roll.dice, [1]);
});

test('a protocol-shaped sequence of diffs', () => {
  let state = {
    campaign: { id: 'c1', name: 'The Heist', system: 'generic' },
    seats: { gm: { name: 'GM', role: 'gm' } },
    next_seat: 1,
    log: [],
    gm: { join: { code: 'K7QF-2M9X', open: true }, log: [] },
    private: {},
  };
  state = applyPatch(state, [
    { op: 'add', path: '/seats/p1', value: { name: 'Ann', role: 'player' } },
    { op: 'replace', path: '/next_seat', value: 2 },
  ]);
  state = applyPatch(state, [{ op: 'add', path: '/log/0', value: { seq: 2, seat: 'p1', kind: 'roll', roll: { expr: 'd20', total: 7 } } }]);
  state = applyPatch(state, [{ op: 'add', path: '/gm/log/-', value: { seq: 3, seat: 'gm', kind: 'roll', roll: { expr: '7d7+77', total: 99 } } }]);
  state = applyPatch(state, [{ op: 'replace', path: '/gm/join/open', value: false }]);
  assert.equal(state.seats.p1.name, 'Ann');
  assert.equal(state.log.length, 1);
  assert.equal(state.gm.log[0].roll.total, 99);
  assert.equal(state.gm.join.open, false);
  assert.equal(getPointer(state, '/log/0/roll/expr'), 'd20');
  assert.equal(getPointer(state, '/nope', 'fallback'), 'fallback');
});

test('pointers', () => {
  assert.deepEqual(parsePointer(''), []);
  assert.deepEqual(parsePointer('/'), ['']);
  assert.deepEqual(parsePointer('/a~1b/c~0d/~01'), ['a/b', 'c~d', '~1']);
  assert.throws(() => parsePointer('a'), PatchError);
  assert.equal(escapeToken('a/b~c'), 'a~1b~0c');
});
