// Handouts (PROTOCOL.md "Handouts", issue 29 item 2): the GM adds one — words and a small image —
// shows it to one seat, then to everyone, hides it, deletes it. Each step reaches exactly the
// seats it is shown to, checked on the bytes each socket received (a seat it is not shown to gets
// no frame at all); a refused handout stores nothing; handouts outlive a kill -9.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, table, closeAll } from './lib.mjs';

export const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

const bytesSince = (c, from) => c.frames.slice(from).join('\n');

test('a handout reaches exactly the seats it is shown to, on the wire', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann', 'Bob']);
  const [ann, bob] = players.map((p) => p.client);
  const seat = Object.fromEntries(players.map((p) => [p.name, p.seat]));
  t.after(() => closeAll(gm, ann, bob));
  const everyone = { gm, ann, bob };

  // one step: what each socket received while it ran, and which saw the marker
  async function step(op, args, marker) {
    const marks = Object.fromEntries(Object.entries(everyone).map(([k, c]) => [k, c.frames.length]));
    const r = await gm.cmd(op, args);
    assert.equal(r.t, 'ack', r.raw);
    for (const c of Object.values(everyone)) await c.ping();
    const got = {};
    for (const [k, c] of Object.entries(everyone)) {
      const frames = c.frames.slice(marks[k]).filter((f) => f.startsWith('{"t":"diff"'));
      got[k] = { frames: frames.length, marker: bytesSince(c, marks[k]).includes(marker) };
    }
    return { r, got };
  }

  for (const c of Object.values(everyone)) await c.ping(); // every join has reached every socket
  const add = await step('handout.add', { title: 'The map ZZ-TITLE', text: 'X marks ZZ-WORDS', image: PNG }, 'ZZ-WORDS');
  const id = add.r.result.id;
  assert.match(id, /^h\d+$/);
  assert.deepEqual(add.got.ann, { frames: 0, marker: false }, 'an unshown handout sends Ann no diff');
  assert.deepEqual(add.got.bob, { frames: 0, marker: false });
  assert.equal(add.got.gm.marker, true);
  assert.equal(gm.state.gm.handouts[id].image, PNG);

  const toBob = await step('handout.show', { id, to: [seat.Bob] }, 'ZZ-WORDS');
  const key = toBob.r.result.key; // the readers' id of the handout, never the GM's
  // a key of its readers: the public count of the show and the seats it is shown to (issue 29:
  // "s<seq>" alone would be the next public key too, or move with what others are shown)
  assert.match(key, new RegExp(`^s\\d+-${seat.Bob}-1$`));
  assert.deepEqual(toBob.got.ann, { frames: 0, marker: false }, 'shown to Bob: Ann gets no frame');
  assert.equal(toBob.got.bob.marker, true);
  assert.deepEqual(bob.state.private[seat.Bob].handouts[key], { id: key, title: 'The map ZZ-TITLE', text: 'X marks ZZ-WORDS', image: PNG });
  assert.deepEqual(gm.state.gm.handouts[id].to, [seat.Bob]);
  assert.ok(!bytesSince(bob, 0).includes(`"${id}"`), "the GM's id of the handout never reaches a player");

  const all = await step('handout.show', { id }, 'ZZ-WORDS');
  assert.equal(all.got.ann.marker, true);
  const key2 = all.r.result.key;
  assert.match(key2, /^s\d+$/, "shown to everyone: the public count alone");
  assert.equal(ann.state.handouts[key2].title, 'The map ZZ-TITLE');
  assert.equal(bob.state.private[seat.Bob].handouts[key], undefined, "Bob's own copy went: he reads the table's");
  assert.ok(bob.state.handouts[key2]);

  const hide = await step('handout.hide', { id }, 'ZZ-WORDS');
  assert.equal(hide.got.ann.marker, false);
  assert.deepEqual(ann.state.handouts, {});
  assert.deepEqual(bob.state.handouts, {});
  assert.equal(gm.state.gm.handouts[id].to, undefined);
  assert.ok(gm.state.gm.handouts[id], 'the GM keeps it');

  // shown again to both by name, then deleted: gone everywhere
  const both = await step('handout.show', { id, to: [seat.Ann, seat.Bob, seat.Ann] }, 'ZZ-WORDS');
  // each reader's copy has a key of its own that names only that reader (issue 29: a shared key
  // naming both would tell Ann who else was shown it, which is the GM's `to`)
  const keys3 = both.r.result.keys;
  assert.deepEqual(Object.keys(keys3).sort(), [seat.Ann, seat.Bob].sort());
  for (const [who, c] of [['Ann', ann], ['Bob', bob]]) {
    assert.match(keys3[seat[who]], new RegExp(`^s\\d+-${seat[who]}-1$`));
    assert.ok(c.state.private[seat[who]].handouts[keys3[seat[who]]]);
  }
  assert.ok(!bytesSince(ann, 0).includes(`"${keys3[seat.Bob]}"`), "Ann never reads Bob's key");
  await step('handout.delete', { id }, 'ZZ-WORDS');
  assert.deepEqual(ann.state.private[seat.Ann].handouts, {});
  assert.equal(gm.state.gm.handouts[id], undefined);
});

test('a refused handout stores nothing; players cannot add or show one', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann']);
  const ann = players[0].client;
  t.after(() => closeAll(gm, ann));
  const seq = (await srv.gmView()).seq;
  const refused = async (c, op, args, code, re) => {
    const r = await c.cmd(op, args);
    assert.equal(r.t, 'nack', r.raw);
    assert.equal(r.code, code, r.raw);
    if (re) assert.match(r.message, re);
  };
  await refused(gm, 'handout.add', { title: 'x', image: 'data:image/svg+xml;base64,PHN2Zz4=' }, 'bad_request', /PNG, JPEG, WebP or GIF/);
  await refused(gm, 'handout.add', { title: 'x', image: 'data:image/png;base64,@@@@' }, 'bad_request', /damaged/);
  await refused(gm, 'handout.add', { title: 'x', image: `data:image/png;base64,${'A'.repeat(60000)}` }, 'bad_request');
  await refused(gm, 'handout.add', { title: '   ' }, 'bad_request');
  await refused(ann, 'handout.add', { title: 'mine' }, 'forbidden');
  await refused(gm, 'handout.show', { id: 'h999' }, 'not_found');
  await refused(gm, 'handout.hide', { id: 'h999' }, 'not_found');
  assert.equal((await srv.gmView()).seq, seq, 'nothing was stored');
  const id = (await gm.cmd('handout.add', { title: 'Letter' })).result.id;
  const id2 = (await gm.cmd('handout.add', { title: 'Second letter' })).result.id;
  assert.notEqual(id, id2, 'two handouts added in a row are two handouts');
  assert.equal(Object.keys((await srv.gmView()).state.gm.handouts).length, 2);
  await refused(gm, 'handout.show', { id, to: ['p99'] }, 'not_found', /nobody sits/);
  await refused(gm, 'handout.show', { id, to: ['gm'] }, 'not_found');
  await refused(gm, 'handout.show', { id, to: [] }, 'bad_request');
  await refused(ann, 'handout.show', { id }, 'forbidden');
});

test('handouts outlive kill -9, shown as they were', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann']);
  const id = (await gm.cmd('handout.add', { title: 'Wanted poster', text: 'Reward: 50 crowns', image: PNG })).result.id;
  const shown = await gm.cmd('handout.show', { id, to: [players[0].seat] });
  assert.equal(shown.t, 'ack');
  const key = shown.result.key;
  await closeAll(gm, players[0].client);
  await srv.restart(); // SIGKILL, then start on the same database
  const view = await srv.gmView();
  assert.deepEqual(view.state.gm.handouts[id].to, [players[0].seat]);
  const [ann, w] = await srv.hello(players[0].token);
  t.after(() => closeAll(ann));
  assert.equal(w.state.private[players[0].seat].handouts[key].text, 'Reward: 50 crowns');
  assert.equal(w.state.private[players[0].seat].handouts[key].image, PNG);
  assert.equal(w.state.gm, undefined);
});
