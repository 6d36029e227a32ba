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
  test(`non-interference: ${scenario.name}: players see the same bytes whatever the GM's secrets`, (t) =>
    assertNonInterference(t, scenario));
}
