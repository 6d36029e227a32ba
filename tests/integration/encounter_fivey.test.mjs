// FIVEY encounters through the real server (issue 5; module fivey.combat, rules/fivey/combat.c;
// rulebook 004_110cc4af3ff93059.txt cited 004:LINE): the DEX contest against the opposing party
// that orders the fight (004:666), two-action turns (004:674), attacks against the defense class
// with damage landing on the sheets (004:676-682), monsters from the example table (004:744-767),
// a leader falling and the morale check that follows (004:670), the refusals, the secrecy of the
// NPCs' numbers and the replay of the log. The dice are those of --seed 5, found by running it;
// every consequence of them is asserted, so a wrong rule fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const faces = (e) => (e.dice || []).map((d) => d.value);
const entry = (res, action) => res.log.find((l) => l.action === action);

test('fivey: initiative as DEX contests, two-action turns, attacks, a leader falls, morale', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '5'] });
  const { gm, players, campaignId } = await campaignOf(srv, t, 'fivey');
  const [ann, bob] = players;
  // the rulebook's hellchild with +4 charisma (004:120) and a dwarf veteran in chain and shield
  const vesperChar = await makeChar(ann.client, { name: 'Vesper', sheet: sample('fivey', 'vesper') });
  const brunChar = await makeChar(bob.client, { name: 'Brunhild', sheet: sample('fivey', 'brunhild') });

  await ok(gm, 'enc.start', { module: 'fivey.combat' });
  const vesper = (await ok(gm, 'enc.add', { char: vesperChar })).id;
  const brun = (await ok(gm, 'enc.add', { char: brunChar })).id;
  // a quick NPC named after an example monster takes its numbers: Goblin 5 XP, 1 HD, DC 14, +1
  const goblin = (await ok(gm, 'enc.add', { npc: { name: 'Goblin' } })).id;
  // ... or in one step from the table: Orc 10 XP, 2 HD, DC 14, +2 (004:759, 004:762)
  const spawn = await ok(gm, 'enc.act', { action: 'spawn', params: { name: 'Orc', monster: 'Orc' } });
  const orc = entry(spawn, 'join').result.id;
  await refused(ann.client, 'enc.act', { action: 'spawn', params: { name: 'Pet', monster: 'Bear' } }, 'forbidden');
  await ok(gm, 'enc.act', { action: 'leader', params: { target: orc } });

  let s = await settle(gm, players);
  assert.deepEqual([vesper, brun, goblin, orc], ['e1', 'e2', 'e3', 'e4']);
  assert.deepEqual(s.enc.budget, { actions: 2 }, '2 actions ◆ per turn (004:674)');
  assert.equal(s.enc.combatants[vesper].stats.defense, 11, 'no armor: 10 + DEX 1 (004:373)');
  assert.equal(s.enc.combatants[brun].stats.defense, 15, 'chain 14 + shield (004:419, 004:422)');
  assert.deepEqual(s.enc.combatants[vesper].stats.weapons, [{ name: 'Dagger', bonus: 8, die: '1d6', stat: 4 }], 'CHA 4 doubled when skilled (004:678)');
  assert.deepEqual(s.enc.combatants[brun].stats.hp, { max: 9, damage: 0 });
  assert.equal(s.enc.combatants[goblin].stats, undefined, "an NPC's numbers are the GM's");
  // 1d6 = 6 hit points for the goblin, 2d6 = 1 + 1 for the orc (004:728)
  assert.deepEqual(s.gm.enc.combatants[goblin].stats, { bracket: 'M', hd: 1, ga: 1, cha: 1, dex: 1, int: 1, str: 1, defense: 14, die: '1d4', xp: 5, hp: { max: 6, damage: 0 } });
  assert.deepEqual(s.gm.enc.combatants[orc].stats, { bracket: 'G', hd: 2, ga: 2, cha: 2, dex: 2, int: 2, str: 2, defense: 14, die: '1d6', xp: 10, hp: { max: 2, damage: 0 } });
  assert.equal(s.enc.combatants[orc].leader, true);

  // nobody acts before initiative; players may not roll it
  await refused(ann.client, 'enc.act', { action: 'attack', actor: vesper, params: { target: goblin } }, 'rule', /initiative first/);
  await refused(ann.client, 'enc.act', { action: 'initiative' }, 'forbidden');

  // Initiative (004:666): the opposition rolls once, d20 14 + its average DEX 1 (goblin 1, orc 2)
  // = 15. Vesper 14 + 1 = 15 only ties (no win, reading 3); Brunhild 16 + 1 = 17 beats it. So:
  // Brunhild, then the opposition in the order it came, then Vesper.
  const ini = await ok(gm, 'enc.act', { action: 'initiative' });
  const iniPub = entry(ini, 'initiative');
  assert.deepEqual(faces(iniPub), [14, 16], "the opposition's d20 is the GM's");
  assert.deepEqual(faces(ini.log.find((l) => l.action === 'initiative' && l.result.opposition_total)), [14, 14, 16]);
  assert.deepEqual(iniPub.result.rolls, {
    [vesper]: { natural: 14, won: false, bonus: 1, total: 15 },
    [brun]: { natural: 16, won: true, bonus: 1, total: 17 },
  });
  s = await settle(gm, players);
  assert.deepEqual(s.enc.order, [brun, goblin, orc, vesper]);
  assert.equal(s.enc.round, 1);
  assert.equal(s.enc.turn, 0);
  assert.equal(s.enc.combatants[brun].won, true);
  assert.equal(s.enc.combatants[vesper].won, undefined);
  assert.deepEqual(s.enc.combatants[brun].budget, { actions: 2 });
  const iniGm = s.gm.log.find((l) => l.action === 'initiative');
  assert.deepEqual([iniGm.result.opposition_bonus, iniGm.result.opposition_total], [1, 15]);
  assert.equal(ann.client.state.log.find((l) => l.action === 'initiative').result.opposition_total, undefined);

  // Brunhild's two-action turn. ◆ 1: d20 16 + STR 3 doubled (skilled) = 22 ≥ DC 14; d8 1 + 3 = 4
  const a1 = entry(await ok(bob.client, 'enc.act', { action: 'attack', params: { target: goblin } }), 'attack');
  assert.deepEqual(faces(a1), [16, 1]);
  assert.deepEqual(a1.result, { target: goblin, natural: 16, hit: true, damage: 4, bonus: 6, total: 22, damage_bonus: 3 });
  assert.equal(a1.text, 'Brunhild attacks Goblin with the Military longsword: hits, 4 damage');
  // ◆ 2: d20 14 + 6 = 20 hits the orc; d8 3 + 3 = 6 ≥ its 2 hit points: the leader is dead, and
  // the foes must check morale (004:670)
  const a2 = await ok(bob.client, 'enc.act', { action: 'attack', params: { target: orc } });
  assert.deepEqual(faces(entry(a2, 'attack')), [14, 3]);
  assert.equal(entry(a2, 'attack').result.damage, 6);
  assert.deepEqual(a2.log.map((l) => l.text).slice(1), ['Orc is dead', 'The foes must check morale: their leader is defeated']);
  // no third ◆; another player's character; out of turn; a dead target
  await refused(bob.client, 'enc.act', { action: 'move' }, 'rule', /Brunhild has no actions left this turn/);
  await refused(ann.client, 'enc.act', { action: 'end', actor: brun }, 'forbidden', /Brunhild is not your character/);
  await refused(ann.client, 'enc.act', { action: 'move', actor: vesper }, 'rule', /it is Brunhild's turn, not Vesper's: each acts in the initiative order/);
  await refused(ann.client, 'enc.act', { action: 'attack', actor: vesper, params: { target: goblin } }, 'rule', /Brunhild's turn/);
  s = await settle(gm, players);
  assert.deepEqual(s.gm.enc.combatants[goblin].stats.hp, { max: 6, damage: 4 });
  assert.deepEqual(s.gm.enc.combatants[orc].stats.hp, { max: 2, damage: 6 });
  assert.equal(s.enc.combatants[orc].out, 'dead');
  assert.deepEqual(s.enc.morale, { foes: { checks: 0, due: true } });
  assert.equal(s.gm.enc.xp, 10, "the orc's XP for the GM (004:736)");
  assert.deepEqual(s.enc.combatants[brun].budget, { actions: 0 });
  await ok(bob.client, 'enc.act', { action: 'end' });
  s = await settle(gm, players);
  assert.equal(s.enc.turn, 1, "the goblin's turn");

  // The collective wisdom check, initially moderate (DC 14): d20 12 + INT 1 = 13: the goblin flees;
  // the turn passes over it and the dead orc to Vesper.
  const mo = await ok(gm, 'enc.act', { action: 'morale' });
  assert.deepEqual(entry(mo, 'morale').result, { side: 'foes', hold: false, fled: 1 });
  assert.deepEqual(faces(entry(mo, 'morale')), [], "the foes' roll is the GM's");
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[goblin].out, 'fled');
  assert.deepEqual(s.enc.morale, { foes: { checks: 1, due: false } });
  assert.deepEqual(s.gm.log.filter((l) => l.action === 'morale').map((l) => l.result), [{ bonus: 1, total: 13, dc: 14, side: 'foes', hold: false, fled: 1 }]);
  assert.deepEqual(faces(s.gm.log.filter((l) => l.action === 'morale')[0]), [12]);
  assert.equal(s.enc.turn, 3);
  assert.deepEqual(s.enc.combatants[vesper].budget, { actions: 2 });

  // A bugbear joins the fight (004:750: 15 XP, 4 HD, DC 14, +3), at the end of the order.
  const bug = entry(await ok(gm, 'enc.act', { action: 'spawn', params: { name: 'Bugbear', monster: 'Bugbear' } }), 'join').result.id;
  s = await settle(gm, players);
  assert.deepEqual(s.enc.order, [brun, goblin, orc, vesper, bug]);
  assert.equal(s.gm.enc.combatants[bug].stats.hp.max, 20);
  await refused(ann.client, 'enc.act', { action: 'attack', params: { target: orc } }, 'rule', /Orc is out of the fight \(dead\)/);
  await refused(ann.client, 'enc.act', { action: 'attack', params: { target: bug, weapon: 3 } }, 'bad_request', /weapon/);
  const free = await refused(ann.client, 'enc.act', { action: 'attack', params: { target: bug, free: 1 } }, 'forbidden');
  assert.match(free.cite, /004:684/, 'the rule is cited beside the message, not in it');
  // Vesper: d20 9 + 8 = 17, d6 2 + 4 = 6; d20 17 + 8 = 25, d6 3 + 4 = 7
  const v1 = entry(await ok(ann.client, 'enc.act', { action: 'attack', params: { target: bug } }), 'attack');
  const v2 = entry(await ok(ann.client, 'enc.act', { action: 'attack', params: { target: bug } }), 'attack');
  assert.deepEqual([faces(v1), faces(v2)], [[9, 2], [17, 3]]);
  assert.deepEqual([v1.result.total, v1.result.damage, v2.result.total, v2.result.damage], [17, 6, 25, 7]);
  assert.equal(v1.result.defense, undefined, "the bugbear's defense class is not told");
  await ok(ann.client, 'enc.act', { action: 'end' });
  s = await settle(gm, players);
  assert.deepEqual(s.gm.enc.combatants[bug].stats.hp, { max: 20, damage: 13 });
  assert.equal(s.enc.turn, 4);

  // The bugbear (the GM acts for it): d20 4 + 3 misses DC 11; a natural 20 hits, d8 7 damage
  // (the bracket's die, no stat: reading E3) and gives no inspiration die (NPCs have none).
  const b1 = entry(await ok(gm, 'enc.act', { action: 'attack', params: { target: vesper } }), 'attack');
  const b2 = entry(await ok(gm, 'enc.act', { action: 'attack', params: { target: vesper } }), 'attack');
  // its d20 is open, its damage die the GM's (with the damage it would give an NPC's stat away)
  assert.deepEqual([faces(b1), faces(b2)], [[4], [20]]);
  assert.deepEqual(b2.result, { target: vesper, natural: 20, hit: true, damage: 7, defense: 11 }, 'no bonus or total for players');
  await ok(gm, 'enc.act', { action: 'end' });
  s = await settle(gm, players);
  // the damage lands on Vesper's sheet: 3 + 7 = 10 of 11
  assert.deepEqual(s.enc.combatants[vesper].stats.hp, { max: 11, damage: 10 });
  assert.deepEqual(s.chars[vesperChar].sheet.hp, { max: 11, damage: 10 });
  assert.equal(s.chars[vesperChar].derived.hp_left, 1);
  assert.equal(s.chars[vesperChar].sheet.inspiration, 2);
  assert.deepEqual(ann.client.state.chars[vesperChar].sheet.hp, { max: 11, damage: 10 });

  // Round 2, the same order: Brunhild first again (004:668); a move ◆ and an attack ◆.
  assert.equal(s.enc.round, 2);
  assert.equal(s.enc.turn, 0);
  assert.deepEqual(s.enc.combatants[brun].budget, { actions: 2 });
  await refused(bob.client, 'enc.act', { action: 'move', params: { paces: 7 } }, 'rule', /at most 6 paces/);
  const m1 = entry(await ok(bob.client, 'enc.act', { action: 'move', params: { paces: 4 } }), 'move');
  assert.equal(m1.text, 'Brunhild moves 4 paces');
  const r2 = entry(await ok(bob.client, 'enc.act', { action: 'attack', params: { target: bug } }), 'attack');
  assert.deepEqual(faces(r2), [6]);
  assert.deepEqual([r2.result.total, r2.result.hit], [12, false]);
  s = await settle(gm, players);
  assert.deepEqual(s.enc.combatants[brun].budget, { actions: 0 });

  // secrecy: no /gm byte, no NPC number reached a player
  assertNoGmBytes(players, ['opposition_total', '"hd":', '"ga":', 'Morale of the foes', '"xp":15', '"bracket":"E"']);

  // replaying the log rebuilds the live state
  await gm.ping();
  const [zero] = srv.replay({ campaign: campaignId, fromZero: true });
  assert.deepEqual(zero.state, gm.state);
});

test('fivey: surprise gives the winners a free turn, then initiative', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '2'] });
  const { gm, players, campaignId } = await campaignOf(srv, t, 'fivey', ['Ann']);
  const [ann] = players;
  const vesperChar = await makeChar(ann.client, { name: 'Vesper', sheet: sample('fivey', 'vesper') });
  await ok(gm, 'enc.start', { module: 'fivey.combat' });
  const vesper = (await ok(gm, 'enc.add', { char: vesperChar })).id;
  const zombie = (await ok(gm, 'enc.add', { npc: { name: 'Zombie' } })).id;
  await refused(ann.client, 'enc.act', { action: 'surprise' }, 'forbidden');
  // Vesper sneaks up on a shambling zombie: d20 14 + DEX 1 = 15 against the zombie's wisdom,
  // which the GM puts at +0: d20 10 = 10. She wins a free turn (004:645).
  const sur = entry(await ok(gm, 'enc.act', { action: 'surprise', params: { wis: 0 } }), 'surprise');
  assert.deepEqual(faces(sur), [14], "the zombie's wisdom roll is the GM's");
  assert.deepEqual(sur.result, { side: 'party', rolls: { [vesper]: { natural: 14, won: true, bonus: 1, total: 15 } } });
  assert.equal(sur.text, 'Surprise: 1 of the party won a free turn; Vesper goes first');
  let s = await settle(gm, players);
  assert.equal(s.enc.phase, 'surprise');
  assert.deepEqual(s.enc.order, [vesper]);
  assert.deepEqual([s.enc.round, s.enc.turn], [0, 0]);
  assert.deepEqual(s.enc.combatants[vesper].budget, { actions: 2 });
  // the zombie (004:767: 8 XP, 2 HD, DC 12, +2) does not act in the free turn
  await refused(gm, 'enc.act', { action: 'attack', actor: zombie, params: { target: vesper } }, 'rule', /Vesper's free turn from the surprise, not Zombie's/);
  await refused(gm, 'enc.act', { action: 'initiative' }, 'rule', /surprise/);
  // d20 9 + 8 = 17 ≥ DC 12; d6 1 + 4 = 5 damage
  const v = entry(await ok(ann.client, 'enc.act', { action: 'attack', params: { target: zombie } }), 'attack');
  assert.deepEqual(faces(v), [9, 1]);
  assert.deepEqual([v.result.total, v.result.hit, v.result.damage], [17, true, 5]);
  const e = await ok(ann.client, 'enc.act', { action: 'end' });
  assert.deepEqual(e.log.map((l) => [l.text, l.actor]), [
    ['Vesper ends the free turn', vesper],
    ['The surprise is over: regular initiative takes hold', vesper],
  ]);
  s = await settle(gm, players);
  assert.equal(s.enc.phase, undefined);
  assert.deepEqual([s.enc.order, s.enc.round, s.enc.turn], [[], 0, -1]);
  assert.deepEqual(s.gm.enc.combatants[zombie].stats.hp, { max: 11, damage: 5 });
  await refused(ann.client, 'enc.act', { action: 'move', actor: vesper }, 'rule', /initiative first/);
  // then regular initiative: the zombie's d20 17 + DEX 2 = 19; Vesper's 18 + 1 = 19 ties and acts
  // after it (reading 3)
  const ini = entry(await ok(gm, 'enc.act', { action: 'initiative' }), 'initiative');
  assert.deepEqual(faces(ini), [18], "the zombie's d20 is the GM's");
  assert.equal(ini.result.rolls[vesper].won, false);
  s = await settle(gm, players);
  assert.deepEqual([s.enc.order, s.enc.round, s.enc.turn], [[zombie, vesper], 1, 0]);
  assertNoGmBytes(players, ['"hd":']);
  await gm.ping();
  const [zero] = srv.replay({ campaign: campaignId, fromZero: true });
  assert.deepEqual(zero.state, gm.state);
});
