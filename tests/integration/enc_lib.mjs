// Shared helpers for the encounter scenarios (issue 5): a campaign of a system with its GM and
// players seated, the sample characters of rules/<system>/samples, and the secrecy watch that
// every scenario runs (no byte of /gm reaches a player's socket).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { closeAll, repoRoot } from './lib.mjs';

/** The sample sheet rules/<system>/samples/<name>.json (the sheet itself; its name is sheet.name). */
export function sample(system, name) {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, 'rules', system, 'samples', `${name}.json`), 'utf8'));
}

/**
 * A new campaign of `system` on srv with its GM and the named players seated. Returns
 * {gm, players: [{client, token, seat, name}], campaignId}. Closes everything after the test.
 */
export async function campaignOf(srv, t, system, names = ['Ann', 'Bob']) {
  const [host] = await srv.hello(srv.hostToken);
  const made = await host.cmd('campaign.create', { name: `A ${system} fight`, system });
  assert.equal(made.t, 'ack', made.raw);
  const [gm, gw] = await srv.hello(made.result.gm_token);
  assert.equal(gw.campaign.system, system);
  const players = [];
  for (const n of names) {
    const c = await srv.connect({ name: n });
    const j = await c.join(made.result.join_code, n);
    assert.ok(j.joined, JSON.stringify(j));
    players.push({ client: c, token: j.joined.token, seat: j.joined.seat, name: n });
  }
  t.after(() => {
    assertNoLineRefs([gm, ...players]); // every scenario of every system (issue 15)
    return closeAll(host, gm, players.map((p) => p.client));
  });
  return { gm, players, campaignId: gw.campaign.id, gmToken: made.result.gm_token };
}

/** Sends op and asserts an ack; returns the result. */
export async function ok(client, op, args) {
  const r = await client.cmd(op, args);
  assert.equal(r.t, 'ack', `${op} ${JSON.stringify(args)}: ${r.raw}`);
  return r.result;
}

/**
 * Sends op and asserts a nack with `code` (and a message matching `re` when given), and that the
 * state did not change (the seq stays, no diff follows). Returns {code, message}.
 */
export async function refused(client, op, args, code, re) {
  await client.ping(); // every diff of earlier commands has arrived
  const before = client.seq;
  const r = await client.cmd(op, args);
  assert.equal(r.t, 'nack', `${op} ${JSON.stringify(args)} should be refused: ${r.raw}`);
  assert.equal(r.code, code, r.raw);
  assert.doesNotMatch(r.message, LINE_REF, 'a rulebook line reference belongs in the nack\'s cite');
  if (re) assert.match(r.message, re);
  await client.ping();
  assert.equal(client.seq, before, `${op} refused but the state moved`);
  return { code: r.code, message: r.message, cite: r.cite };
}

/** A rulebook line reference ("000:37", "(001:294-296)"): never in text a person reads. */
export const LINE_REF = /(?<![\w])\d{3}:\d+/;

/**
 * Asserts that no refusal, error or log line any of the clients received carries a rulebook line
 * reference in its text (issue 15: they travel in `cite`): nack and error messages, and the text
 * of every log entry in a welcome state, a diff or an ack's result.
 */
export function assertNoLineRefs(clients) {
  const texts = (v, out) => {
    if (Array.isArray(v)) for (const x of v) texts(x, out);
    else if (v && typeof v === 'object') {
      if (typeof v.text === 'string' && typeof v.kind === 'string') out.push(v.text);
      for (const x of Object.values(v)) texts(x, out);
    }
    return out;
  };
  for (const p of clients) {
    const c = p.client || p;
    for (const m of c.msgs) {
      if ((m.t === 'nack' || m.t === 'error') && typeof m.message === 'string')
        assert.doesNotMatch(m.message, LINE_REF, `${c.name} was refused with a line reference: ${m.raw}`);
      for (const t of texts(m.state ?? m.ops ?? m.result ?? null, []))
        assert.doesNotMatch(t, LINE_REF, `${c.name} read a log line with a line reference: ${t}`);
    }
  }
}

/** Character ids by name: creates each sample for its seat (or an NPC) and returns the ids. */
export async function makeChar(client, { name, sheet, seat, npc }) {
  const args = { name, sheet };
  if (seat) args.seat = seat;
  if (npc) args.npc = true;
  return (await ok(client, 'char.create', args)).id;
}

/**
 * Asserts that no frame any of the players received holds GM-only data: no "/gm" path in a
 * diff, no "gm" key in a state or an ack's result, and none of the `secrets` strings anywhere.
 */
export function assertNoGmBytes(players, secrets = []) {
  for (const p of players) {
    const c = p.client || p;
    for (const raw of c.frames) {
      const m = JSON.parse(raw);
      if (m.t === 'diff') for (const op of m.ops) assert.ok(!op.path.startsWith('/gm'), `${c.name} got ${op.path}`);
      if (m.t === 'welcome' && m.state) assert.equal(m.state.gm, undefined, `${c.name} got /gm in a state`);
      if (m.t === 'ack') assert.ok(!JSON.stringify(m.result ?? {}).includes('"gm":'), `${c.name} got gm data in an ack`);
      for (const s of secrets) assert.ok(!raw.includes(s), `${c.name} got the secret ${s}`);
    }
  }
}

/** The live encounter as the GM sees it, after every client caught up with it. */
export async function settle(gm, players) {
  // A player gets no diff for an event that changes nothing it may see, so its seq need not reach
  // the GM's: a pong on its own socket comes after every diff sent to it before.
  await gm.ping();
  for (const p of players) await (p.client || p).ping();
  return gm.state;
}
