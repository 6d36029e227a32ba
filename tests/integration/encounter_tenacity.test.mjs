// tenacity.spotlight through the real server (issue 5; rulebook 003, rules/RULES.md "Encounters
// (module tenacity.spotlight)"): initiative with the tie going to the hero (003:86), a spotlight
// chain — the target acts next (003:87), an acted character back in the spotlight chooses and
// passes to an opponent (003:84, 003:89) — the round reset (003:90), impact as stress on the
// sheets (003:45, 003:66), a response for spin (003:91), the free shake-off roll (003:97); the
// refusals; no /gm byte reaches a player; the log replays to the live state. Seed 1; the dice
// below are what that seed gives, and each consequence is the rule's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const faces = (entry, role) => (entry.dice || []).filter((d) => d.role === role).map((d) => d.value);

test('tenacity spotlight: a chain, a pass to an opponent, a round reset, stress and a response', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '1'] });
  const { gm, players, campaignId } = await campaignOf(srv, t, 'tenacity');
  const [ann, bob] = players;
  const missa = await makeChar(ann.client, { name: 'Missa', sheet: sample('tenacity', 'missa') });
  const brakka = await makeChar(bob.client, { name: 'Brakka Vell', sheet: sample('tenacity', 'brakka') });
  // Gorrak: an NPC with a sheet (hero dice); his skill names and numbers are the GM's
  const shade = { ...sample('tenacity', 'odessa'), name: 'Gorrak', notes: 'Gorrak fears silver' };
  shade.attributes = structuredClone(shade.attributes);
  shade.attributes[3].skills[0].name = 'Shadow Lore'; // Intellect 3d10, rank 2
  const gorrak = await makeChar(gm, { name: 'Gorrak', sheet: shade, npc: true });

  await ok(gm, 'enc.start', { module: 'tenacity.spotlight' });
  const eM = (await ok(gm, 'enc.add', { char: missa })).id;
  const eB = (await ok(gm, 'enc.add', { char: brakka })).id;
  const eG = (await ok(gm, 'enc.add', { char: gorrak })).id;
  const eQ = (await ok(gm, 'enc.add', { npc: { name: 'Goblin' } })).id; // 2d6 challenge dice
  assert.deepEqual([eM, eB, eG, eQ], ['e1', 'e2', 'e3', 'e4']);
  const act = (c, action, params, actor) => ok(c, 'enc.act', { action, params, ...(actor ? { actor } : {}) });

  await refused(ann.client, 'enc.act', { action: 'move', actor: eM }, 'rule', /rolls initiative first/);
  await refused(bob.client, 'enc.act', { action: 'initiative' }, 'forbidden', /GM/);

  // ---- initiative (003:85-86): Reaction for everyone ----
  const init = await act(gm, 'initiative');
  let s = await settle(gm, players);
  // Missa 10; Brakka 7 and the goblin 7: the tie goes to the hero (003:86); Gorrak 5
  assert.deepEqual(s.enc.order, [eM, eB, eQ, eG]);
  assert.equal(s.enc.combatants[eM].init, 10);
  assert.equal(s.enc.combatants[eB].init, 7);
  assert.equal(s.enc.combatants[eQ].init, undefined, "an NPC's roll is the GM's");
  assert.equal(s.gm.enc.combatants[eQ].init, 7);
  assert.equal(s.gm.enc.combatants[eG].init, 5);
  assert.equal(s.enc.round, 1);
  assert.equal(s.enc.spotlight, eM);
  assert.equal(s.enc.turn, 0);
  assert.deepEqual(s.enc.combatants[eM].budget, { action: 1, interaction: 1, move: 1 });
  assert.ok(!ann.client.state.log.some((e) => /Gorrak rolls|Goblin rolls/.test(e.text)), 'NPC rolls stay in /gm/log');

  // ---- out of turn, wrong owner ----
  await refused(bob.client, 'enc.act', { action: 'move', actor: eB }, 'rule', /Missa holds the spotlight, not Brakka Vell/);
  await refused(bob.client, 'enc.act', { action: 'attack', actor: eM, params: { target: eQ, skill: 'Telekinesis' } }, 'forbidden', /Missa is not your character/);
  await refused(gm, 'enc.act', { action: 'attack', actor: eG, params: { target: eM, skill: 'Shadow Lore' } }, 'rule', /Missa holds the spotlight/);

  // ---- Missa attacks the goblin: Telekinesis 2d10 [2,9] + 3 = 12 beats its 2d6; 1d4 [2] ----
  let r = await act(ann.client, 'attack', { target: eQ, skill: 'Telekinesis' });
  const atk = r.log.find((e) => e.action === 'attack');
  assert.deepEqual(faces(atk, 'attack'), [2, 9]);
  assert.deepEqual(faces(atk, 'impact'), [2]);
  assert.deepEqual(atk.result, { spin: 0, attack: 12, success: true, impact: 2 });
  assert.equal(atk.result.defence, undefined, "the goblin's roll is the GM's");
  s = await settle(gm, players);
  assert.deepEqual(s.gm.enc.combatants[eQ].stats.stress, { current: 2, max: 6 });
  assert.deepEqual(s.enc.cue, [eQ]);
  await refused(ann.client, 'enc.act', { action: 'attack', params: { target: eQ, skill: 'Telekinesis' } }, 'rule', /Missa has no action left this turn/);
  const pass = await refused(ann.client, 'enc.act', { action: 'pass', params: { target: eB } }, 'rule');
  assert.match(pass.cite, /003:86/, 'the rule is cited beside the message, not in it');
  // 003:87 the goblin she attacked goes next, not her ally
  await refused(ann.client, 'enc.act', { action: 'end', params: { next: eB } }, 'rule', /cannot go to Brakka Vell: it goes to Goblin \(brought into the spotlight\)/);
  await act(ann.client, 'end');
  s = await settle(gm, players);
  assert.equal(s.enc.spotlight, eQ);
  assert.equal(s.enc.turn, 2);
  assert.deepEqual(s.enc.acted, [eM]);

  // ---- the goblin attacks Missa: 2d6 [6,4] = 10 vs Reaction [10,6] + 2, a natural 10: +1d10
  // [2] = 14 (003:28): a miss. Missa, who has acted, is back in the spotlight (003:91) ----
  r = await act(gm, 'attack', { target: eM });
  const gAtk = r.log.filter((e) => e.action === 'attack');
  assert.equal(gAtk.length, 2, 'the GM gets the public entry and the GM one');
  assert.deepEqual(gAtk[0].result, { defence: 14, success: false });
  assert.deepEqual(gAtk[1].result, { attack: 10, defence: 14, success: false });
  assert.deepEqual(faces(gAtk[1], 'attack'), [6, 4]);
  assert.deepEqual(faces(gAtk[0], 'defence'), [10, 6]);
  assert.deepEqual(faces(gAtk[0], 'critical'), [2]);
  assert.deepEqual(faces(gAtk[0], 'attack'), [], "the goblin's dice are the GM's");
  s = await settle(gm, players);
  assert.deepEqual(s.enc.recalled, [eM]);
  await refused(bob.client, 'enc.act', { action: 'respond', actor: eB }, 'rule', /brought back into the spotlight after acting/);
  await act(gm, 'end');
  // 003:89 Missa has acted and is the only other one in the spotlight: she chooses who goes next
  s = await settle(gm, players);
  assert.equal(s.enc.spotlight, eM);
  assert.equal(s.enc.choosing, true);
  assert.deepEqual(s.enc.combatants[eM].budget, { action: 0, interaction: 0, move: 0 });
  await refused(ann.client, 'enc.act', { action: 'move' }, 'rule', /no move left/);
  // ... and passes to an opponent (003:84)
  await act(ann.client, 'pass', { target: eG });
  s = await settle(gm, players);
  assert.equal(s.enc.spotlight, eG);
  assert.equal(s.enc.choosing, false);
  assert.deepEqual(s.enc.acted, [eM, eQ]);

  // ---- Gorrak attacks Brakka: Shadow Lore 3d10 [1,8,6] + 2 = 10 vs Reaction [8,8] + 3 = 11 ----
  r = await act(gm, 'attack', { target: eB, skill: 'Shadow Lore' });
  assert.deepEqual(r.log.find((e) => e.action === 'attack').result, { defence: 11, success: false });
  await act(gm, 'end');
  s = await settle(gm, players);
  assert.equal(s.enc.spotlight, eB, 'the target goes next (003:87)');
  // Brakka: Melee Combat 3d10 [1,5,1] + 6 = 11 against Gorrak's hidden defence: a miss; a failed
  // action gives a point of spin (003:95): -2 → -1
  r = await act(bob.client, 'attack', { target: eG, skill: 'Melee Combat' });
  assert.deepEqual(r.log[0].result, { spin: 1, attack: 11, success: false });
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[eB].stats.spin, -1);
  assert.deepEqual(s.enc.recalled, [eG]);

  // ---- everyone has acted: the round resets (003:90); Gorrak, in the spotlight, goes first ----
  r = await act(bob.client, 'end');
  assert.ok(r.log.some((e) => e.action === 'round' && /Round 2/.test(e.text)));
  s = await settle(gm, players);
  assert.equal(s.enc.round, 2);
  assert.deepEqual(s.enc.acted, []);
  assert.equal(s.enc.spotlight, eG);
  assert.deepEqual(s.enc.combatants[eG].budget, { action: 1, interaction: 1, move: 1 });

  // ---- impact as stress (003:45, 003:66): Gorrak [6,10,10] + 2 = 12 vs [7,2] + 3 = 10; his
  // natural 10 takes the impact die: 2d4 [4,1] = 5 stress on Brakka, 4 → 9 of 14 ----
  r = await act(gm, 'attack', { target: eB, skill: 'Shadow Lore' });
  assert.deepEqual(r.log.find((e) => e.action === 'attack').result, { defence: 10, success: true, impact: 5 });
  s = await settle(gm, players);
  assert.deepEqual(s.enc.combatants[eB].stats.stress, { current: 9, max: 14 });
  assert.deepEqual(s.chars[brakka].sheet.stress, { current: 9, max: 14 }, 'the stress lands on the sheet');
  assert.deepEqual(bob.client.state.chars[brakka].sheet.stress, { current: 9, max: 14 });
  await act(gm, 'end');
  s = await settle(gm, players);
  assert.equal(s.enc.spotlight, eB);

  // Brakka hits back: [7,3,3] + 6 = 13; 3d4 [1,4,1] + 2 (war axe) = 8 stress on Gorrak (8 of 8:
  // not over it, no wound); doubles: +1 spin (-1 → 0)
  r = await act(bob.client, 'attack', { target: eG, skill: 'Melee Combat' });
  assert.deepEqual(r.log[0].result, { spin: 1, attack: 13, success: true, impact: 8 });
  assert.deepEqual(faces(r.log[0], 'impact'), [1, 4, 1]);
  s = await settle(gm, players);
  assert.deepEqual(s.gm.enc.combatants[eG].stats.stress, { current: 8, max: 8 });
  assert.deepEqual(s.gm.enc.combatants[eG].stats.wounds, { current: 0, max: 2 });
  assert.equal(s.enc.combatants[eB].stats.spin, 0);

  // Gorrak has acted and is brought back: he spends a spin to respond (003:91) ...
  await refused(bob.client, 'enc.act', { action: 'respond', actor: eG }, 'forbidden');
  await act(gm, 'respond', undefined, eG);
  s = await settle(gm, players);
  assert.equal(s.enc.responder, eG);
  // his spin: 1 on the sheet, +1 for the failed attack, +1 for the doubles [10,10], -1 spent
  assert.equal(s.gm.enc.combatants[eG].stats.spin, 2);
  await refused(bob.client, 'enc.act', { action: 'move' }, 'rule', /Gorrak is responding/);
  // ... with a standard action: [8,2,6] + 2 = 10 vs [9,10] + 3, a natural 10 (+[9]) = 22: a miss
  r = await act(gm, 'attack', { target: eB, skill: 'Shadow Lore' }, eG);
  assert.deepEqual(r.log.find((e) => e.action === 'attack').result, { defence: 22, success: false });
  s = await settle(gm, players);
  assert.equal(s.enc.responder, null);
  assert.equal(s.enc.spotlight, eB, 'a response does not take the spotlight');

  // the free end-of-turn roll to shake off a condition (003:97): Endurance 3d10 [2,2,2] + 3 = 5,
  // with the left arm hindered by 2 (not Endurance): 5 against the GM's 9: it remains
  r = await act(bob.client, 'end', { shake: 'left arm' });
  assert.deepEqual(r.log[0].result, { total: 5, success: false });
  assert.equal(r.log[0].result.challenge, undefined, 'the challenge is the GM\'s');
  s = await settle(gm, players);
  assert.ok(s.enc.combatants[eB].conditions.some((c) => c.name === 'hinder:left arm' && c.level === 2));
  // Gorrak is the only other one in the spotlight and has acted: he chooses (003:89)
  assert.equal(s.enc.spotlight, eG);
  assert.equal(s.enc.choosing, true);
  await refused(gm, 'enc.act', { action: 'pass', actor: eG, params: { target: eB } }, 'rule', /cannot go to Brakka Vell: it goes to Missa, Goblin/);
  await act(gm, 'pass', { target: eQ }, eG);
  s = await settle(gm, players);
  assert.equal(s.enc.spotlight, eQ);
  assert.deepEqual(s.enc.acted, [eG, eB]);

  // the sheets hold what the encounter wrote; the players saw no /gm byte, no NPC skill or note
  assert.equal(s.chars[brakka].sheet.spin, 0);
  await settle(gm, players);
  assertNoGmBytes(players, ['Shadow Lore', 'Gorrak fears silver', '"challenge_dice":2', '"conds"']);

  // the encounter ends: positive spin is lost, negative spin stays (003:94)
  await ok(gm, 'enc.set', { path: `/enc/combatants/${eB}/stats/spin`, value: -3 });
  await ok(gm, 'char.update', { id: brakka, sheet: { ...s.chars[brakka].sheet, spin: -3 } });
  assert.ok(s.gm.npcs[gorrak].sheet.spin > 0, "Gorrak's positive spin is on his sheet");
  assert.equal(s.gm.npcs[gorrak].sheet.spin, s.gm.enc.combatants[eG].stats.spin);
  // issue 25 item 15: 003:74 "Stress is recovered automatically at the end of a scene"
  assert.ok(s.chars[brakka].sheet.stress.current > 0, 'Brakka leaves the fight stressed');
  const gorrakStressed = s.gm.npcs[gorrak].sheet.stress.current > 0;
  await ok(gm, 'enc.end', {});
  s = await settle(gm, players);
  assert.equal(s.gm.npcs[gorrak].sheet.spin, 0, 'positive spin is lost after the encounter');
  assert.equal(s.chars[brakka].sheet.spin, -3, 'negative spin stays');
  assert.equal(s.chars[brakka].sheet.stress.current, 0, 'stress is recovered when the fight ends');
  assert.equal(s.gm.npcs[gorrak].sheet.stress.current, 0);
  for (const p of players) {
    assert.ok(p.client.state.log.some((e) => /^Brakka Vell recovers all stress at the end of the scene$/.test(e.text)));
    assert.ok(!p.client.state.log.some((e) => /Gorrak recovers/.test(e.text)), "an NPC's stress is the GM's");
  }
  if (gorrakStressed) assert.ok(s.gm.log.some((e) => /^Gorrak recovers all stress/.test(e.text)));

  // replaying the log rebuilds the live state
  await gm.ping();
  const [zero] = srv.replay({ campaign: campaignId, fromZero: true });
  assert.equal(zero.seq, gm.seq);
  assert.deepEqual(zero.state, gm.state);
});

test('tenacity group initiative: the winner picks the group; the second group gets an advantage die', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '1'] });
  const { gm, players, campaignId } = await campaignOf(srv, t, 'tenacity', ['Ann']);
  const [ann] = players;
  const missa = await makeChar(ann.client, { name: 'Missa', sheet: sample('tenacity', 'missa') });
  await refused(gm, 'enc.start', { module: 'tenacity.spotlight', options: { group: 2 } }, 'bad_request');
  await ok(gm, 'enc.start', { module: 'tenacity.spotlight', options: { group: 1 } });
  const eM = (await ok(gm, 'enc.add', { char: missa })).id;
  const eQ = (await ok(gm, 'enc.add', { npc: { name: 'Goblin' } })).id;
  await ok(gm, 'enc.act', { action: 'initiative' });
  let s = await settle(gm, players);
  assert.equal(s.enc.spotlight, eM, 'Missa rolled highest');
  assert.deepEqual(s.enc.groups, ['party', 'foes']);
  assert.deepEqual(s.enc.edge, [eQ]);
  // 003:92 she lets the foes go first: the party becomes the second group and gets the edge
  await ok(ann.client, 'enc.act', { action: 'pass', params: { target: eQ } });
  s = await settle(gm, players);
  assert.deepEqual(s.enc.groups, ['foes', 'party']);
  assert.deepEqual(s.enc.edge, [eM]);
  assert.equal(s.enc.spotlight, eQ);
  await ok(gm, 'enc.act', { action: 'end' });
  s = await settle(gm, players);
  assert.equal(s.enc.spotlight, eM);
  // her first action rolls one more hero die: Telekinesis 2d10 + 1
  const r = await ok(ann.client, 'enc.act', { action: 'attack', params: { target: eQ, skill: 'Telekinesis' } });
  assert.equal(faces(r.log[0], 'attack').length, 3);
  s = await settle(gm, players);
  assert.deepEqual(s.enc.edge, []);
  await ok(ann.client, 'enc.act', { action: 'end' });
  s = await settle(gm, players);
  assert.equal(s.enc.round, 2);
  assert.equal(s.enc.spotlight, eQ, 'the foes go first again');
  assert.deepEqual(s.enc.edge, [eM]);
  assertNoGmBytes(players, ['"challenge_dice":2']);
  await gm.ping();
  const [zero] = srv.replay({ campaign: campaignId, fromZero: true });
  assert.deepEqual(zero.state, gm.state);
});
