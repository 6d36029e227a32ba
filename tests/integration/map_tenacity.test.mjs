// 10acity's spaces read from the scene's map through the real server (issue 30 item 3;
// rules/RULES.md, tenacity reading S1; PROTOCOL.md "The scene map"): a melee attack on a goblin
// three spaces away is refused before any die and offered only at range, a withdrawal with no
// opponent next to you is refused; a step next to the goblin and the attack goes through. While
// the fight has a turn order a player moves their token on their own turn only (the GM any time;
// before the first turn as before). Every refusal stores nothing. Seed 1; whoever wins
// initiative passes it to Missa.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, settle } from './enc_lib.mjs';

test('tenacity reads the map: melee range and withdrawing from the squares, a token moves on its turn', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '1'] });
  const { gm, players } = await campaignOf(srv, t, 'tenacity');
  const [ann, bob] = players.map((p) => p.client);
  const missa = await makeChar(ann, { name: 'Missa', sheet: sample('tenacity', 'missa') });
  const brakka = await makeChar(bob, { name: 'Brakka Vell', sheet: sample('tenacity', 'brakka') });
  await ok(gm, 'enc.start', { module: 'tenacity.spotlight' });
  const eM = (await ok(gm, 'enc.add', { char: missa })).id;
  const eB = (await ok(gm, 'enc.add', { char: brakka })).id;
  const eG = (await ok(gm, 'enc.add', { npc: { name: 'Goblin' } })).id;
  await ok(gm, 'map.set', { size: 40, cols: 8, rows: 6 });
  await ok(gm, 'map.token', { cid: eM, x: 0, y: 0 });
  await ok(gm, 'map.token', { cid: eB, x: 6, y: 5 });
  await ok(gm, 'map.token', { cid: eG, x: 3, y: 0 });
  await ok(gm, 'map.show', {});

  // before the first turn a player places their own token as before
  await ok(bob, 'map.move', { id: eB, x: 6, y: 4 });
  await ok(gm, 'enc.act', { action: 'initiative' });
  let s = await settle(gm, players);
  // the initiative winner may pass it before doing anything (003:86): Missa takes the spotlight
  const winner = s.enc.spotlight;
  if (winner !== eM) await ok(winner === eB ? bob : gm, 'enc.act', { action: 'pass', params: { target: eM } });
  s = await settle(gm, players);
  assert.equal(s.enc.spotlight, eM);
  assert.deepEqual(s.enc.start_squares, { [eM]: [0, 0], [eB]: [6, 4], [eG]: [3, 0] });

  // Missa's turn: Bob may not move Brakka now, the GM may
  const nack = await refused(bob, 'map.move', { id: eB, x: 5, y: 4 }, 'rule', /it is not your turn/);
  assert.doesNotMatch(nack.message, /[a-z]+_[a-z]+/, 'no snake_case on screen');
  await ok(gm, 'map.move', { id: eB, x: 5, y: 4 });

  // the goblin is 3 spaces away: no melee attack, no die; the moves offer it at range
  const far = await refused(ann, 'enc.act', { action: 'attack', params: { target: eG, skill: 'Telekinesis' } }, 'rule',
    /Goblin is 3 spaces away from Missa: melee reaches only the spaces next to you/);
  assert.equal(far.cite, '003:111');
  let moves = (await ok(ann, 'enc.moves', {})).moves.enc;
  let atk = moves.find((m) => m.action === 'attack' && m.actor === eM);
  assert.ok(atk, JSON.stringify(moves));
  assert.equal(atk.args.range, 'ranged', JSON.stringify(atk.args));
  assert.ok(!moves.some((m) => m.action === 'withdraw'), 'nothing to withdraw from: not offered');
  await refused(ann, 'enc.act', { action: 'withdraw' }, 'rule', /nothing to withdraw from/);

  // she steps next to it (her turn: her token is hers to move) and strikes in melee
  await ok(ann, 'map.move', { id: eM, x: 2, y: 1 });
  await ok(ann, 'enc.act', { action: 'move' });
  moves = (await ok(ann, 'enc.moves', {})).moves.enc;
  atk = moves.find((m) => m.action === 'attack' && m.actor === eM);
  assert.notEqual(atk.args.range, 'ranged', 'next to the goblin the melee attack is offered');
  const r = await ok(ann, 'enc.act', { action: 'attack', params: { target: eG, skill: 'Telekinesis' } });
  assert.ok(r.log.some((e) => e.action === 'attack'));
  s = await settle(gm, players);
  assert.deepEqual(s.maps.enc.tokens[eM], { id: eM, cid: eM, x: 2, y: 1, by: players[0].seat }, 'her turn: hers to move');
});
