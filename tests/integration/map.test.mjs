// The scene map (PROTOCOL.md "The scene map", issue 30 first phase): the GM sets a map with a
// picture for a fight and shows it; tokens for the fighters and markers; a player moves their own
// token. Checked on the bytes each socket received: a move is one small diff; the picture never
// rides in the state a player receives and reaches only a seat of that scene (map.image); a hidden
// token stays off a player's socket until shown; refusals store nothing; a move survives kill -9
// and replay rebuilds the live state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, makeChar } from './enc_lib.mjs';

export const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

async function fight(t) {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players, campaignId, gmToken } = await campaignOf(srv, t, 'heimr', ['Ann', 'Bob']);
  const [ann, bob] = players.map((p) => p.client);
  const cAnn = await makeChar(ann, { name: 'Astrid Ironhand', sheet: sample('heimr', 'astrid_ironhand') });
  const cBob = await makeChar(bob, { name: 'Old Gunnar', sheet: sample('heimr', 'old_gunnar') });
  const ok = async (c, op, args) => {
    const r = await c.cmd(op, args);
    assert.equal(r.t, 'ack', `${op}: ${r.raw}`);
    return r.result;
  };
  await ok(gm, 'enc.start', { module: 'heimr.combat' });
  const A = (await ok(gm, 'enc.add', { char: cAnn })).id;
  await ok(gm, 'enc.start', { module: 'heimr.combat', scene: 'new' }); // Bob fights elsewhere
  const B = (await ok(gm, 'enc.add', { scene: 's2', char: cBob })).id;
  return { srv, gm, ann, bob, players, A, B, ok, campaignId, gmToken };
}

const settle = async (...cs) => { for (const c of cs) await c.ping(); };

test('a map reaches its scene: the picture only by map.image to its seats, a move is one small diff, hidden tokens stay off players', async (t) => {
  const { gm, ann, bob, players, A, B, ok } = await fight(t);
  const sa = players[0].seat; // no turn runs yet: Ann moves her fighter's token (`by`)
  const set = await ok(gm, 'map.set', { image: PNG, w: 600, h: 400, size: 50, x: 10, y: 5, cols: 11, rows: 7 });
  assert.deepEqual(set.grid, { size: 50, x: 10, y: 5, cols: 11, rows: 7 });
  await settle(ann, bob);
  assert.equal(ann.state.maps, undefined, 'a map not shown is the GM\'s alone');
  const key = gm.state.gm.maps.enc.key;
  assert.match(key, /^[0-9a-f]{16}$/);
  await ok(gm, 'map.token', { cid: A, x: 0, y: 0 });
  const trap = (await ok(gm, 'map.token', { label: 'ZZ-PIT-TRAP', x: 4, y: 4, hidden: true })).id;
  assert.match(trap, /^g\d+$/);
  const marks = [ann.frames.length, bob.frames.length];
  await ok(gm, 'map.show', {});
  await settle(ann, bob);
  assert.deepEqual(ann.state.maps.enc, { key, w: 600, h: 400, grid: { size: 50, x: 10, y: 5, cols: 11, rows: 7 }, tokens: { [A]: { id: A, cid: A, x: 0, y: 0, by: sa } }, next: 1 });
  for (const c of [ann, bob]) {
    const bytes = c.frames.join('\n');
    assert.ok(!bytes.includes('ZZ-PIT-TRAP'), 'the hidden trap never reached a player');
    assert.ok(!bytes.includes('base64'), 'the picture never rides in a player\'s state or diffs');
  }
  assert.ok(ann.frames.length > marks[0]);

  // the picture: once, by map.image, to a seat of that scene only
  const img = await ok(ann, 'map.image', {});
  assert.deepEqual(img, { scene: 'enc', key, image: PNG });
  const nope = await bob.cmd('map.image', { scene: 'enc' });
  assert.equal(nope.t, 'nack');
  assert.equal(nope.code, 'forbidden');
  assert.ok(!nope.raw.includes('base64'));

  // Ann moves her token: one diff of two small replaces, to every seat
  const before = [ann.frames.length, bob.frames.length, gm.frames.length];
  const mv = await ann.cmd('map.move', { id: A, x: 3, y: 2 });
  assert.equal(mv.t, 'ack', mv.raw);
  await settle(gm, ann, bob);
  const diffs = bob.frames.slice(before[1]).filter((f) => f.startsWith('{"t":"diff"'));
  assert.equal(diffs.length, 1, 'one diff');
  assert.deepEqual(JSON.parse(diffs[0]).ops, [
    { op: 'replace', path: `/maps/enc/tokens/${A}/x`, value: 3 },
    { op: 'replace', path: `/maps/enc/tokens/${A}/y`, value: 2 },
  ]);
  assert.ok(diffs[0].length < 200, `a move is small: ${diffs[0].length} bytes`);
  assert.deepEqual(ann.state.maps.enc.tokens[A], { id: A, cid: A, x: 3, y: 2, by: sa });

  // a player moves only their own token, and nothing hidden
  const seq = gm.seq;
  for (const [c, args, code] of [
    [bob, { id: A, x: 1, y: 1 }, 'forbidden'],
    [ann, { id: trap, x: 1, y: 1 }, 'not_found'],
    [ann, { id: 'g999', x: 1, y: 1 }, 'not_found'],
    [ann, { id: A, x: 11, y: 0 }, 'bad_request'],
    [ann, { id: A, x: 0, y: 7 }, 'bad_request'],
    [ann, { scene: 's2', id: B, x: 0, y: 0 }, 'not_found'],
  ]) {
    const r = await c.cmd('map.move', args);
    assert.equal(r.t, 'nack', r.raw);
    assert.equal(r.code, code, `${JSON.stringify(args)}: ${r.raw}`);
  }
  const hiddenNack = (await ann.cmd('map.move', { id: trap, x: 1, y: 1 })).raw;
  const noneNack = (await ann.cmd('map.move', { id: 'g999', x: 1, y: 1 })).raw;
  assert.equal(hiddenNack.replace(trap, 'X').replace(/"id":"[^"]*"/, ''), noneNack.replace('g999', 'X').replace(/"id":"[^"]*"/, ''), 'a hidden token is refused as one that does not exist');
  for (const [op, args] of [['map.set', { size: 50, cols: 2, rows: 2 }], ['map.token', { label: 'x', x: 0, y: 0 }], ['map.show', {}], ['map.remove', { id: A }]]) {
    const r = await ann.cmd(op, args);
    assert.equal(r.code, 'forbidden', `${op}: ${r.raw}`);
  }
  for (const [args, code] of [
    [{ size: 50, cols: 2, rows: 2, image: 'data:image/svg+xml;base64,PHN2Zz4=' }, 'bad_request'],
    [{ size: 50, cols: 2, rows: 2, image: PNG }, 'bad_request'], // a picture needs its size
    [{ size: 50, x: 50, cols: 2, rows: 2 }, 'bad_request'],
    [{ size: 50, cols: 0, rows: 2 }, 'bad_request'],
    [{ scene: 's9', size: 50, cols: 2, rows: 2 }, 'not_found'],
  ]) {
    const r = await gm.cmd('map.set', args);
    assert.equal(r.code, code, `${JSON.stringify(args)}: ${r.raw}`);
  }
  assert.equal((await gm.cmd('map.token', { cid: 'e99', x: 0, y: 0 })).code, 'not_found');
  assert.equal((await gm.cmd('map.token', { x: 0, y: 0 })).code, 'bad_request');
  assert.equal((await gm.cmd('map.show', { scene: 's2' })).code, 'not_found', 'scene s2 has no map');
  await settle(gm);
  assert.equal(gm.seq, seq, 'refusals stored nothing');

  // the GM shows the trap: now, and only now, it reaches the players, under an id of the map's own
  const shown = await ok(gm, 'map.token', { id: trap, x: 4, y: 4, hidden: false });
  assert.equal(shown.id, 'm1');
  await settle(ann, bob);
  assert.deepEqual(ann.state.maps.enc.tokens.m1, { id: 'm1', label: 'ZZ-PIT-TRAP', x: 4, y: 4 });
  assert.equal(gm.state.gm.maps.enc.tokens[trap], undefined);
  // hidden again: off the players' state; the map hidden: gone from theirs, kept by the GM
  await ok(gm, 'map.token', { id: 'm1', x: 4, y: 4, hidden: true });
  await settle(ann);
  assert.equal(ann.state.maps.enc.tokens.m1, undefined);
  await ok(gm, 'map.hide', {});
  await settle(ann);
  assert.equal(ann.state.maps.enc, undefined);
  assert.equal((await ann.cmd('map.image', {})).code, 'not_found');
  await ok(gm, 'map.show', {});
  await settle(ann);
  assert.deepEqual(ann.state.maps.enc.tokens[A], { id: A, cid: A, x: 3, y: 2, by: sa }, 'shown again as it was');
  assert.equal(players.length, 2);
});

test('a move outlives kill -9; replay rebuilds the live state; a plain grid has no picture', async (t) => {
  const { srv, gm, ann, players, A, ok, campaignId, gmToken } = await fight(t);
  await ok(gm, 'map.set', { size: 40, cols: 8, rows: 6 });
  assert.deepEqual({ w: gm.state.gm.maps.enc.w, h: gm.state.gm.maps.enc.h, key: gm.state.gm.maps.enc.key }, { w: 320, h: 240, key: undefined });
  await ok(gm, 'map.token', { cid: A, x: 0, y: 0 });
  await ok(gm, 'map.show', {});
  assert.equal((await ann.cmd('map.image', {})).code, 'not_found', 'a plain grid has no picture');
  await ann.ping();
  const replica = { state: structuredClone(ann.state), seq: ann.seq };
  const mv = await ann.cmd('map.move', { id: A, x: 7, y: 5 }, 'move-1');
  assert.equal(mv.t, 'ack');
  await srv.kill('SIGKILL');
  await srv.restart();
  const [again, w] = await srv.resume(players[0].token, replica);
  t.after(() => again.close());
  assert.equal(w.resume, true);
  await again.ping();
  assert.deepEqual(again.state.maps.enc.tokens[A], { id: A, cid: A, x: 7, y: 5, by: players[0].seat });
  const retry = await again.cmd('map.move', { id: A, x: 7, y: 5 }, 'move-1');
  assert.equal(retry.raw, mv.raw, 'the re-sent move gets its original ack');
  const view = await srv.gmView(gmToken);
  const rebuilt = srv.replay({ campaign: campaignId, fromZero: true }).find((r) => r.campaign === campaignId);
  assert.deepEqual(rebuilt.state.maps, view.state.maps);
  assert.deepEqual(rebuilt.state.gm.maps, view.state.gm.maps);
});

test('heimr reads the map: a melee attack from another square is refused before any die, in the same square it is made', async (t) => {
  const { gm, ann, A, ok } = await fight(t);
  const O = (await ok(gm, 'enc.add', { npc: { name: 'Bandit' } })).id;
  await ok(gm, 'map.set', { size: 40, cols: 8, rows: 6 });
  await ok(gm, 'map.token', { cid: A, x: 0, y: 0 });
  await ok(gm, 'map.token', { cid: O, x: 1, y: 1 });
  await ok(gm, 'map.show', {});
  await ok(gm, 'enc.act', { action: 'begin' });
  const st = gm.state.enc;
  const actor = st.order[st.turn];
  const target = actor === A ? O : A;
  const who = actor === A ? ann : gm;
  const seq = gm.seq;
  const far = await who.cmd('enc.act', { action: 'attack', actor, params: { target, c: 0, p: 0 } });
  assert.equal(far.t, 'nack', far.raw);
  assert.equal(far.code, 'rule');
  assert.match(far.message, /2 squares away from .*: a melee attack needs the same square/);
  assert.equal(far.cite, '001:256');
  await gm.ping();
  assert.equal(gm.seq, seq, 'refused before any die: nothing stored');
  // enc.moves reads the map too: the attack it offers from 2 squares away is a shot, not melee
  const offered = (await ok(who, 'enc.moves', {})).moves.enc.find((m) => m.action === 'attack' && m.actor === actor);
  assert.equal(offered?.args.ranged, 1, JSON.stringify(offered?.args));
  // a hidden token decides nothing: the bandit hidden, the attack is the GM's word again
  await ok(gm, 'map.token', { id: O, x: 1, y: 1, hidden: true });
  const moves = await ok(who, 'enc.moves', {});
  assert.ok(JSON.stringify(moves).includes('"attack"'), 'the attack is offered again');
  await ok(gm, 'map.token', { id: O, x: 0, y: 0, hidden: false }); // shown, in Ann's square
  const near = await who.cmd('enc.act', { action: 'attack', actor, params: { target, c: 0, p: 0 } });
  assert.equal(near.t, 'ack', near.raw);
});

test('heimr reads the map for a charge: the next square along an axis only, refused before any die otherwise', async (t) => {
  const { gm, ann, A, ok } = await fight(t);
  const O = (await ok(gm, 'enc.add', { npc: { name: 'Bandit' } })).id;
  await ok(gm, 'map.set', { size: 40, cols: 8, rows: 6 });
  await ok(gm, 'map.token', { cid: A, x: 0, y: 0 });
  const tok = (await ok(gm, 'map.token', { cid: O, x: 1, y: 1 })).id;
  await ok(gm, 'map.show', {});
  await ok(gm, 'enc.act', { action: 'begin' });
  const st = gm.state.enc;
  const actor = st.order[st.turn];
  const target = actor === A ? O : A;
  const who = actor === A ? ann : gm;
  const charge = { what: 'Charge', target };
  // 001:61 borders up, down, left and right only: a diagonal neighbour is two away (001:264)
  const seq = gm.seq;
  const diag = await who.cmd('enc.act', { action: 'act', actor, params: charge });
  assert.equal(diag.t, 'nack', diag.raw);
  assert.equal(diag.code, 'rule');
  assert.match(diag.message, /2 squares away from .*: a charge reaches the square next to/);
  await gm.ping();
  assert.equal(gm.seq, seq, 'refused before any die: nothing stored');
  // 001:344 "go to a different square": not the one the opponent shares
  await ok(gm, 'map.token', { id: tok, x: 0, y: 0 });
  await gm.ping();
  const moved = gm.seq;
  const same = await who.cmd('enc.act', { action: 'act', actor, params: charge });
  assert.equal(same.t, 'nack', same.raw);
  assert.match(same.message, /in .*'s square: a charge goes to a different square/);
  await gm.ping();
  assert.equal(gm.seq, moved, 'refused before any die: nothing stored');
  // the moves offer no charge target in the same square
  const pick = async () =>
    (await ok(who, 'enc.moves', {})).moves.enc
      .find((m) => m.action === 'act' && m.actor === actor)
      .params.find((p) => p.name === 'target').choices.map((c) => c.value);
  assert.deepEqual(await pick(), [null]);
  // one square to the right: offered, and the charge goes
  await ok(gm, 'map.token', { id: tok, x: 1, y: 0 });
  assert.deepEqual(await pick(), [null, target]);
  const next = await who.cmd('enc.act', { action: 'act', actor, params: charge });
  assert.equal(next.t, 'ack', next.raw);
});
