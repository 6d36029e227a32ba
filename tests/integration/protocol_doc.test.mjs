// protocol/PROTOCOL.md stays true (../shared/PROTOCOL.md: "a test fails when an op in a command
// table is missing from it"): every op the server accepts — found by asking the running server
// about a fixed list of names, and by reading the command table rows in server/ops.c — has a
// heading "### `op`" in protocol/PROTOCOL.md. And the reverse: every documented op exists.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startServer, repoRoot, closeAll } from './lib.mjs';

const DOC = path.join(repoRoot, 'protocol', 'PROTOCOL.md');
// every command table of the server: server/ops.c and server/ops_*.c
const OPS_FILES = fs
  .readdirSync(path.join(repoRoot, 'server'))
  .filter((f) => /^ops(_\w+)?\.c$/.test(f))
  .map((f) => path.join(repoRoot, 'server', f));
const FIXED = ['roll', 'seat.rename', 'seat.remove', 'join.rotate', 'join.close', 'campaign.create', 'campaign.list'];

/** Ops documented as headings "### `op`" (with or without the " — who" suffix). */
function documentedOps() {
  const text = fs.readFileSync(DOC, 'utf8');
  return new Set([...text.matchAll(/^### `([^`]+)`/gm)].map((m) => m[1]));
}

/** Command table rows of server/ops*.c: {"name", op_fn, WHO_x, ...} → [{name, who, line}] */
function tableRows() {
  const rows = [];
  for (const file of OPS_FILES) {
    fs.readFileSync(file, 'utf8').split('\n').forEach((l, i) => {
      const m = /^\s*\{\s*"([^"]+)"\s*,\s*op_\w+\s*,\s*(\w+)/.exec(l);
      if (m) rows.push({ name: m[1], who: m[2], line: `${path.basename(file)}:${i + 1}` });
    });
  }
  return rows;
}

/** True when the reply shows the server knows the op (anything but "unknown op"). */
const known = (reply) => !(reply.t === 'nack' && reply.code === 'not_found' && /unknown op/.test(reply.message));

test('the parsers find what they look for', () => {
  const doc = documentedOps();
  assert.ok(doc.size >= FIXED.length, `headings found: ${[...doc]}`);
  assert.ok(!doc.has('Error codes'), 'only code-quoted headings count');
  const rows = tableRows();
  assert.ok(rows.length >= 5, `table rows found: ${JSON.stringify(rows)}`);
  for (const op of ['roll', 'seat.rename', 'seat.remove', 'join.rotate', 'join.close'])
    assert.ok(rows.some((r) => r.name === op), `server/ops.c has a row for ${op}`);
  for (const r of rows) assert.match(r.who, /^WHO_[A-Z_]+$/, `row at ${r.line}`);
});

test('every op in the command table of server/ops.c is documented in protocol/PROTOCOL.md', () => {
  const doc = documentedOps();
  const missing = tableRows()
    .filter((r) => r.who !== 'WHO_INTERNAL')
    .filter((r) => !doc.has(r.name))
    .map((r) => `${r.name} (server/${r.line})`);
  assert.deepEqual(missing, [], 'ops without a "### `op`" heading in protocol/PROTOCOL.md');
});

test('every op the running server accepts is documented; every documented op is accepted', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const [gm] = await srv.hello(srv.gmToken);
  const [host] = await srv.hello(srv.hostToken);
  t.after(() => closeAll(gm, host));
  const rows = tableRows();
  const doc = documentedOps();
  const candidates = [...new Set([...FIXED, ...rows.map((r) => r.name), ...doc])];

  // Ask the server about each name, as the GM (campaign ops) and as the host (host ops). Empty
  // args: a known op answers ack or a bad_request about its arguments; an unknown one not_found.
  const accepted = new Map();
  for (const op of candidates) {
    const byGm = await gm.cmd(op, {});
    const byHost = await host.cmd(op, {});
    accepted.set(op, { gm: known(byGm), host: known(byHost), replies: [byGm.raw, byHost.raw] });
  }
  // the probe can tell: a name that is no op is refused by both
  for (const bogus of ['no.such.op', 'roll.nope', 'campaign.delete']) {
    assert.equal(known(await gm.cmd(bogus, {})), false, `${bogus} (GM)`);
    assert.equal(known(await host.cmd(bogus, {})), false, `${bogus} (host)`);
  }

  const undocumented = [...accepted].filter(([op, a]) => (a.gm || a.host) && !doc.has(op)).map(([op, a]) => `${op}: ${a.replies.join(' | ')}`);
  assert.deepEqual(undocumented, [], 'ops the server accepts but protocol/PROTOCOL.md does not document');

  for (const op of FIXED) assert.ok(accepted.get(op).gm || accepted.get(op).host, `the server accepts ${op}`);
  assert.ok(accepted.get('campaign.create').host, 'campaign.create is a host op');
  assert.match(accepted.get('campaign.create').replies[0], /"code":"forbidden"/, 'a seat asking for campaign.create is forbidden');
  assert.ok(accepted.get('roll').gm && !accepted.get('roll').host, 'roll is a campaign op');

  const notAccepted = [...doc].filter((op) => !(accepted.get(op).gm || accepted.get(op).host));
  assert.deepEqual(notAccepted, [], 'documented ops the server does not know');

  // internal rows of the table are not callable from the wire (so they need no docs)
  for (const r of rows.filter((x) => x.who === 'WHO_INTERNAL')) {
    const a = accepted.get(r.name);
    assert.equal(a.gm || a.host, false, `internal op ${r.name} must not be callable: ${a.replies.join(' | ')}`);
  }
});
