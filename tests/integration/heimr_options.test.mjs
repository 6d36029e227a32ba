// heimr.combat's guarding, grabs and moving someone through the real server (issue 17; rulebook
// 001_660a93111b0de833.txt, cited 001:LINE): Astrid Ironhand guards Liesbeth van Dam, and the
// bandit's axe meets Astrid instead (001:450-452); Astrid grabs the bandit with a brawl attack
// (001:401), cannot defend while she holds him (001:407), stops his attack with her Brawl
// (001:407), and he breaks free; nobody moves an unwilling held bandit with two pairs of hands
// (001:464), and one moves a willing ally (001:462); the bandit climbs out of sword's reach (001:517). Dice from --seed 5; where an outcome must
// not depend on them, the GM's C/P make it certain (P 30 always beats a Brawl, P −20 never does).
// Each seat's bytes are checked: no /gm path, none of the bandit's secrets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const BANDIT = {
  name: 'Bandit',
  attributes: { str: 1, dex: -2, sta: 3, int: 0, soc: 0, emp: 0 },
  hp: 2,
  hp_max: 2,
  willpower: 1,
  willpower_max: 1,
  fatigue: 1,
  abilities: [{ name: 'Axe fighting', attributes: ['str'], base_consistency: 1, trained_consistency: 1 }],
  notes: 'paid by the mayor',
};

test('heimr.combat: a guard takes the axe, a grab stops the bandit until he breaks free, moving someone takes enough hands', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '5'] });
  const { gm, players } = await campaignOf(srv, t, 'heimr');
  const [ann, bob] = players;
  const astrid = await makeChar(ann.client, { name: 'Astrid Ironhand', sheet: sample('heimr', 'astrid_ironhand') });
  const lies = await makeChar(bob.client, { name: 'Liesbeth van Dam', sheet: sample('heimr', 'liesbeth_van_dam') });
  const bandit = await makeChar(gm, { name: 'Bandit', npc: true, sheet: BANDIT });
  await ok(gm, 'enc.start', { module: 'heimr.combat' });
  const A = (await ok(gm, 'enc.add', { char: astrid })).id;
  const L = (await ok(gm, 'enc.add', { char: lies })).id;
  const B = (await ok(gm, 'enc.add', { char: bandit })).id;
  const act = (who, action, actor, params) => ok(who, 'enc.act', { action, actor, params });
  const no = (who, action, actor, params, code, re) => refused(who, 'enc.act', { action, actor, params }, code, re);
  const textOf = (res, action) => res.log.filter((l) => l.action === action).map((l) => l.text);

  await act(gm, 'begin');
  let s = await settle(gm, players);
  assert.deepEqual(s.enc.order, [A, L, B]);

  // ---- round 1: Astrid guards Liesbeth (001:345 a free action) ----
  await no(ann.client, 'guard', A, { target: B }, 'rule', /guards allies only/);
  await no(bob.client, 'guard', A, { target: L }, 'forbidden', /not your character/);
  await act(ann.client, 'guard', A, { target: L });
  await no(ann.client, 'guard', A, { target: L }, 'rule', /already guards/);
  await act(ann.client, 'end_turn', A, { defence: 'block', item: 'Medium shield' });
  await act(bob.client, 'end_turn', L, {});
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[A].guarding, L);
  for (const p of players) assert.equal(p.client.state.enc.combatants[A].guarding, L, `${p.name} sees the guard`);
  const lDodge = s.enc.combatants[L].defence;
  assert.equal(lDodge.kind, 'dodge');

  // the bandit's axe on Liesbeth meets Astrid's block instead (001:450), and the guard ends (001:452)
  const axe = await act(gm, 'attack', B, { target: L, ability: 'Axe fighting', damage: 2 });
  assert.match(textOf(axe, 'guard')[0], /^Astrid Ironhand steps in front of Liesbeth van Dam: Bandit's attack is directed at Astrid Ironhand$/);
  const swing = axe.log.find((l) => l.action === 'attack');
  assert.equal(swing.result.target, A);
  assert.match(swing.text, /^Bandit attacks Astrid Ironhand \(block\)/);
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[A].guarding, undefined);
  await no(ann.client, 'stand_down', A, {}, 'rule', /Astrid Ironhand is guarding nobody/);
  assert.deepEqual(s.enc.combatants[L].defence, lDodge, "Liesbeth's dodge was not used");
  assert.equal(s.enc.combatants[L].stats.hp, 4);
  await act(gm, 'end_turn', B, {});

  // ---- round 2: Astrid grabs the bandit (001:401: P 30 cannot miss) ----
  await no(ann.client, 'attack', A, { target: B, bind: true, c: 0, p: 30 }, 'bad_request', /brawl/);
  const grab = await act(ann.client, 'attack', A, { target: B, brawl: true, bind: true, c: 3, p: 30 });
  assert.match(grab.log.find((l) => l.action === 'attack').text, /Astrid Ironhand grabs Bandit by the (torso|sword arm|other arm|right leg|left leg)$/);
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[B].held_by.by, A);
  assert.equal(s.enc.combatants[A].holding, B);
  assert.equal(s.gm.enc.combatants[B].stats.hp, 2, 'a grab is not a hit 1');
  // 001:407 a holder makes no defensive rolls
  await no(ann.client, 'defend', A, { kind: 'dodge' }, 'rule', /cannot make defensive rolls/);
  await act(ann.client, 'end_turn', A, {});
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[A].defence, undefined);
  // an unwilling held bandit takes three to move (001:464); Liesbeth and Astrid are two
  await no(bob.client, 'carry', L, { target: B, helpers: A }, 'rule', /Bandit is unwilling and held: it takes 3 to move them, and 2 are at it/);
  await act(bob.client, 'end_turn', L, {});

  // the bandit's swing at Astrid meets her grip first (001:407): her Brawl is the requirement
  const stopped = await act(gm, 'attack', B, { target: A, c: 0, p: -20 });
  assert.ok(stopped.log.some((l) => l.action === 'hold' && /^Astrid Ironhand holds on to Bandit: Brawl \d+ to beat$/.test(l.text)));
  assert.ok(stopped.log.some((l) => l.action === 'attack' && /^Bandit tries to attack Astrid Ironhand, but Astrid Ironhand's grip stops it$/.test(l.text)));
  if (s.enc.combatants[B].held_by.part === 'torso' || /leg/.test(s.enc.combatants[B].held_by.part))
    await no(gm, 'act', B, { type: 'standard', what: 'move away' }, 'rule', /cannot move from the spot/);
  await act(gm, 'end_turn', B, {});
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[A].holding, B, 'the grip holds');
  assert.equal(s.enc.combatants[A].stats.hp, 6);

  // ---- round 3: the bandit breaks free (P 30 beats any Brawl) ----
  await act(ann.client, 'end_turn', A, {});
  await act(bob.client, 'end_turn', L, {});
  await no(bob.client, 'release', L, {}, 'rule', /holds nobody/);
  const free = await act(gm, 'break_free', B, { c: 0, p: 30 });
  assert.ok(free.log.some((l) => l.action === 'break_free' && /^Bandit tries to break Astrid Ironhand's grip: free$/.test(l.text)));
  assert.ok(free.log.some((l) => l.action === 'release' && /^Astrid Ironhand no longer holds Bandit: the grip is broken$/.test(l.text)));
  await no(gm, 'break_free', B, {}, 'rule', /nobody holds Bandit/);
  await act(gm, 'end_turn', B, {});
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[B].held_by, undefined);
  assert.equal(s.enc.combatants[A].holding, undefined);

  // ---- round 4: Astrid moves a willing Liesbeth on her own (001:462) ----
  const carry = await act(ann.client, 'carry', A, { target: L, to: 'behind the cart' });
  assert.deepEqual(textOf(carry, 'carry'), ['Astrid Ironhand moves Liesbeth van Dam behind the cart: Liesbeth van Dam is willing, 1 needed']);

  // the ground (001:517): two positions up, the bandit is out of reach of Astrid's sword
  await no(gm, 'ground', undefined, { target: B, concealment: 9 }, 'bad_request', /concealment/);
  await no(ann.client, 'ground', undefined, { target: B, height: 0 }, 'forbidden', /GM/);
  const up = await act(gm, 'ground', undefined, { target: B, height: 2, concealment: 1 });
  assert.deepEqual(textOf(up, 'ground'), ['Bandit stands at height 2, behind cover 1']);
  await no(ann.client, 'attack', A, { target: B, item: 'Longsword' }, 'rule', /Bandit stands 2 higher than Astrid Ironhand: too far for a melee attack/);
  s = await settle(gm, players);
  for (const p of players) assert.deepEqual(p.client.state.enc.combatants[B].ground, { height: 2, concealment: 1 });

  // what the players saw: the guard, the grab and who broke free, never the bandit's numbers
  await settle(gm, players);
  for (const p of players) {
    const log = p.client.state.log.filter((l) => l.kind === 'enc');
    assert.ok(log.some((l) => /grip stops it/.test(l.text)), `${p.name} saw the stopped attack`);
    const his = log.filter((x) => /^Bandit (tries|attacks)/.test(x.text));
    assert.equal(his.length, 3, `${p.name} saw the axe, the stopped swing and the break-free`);
    for (const l of his) assert.equal(l.dice, undefined, `${p.name} got the bandit's dice: ${JSON.stringify(l)}`);
  }
  assertNoGmBytes(players, ['Axe fighting', 'paid by the mayor']);
});
