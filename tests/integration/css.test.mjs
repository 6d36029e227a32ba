// style.css is whole: every block it opens it closes. An unclosed block silently nests every rule
// after it (Chromium reads CSS nesting), so those rules stop applying — as happened to the asks,
// the admin fold, the laptop log and the social panel styles after `.heist-scores`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { WEB_DIR } from './lib.mjs';

test('every block of style.css is closed where it should be', () => {
  const text = fs.readFileSync(path.join(WEB_DIR, 'style.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  const open = [];
  text.split('\n').forEach((line, i) => {
    for (const ch of line) {
      if (ch === '{') open.push(i + 1);
      else if (ch === '}') assert.ok(open.pop(), `line ${i + 1}: a '}' closes nothing`);
    }
    // a plain rule (not @media/@supports) never holds a selector block: a '{' opened while a
    // plain rule is open is a missing '}'
  });
  assert.deepEqual(open, [], `blocks opened at these lines are never closed`);
  // only at-rules (@media, @supports) hold rules: a rule opened inside a plain rule is a '}'
  // missing before it
  const kinds = [];
  for (const t of text.match(/[^{}]*[{}]/g) || []) {
    if (t.endsWith('}')) {
      kinds.pop();
      continue;
    }
    const head = t.slice(0, -1).split(/[;}]/).pop().trim();
    assert.notEqual(kinds[kinds.length - 1], 'rule', `"${head.slice(0, 60)}" opens inside a plain rule`);
    kinds.push(head.startsWith('@') ? 'at' : 'rule');
  }
});
