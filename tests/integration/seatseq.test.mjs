// A seq per player seat (issue 29; PROTOCOL.md "Two counts, and a seq per seat"): a player's seq
// counts exactly the diffs its seat receives, so what is told to one seat alone (a whisper, a
// handout, a private change) moves that seat's seq and nobody else's; every diff a seat receives
// is its seq + 1, live, on resume and after kill -9; a seat resumes from its own seq (another
// seat's number is not a point it saw); a player's ack says `entry` (the number its log entries
// and messages carry) when that is not its seq.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, table, closeAll } from './lib.mjs';

/** The seqs of the diffs c received after message index `from`. */
const diffSeqs = (c, from = 0) => c.msgs.slice(from).filter((m) => m.t === 'diff').map((m) => m.seq);

/** Each diff's seq is the one before + 1, starting after `start`. */
function assertConsecutive(seqs, start, what) {
  seqs.forEach((s, i) => assert.equal(s, start + i + 1, `${what}: diff ${i} has seq ${s} (diffs ${seqs.join(',')} after ${start})`));
}

test("each seat's seq counts its own diffs; a seat resumes from its own seq, also after kill -9", async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann', 'Bob']);
  const [ann, bob] = players.map((p) => p.client);
  const seat = Object.fromEntries(players.map((p) => [p.name, p.seat]));
  const token = Object.fromEntries(players.map((p) => [p.name, p.token]));
  const open = [gm, ann, bob];
  t.after(() => closeAll(open));
  const settle = async () => {
    for (const c of open) await c.ping();
  };
  await settle();
  const at = { ann: [ann.seq, ann.msgs.length], bob: [bob.seq, bob.msgs.length] };
  assert.equal(ann.seq, bob.seq, 'nobody was told anything alone yet: one seq');

  const ok = async (c, op, args) => {
    const r = await c.cmd(op, args);
    assert.equal(r.t, 'ack', r.raw);
    return r;
  };
  // Ann alone: a whisper to the GM, the GM's whisper, a handout (Bob: nothing)
  const w1 = await ok(ann, 'chat.send', { text: 'meet me behind the inn', to: 'gm' });
  assert.equal(w1.entry, undefined, 'her first private event: its number is her seq');
  await ok(gm, 'chat.send', { text: 'the duke lies', to: seat.Ann });
  const h = (await ok(gm, 'handout.add', { title: 'Letter', text: 'for Ann' })).result.id;
  await ok(gm, 'handout.show', { id: h, to: [seat.Ann] });
  await settle();
  assert.equal(diffSeqs(bob, at.bob[1]).length, 0, 'Bob received nothing');
  assert.equal(bob.seq, at.bob[0], "Bob's seq did not move");
  assertConsecutive(diffSeqs(ann, at.ann[1]), at.ann[0], 'Ann');
  assert.equal(ann.seq, at.ann[0] + 3, "Ann's seq counts her three diffs");
  // then public talk: both receive it, each under its own seq; Ann's ack says its entry
  const pub = await ok(ann, 'chat.send', { text: 'who goes first?' });
  await settle();
  assert.equal(pub.seq, ann.seq);
  assert.equal(pub.entry, bob.seq, 'the public number is what Bob counts (he was told nothing alone)');
  assert.equal(pub.result.id, `m${pub.entry}`, "a public message's id is its public number");
  assert.equal(ann.seq, bob.seq + 3);
  assertConsecutive(diffSeqs(ann, at.ann[1]), at.ann[0], 'Ann');
  assertConsecutive(diffSeqs(bob, at.bob[1]), at.bob[0], 'Bob');

  // both leave; meanwhile Bob is whispered, Ann is shown another handout, the table talks
  const replica = { ann: { state: structuredClone(ann.state), seq: ann.seq, history: ann.history }, bob: { state: structuredClone(bob.state), seq: bob.seq, history: bob.history } };
  await closeAll(ann, bob);
  open.splice(1);
  await ok(gm, 'chat.send', { text: 'psst', to: seat.Bob });
  await ok(gm, 'chat.send', { text: 'Night falls.' });
  const h2 = (await ok(gm, 'handout.add', { title: 'Map', text: 'for Ann too' })).result.id;
  await ok(gm, 'handout.show', { id: h2, to: [seat.Ann] });
  await ok(gm, 'roll', { expr: '1d20', secret: true });

  const fresh = {};
  for (const [name, tok] of [['ann', token.Ann], ['bob', token.Bob]]) {
    const [c, w] = await srv.hello(tok);
    open.push(c);
    fresh[name] = w;
  }
  // Ann's seq is not a point Bob's seat reached (his is behind): he gets a fresh state
  assert.ok(fresh.ann.seq > fresh.bob.seq, `Ann ${fresh.ann.seq}, Bob ${fresh.bob.seq}`);
  const [bobX, wX] = await srv.hello(token.Bob, fresh.ann.seq);
  open.push(bobX);
  assert.equal(wX.resume, undefined, `another seat's seq ahead of his: a fresh state, ${wX.raw}`);
  assert.deepEqual(wX.state, fresh.bob.state);

  for (const name of ['ann', 'bob']) {
    const Name = name[0].toUpperCase() + name.slice(1);
    const [c, w] = await srv.resume(token[Name], replica[name], { name: `${Name} resumed` });
    open.push(c);
    assert.equal(w.resume, true, w.raw);
    assert.equal(w.seq, fresh[name].seq, `${Name}'s welcome says her seat's seq`);
    await c.ping();
    const seqs = diffSeqs(c);
    assertConsecutive(seqs, replica[name].seq, `${Name} resumed`);
    assert.equal(seqs.at(-1), w.seq, `${Name}'s resume ends at her seq`);
    assert.deepEqual(c.state, fresh[name].state, `${Name}: resumed == fresh`);
  }
  assert.equal(fresh.ann.seq, replica.ann.seq + 2, 'Ann: the public message and her handout');
  assert.equal(fresh.bob.seq, replica.bob.seq + 2, 'Bob: his whisper and the public message');

  // kill -9: the counts are in the state, rebuilt from the log; the same resumes
  await srv.kill('SIGKILL');
  await srv.restart();
  for (const name of ['ann', 'bob']) {
    const Name = name[0].toUpperCase() + name.slice(1);
    const [c, w] = await srv.resume(token[Name], replica[name], { name: `${Name} after restart` });
    open.push(c);
    assert.equal(w.resume, true, w.raw);
    assert.equal(w.seq, fresh[name].seq);
    await c.ping();
    assertConsecutive(diffSeqs(c), replica[name].seq, `${Name} after restart`);
    assert.deepEqual(c.state, fresh[name].state, `${Name} after restart: resumed == fresh`);
  }

  // more events after those resumes (the tail the resumes shared is read again): the same
  // replicas resume to the new state
  const [gm2] = await srv.hello(srv.gmToken);
  open.push(gm2);
  await ok(gm2, 'chat.send', { text: 'psst again', to: seat.Bob });
  await ok(gm2, 'chat.send', { text: 'Dawn.' });
  for (const name of ['ann', 'bob']) {
    const Name = name[0].toUpperCase() + name.slice(1);
    const [f, fw] = await srv.hello(token[Name]);
    open.push(f);
    const [c, w] = await srv.resume(token[Name], replica[name], { name: `${Name} after more` });
    open.push(c);
    assert.equal(w.resume, true, w.raw);
    assert.equal(w.seq, fw.seq);
    await c.ping();
    assertConsecutive(diffSeqs(c), replica[name].seq, `${Name} after more`);
    assert.deepEqual(c.state, fw.state, `${Name} after more: resumed == fresh`);
  }
  assert.equal(fresh.bob.seq + 2, (await srv.hello(token.Bob).then(([c, w]) => (open.push(c), w))).seq, 'Bob: his whisper and the public message');
});
