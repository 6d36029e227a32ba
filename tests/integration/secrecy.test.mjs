// The GM's secrets never reach a player socket: not a secret roll (checked by its unusual
// expression, its dice and its total's exact JSON), not /gm, not the join code — in any frame
// (welcome, diff, presence, ack, nack, error), live, on resume, on a fresh welcome, and after a
// server restart. PROTOCOL.md "The state document"; DESIGN.md "State and visibility".

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, table, closeAll } from './lib.mjs';

const SECRET_EXPR = '7d7+77'; // total 84..126; players only roll d4s (total ≤ 4) and GMs' public rolls are 1d2

/** Everything a player must never receive, built up as the test goes. */
class Secrets {
  constructor() {
    this.strings = new Set([SECRET_EXPR, '"sides":7', '"secret":true', '"/gm', '"join":']);
  }
  addRoll(ack) {
    assert.equal(ack.t, 'ack', ack.raw);
    assert.equal(ack.result.secret, true);
    assert.equal(ack.result.expr, SECRET_EXPR);
    this.strings.add(`"total":${ack.result.total}`);
    this.strings.add(`"subtotal":${ack.result.terms[0].subtotal}`);
  }
  addCode(code) {
    this.strings.add(code);
    this.strings.add(code.replace('-', ''));
  }
}

/** Asserts that no frame a player client received holds a secret, raw or structurally. */
function assertClean(client, secrets, label) {
  assert.ok(client.frames.length > 0, `${label}: received frames`);
  const seat = client.seat?.id;
  client.frames.forEach((raw, i) => {
    for (const s of secrets.strings)
      assert.ok(!raw.includes(s), `${label}: frame #${i} holds the secret ${JSON.stringify(s)}:\n${raw}`);
    const m = client.msgs[i];
    if (m.t === 'welcome' && m.state) {
      assert.equal(m.state.gm, undefined, `${label}: welcome state has /gm`);
      for (const k of Object.keys(m.state.private || {})) assert.equal(k, seat, `${label}: another seat's /private`);
    }
    if (m.t === 'diff') {
      for (const op of m.ops) {
        for (const p of [op.path, op.from].filter((x) => x !== undefined)) {
          assert.ok(p !== '' && !/^\/gm(\/|$)/.test(p), `${label}: diff ${m.seq} touches ${p}`);
          const priv = /^\/private\/([^/]+)/.exec(p);
          if (priv) assert.equal(priv[1], seat, `${label}: diff ${m.seq} touches ${p}`);
        }
      }
    }
  });
  if (client.state) assert.equal(client.state.gm, undefined, `${label}: the replica has /gm`);
}

test("the GM's secret roll and the join code never reach a player socket (live, resume, fresh, restart)", async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const secrets = new Secrets();
  secrets.addCode(srv.joinCode);
  const { gm, players } = await table(srv, ['Ann', 'Bob']);
  const [ann, bob] = players;
  const open = [gm, ann.client, bob.client];
  t.after(() => closeAll(open));

  // live: one secret roll, surrounded by public ones
  const a1 = await ann.client.cmd('roll', { expr: '1d4' });
  const s1 = await gm.cmd('roll', { expr: SECRET_EXPR, secret: true });
  secrets.addRoll(s1);
  await bob.client.cmd('roll', { expr: '1d4' });
  await gm.cmd('roll', { expr: '1d2' });
  const s2 = await gm.cmd('roll', { expr: SECRET_EXPR, secret: true });
  secrets.addRoll(s2);
  await gm.waitSeq(s2.seq);
  for (const c of open) await c.ping(); // a pong comes after every diff sent before it

  // the GM saw it all: in the ack, the diff and /gm/log
  assert.ok(gm.frames.some((f) => f.startsWith('{"t":"diff"') && f.includes(SECRET_EXPR) && f.includes(`"total":${s1.result.total}`)));
  assert.deepEqual(gm.state.gm.log.map((e) => e.seq), [s1.entry, s2.entry]);
  assert.equal(gm.state.gm.log[0].roll.total, s1.result.total);
  assert.equal(gm.state.log.length, 3);
  // players: no frame at all for a secret event (an empty diff would tell the table when the GM
  // did something secret: issue 11), and their seqs do not even count it (issue 27 item 11: a
  // player's seq counts only what players see); the public log is the same
  for (const p of [ann.client, bob.client]) {
    const seqs = p.diffSeqs.filter((q) => q >= a1.seq);
    assert.deepEqual(seqs, [a1.seq, a1.seq + 1, a1.seq + 2], `${p.name}: the public diffs only, numbered without a gap`);
    assert.deepEqual(p.state.log, gm.state.log);
    assert.deepEqual(p.gaps, []);
    assertClean(p, secrets, `${p.name} live`);
  }

  // a player's secret roll is forbidden and changes nothing
  const seqBefore = (await srv.gmView()).seq;
  const forb = await ann.client.cmd('roll', { expr: '1d4', secret: true });
  assert.equal(forb.t, 'nack');
  assert.equal(forb.code, 'forbidden', forb.raw);
  assert.equal((await srv.gmView()).seq, seqBefore, "a player's secret roll wrote nothing");
  await gm.ping(1);
  assert.equal(gm.seq, seqBefore, 'no diff was sent for it');

  // the GM rotates the join code: the new code is a secret too
  const rot = await gm.cmd('join.rotate', {});
  secrets.addCode(rot.result.join_code);

  // Ann leaves; meanwhile another secret roll; she resumes from her last seq
  await ann.client.ping(); // the new join code sends her nothing
  const annLast = ann.client.seq;
  await ann.client.close();
  const s3 = await gm.cmd('roll', { expr: SECRET_EXPR, secret: true });
  secrets.addRoll(s3);
  await bob.client.cmd('roll', { expr: '1d4' });
  assert.equal(ann.client.seq, annLast);
  const [annR, wR] = await srv.resume(ann.token, ann.client, { name: 'Ann resumed' });
  open.push(annR);
  assert.equal(wR.resume, true, wR.raw);
  await annR.ping(); // the missed diffs she may see came before the pong
  assertClean(annR, secrets, 'Ann resumed');

  // Bob: a fresh welcome (no last_seq), and a hello from 0: a seat never resumes from before it
  // existed (issue 27 item 10), so that is a fresh state too
  const [bobF, wF] = await srv.hello(bob.token);
  open.push(bobF);
  assert.ok(wF.state, 'fresh state');
  assertClean(bobF, secrets, 'Bob fresh');
  const [bobZ, wZ] = await srv.hello(bob.token, 0);
  open.push(bobZ);
  assert.equal(wZ.resume, undefined, wZ.raw);
  await bobZ.ping();
  assertClean(bobZ, secrets, 'Bob resumed from 0');
  assert.deepEqual(bobZ.state, wF.state, 'resume from 0 == fresh state');

  // a player who joins late gets a clean welcome
  const cy = await srv.connect({ name: 'Cy' });
  open.push(cy);
  const j = await cy.join(rot.result.join_code, 'Cy');
  assert.ok(j.joined, JSON.stringify(j));
  assertClean(cy, secrets, 'Cy late joiner');

  // restart (kill -9): resume from the event log and fresh states stay clean; a new secret roll too
  const lastBeforeRestart = (await srv.gmView()).state.gm.player_seq; // a player's seq
  await srv.kill('SIGKILL');
  for (const c of open) await c.waitClosed();
  await srv.restart();
  secrets.addCode(srv.joinCode); // printed again at start (the rotated one)
  const [gm2] = await srv.hello(srv.gmToken);
  open.push(gm2);
  const [annA, wA] = await srv.resume(ann.token, annR, { name: 'Ann after restart (resume)' });
  open.push(annA);
  assert.equal(wA.resume, true, wA.raw);
  assert.equal(wA.seq, lastBeforeRestart);
  const [bobA, wB] = await srv.hello(bob.token);
  bobA.name = 'Bob after restart (fresh)';
  const [annB, wAB] = await srv.resume(ann.token, ann.client, { name: 'Ann after restart (resume from before the first leave)' });
  open.push(annB);
  assert.equal(wAB.resume, true, wAB.raw);
  await annB.ping();
  assertClean(annB, secrets, annB.name);
  open.push(bobA);
  assert.ok(wB.state);
  const s4 = await gm2.cmd('roll', { expr: SECRET_EXPR, secret: true });
  secrets.addRoll(s4);
  const pub = await bobA.cmd('roll', { expr: '1d4' });
  for (const c of [annA, bobA]) await c.waitSeq(pub.seq);
  await gm2.ping();
  assertClean(annA, secrets, 'Ann after restart');
  assertClean(bobA, secrets, 'Bob after restart');
  assert.equal(gm2.state.gm.log.length, 4, 'the GM still has all 4 secret rolls');
  assert.ok(gm2.frames.join('').includes(`"total":${s4.result.total}`));
  // the player replicas equal fresh welcomes
  for (const [c, token] of [[annA, ann.token], [bobA, bob.token]]) {
    const [f, w] = await srv.hello(token);
    assertClean(f, secrets, `${c.name} check`);
    assert.deepEqual(c.state, w.state, `${c.name}: replica == fresh`);
    await f.close();
  }

  // the whole run: every frame any player socket ever received
  for (const c of [ann.client, bob.client, annR, bobF, bobZ, cy, annA, annB, bobA]) assertClean(c, secrets, `${c.name} (final)`);
  // sanity: our secret strings are really in the GM's frames (the search can fail)
  const gmAll = [...gm.frames, ...gm2.frames].join('\n');
  for (const s of [SECRET_EXPR, '"sides":7', '"secret":true', '"/gm', '"join":', `"total":${s1.result.total}`, `"total":${s4.result.total}`, rot.result.join_code])
    assert.ok(gmAll.includes(s), `GM frames include ${s}`);
});

test('a player cannot read /gm through any op: errors and nacks quote no secret', async (t) => {
  const srv = await startServer(t);
  const secrets = new Secrets();
  secrets.addCode(srv.joinCode);
  const { gm, players } = await table(srv, ['Ann']);
  const ann = players[0].client;
  t.after(() => closeAll(gm, ann));
  secrets.addRoll(await gm.cmd('roll', { expr: SECRET_EXPR, secret: true }));
  // GM-only ops, ops naming /gm things, and unknown ops: every refusal is clean
  const tries = [
    ['join.rotate', {}],
    ['join.close', {}],
    ['seat.remove', { seat: 'gm' }],
    ['seat.rename', { seat: 'gm', name: 'x' }],
    ['campaign.list', {}],
    ['campaign.create', { name: 'x', system: 'generic' }],
    ['roll', { expr: SECRET_EXPR, secret: true }],
    ['gm.log', {}],
  ];
  for (const [op, args] of tries) {
    const r = await ann.cmd(op, args);
    assert.equal(r.t, 'nack', `${op}: ${r.raw}`);
  }
  const secretTry = ann.of('nack').at(-2);
  assert.equal(secretTry.code, 'forbidden', secretTry.raw);
  assert.deepEqual(Object.keys(ann.state).sort(), ['campaign', 'log', 'next_seat', 'private', 'seats']);
  secrets.strings.delete(SECRET_EXPR); // the player typed it itself: an echo would be no leak
  assertClean(ann, secrets, 'Ann');
});
