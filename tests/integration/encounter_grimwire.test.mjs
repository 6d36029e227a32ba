// grimwire.conflict through the real server (issue 5): the rulebook's Cyrus/Kneecap reaction
// example played round by round exactly as 002:441-447 tells it, with PER initiative (002:401),
// light-weapon attacks by COR against the GM's hidden target number and damage through armor
// (002:567-579, 002:563, 002:749), passing (002:421), the refusals (out of turn, wrong owner, rules),
// secrecy of /gm and a replay of the log. Dice come from `--seed 2`; each assertion on a number
// also checks the rule that turns the dice into it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

// The GM's NPC: a delver-thug with armor 1 and a heavy weapon (a sheet under /gm/npcs).
const SCRAPPER = {
  name: 'Scrapper',
  level: 2,
  xp: 25,
  attributes: { tog: 3, agl: 0, cor: 2, mnd: -1, per: 1, rsn: 0 },
  condition: { current: 15, max: 15 },
  focus: { current: 0, max: 2 },
  armor: 1,
  weapons: [{ name: 'Rivet-cleaver', kind: 'heavy', damage: '1d8', tog_req: 2 }],
  notes: 'hates-salt',
};

const act = (client, action, actor, params) => {
  const args = { action };
  if (actor) args.actor = actor;
  if (params) args.params = params;
  return ok(client, 'enc.act', args);
};
const nope = (client, action, actor, params, code, re) => {
  const args = { action };
  if (actor) args.actor = actor;
  if (params) args.params = params;
  return refused(client, 'enc.act', args, code, re);
};
const dice = (entry) => (entry.dice || []).map((d) => `d${d.sides}:${d.value}`);
const entry = (res, action) => res.log.find((l) => l.action === action);

test('grimwire: the Cyrus/Kneecap reaction example, attacks through armor, passing, refusals, secrecy, replay', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '2'] });
  const { gm, players, campaignId } = await campaignOf(srv, t, 'grimwire');
  const [ann, bob] = players;
  const cyrusSheet = sample('grimwire', 'cyrus');
  const cyChar = await makeChar(ann.client, { name: 'Cyrus', sheet: cyrusSheet });
  const auChar = await makeChar(bob.client, { name: 'Aune', sheet: sample('grimwire', 'aune') });
  const scChar = await makeChar(gm, { name: 'Scrapper', sheet: SCRAPPER, npc: true });

  await ok(gm, 'enc.start', { module: 'grimwire.conflict' });
  const CY = (await ok(gm, 'enc.add', { char: cyChar })).id;
  const AU = (await ok(gm, 'enc.add', { char: auChar })).id;
  const SC = (await ok(gm, 'enc.add', { char: scChar })).id;
  assert.deepEqual([CY, AU, SC], ['e1', 'e2', 'e3']);
  let s = await settle(gm, players);
  assert.deepEqual(s.enc.budget, { action: 1, move: 1, aux: 1 }, '002:407-411 action, movement, auxiliary');
  assert.equal(s.enc.seconds_per_round, 6, '002:415');
  assert.equal(s.enc.combatants[CY].stats.armor, 2, "a PC's numbers are public");
  assert.equal(ann.client.state.enc.combatants[SC].stats, undefined, "an NPC's are not");
  assert.equal(s.gm.enc.combatants[SC].stats.armor, 1);

  // before initiative, and who may do what
  await nope(ann.client, 'attack', CY, { target: SC }, 'rule', /initiative first/);
  await nope(ann.client, 'begin', null, null, 'forbidden', /GM/);
  await nope(ann.client, 'set_tn', null, { target: SC, tn: 5 }, 'forbidden');
  await nope(bob.client, 'reaction', CY, { name: 'Kneecap' }, 'forbidden', /Cyrus is not your character/);
  await nope(gm, 'reaction', CY, { name: 'Kneecap' }, 'rule', /initiative first/);

  // the GM's hidden target numbers: 12 to hit Scrapper, 13 to evade his attacks (002:53)
  await act(gm, 'set_tn', null, { target: SC, tn: 12, attack_tn: 13 });

  // ---- initiative: d20 + PER, highest first (002:401) ----
  const begin = await act(gm, 'begin');
  const inits = begin.log.filter((l) => l.action === 'initiative');
  assert.deepEqual(inits.map((l) => [l.result.target, l.result.natural, l.result.total]), [
    [CY, 16, 18], // 16 + PER 2
    [AU, 3, 6], // 3 + PER 3
    [SC, 10, 11], // the GM's roll for the NPC: 10 + PER 1 (GM log)
  ]);
  s = await settle(gm, players);
  assert.deepEqual(s.enc.order, [CY, SC, AU], 'highest first');
  assert.deepEqual(s.enc.initiative, [CY, SC, AU]);
  assert.equal(s.enc.round, 1);
  assert.equal(s.enc.turn, 0);
  assert.equal(s.enc.combatants[CY].init, 18);
  assert.equal(s.enc.combatants[SC].init, undefined, "the NPC's total stays with the GM");
  assert.equal(s.gm.enc.combatants[SC].init, 11);
  const annBegin = ann.client.state.log.filter((l) => l.kind === 'enc' && l.action === 'initiative');
  assert.deepEqual(annBegin.map((l) => l.result.target), [CY, AU], "players see the PCs' rolls only");

  // ---- round 1: Cyrus acts (002:443 "Cyrus already acted this round") ----
  await nope(bob.client, 'end_turn', AU, null, 'rule', /it is Cyrus's turn, not Aune's/);
  await nope(bob.client, 'attack', CY, { target: SC }, 'forbidden', /Cyrus is not your character/);
  await nope(ann.client, 'attack', CY, { target: SC, tn: 2 }, 'forbidden', /only the GM sets target numbers/);
  await nope(ann.client, 'attack', CY, { target: CY }, 'rule', /themselves/);
  await nope(ann.client, 'attack', CY, { target: 'e9' }, 'not_found');

  // Machete (light, 1d6): COR 3 gives two attacks this turn (002:569-579)
  let r = await act(ann.client, 'attack', CY, { target: SC, weapon: 2 });
  let a = entry(r, 'attack');
  assert.deepEqual(dice(a), ['d20:14', 'd6:1']);
  assert.equal(a.result.attack.total, 17, '14 + COR 3');
  assert.equal(a.result.hit, true, '17 meets the hidden 12');
  assert.equal(a.result.damage, 3, '1d6 (1) + TOG 2 (002:563)');
  assert.ok(!JSON.stringify(r).includes('"tn"'), 'no target number in a player\'s ack');
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[CY].budget.attacks, 1, 'one more light-weapon attack');
  assert.equal(s.enc.combatants[CY].budget.action, 0);
  assert.equal(s.gm.enc.combatants[SC].stats.condition.current, 13, '15 - (3 - armor 1) (002:749)');

  r = await act(ann.client, 'attack', CY, { target: SC, weapon: 2 });
  a = entry(r, 'attack');
  assert.deepEqual(dice(a), ['d20:13', 'd6:5']);
  assert.equal(a.result.damage, 7, '5 + TOG 2');
  s = await settle(gm, players);
  assert.equal(s.gm.enc.combatants[SC].stats.condition.current, 7, '13 - (7 - 1)');
  assert.equal(s.gm.npcs[scChar].sheet.condition.current, 7, 'damage lands on the NPC sheet');
  assert.equal(s.gm.log.filter((l) => l.action === 'damage').length >= 2, true);
  await nope(ann.client, 'attack', CY, { target: SC, weapon: 2 }, 'rule', /every attack.*COR 3 gives 2/);
  await act(ann.client, 'end_turn', CY);

  // Scrapper moves toward Cyrus; Cyrus answers with Kneecap: round 2's action (002:443)
  s = await settle(gm, players);
  assert.equal(s.enc.order[s.enc.turn], SC);
  await act(gm, 'move', SC);
  await nope(ann.client, 'reaction', CY, { name: 'Fireball' }, 'rule', /no technique 'Fireball'/);
  r = await act(ann.client, 'reaction', CY, { name: 'Kneecap', focus: 1, target: SC });
  assert.equal(entry(r, 'reaction').result.uses_round, 2);
  await nope(ann.client, 'reaction', CY, { name: 'Kneecap', focus: 1 }, 'rule', /already spent round 2's action/);
  s = await settle(gm, players);
  assert.deepEqual(s.enc.combatants[CY].spent, { action: 2, aux: 0 });
  assert.equal(s.enc.combatants[CY].stats.focus.current, 5, 'Kneecap paid 1 Focus');
  assert.equal(s.chars[cyChar].sheet.focus.current, 5, 'on the sheet too');

  // Scrapper swings at Cyrus: Cyrus rolls AGL to evade against the GM's 13 (002:767-769)
  r = await act(gm, 'attack', SC, { target: CY });
  a = entry(r, 'attack');
  assert.deepEqual(dice(a), ['d20:18']);
  assert.equal(a.result.evade.total, 19, '18 + AGL 1');
  assert.equal(a.result.hit, false);
  await act(gm, 'end_turn', SC);

  // Aune: an auxiliary action, a second one for her action (002:431), then no more
  await act(bob.client, 'aux', AU, { what: 'shouts a warning' });
  await act(bob.client, 'aux', AU, { what: 'scans the alley' });
  await nope(bob.client, 'aux', AU, null, 'rule', /no auxiliary action left/);
  await nope(bob.client, 'pass', AU, null, 'rule', /already did something/);
  await act(bob.client, 'end_turn', AU);

  // ---- round 2: Cyrus has no action (it went to the round-1 reaction) ----
  s = await settle(gm, players);
  assert.equal(s.enc.round, 2);
  assert.deepEqual(s.enc.order, [CY, SC, AU]);
  assert.deepEqual(s.enc.combatants[CY].budget, { action: 0, move: 1, aux: 1 });
  await nope(ann.client, 'attack', CY, { target: SC }, 'rule', /no action in round 2: it was spent on a reaction/);
  await nope(ann.client, 'technique', CY, { name: 'Kneecap' }, 'rule', /no action in round 2/);
  await act(ann.client, 'move', CY);
  await nope(ann.client, 'move', CY, null, 'rule', /no movement left/);
  await act(ann.client, 'end_turn', CY);
  await act(gm, 'move', SC);
  // 002:445 "In the second round, Cyrus uses Kneecap again, using his action from the third round."
  r = await act(ann.client, 'reaction', CY, { name: 'Kneecap', focus: 1, target: SC });
  assert.equal(entry(r, 'reaction').result.uses_round, 3);
  s = await settle(gm, players);
  assert.deepEqual(s.enc.combatants[CY].spent, { action: 3, aux: 0 });
  assert.equal(s.enc.combatants[CY].stats.focus.current, 4);
  await act(gm, 'end_turn', SC);
  await act(bob.client, 'end_turn', AU);

  // ---- round 3: "all enemies hold their position" and Cyrus cannot take a normal action ----
  s = await settle(gm, players);
  assert.equal(s.enc.round, 3);
  assert.deepEqual(s.enc.combatants[CY].budget, { action: 0, move: 1, aux: 1 });
  await nope(ann.client, 'attack', CY, { target: SC }, 'rule', /no action in round 3: it was spent on a reaction/);
  await act(ann.client, 'end_turn', CY); // 002:447 "does not act this round"
  await act(gm, 'end_turn', SC); // holds position
  await act(bob.client, 'end_turn', AU);

  // ---- round 4: a round without an action behind him, Cyrus acts again (002:439) ----
  s = await settle(gm, players);
  assert.equal(s.enc.round, 4);
  assert.deepEqual(s.enc.combatants[CY].budget, { action: 1, move: 1, aux: 1 });
  // he passes to act after the others (002:421)
  await act(ann.client, 'pass', CY);
  s = await settle(gm, players);
  assert.deepEqual(s.enc.order, [SC, AU, CY]);
  assert.equal(s.enc.turn, 0);
  await act(gm, 'end_turn', SC);
  await act(bob.client, 'end_turn', AU);
  s = await settle(gm, players);
  assert.equal(s.enc.order[s.enc.turn], CY, 'his turn comes last');
  assert.equal(s.enc.round, 4);
  r = await act(ann.client, 'attack', CY, { target: SC, weapon: 2 });
  a = entry(r, 'attack');
  assert.deepEqual(dice(a), ['d20:19', 'd6:5']);
  assert.equal(a.result.damage, 7);
  s = await settle(gm, players);
  assert.equal(s.gm.enc.combatants[SC].stats.condition.current, 1, '7 - (7 - 1)');
  r = await act(ann.client, 'attack', CY, { target: SC, weapon: 2 });
  a = entry(r, 'attack');
  assert.deepEqual(dice(a), ['d20:8']);
  assert.equal(a.result.attack.total, 11);
  assert.equal(a.result.hit, false, '11 falls short of the hidden 12');
  await act(ann.client, 'end_turn', CY);
  s = await settle(gm, players);
  assert.equal(s.enc.round, 5);
  assert.deepEqual(s.enc.order, [CY, SC, AU], '002:421 back to the original places');
  // ---- round 5: Scrapper falls to 0 or below: dying (002:256) ----
  r = await act(ann.client, 'attack', CY, { target: SC, weapon: 2 });
  a = entry(r, 'attack');
  assert.deepEqual(dice(a), ['d20:19', 'd6:2']);
  assert.equal(a.result.damage, 4, '2 + TOG 2');
  assert.ok(entry(r, 'dying'), 'Scrapper is dying');
  s = await settle(gm, players);
  assert.equal(s.gm.enc.combatants[SC].stats.condition.current, -2, '1 - (4 - 1)');
  assert.equal(s.gm.enc.combatants[SC].stats.burnout, 1, 'Condition at 0 or below: burnout (002:226)');
  assert.deepEqual(s.enc.combatants[SC].conditions, [{ name: 'dying' }], 'everyone sees him fall');
  r = await act(ann.client, 'attack', CY, { target: SC, weapon: 2 });
  a = entry(r, 'attack');
  assert.deepEqual(dice(a), ['d6:2'], 'no attack roll: a dying target is hit automatically (002:256)');
  assert.equal(a.result.hit, true);
  r = await act(ann.client, 'end_turn', CY);
  assert.deepEqual(r.log.map((l) => l.action), ['end_turn', 'dying', 'skip'], 'his turn: -1 and it passes');
  s = await settle(gm, players);
  assert.equal(s.gm.enc.combatants[SC].stats.condition.current, -6, '-2 - 3, then -1 at his turn');
  assert.equal(s.enc.order[s.enc.turn], AU);
  await nope(gm, 'move', SC, null, 'rule', /it is Aune's turn/);
  r = await act(bob.client, 'attack', AU, { target: SC, weapon: 1 });
  a = entry(r, 'attack');
  assert.deepEqual(dice(a), ['d8:2'], 'a ranged weapon: no TOG');
  assert.equal(a.result.damage, 2);
  s = await settle(gm, players);
  assert.equal(s.gm.enc.combatants[SC].stats.condition.current, -7, '-6 - (2 - 1)');

  // the GM's damage: an edged blow through armor takes him below -10: dead (002:256)
  await nope(gm, 'damage', null, { target: SC, amount: 5, type: 'fire' }, 'bad_request', /unknown damage type 'fire'/);
  await nope(bob.client, 'damage', null, { target: SC, amount: 5 }, 'forbidden');
  r = await act(gm, 'damage', null, { target: SC, amount: 5, type: 'edged' });
  assert.ok(entry(r, 'dead'));
  s = await settle(gm, players);
  assert.equal(s.gm.enc.combatants[SC].stats.condition.current, -11, '-7 - (5 - 1)');
  assert.equal(s.enc.combatants[SC].out, 'dead');
  assert.deepEqual(s.enc.combatants[SC].conditions, []);
  await nope(bob.client, 'attack', AU, { target: SC }, 'rule', /out of the fight/);

  // a stun for one turn: Aune cannot act or move on her next turn (002:824)
  await act(bob.client, 'end_turn', AU);
  await act(gm, 'status', null, { target: AU, name: 'stun', turns: 1 }); // during Cyrus's turn
  await act(ann.client, 'end_turn', CY); // the dead are skipped
  s = await settle(gm, players);
  assert.equal(s.enc.round, 6);
  assert.equal(s.enc.order[s.enc.turn], AU);
  assert.deepEqual(s.enc.combatants[AU].budget, { action: 0, move: 0, aux: 1 });
  assert.deepEqual(s.chars[auChar].sheet.status, ['stun'], 'on her sheet');
  await nope(bob.client, 'attack', AU, { target: CY }, 'rule', /stunned: cannot act or move/);
  await nope(bob.client, 'move', AU, null, 'rule', /stunned/);
  r = await act(bob.client, 'end_turn', AU);
  assert.ok(r.log.some((l) => /no longer stun/.test(l.text)));
  s = await settle(gm, players);
  assert.deepEqual(s.chars[auChar].sheet.status, []);
  assert.equal(s.enc.round, 7);

  // ---- secrecy and replay ----
  s = await settle(gm, players);
  assertNoGmBytes(players, ['hates-salt', '"tn"', 'attack_tn', '"init":11']);
  await gm.ping();
  const [zero] = srv.replay({ campaign: campaignId, fromZero: true });
  assert.deepEqual(zero.state, gm.state);
});

test("grimwire: a player's attack before the GM set the target number waits for it, then rolls (issue 15)", async (t) => {
  const srv = await startServer(t, { args: ['--seed', '2'] });
  const { gm, players } = await campaignOf(srv, t, 'grimwire');
  const [ann, bob] = players;
  const cyChar = await makeChar(ann.client, { name: 'Cyrus', sheet: sample('grimwire', 'cyrus') });
  const auChar = await makeChar(bob.client, { name: 'Aune', sheet: sample('grimwire', 'aune') });
  const scChar = await makeChar(gm, { name: 'Scrapper', sheet: SCRAPPER, npc: true });
  await ok(gm, 'enc.start', { module: 'grimwire.conflict' });
  const CY = (await ok(gm, 'enc.add', { char: cyChar })).id;
  await ok(gm, 'enc.add', { char: auChar });
  const SC = (await ok(gm, 'enc.add', { char: scChar })).id;
  await act(gm, 'begin'); // no target numbers set: Cyrus acts first (the seed of the test above)
  // the player is not refused and not asked for the number: the attack waits, no die is rolled
  const r = await act(ann.client, 'attack', CY, { target: SC, weapon: 2 });
  const waitLine = entry(r, 'attack');
  assert.match(waitLine.text, /Cyrus attacks Scrapper: the GM names the target number/);
  assert.deepEqual(dice(waitLine), []);
  let s = await settle(gm, players);
  assert.deepEqual(ann.client.state.enc.waiting, { attacker: CY, target: SC }, 'the table sees the attack wait');
  assert.equal(s.gm.enc.waiting.attacker, CY, 'the GM is asked');
  assert.ok(s.gm.log.some((l) => /waits for the target number to hit Scrapper/.test(l.text)), "the GM's log asks for the number");
  assert.equal(s.enc.combatants[CY].budget.action, 0, 'the attack spent its action, as declared');
  // everything else waits for the number, and a refusal changes nothing
  await nope(ann.client, 'attack', CY, { target: SC, weapon: 2 }, 'rule', /Cyrus's attack waits for the GM's target number/);
  await nope(ann.client, 'end_turn', CY, null, 'rule', /waits for the GM's target number/);
  await nope(gm, 'damage', null, { target: CY, amount: 1 }, 'rule', /waits/);
  // the GM names it: the attack is rolled now, as Cyrus's
  const set = await act(gm, 'set_tn', null, { target: SC, tn: 12 });
  const a = entry(set, 'attack');
  assert.equal(a.actor, CY, "the attack line is the attacker's");
  assert.deepEqual(dice(a), ['d20:14', 'd6:1'], 'the dice the attack would have rolled at once');
  assert.equal(a.result.hit, true, '17 meets the hidden 12');
  assert.equal(a.result.damage, 3);
  s = await settle(gm, players);
  assert.equal(s.enc.waiting, undefined);
  assert.equal(s.gm.enc.waiting, undefined);
  assert.equal(s.gm.enc.combatants[SC].stats.condition.current, 13, 'the damage landed');
  assert.ok(ann.client.state.log.some((l) => l.action === 'attack' && l.result?.hit === true), 'everyone sees the outcome');
  assert.equal(s.enc.combatants[CY].budget.attacks, 1, 'the second light-weapon attack is still there');
  await act(ann.client, 'attack', CY, { target: SC, weapon: 2 }); // the number is known now: at once
  assertNoGmBytes(players, ['"tn":12']);
});
