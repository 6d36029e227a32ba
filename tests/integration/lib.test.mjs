// Self-test of the helpers' RFC 6902 apply (lib.mjs), so replica comparisons in the other tests
// rest on a correct implementation. Cases from RFC 6902 appendix A.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch, parsePointer } from './lib.mjs';

test('JSON Pointer parsing (RFC 6901)', () => {
  assert.deepEqual(parsePointer(''), []);
  assert.deepEqual(parsePointer('/a~1b/m~0n/0'), ['a/b', 'm~n', '0']);
  assert.deepEqual(parsePointer('/'), ['']);
  assert.throws(() => parsePointer('a'));
});

test('RFC 6902 appendix A cases', () => {
  assert.deepEqual(applyPatch({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }]), { foo: 'bar', baz: 'qux' });
  assert.deepEqual(applyPatch({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }]), { foo: ['bar', 'qux', 'baz'] });
  assert.deepEqual(applyPatch({ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }]), { foo: 'bar' });
  assert.deepEqual(applyPatch({ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }]), { foo: ['bar', 'baz'] });
  assert.deepEqual(applyPatch({ baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }]), { baz: 'boo', foo: 'bar' });
  assert.deepEqual(
    applyPatch({ foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } }, [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }]),
    { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
  );
  assert.deepEqual(applyPatch({ foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }]), { foo: ['all', 'cows', 'eat', 'grass'] });
  assert.deepEqual(applyPatch({ foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }]), { foo: ['bar', ['abc', 'def']] });
  assert.deepEqual(applyPatch({ foo: 'bar' }, [{ op: 'copy', from: '/foo', path: '/baz' }]), { foo: 'bar', baz: 'bar' });
  assert.deepEqual(applyPatch({ a: 1 }, [{ op: 'replace', path: '', value: [1] }]), [1]);
  // test op, errors, atomicity
  assert.deepEqual(applyPatch({ baz: 'qux', foo: ['a', 2, 'c'] }, [{ op: 'test', path: '/foo', value: ['a', 2, 'c'] }]), { baz: 'qux', foo: ['a', 2, 'c'] });
  assert.throws(() => applyPatch({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]));
  assert.throws(() => applyPatch({ foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]));
  assert.throws(() => applyPatch({ foo: [1] }, [{ op: 'add', path: '/foo/3', value: 2 }]));
  assert.throws(() => applyPatch({ foo: [1] }, [{ op: 'remove', path: '/foo/1' }]));
  assert.throws(() => applyPatch({ foo: [1] }, [{ op: 'add', path: '/foo/01', value: 2 }]));
  assert.throws(() => applyPatch({}, [{ op: 'bogus', path: '/a' }]));
  const doc = { a: { b: 1 } };
  assert.throws(() => applyPatch(doc, [{ op: 'add', path: '/a/c', value: 2 }, { op: 'remove', path: '/zzz' }]));
  assert.deepEqual(doc, { a: { b: 1 } }, 'the input is never modified');
  // values are copied, not shared
  const v = { x: 1 };
  const out = applyPatch({}, [{ op: 'add', path: '/v', value: v }]);
  v.x = 2;
  assert.equal(out.v.x, 1);
});
