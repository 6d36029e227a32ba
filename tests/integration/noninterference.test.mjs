// Secrecy by construction, proven (issue 11): every encounter module's scenario in
// ./noninterference/ runs twice with different GM-only inputs, and every player socket must
// receive the same bytes both times (the harness: ./noninterference.mjs).
import { test } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertNonInterference } from './noninterference.mjs';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'noninterference');
const only = process.env.NONINTERFERENCE_ONLY; // a scenario's file name, to run one while writing it

for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.mjs')).sort()) {
  if (only && !file.startsWith(only)) continue;
  const { scenario } = await import(path.join(dir, file));
  const who = scenario.observers ? `${scenario.observers.join(' and ')} sees the same bytes whatever another seat keeps private` : "players see the same bytes whatever the GM's secrets";
  test(`non-interference: ${scenario.name}: ${who}`, (t) =>
    assertNonInterference(t, scenario));
}

// A GM's secret action must not even show that it happened: a seat whose view did not change
// receives nothing. The engine still sends such a seat an empty diff; branch `perf` (issue 11's
// engine half) stops that, and this test is `todo` until that change is merged to main.
const secretRoll = {
  name: 'a secret roll by the GM',
  system: 'fivey',
  seed: 3,
  players: ['Ann'],
  variants: [{ secret: false }, { secret: true }],
  async script({ gm, ok }, v) {
    await ok(gm, 'roll', { expr: '1d20' });
    if (v.secret) await ok(gm, 'roll', { expr: '1d20+3', secret: true });
  },
};
test('non-interference: a secret roll by the GM sends the players nothing', { todo: 'needs the engine change of branch perf: no diff to a seat whose view did not change' }, (t) =>
  assertNonInterference(t, secretRoll));

// The same, followed by a public change (a rename: no dice, whose stream a secret roll shifts
// under --seed, though not unpredictably in production): with no diff for the secret roll, the
// next diff's seq still counts it (seq 5 after 3), so the table learns that the GM did something
// in between. Known and
// left open: it needs per-seat sequence numbers (or a seq that counts only what a seat sees),
// which changes the resume protocol; until then this case stays `todo`.
const secretThenPublic = {
  ...secretRoll,
  name: 'a secret roll by the GM, then a public change',
  async script(ctx, v) {
    await secretRoll.script(ctx, v);
    await ctx.ok(ctx.gm, 'campaign.rename', { name: 'After the roll' });
  },
};
test('non-interference: the seq of the next public diff does not count a secret roll', { todo: 'seq numbers are per campaign: a seat sees the gap a secret event leaves' }, (t) =>
  assertNonInterference(t, secretThenPublic));
