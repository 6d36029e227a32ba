// The dice box speaks what Roll20's players type (rules/dice.h, PROTOCOL.md `roll`): each form
// through the real server, its canonical echo, and a refusal that names the problem and changes
// nothing. The distributions are checked exactly in tests/unit/test_dice.c.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, table, closeAll } from './lib.mjs';

const FORMS = [
  // typed, canonical echo, a check on the result
  ['3d6!', '3d6!', (r) => r.dice.length >= 3 && r.dice.filter((d) => d.exploded).length === r.dice.length - 3],
  ['1d6!!', '1d6!!', (r) => r.dice.length === 1 && r.total >= 1],
  ['2d6r<2', '2d6r<2', (r) => r.dice.filter((d) => !d.rerolled).every((d) => d.value >= 3)],
  ['1d20ro1', '1d20ro1', (r) => r.dice.filter((d) => d.kept).length === 1],
  ['6d10>8f1', '6d10>8f1', (r) => r.total === r.dice.filter((d) => d.success).length - r.dice.filter((d) => d.failure).length],
  ['8d100d3', '8d100dl3', (r) => r.dice.filter((d) => !d.kept).length === 3],
  ['4dF+1', '4dF+1', (r) => r.dice.every((d) => d.fate && d.value >= -1 && d.value <= 1)],
  ['(2d6+3)*2', '(2d6+3)*2', (r) => r.total % 2 === 0 && typeof r.formula === 'string'],
  ['1d8/2', '1d8/2', (r) => r.total >= 0 && r.total <= 4],
  ['d20+5 [to hit]', '1d20+5[to hit]', (r) => r.terms[1].label === 'to hit'],
];

test('every Roll20 form rolls through the server with its canonical echo', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann']);
  const ann = players[0].client;
  t.after(() => closeAll(gm, ann));
  for (const [typed, canonical, ok] of FORMS) {
    const a = await ann.cmd('roll', { expr: typed });
    assert.equal(a.t, 'ack', `${typed}: ${a.raw}`);
    assert.equal(a.result.expr, canonical);
    assert.ok(ok(a.result), `${typed}: ${JSON.stringify(a.result)}`);
  }
});

test('a form that could never finish or divides by zero is refused and changes nothing', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann']);
  const ann = players[0].client;
  t.after(() => closeAll(gm, ann));
  const before = (await srv.gmView()).seq;
  for (const [expr, words] of [
    ['1d6!>1', 'matches every face'],
    ['1d6r<6', 'matches every face'],
    ['1d6/(1d2-1)', 'divisor could be 0'],
    ['6d10f1', 'only with a success target'],
  ]) {
    const n = await ann.cmd('roll', { expr });
    assert.equal(n.t, 'nack', n.raw);
    assert.equal(n.code, 'bad_request');
    assert.ok(n.message.includes(words), n.message);
  }
  assert.equal((await srv.gmView()).seq, before, 'nothing stored');
});
