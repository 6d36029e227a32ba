// Table talk (PROTOCOL.md `chat.send`, `chat.delete`): every audience of a message — everyone, the
// GM, a whisper, the GM's whisper, a player's /gmroll — reaches exactly its readers, checked on the
// bytes each socket received; rolls in a message are the server's; a refused message stores
// nothing; messages outlive a kill -9; the GM deletes every copy of one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, table, closeAll } from './lib.mjs';

/** Every frame the client received after index `from`, joined. */
const bytesSince = (c, from) => c.frames.slice(from).join('\n');

/** The chat messages a replica holds (all its lists), by id; of two copies the one that is not
 * `hidden` (the GM reads a player's /gmroll in full). */
function messages(state) {
  const lists = [state.chat, state.gm?.chat, ...Object.values(state.private || {}).map((p) => p.chat)];
  const out = new Map();
  for (const l of lists) for (const m of l || []) if (!out.has(m.id) || out.get(m.id).hidden) out.set(m.id, m);
  return out;
}

test('each audience of a message reaches exactly its readers, on the wire', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann', 'Bob', 'Cyd']);
  const [ann, bob, cyd] = players.map((p) => p.client);
  const seat = Object.fromEntries(players.map((p) => [p.name, p.seat]));
  t.after(() => closeAll(gm, ann, bob, cyd));
  const everyone = { gm, ann, bob, cyd };

  const cases = [
    // [who sends, args, marker, who may read it]
    [ann, { text: 'hello all ZZ-PUBLIC' }, 'ZZ-PUBLIC', ['gm', 'ann', 'bob', 'cyd']],
    [ann, { text: 'just you ZZ-TOGM', to: 'gm' }, 'ZZ-TOGM', ['gm', 'ann']],
    [ann, { text: '/w Bob meet me ZZ-WHISPER' }, 'ZZ-WHISPER', ['gm', 'ann', 'bob']],
    [ann, { text: 'by picker ZZ-PICKED', to: seat.Cyd }, 'ZZ-PICKED', ['gm', 'ann', 'cyd']],
    [gm, { text: '/w "cyd" the GM whispers ZZ-GMWHISPER' }, 'ZZ-GMWHISPER', ['gm', 'cyd']],
    [gm, { text: 'the GM to all ZZ-GMALL' }, 'ZZ-GMALL', ['gm', 'ann', 'bob', 'cyd']],
  ];
  for (const [from, args, marker, readers] of cases) {
    const marks = Object.fromEntries(Object.entries(everyone).map(([k, c]) => [k, c.frames.length]));
    const a = await from.cmd('chat.send', args);
    assert.equal(a.t, 'ack', a.raw);
    for (const c of Object.values(everyone)) await c.ping();
    for (const [k, c] of Object.entries(everyone)) {
      const seen = bytesSince(c, marks[k]).includes(marker);
      assert.equal(seen, readers.includes(k), `${marker}: ${k} ${seen ? 'received' : 'did not receive'} it`);
    }
  }
  // the GM sees each message once, whatever copies exist
  const gmMsgs = [...messages(gm.state).values()].map((m) => m.text);
  for (const [, , marker] of cases) assert.equal(gmMsgs.filter((x) => x.includes(marker)).length, 1);
});

test("a player's /gmroll: the GM reads the number, the player that they rolled, nobody else anything", async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann', 'Bob']);
  const [ann, bob] = players.map((p) => p.client);
  t.after(() => closeAll(gm, ann, bob));
  const marks = [gm, ann, bob].map((c) => c.frames.length);
  const a = await ann.cmd('chat.send', { text: '/gmroll 1d1000+100000' });
  assert.equal(a.t, 'ack', a.raw);
  assert.equal(a.result.hidden, true);
  assert.deepEqual(a.result.rolls, [{ expr: '1d1000+100000' }], 'the ack holds no number');
  for (const c of [gm, ann, bob]) await c.ping();
  const gmCopy = [...messages(gm.state).values()].find((m) => m.id === a.result.id && m.rolls?.[0]?.total);
  assert.ok(gmCopy, 'the GM has the roll');
  const total = String(gmCopy.rolls[0].total);
  assert.ok(bytesSince(gm, marks[0]).includes(total));
  assert.ok(!bytesSince(ann, marks[1]).includes(total), "the number is not on the roller's socket");
  assert.ok(!bytesSince(ann, marks[1]).includes('"dice"'), "no die on the roller's socket");
  assert.ok(!bytesSince(bob, marks[2]).includes('1d1000'), 'Bob receives nothing of it');
  assert.equal(messages(bob.state).size, 0);
});

test("the GM's own /gmroll: an id of its own, though it shares its seq with the next public message", async (t) => {
  // Only the GM reads it, so it does not move the player seq (PROTOCOL.md "Two counts"): the next
  // public message has the same seq, and "m<seq>" would be one id for two messages (the GM's view
  // shows one message per id). Its id is "g<campaign seq>".
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann']);
  const ann = players[0].client;
  t.after(() => closeAll(gm, ann));
  const g = await gm.cmd('chat.send', { text: '/gmroll 1d20+2' });
  assert.equal(g.t, 'ack', g.raw);
  const pub = await gm.cmd('chat.send', { text: 'Night falls.' });
  assert.equal(pub.t, 'ack', pub.raw);
  assert.equal(g.result.seq, pub.result.seq, 'the /gmroll does not count in the player seq');
  assert.equal(g.result.id, `g${g.seq}`, 'its id names the campaign seq (the GM ack\'s seq)');
  assert.equal(pub.result.id, `m${pub.result.seq}`);
  for (const c of [gm, ann]) await c.ping();
  const mine = messages(gm.state);
  assert.ok(mine.has(g.result.id) && mine.has(pub.result.id), 'the GM holds both messages');
  assert.equal(mine.get(g.result.id).rolls.length, 1);
  assert.ok(!ann.frames.join('\n').includes(`"${g.result.id}"`), "the player receives nothing of the GM's roll");
  // deleting one leaves the other
  assert.equal((await gm.cmd('chat.delete', { id: g.result.id })).t, 'ack');
  const after = messages((await srv.gmView()).state);
  assert.ok(!after.has(g.result.id) && after.has(pub.result.id));
});

test('inline rolls and /roll are rolled by the server; a bad roll refuses the whole message', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann']);
  const ann = players[0].client;
  t.after(() => closeAll(gm, ann));
  const a = await ann.cmd('chat.send', { text: 'I hit for [[2d6+3]] and [[1d4]]' });
  assert.equal(a.t, 'ack', a.raw);
  assert.equal(a.result.text, 'I hit for [[2d6+3]] and [[1d4]]');
  assert.equal(a.result.rolls.length, 2);
  assert.equal(a.result.rolls[0].expr, '2d6+3');
  assert.ok(a.result.rolls[0].total >= 5 && a.result.rolls[0].total <= 15);
  const r = await ann.cmd('chat.send', { text: '/roll 1d20+5 [to hit]' });
  assert.equal(r.t, 'ack', r.raw);
  assert.equal(r.result.text, '');
  assert.equal(r.result.rolls[0].terms[1].label, 'to hit');

  const seq = (await srv.gmView()).seq;
  for (const [text, code, words] of [
    ['fine [[1d6]] then [[1d6!>1]]', 'bad_request', 'every face'],
    ['[[1d6', 'bad_request', 'not closed'],
    ['/shout hi', 'bad_request', 'unknown command'],
    ['/w Nobody hi', 'not_found', 'nobody at the table'],
    ['/w Ann talking to myself', 'bad_request', 'someone else'],
    ['   ', 'bad_request', 'empty'],
    ['x'.repeat(2001), 'bad_request', 'text'],
  ]) {
    const n = await ann.cmd('chat.send', { text });
    assert.equal(n.t, 'nack', `${text.slice(0, 20)}: ${n.raw}`);
    assert.equal(n.code, code);
    assert.ok(n.message.includes(words), n.message);
  }
  assert.equal((await srv.gmView()).seq, seq, 'no refused message stored anything');
});

test('messages outlive kill -9, and the GM deletes every copy of one', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  let { gm, players } = await table(srv, ['Ann', 'Bob']);
  const annToken = players[0].token;
  const w = await players[0].client.cmd('chat.send', { text: '/w Bob secret plan' });
  const pub = await players[0].client.cmd('chat.send', { text: 'hello' });
  await closeAll(gm, ...players.map((p) => p.client));
  await srv.restart(); // SIGKILL, then start on the same database
  const view = await srv.gmView();
  assert.ok(messages(view.state).has(w.result.id) && messages(view.state).has(pub.result.id));
  const [gm2] = await srv.hello(srv.gmToken);
  const [ann2] = await srv.hello(annToken);
  t.after(() => closeAll(gm2, ann2));
  const nope = await ann2.cmd('chat.delete', { id: w.result.id });
  assert.equal(nope.code, 'forbidden');
  const d = await gm2.cmd('chat.delete', { id: w.result.id });
  assert.equal(d.t, 'ack', d.raw);
  const after = await srv.gmView();
  assert.ok(!messages(after.state).has(w.result.id), 'both copies of the whisper are gone');
  assert.ok(messages(after.state).has(pub.result.id));
  assert.equal((await gm2.cmd('chat.delete', { id: w.result.id })).code, 'not_found');
});
