// Issue 25's cot items played once through the real server (seeded dice): a vehicle chase
// (items 1, 2 and 7: a passenger's Distance is its vehicle's, only a Pursuer rams, a Close that
// reaches Distance 0 goes on in the same turn) and a Social Call (items 4 and 5: an agenda is its
// pusher's, a state stays until another character builds up). The Check suite
// (tests/unit/test_enc_cot.c) pins each item with scripted dice; here the seed decides the faces,
// and what is asserted follows from the rules whatever they are, plus that the seed reached the
// case the item is about.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const DRIVER = (name) => ({ name, abilities: { muscle: 2, fingers: 2, brains: 2, it: 2 }, skills: { athletics: 1, driving: 1 } });
const COP = (name) => ({ name, abilities: { muscle: 3, fingers: 3, brains: 2, it: 2 }, skills: { driving: 3 } });

test('cot.chase through the server: the Deputy rides with the cruiser, the van may not Ram, a Close to 0 goes on into a Ram', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '5'] });
  const { gm, players } = await campaignOf(srv, t, 'cot', ['Ann', 'Bob']);
  const [ann] = players;
  const runner = await makeChar(ann.client, { name: 'Runner', sheet: DRIVER('Runner') });
  const cop = await makeChar(gm, { name: 'Cop', sheet: COP('Cop'), npc: true });
  const deputy = await makeChar(gm, { name: 'Deputy', sheet: COP('Deputy'), npc: true });
  await ok(gm, 'enc.start', { module: 'cot.chase', options: { target_side: 'crew', distance: 1, stage: 'vehicle_chase' } });
  const R = (await ok(gm, 'enc.add', { char: runner, side: 'crew' })).id;
  const C = (await ok(gm, 'enc.add', { char: cop, side: 'police' })).id;
  const D = (await ok(gm, 'enc.add', { char: deputy, side: 'police' })).id;
  await ok(gm, 'enc.act', { action: 'vehicle', params: { target: R, vehicle: 'van', driver: 1, speed: 2, body: 10 } });
  await ok(gm, 'enc.act', { action: 'vehicle', params: { target: D, vehicle: 'cruiser' } });
  await ok(gm, 'enc.act', { action: 'vehicle', params: { target: C, vehicle: 'cruiser', driver: 1, speed: 3, body: 12 } });
  await ok(gm, 'enc.act', { action: 'begin' });

  const dist = (s, cid) => s.enc.combatants[cid].distance;
  const claimed = (s, cid) => (s.enc.combatants[cid].claimed || []).length > 0;
  let rammed = false;
  let closes = 0;
  for (let i = 0; i < 24 && !rammed; i++) {
    let s = await settle(gm, players);
    if (s.enc.combatants[R].out) break;
    const slot = s.enc.order[s.enc.turn];
    if (slot.side === 'crew') {
      // item 2: the Target may not Ram (000:159-167), refused before any die
      await refused(ann.client, 'enc.act', { action: 'ram', actor: R, params: { target: C } }, 'rule', /only a Pursuer may Ram/);
      await ok(ann.client, 'enc.act', { action: 'wait', actor: R });
      continue;
    }
    if (claimed(s, C)) { // the Deputy rides: only the driver Closes (000:169)
      await ok(gm, 'enc.act', { action: 'wait', actor: D });
      continue;
    }
    const d = dist(s, C);
    const r = await ok(gm, 'enc.act', { action: 'close', actor: C, params: { target: R } });
    const e = r.log.find((x) => x.action === 'close' && x.result);
    closes++;
    s = await settle(gm, players);
    assert.equal(dist(s, C), d - (e.result.success ? 1 : 0), e.text);
    // item 1: a passenger's Distance is its vehicle's (000:147, 000:153, 000:169)
    assert.equal(dist(s, D), dist(s, C), 'the Deputy is where the cruiser is');
    assert.equal(ann.client.state.enc.combatants[D].distance, dist(s, C), 'and the table sees it so');
    if (e.result.success && dist(s, C) === 0) {
      // item 7: the Close goes on in the same turn into a Takedown or the driver's Ram (000:169)
      assert.equal(s.enc.follow_up?.by, C, 'the turn goes on');
      const turn = s.enc.turn;
      const rr = await ok(gm, 'enc.act', { action: 'ram', actor: C, params: { target: R } });
      assert.ok(rr.log.some((x) => x.action === 'ram'), 'the Ram is logged');
      s = await settle(gm, players);
      assert.equal(s.enc.follow_up, undefined, 'the Ram ends the turn');
      assert.notEqual(s.enc.turn, turn, 'the next slot plays');
      rammed = true;
    }
  }
  assert.ok(closes > 0, 'the Cop closed at least once');
  assert.ok(rammed, 'seed 5 brings the cruiser to Distance 0 (reach the follow-up)');
  assertNoGmBytes(players);
  await ok(gm, 'enc.end', {});
});

const PC = (name, loyalty) => ({
  name,
  abilities: { muscle: 1, fingers: 1, brains: 1, it: 3 },
  skills: { size_up: 2, convince: 3, intimidate: 2 },
  loyalties: [loyalty],
});

test('cot.social through the server: two pushers keep their agendas; a state stays until another character builds up', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '7'] });
  const { gm, players } = await campaignOf(srv, t, 'cot', ['Ann', 'Bob']);
  const [ann, bob] = players;
  const annChar = await makeChar(ann.client, { name: 'Ann Vale', sheet: PC('Ann Vale', { kind: 'Devoted', target: 'Crew', prime: true }) });
  const bobChar = await makeChar(bob.client, { name: 'Bob Reyes', sheet: PC('Bob Reyes', { kind: 'Desire', target: 'Jazz', prime: true }) });
  const npc = await makeChar(gm, {
    name: 'The Countess',
    npc: true,
    sheet: { name: 'The Countess', abilities: { muscle: 1, fingers: 1, brains: 1, it: 1 }, skills: {}, loyalties: [{ kind: 'Devoted', target: 'Husband Karl', prime: true }] },
  });
  await ok(gm, 'enc.start', { module: 'cot.social' });
  const A = (await ok(gm, 'enc.add', { char: annChar })).id;
  const B = (await ok(gm, 'enc.add', { char: bobChar })).id;
  const N = (await ok(gm, 'enc.add', { char: npc, side: 'foes' })).id;
  await ok(gm, 'enc.act', { action: 'identity', params: { target: N, identity: 'Countess Orlova' } });
  await ok(gm, 'enc.act', { action: 'begin' });

  let s;
  const sideOf = (cid) => gm.state.enc.combatants[cid].side;
  const claimed = (cid) => (gm.state.enc.combatants[cid].claimed || []).length > 0;
  async function turnOf(cid) { // the GM has the others wait until cid may take the current slot
    for (let i = 0; i < 12; i++) {
      s = await settle(gm, players);
      const slot = s.enc.order[s.enc.turn];
      if (slot && slot.side === sideOf(cid) && !claimed(cid)) return;
      const other = [A, B, N].find((c) => sideOf(c) === slot.side && !claimed(c) && c !== cid);
      await ok(gm, 'enc.act', { action: 'wait', actor: other });
    }
    assert.fail(`${cid} never got a slot`);
  }

  await turnOf(A);
  await ok(ann.client, 'enc.act', { action: 'read_room', actor: A, params: { target: N } });
  await turnOf(B);
  await ok(bob.client, 'enc.act', { action: 'read_room', actor: B, params: { target: N } });
  // item 4: an agenda is its pusher's: Bob's leaves Ann's in place
  await ok(ann.client, 'enc.act', { action: 'agenda', actor: A, params: { target: N, text: 'the ledger' } });
  await ok(bob.client, 'enc.act', { action: 'agenda', actor: B, params: { target: N, text: 'the car' } });
  s = await settle(gm, players);
  const agendas = ann.client.state.private[ann.seat].social[N].agendas;
  assert.equal(agendas[A].text, 'the ledger', "Ann's agenda stays hers");
  assert.equal(agendas[B].text, 'the car');

  // item 5: once Ann's Build Up set the state, she may not Build Up again on it (000:259);
  // Bob, another character, may
  let setByAnn = false;
  for (let i = 0; i < 4 && !setByAnn; i++) {
    await turnOf(A);
    await ok(ann.client, 'enc.act', { action: 'build_up', actor: A, params: { target: N, skill: 'convince' } });
    s = await settle(gm, players);
    setByAnn = s.enc.combatants[N].emotion?.by === A;
  }
  assert.ok(setByAnn, "seed 7 gives Ann's Build Up a state");
  const state = s.enc.combatants[N].emotion.state;
  await turnOf(A);
  await refused(ann.client, 'enc.act', { action: 'build_up', actor: A, params: { target: N, skill: 'intimidate' } }, 'rule', /until another character attempts a Build Up/);
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[N].emotion.state, state, 'the refusal changed nothing');
  await turnOf(B);
  await ok(bob.client, 'enc.act', { action: 'build_up', actor: B, params: { target: N, skill: 'intimidate' } });
  assertNoGmBytes(players, ['Husband Karl']);
  await ok(gm, 'enc.end', {});
});
