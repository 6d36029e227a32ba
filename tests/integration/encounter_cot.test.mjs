// City of Thieves encounters through the real server (issue 5): a heist in initiative slots
// where the crew gets the Drop on a watchman (000:101-119), then the Gang Warfare that follows
// (000:121-136) with a Focus Round (000:38-40), Cover lowered to Wounded and then Dead. Seeded
// dice (--seed 5): the faces below are what that seed gives, and every consequence asserted is
// the rulebook's (000 = rulebook 000_d2a475e9ec148dd1.txt). Out-of-turn, wrong-owner and
// rule-breaking actions are refused with nothing changed; no GM byte reaches a player; the log
// replays to the live state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

// A watchman: Training = 3 x Muscle 2 + Resist 1 = 7 (000:196, 000:198).
const WATCHMAN = (name) => ({
  name,
  abilities: { muscle: 2, fingers: 1, brains: 2, it: 1 },
  skills: { resist: 1, athletics: 1, lookout: 1, hand_to_hand: 1 },
  notes: 'owes the crew boss money',
});

const slots = (s) => s.enc.order.map((x) => [x.total, x.side, x.claimed_by]);
const faces = (entry) => entry.dice.map((d) => d.value);

test('cot: the Drop in a heist, then Gang Warfare with a Focus Round, Cover to Wounded to Dead', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '5'] });
  const { gm, players, campaignId } = await campaignOf(srv, t, 'cot', ['Ann', 'Bob']);
  const [ann, bob] = players;
  const vera = await makeChar(ann.client, { name: 'Vera Lockhart', sheet: sample('cot', 'vera_lockhart') });
  const tommy = await makeChar(bob.client, { name: 'Big Tommy Rourke', sheet: sample('cot', 'big_tommy_rourke') });
  const briggs = await makeChar(gm, { name: 'Watchman Briggs', sheet: WATCHMAN('Watchman Briggs'), npc: true });
  const cole = await makeChar(gm, { name: 'Watchman Cole', sheet: WATCHMAN('Watchman Cole'), npc: true });

  // ---- the heist: initiative Brains+Planning (000:33) ----
  await ok(gm, 'enc.start', { module: 'cot.initiative', options: { stage: 'heist' } });
  const V = (await ok(gm, 'enc.add', { char: vera })).id;
  const T = (await ok(gm, 'enc.add', { char: tommy })).id;
  const B = (await ok(gm, 'enc.add', { char: briggs, side: 'guards' })).id;
  const C = (await ok(gm, 'enc.add', { char: cole, side: 'guards' })).id;
  let s = await settle(gm, players);
  assert.equal(s.enc.pool, 'Brains+Planning');
  // every total is a slot of its side, highest first (000:37)
  assert.deepEqual(slots(s), [[11, 'guards', null], [7, 'party', null], [4, 'party', null], [4, 'guards', null]]);
  const inits = s.log.filter((e) => e.action === 'initiative');
  assert.deepEqual(inits.map((e) => e.text), [
    'Vera Lockhart rolls initiative (Brains+Planning): 3k2 → 6 1 [1] = 7: a slot 7 for the party',
    'Big Tommy Rourke rolls initiative (Brains+Planning): 1k1 → 4 = 4: a slot 4 for the party',
    'A slot 4 for the guards', // Briggs
    'A slot 11 for the guards', // Cole
  ]);
  assert.equal(inits[2].dice, undefined, "a watchman's dice are the GM's");
  assert.equal(s.gm.log.filter((e) => e.action === 'initiative').length, 2);

  await refused(ann.client, 'enc.act', { action: 'wait', actor: V }, 'rule', /has not started/);
  await refused(bob.client, 'enc.act', { action: 'begin' }, 'forbidden');
  await ok(gm, 'enc.act', { action: 'begin' });
  s = await settle(gm, players);
  assert.equal(s.enc.round, 1);
  assert.equal(s.enc.turn, 0);

  // slot 11 is the guards': out of turn for the crew; Ann cannot act for Bob's Tommy
  await refused(ann.client, 'enc.act', { action: 'wait', actor: V }, 'rule', /^it is slot 11's turn, owned by the guards$/);
  await refused(ann.client, 'enc.act', { action: 'wait', actor: T }, 'forbidden', /Big Tommy Rourke is not your character/);
  await ok(gm, 'enc.act', { action: 'wait', actor: B });
  s = await settle(gm, players);
  assert.deepEqual(slots(s), [[11, 'guards', B], [7, 'party', null], [4, 'party', null], [4, 'guards', null]]);
  assert.equal(s.enc.turn, 1);

  // slot 7: Tommy gets the Drop on Briggs with his Brass knuckles (Blunt: a Subdue roll, 000:102)
  await refused(bob.client, 'enc.act', { action: 'drop', actor: T, params: { target: B, skill: 'shooting' } }, 'rule', /Shooting needs a weapon/);
  const drop = await ok(bob.client, 'enc.act', { action: 'drop', actor: T, params: { target: B, weapon: 'Brass knuckles' } });
  // Muscle 3 + Hand to Hand 3 + knuckles 1 = 7 dice, keep 3: 16 against Training 7, by 9:
  // "Attacker Succeeds by 6+: Target is Unconscious" (000:110), and not Aware
  assert.equal(drop.log[0].text, 'Big Tommy Rourke takes slot 7 and gets the Drop on Watchman Briggs (Subdue roll, Hand to Hand, Brass knuckles): 7k3 → 6 5 5 [5 4 2 2] = 16: Unconscious');
  assert.deepEqual(drop.log[0].result, { roll: 'subdue', target: B, outcome: 'Unconscious', rolled: 7, keep: 3, kept: [6, 5, 5], total: 16, catastrophe: false, bonus: 1 });
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[B].out, 'unconscious');
  assert.deepEqual(s.enc.combatants[B].conditions, []);
  assert.deepEqual(s.enc.combatants[C].conditions, [], 'a silent Subdue leaves Cole unaware (000:119)');
  const dropGm = s.gm.log.at(-1).result;
  assert.deepEqual([dropGm.training, dropGm.margin, dropGm.success, dropGm.total], [7, 9, true, 16]);
  assert.equal(ann.client.state.log.at(-1).result.training, undefined, "the watchman's Training stays the GM's");
  assert.deepEqual(slots(s), [[11, 'guards', B], [7, 'party', T], [4, 'party', null], [4, 'guards', null]]);

  // slot 4 (party): Tommy has had his slot this round (000:38); Vera takes it
  await refused(bob.client, 'enc.act', { action: 'wait', actor: T }, 'rule', /Big Tommy Rourke has already taken a slot this round \(slot 7\)/);
  await ok(ann.client, 'enc.act', { action: 'claim', actor: V });
  await refused(bob.client, 'enc.act', { action: 'wait', actor: T }, 'rule', /slot 4 is claimed by Vera Lockhart/);
  await ok(ann.client, 'enc.act', { action: 'wait', actor: V });
  await ok(gm, 'enc.act', { action: 'wait', actor: C });
  s = await settle(gm, players);
  assert.equal(s.enc.round, 2);
  assert.deepEqual(slots(s), [[11, 'guards', null], [7, 'party', null], [4, 'party', null], [4, 'guards', null]]);

  // round 2: only Cole is left to take the guards' slots; then the body is found
  await ok(gm, 'enc.act', { action: 'wait', actor: C });
  await ok(gm, 'enc.act', { action: 'alert', params: { target: C } });
  await refused(bob.client, 'enc.act', { action: 'drop', actor: T, params: { target: C } }, 'rule', /Watchman Cole is Aware: getting the Drop needs an unaware target/);
  s = await settle(gm, players);
  assert.deepEqual(s.enc.combatants[C].conditions, [{ name: 'aware' }]);
  await ok(gm, 'enc.end', {});

  // ---- Gang Warfare: initiative Muscle+Athletics, then Cover (000:123) ----
  await ok(gm, 'enc.start', { module: 'cot.warfare' });
  const V2 = (await ok(gm, 'enc.add', { char: vera })).id;
  const T2 = (await ok(gm, 'enc.add', { char: tommy })).id;
  const C2 = (await ok(gm, 'enc.add', { char: cole, side: 'guards' })).id;
  s = await settle(gm, players);
  assert.deepEqual(slots(s), [[13, 'party', null], [11, 'guards', null], [1, 'party', null]]);
  // Cover: Muscle+Resist with the armour's bonus dice; a PC's public, an NPC's the GM's
  assert.equal(s.enc.combatants[V2].stats.cover, 2);
  assert.equal(s.enc.combatants[T2].stats.cover, 15);
  assert.equal(s.gm.enc.combatants[C2].stats.cover, 4);
  assert.equal(ann.client.state.enc.combatants[C2].stats, undefined);
  const tommyCover = s.log.filter((e) => e.action === 'cover' && e.actor === T2).at(-1);
  // Muscle 3 + Resist 2 + 1 (the coat) = 6 dice, keep 3: 6 6 3 = 15
  assert.deepEqual(faces(tommyCover), [6, 2, 6, 1, 3, 1]);
  assert.deepEqual(tommyCover.result, { rolled: 6, keep: 3, kept: [6, 6, 3], total: 15, catastrophe: false, bonus: 1, cover: 15 });
  assert.ok(s.enc.combatants[T2].conditions.some((c) => c.name === 'wounded'), "Tommy's sheet says Wounded");

  await ok(gm, 'enc.act', { action: 'begin' });
  await refused(gm, 'enc.act', { action: 'attack', actor: C2, params: { target: T2 } }, 'rule', /^it is slot 13's turn, owned by the party$/);

  // the crew's Focus Round: Tommy takes it, Vera gives him her slot (000:40)
  await refused(ann.client, 'enc.act', { action: 'give', actor: V2 }, 'rule', /no Focus Round/);
  await refused(ann.client, 'enc.act', { action: 'focus', actor: T2 }, 'forbidden');
  await ok(bob.client, 'enc.act', { action: 'focus', actor: T2 });
  await refused(ann.client, 'enc.act', { action: 'focus', actor: V2 }, 'rule', /Big Tommy Rourke's Focus Round is under way/);
  await ok(ann.client, 'enc.act', { action: 'give', actor: V2 });
  s = await settle(gm, players);
  assert.deepEqual(s.enc.focus, { by: T2, round: 1, given: [V2] });

  // slot 13: 17 against Cover 4 exceeds it by 13: Cover 0, Wounded, 9 days (000:134-135)
  const hit1 = await ok(bob.client, 'enc.act', { action: 'attack', actor: T2, params: { target: C2, weapon: 'Brass knuckles' } });
  assert.equal(hit1.log[0].text, 'Big Tommy Rourke takes slot 13 and attacks Watchman Cole (Hand to Hand, Brass knuckles): 7k3 → 6 6 5 [3 3 2 2] = 17: Watchman Cole is Wounded');
  assert.equal(hit1.log[0].result.cover, undefined, "Cole's Cover is not in the public entry");
  s = await settle(gm, players);
  assert.equal(s.gm.enc.combatants[C2].stats.cover, 0);
  assert.equal(s.gm.enc.combatants[C2].stats.recovery_days, 9);
  const { cover_before, damage, cover, hit, recovery_days } = s.gm.log.at(-1).result; // and the public numbers
  assert.deepEqual({ cover_before, damage, cover, hit, recovery_days }, { cover_before: 4, damage: 13, cover: 0, hit: true, recovery_days: 9 });
  assert.deepEqual(s.enc.combatants[C2].conditions, [{ name: 'wounded' }]);
  assert.equal(s.enc.combatants[C2].out, undefined);

  // slot 11: Cole hits back: 7 does not exceed Tommy's Cover 15: it drops by 1 (000:134)
  const back = await ok(gm, 'enc.act', { action: 'attack', actor: C2, params: { target: T2 } });
  assert.equal(back.log[0].text, 'Watchman Cole takes slot 11 and attacks Big Tommy Rourke (Hand to Hand, bare hands): Big Tommy Rourke loses Cover');
  assert.deepEqual(back.log[0].result, { target: T2, outcome: 'cover', cover_before: 15, damage: 1, cover: 14, hit: false });
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[T2].stats.cover, 14);
  assert.equal(s.log.at(-1).dice, undefined, "the watchman's dice are the GM's");

  // slot 1 is the party's: Vera gave hers; Tommy takes a second slot
  await refused(ann.client, 'enc.act', { action: 'wait', actor: V2 }, 'rule', /Vera Lockhart gave this round's slot to Big Tommy Rourke's Focus Round/);
  const hit2 = await ok(bob.client, 'enc.act', { action: 'attack', actor: T2, params: { target: C2, weapon: 'Brass knuckles' } });
  // 13 against Cover 0 of a Wounded man: Dead (000:136)
  assert.equal(hit2.log[0].text, 'Big Tommy Rourke takes slot 1 and attacks Watchman Cole (Hand to Hand, Brass knuckles): 7k3 → 6 4 3 [2 2 1 1] = 13: Watchman Cole is Dead');
  assert.deepEqual(hit2.log.slice(1).map((e) => e.text), ["Big Tommy Rourke's Focus Round is over", 'Round 2 begins']);
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[C2].out, 'dead');
  assert.equal(s.enc.focus, undefined);
  assert.equal(s.enc.round, 2);
  await refused(bob.client, 'enc.act', { action: 'focus', actor: T2 }, 'rule', /already taken a Focus Round this session/);

  // wounds and the Focus Round land on the sheets
  assert.equal(s.gm.npcs[cole].sheet.wounded, true);
  assert.equal(s.gm.npcs[cole].sheet.recovery_days, 9);
  assert.equal(s.chars[tommy].sheet.focus_used, true);
  assert.equal(bob.client.state.chars[tommy].sheet.focus_used, true);

  // round 2: the guards' slot passes, nobody is left to take it (000:38)
  await ok(ann.client, 'enc.act', { action: 'wait', actor: V2 });
  s = await settle(gm, players);
  assert.equal(s.log.at(-1).text, 'Slot 11 (guards) passes: nobody on that side can take it');
  assert.equal(s.enc.turn, 2);
  assert.deepEqual(slots(s), [[13, 'party', V2], [11, 'guards', null], [1, 'party', null]]);
  await refused(ann.client, 'enc.act', { action: 'attack', actor: V2, params: { target: C2 } }, 'rule', /already taken a slot this round/);
  await refused(bob.client, 'enc.act', { action: 'attack', actor: T2, params: { target: C2 } }, 'rule', /Watchman Cole is out of the fight \(dead\)/);

  s = await settle(gm, players);
  assert.deepEqual(ann.client.state.enc, s.enc, 'players see the public encounter');
  assertNoGmBytes(players, [
    'owes the crew boss money',
    "Watchman Briggs's Training",
    "Watchman Cole's Cover",
    'Watchman Cole rolls initiative',
    'Watchman Cole takes cover: Resist',
  ]);

  // replaying the log rebuilds the live state
  await gm.ping();
  const [zero] = srv.replay({ campaign: campaignId, fromZero: true });
  assert.equal(zero.seq, gm.seq);
  assert.deepEqual(zero.state, gm.state);
});
