// heimr.combat through the real server (issue 5; rulebook 001_660a93111b0de833.txt, cited
// 001:LINE): Astrid Ironhand and Liesbeth van Dam (the samples, one per player) against a bandit
// NPC. Initiative (001:242); Astrid readies an attack "until the bandit moves toward Liesbeth"
// (001:248, the book's own example of a trigger: "an opponent enters this square ... make an
// attack against that opponent") which fires in the bandit's turn and moves her to the turn
// before him (001:250); Liesbeth delays until after Astrid (001:246); attacks against pre-rolled
// defences (001:420, 444-446) with the repeated-dodge penalty (001:426); body parts from the
// attack's d6 (001:413), injuries and their effects (001:153-166); fatigue (001:284-310);
// effects lasting half their seconds in turns (001:270); a breather (001:383).
// The dice come from --seed 5; every consequence asserted below follows from them by the rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const BANDIT = {
  name: 'Bandit',
  attributes: { str: 1, dex: -2, sta: 1, int: 0, soc: 0, emp: 0 },
  hp: 2,
  hp_max: 2,
  willpower: 1,
  willpower_max: 1,
  fatigue: 3,
  abilities: [{ name: 'Axe fighting', attributes: ['str'], base_consistency: 1, trained_consistency: 1 }],
  notes: 'paid by the mayor',
};

test('heimr.combat: a readied attack and a delay move characters in the order; attacks against pre-rolled defences; an injury', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '5'] });
  const { gm, players, campaignId } = await campaignOf(srv, t, 'heimr');
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

  await no(ann.client, 'attack', A, { target: B, item: 'Longsword' }, 'rule', /not started/);
  await no(ann.client, 'begin', undefined, {}, 'forbidden', /GM/);

  // ---- initiative: dexterity as C, willpower as P (001:242) ----
  const begin = await act(gm, 'begin');
  let s = await settle(gm, players);
  assert.deepEqual(s.enc.order, [A, L, B]);
  assert.equal(s.enc.round, 1);
  assert.equal(s.enc.turn, 0);
  assert.equal(s.enc.seconds, 0);
  assert.equal(s.enc.turn_seconds, 2, '001:238 every turn lasts two seconds');
  // Astrid: C1 (dex) P3 (willpower): d6 6, d10 7 → 7 + 3 = 10; Liesbeth C2 P5: 1, 4 4 → 4 + 5 = 9
  assert.equal(s.enc.combatants[A].init, 10);
  assert.equal(s.enc.combatants[L].init, 9);
  const initA = begin.log.find((l) => l.action === 'initiative' && /Astrid/.test(l.text));
  assert.deepEqual(initA.dice.map((d) => d.value), [6, 7]);
  assert.equal(initA.result.consistency, 1);
  assert.equal(initA.result.potential, 3);
  // the bandit (C-2 P1: d6 2, d10 6 7 → lowest 2 + 1 = 3) rolls in the GM log only
  assert.equal(s.gm.enc.combatants[B].init, 3);
  assert.equal(s.enc.combatants[B].init, undefined);
  assert.equal(s.enc.combatants[B].stats, undefined, 'an NPC has no public stats');
  assert.ok(begin.log.some((l) => /Bandit rolls initiative/.test(l.text)), "the GM's ack carries the GM-only entries");
  assert.ok(s.gm.log.some((l) => /Bandit rolls initiative/.test(l.text)));
  assert.ok(!s.log.some((l) => /Bandit rolls initiative/.test(l.text)), 'NPC initiative is hidden');

  // out of turn, and a player acting for another's character
  await no(bob.client, 'attack', L, { target: B, item: 'Bow', ranged: true }, 'rule', /Astrid Ironhand's turn/);
  await no(ann.client, 'end_turn', L, {}, 'forbidden', /Liesbeth van Dam is not your character/);
  await no(ann.client, 'attack', A, { target: A, item: 'Longsword' }, 'rule', /themselves/);
  await no(ann.client, 'attack', A, { target: B, ability: 'Knitting' }, 'rule', /no ability 'Knitting'/);

  // ---- round 1, Astrid: readies an attack (001:248) and pre-rolls a block at the end of her turn ----
  await act(ann.client, 'ready', A, { trigger: 'the bandit moves toward Liesbeth', target: B, item: 'Longsword', damage: 2 });
  await no(ann.client, 'attack', A, { target: B, item: 'Longsword' }, 'rule', /no standard left/);
  await no(ann.client, 'delay', A, { target: L, when: 'after' }, 'rule', /start of the turn/);
  await no(ann.client, 'ready', A, { trigger: 'again' }, 'rule', /already has a readied action/);
  await no(ann.client, 'trigger', A, { target: B }, 'rule', /another character's turn/);
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[A].readied, true);
  assert.equal(s.enc.combatants[A].ready.trigger, 'the bandit moves toward Liesbeth');
  assert.equal(s.enc.combatants[A].budget.standard, 0);
  const endA = await act(ann.client, 'end_turn', A, { defence: 'block', item: 'Medium shield' });
  // block with Shield and sword C1 P3 + shield P3: d6 2, d10 5 → 5 + 6 = 11 (001:395, 422)
  s = await settle(gm, players);
  assert.deepEqual(s.enc.combatants[A].defence.result, 11);
  assert.equal(s.enc.combatants[A].defence.kind, 'block');
  assert.equal(s.enc.combatants[A].stance, 'block');
  assert.deepEqual(endA.log.find((l) => l.action === 'defend').dice.map((d) => d.value), [2, 5]);
  assert.equal(s.enc.turn, 1, "Liesbeth's turn");
  await no(ann.client, 'defend', A, { kind: 'dodge' }, 'rule', /already holds a pre-rolled block/);

  // ---- Liesbeth shoots the bandit, who holds no defence: a dodge is rolled for him first ----
  const shot = await act(bob.client, 'attack', L, { target: B, item: 'Bow', ranged: true, damage: 1 });
  const shotEntry = shot.log.find((l) => l.action === 'attack');
  // Archery C1 P1 + bow P1: d6 6, d10 3 → 6 + 2 = 8; the d6 6 is the torso (001:413)
  assert.equal(shotEntry.result.attack.result, 8);
  assert.equal(shotEntry.result.hit, true);
  assert.equal(shotEntry.result.part, 'torso');
  assert.equal(shotEntry.result.defence, undefined, "the bandit's dodge is not public");
  assert.equal(shotEntry.text, 'Liesbeth van Dam attacks Bandit (dodge): hit, torso (d6 6)');
  s = await settle(gm, players);
  assert.equal(s.gm.enc.combatants[B].stats.hp, 1, '2 - 1');
  assert.equal(s.enc.combatants[B].injury, undefined, 'HP 1: not injured (001:145)');
  assert.deepEqual(s.enc.combatants[B].defended, { dodge: 1 }, 'one dodge used (001:426)');
  // his dodge (Agility C0 P-2: d6 2 → 0) had 2 before potential, below his fatigue 3: it fails
  // (001:284), so the hit lands whatever the numbers
  const gmShot = s.gm.log.find((l) => l.action === 'attack' && /dodge \(0\) fails its fatigue/.test(l.text));
  assert.ok(gmShot, 'the GM sees the failed dodge');
  assert.equal(gmShot.result.defence.result, 0);
  await act(bob.client, 'end_turn', L, {});
  s = await settle(gm, players);
  // Liesbeth's end-of-turn dodge: Agility C0 P2, d6 5 → 7
  assert.equal(s.enc.combatants[L].defence.result, 7);
  assert.deepEqual(s.enc.order, [A, L, B]);
  assert.equal(s.enc.turn, 2, "the bandit's turn");
  assert.equal(s.enc.combatants[B].defended, undefined, 'his defence uses are restored at the start of his turn (001:428)');

  // ---- the bandit moves: Astrid's trigger occurs; she moves to the turn before him (001:250) ----
  await act(gm, 'act', B, { type: 'free', what: 'moves toward Liesbeth' });
  await no(gm, 'act', B, { type: 'free', what: 'Moves toward Liesbeth' }, 'rule', /already used the free action/);
  await no(bob.client, 'trigger', A, { target: B }, 'forbidden');
  await no(bob.client, 'trigger', L, { target: B }, 'rule', /no readied action/);
  const fired = await act(ann.client, 'trigger', A, { target: B });
  s = await settle(gm, players);
  assert.deepEqual(s.enc.order, [L, A, B], 'Astrid now acts just before the bandit');
  assert.equal(s.enc.turn, 2, "still the bandit's turn");
  assert.equal(s.enc.combatants[A].readied, undefined);
  assert.equal(s.enc.combatants[A].ready, undefined);
  const hitB = fired.log.find((l) => l.action === 'attack');
  // Swordmanship C3 P3 + longsword P3: d6 1, d10 4 7 5 → 7 + 6 = 13; d6 1: the left leg
  assert.equal(hitB.result.attack.result, 13);
  assert.equal(hitB.result.part, 'left_leg');
  assert.equal(hitB.result.hit, true);
  assert.equal(hitB.result.fatigue_rose, true, "Astrid's d6 1 is below her fatigue 2 (001:286)");
  assert.match(hitB.text, /^Readied: Astrid Ironhand attacks Bandit \(dodge\): hit, left leg \(d6 1\); Bandit is injured \(left leg\): fall/);
  assert.equal(s.gm.enc.combatants[B].stats.hp, -1);
  assert.equal(s.enc.combatants[B].injury, 'bloodied', '0 or -1 (001:164)');
  assert.deepEqual(s.enc.combatants[B].conditions.map((c) => c.name), ['fall', 'prone'], 'a leg injury: fall (001:156)');
  assert.deepEqual(s.gm.enc.combatants[B].stats.injuries, ['left_leg']);
  assert.equal(s.gm.npcs[bandit].sheet.hp, -1, 'damage lands on the NPC sheet');
  assert.deepEqual(s.gm.npcs[bandit].sheet.injuries, ['left_leg']);
  assert.equal(s.enc.combatants[A].stats.fatigue, 3);
  assert.equal(s.chars[astrid].sheet.fatigue, 3, 'fatigue lands on the sheet');

  // the bandit's axe against Liesbeth's pre-rolled dodge 7; prone: C-2 (001:434)
  const axe = await act(gm, 'attack', B, { target: L, ability: 'Axe fighting', damage: 2 });
  const axePub = axe.log.find((l) => l.action === 'attack' && !l.dice);
  assert.equal(axePub.text, "Bandit attacks Liesbeth van Dam (dodge): miss; Liesbeth van Dam's dodge: 7");
  s = await settle(gm, players);
  const axeGm = s.gm.log.findLast((l) => l.action === 'attack');
  assert.equal(axeGm.result.attack.consistency, 0, 'Axe fighting C2, prone -2');
  assert.equal(axeGm.result.attack.result, 5);
  assert.equal(s.enc.combatants[L].defence, undefined, 'the dodge is used up');
  assert.deepEqual(s.enc.combatants[L].defended, { dodge: 1 });
  assert.ok(!s.log.some((l) => l.action === 'attack' && l.actor === B && l.dice), 'no NPC attack dice in the public log');
  await act(gm, 'end_turn', B, {});

  // ---- round 2: the bandit's end-of-turn dodge carries the penalty of his earlier dodge ----
  s = await settle(gm, players);
  assert.equal(s.enc.round, 2);
  assert.equal(s.enc.seconds, 2);
  assert.equal(s.enc.turn, 0);
  const bDef = s.gm.enc.combatants[B].defence;
  // Agility C0: -2 for the one dodge since his turn began (001:426), -2 prone (001:434)
  assert.equal(bDef.situational, 4);
  assert.equal(bDef.consistency, -4);
  assert.deepEqual([bDef.d6, ...bDef.d10s], [2, 1, 6, 10, 4]);
  assert.equal(bDef.result, -1, 'lowest 1, P-2');
  assert.equal(s.enc.combatants[B].stance, 'dodge');
  assert.equal(s.enc.combatants[B].defence, undefined, "the bandit's defence value stays hidden");

  // ---- Liesbeth delays until after Astrid (001:246) ----
  await no(ann.client, 'delay', A, { target: L, when: 'after' }, 'rule', /Liesbeth van Dam's turn/);
  await act(bob.client, 'delay', L, { target: A, when: 'after' });
  s = await settle(gm, players);
  assert.deepEqual(s.enc.order, [A, L, B]);
  assert.equal(s.enc.turn, 0, "Astrid's turn now");
  assert.deepEqual(s.enc.combatants[L].delayed, { when: 'after', of: A });

  const second = await act(ann.client, 'attack', A, { target: B, item: 'Longsword', damage: 2 });
  const sEntry = second.log.find((l) => l.action === 'attack');
  assert.equal(sEntry.result.attack.result, 13);
  assert.equal(sEntry.result.part, 'torso');
  s = await settle(gm, players);
  assert.equal(s.gm.enc.combatants[B].stats.hp, -3);
  assert.equal(s.enc.combatants[B].injury, 'mangled', '-2 or -3 (001:165)');
  assert.deepEqual(s.enc.combatants[B].dying, { unconscious: 152, dead: 302 }, '5 and 10 minutes of 2-second rounds');
  assert.ok(s.enc.combatants[B].conditions.some((c) => c.name === 'daze'), 'a torso injury: daze (001:157)');
  assert.deepEqual(s.enc.combatants[B].defended, { dodge: 2 });
  assert.deepEqual(s.gm.npcs[bandit].sheet.injuries, ['left_leg', 'torso']);

  // ---- effects last half their seconds in turns (001:270): stumble 5 → 2 turns ----
  await no(ann.client, 'effect', undefined, { target: B, effect: 'daze' }, 'forbidden');
  await act(gm, 'effect', undefined, { target: A, effect: 'stumble', value: 5 });
  s = await settle(gm, players);
  assert.deepEqual(s.enc.combatants[A].conditions, [{ name: 'stumble', turns: 2 }]);
  await act(ann.client, 'end_turn', A, {});
  s = await settle(gm, players);
  assert.deepEqual(s.enc.combatants[A].conditions, [{ name: 'stumble', turns: 1 }], 'one of its turns has passed');
  assert.deepEqual(s.enc.combatants[L].delayed, { when: 'after', of: A }, 'the delayed marker stays until her turn ends');
  assert.equal(s.enc.turn, 1);

  // ---- Liesbeth's shot fails her fatigue (001:284): the bandit need not defend ----
  const weak = await act(bob.client, 'attack', L, { target: B, item: 'Bow', ranged: true, damage: 1 });
  const wEntry = weak.log.find((l) => l.action === 'attack');
  // C1 - 2 (ranged at a prone target, 001:434) = -1: d6 3, d10 9 → 3 before potential < fatigue 4
  assert.equal(wEntry.result.attack.consistency, -1);
  assert.equal(wEntry.result.fatigue_ok, false);
  assert.equal(wEntry.result.hit, false);
  s = await settle(gm, players);
  assert.deepEqual(s.enc.combatants[B].defended, { dodge: 2 }, 'no defence was used');
  assert.equal(s.enc.combatants[L].stats.fatigue, 5, 'her d6 3 is below 4: fatigue rises (001:286)');
  await act(bob.client, 'end_turn', L, {});

  // ---- the dazed bandit can take no actions (001:280) ----
  await no(gm, 'attack', B, { target: L, ability: 'Axe fighting' }, 'rule', /dazed/);
  await no(gm, 'defend', B, { kind: 'dodge' }, 'rule', /cannot make defensive rolls/);
  await act(gm, 'end_turn', B, {});

  // ---- round 3: a breather lowers fatigue by two, not below base fatigue (001:383-384) ----
  s = await settle(gm, players);
  assert.equal(s.enc.round, 3);
  assert.equal(s.enc.combatants[A].stats.fatigue, 3);
  await act(ann.client, 'breather', A, {});
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[A].stats.fatigue, 2, 'base fatigue 4 - stamina 2 = 2');
  assert.deepEqual(s.enc.combatants[A].conditions.map((c) => c.name), ['ongoing'], 'an ongoing action: -2 on defences until her next turn (001:326); the stumble has passed');
  assert.equal(s.enc.turn, 1, 'an ongoing action ends the turn');
  assert.equal(s.chars[astrid].sheet.fatigue, 2);

  // secrecy: the bandit's ability, notes and numbers never reached a player
  await settle(gm, players);
  assertNoGmBytes(players, ['Axe fighting', 'paid by the mayor', '"situational":4']);
  for (const p of players) assert.equal(p.client.state.gm, undefined);

  // replaying the log rebuilds the live state
  await gm.ping();
  const [zero] = srv.replay({ campaign: campaignId, fromZero: true });
  assert.equal(zero.seq, gm.seq);
  assert.deepEqual(zero.state, gm.state);
});
