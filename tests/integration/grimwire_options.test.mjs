// grimwire.conflict's combat options (issue 17) through the real server: a surprise round with a
// targeted attack (002:521-523, 002:653), a trip and a grapple (002:661, 002:665), a shield thrown
// in front of an ally (002:755-761), a blast and a lasting fire (002:725-727), a held-back blow
// (002:649), agony (002:805), and a dying character stabilized (002:258). Dice come from
// `--seed 5`; each number asserted is checked against the rule that makes it, and no player's
// bytes hold an NPC's numbers or a target number.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const SCRAPPER = {
  name: 'Scrapper',
  level: 2,
  xp: 25,
  attributes: { tog: 3, agl: 0, cor: 2, mnd: -1, per: 1, rsn: 0 },
  condition: { current: 15, max: 15 },
  focus: { current: 0, max: 2 },
  armor: 1,
  weapons: [{ name: 'Rivet-cleaver', kind: 'light', damage: '1d6' }],
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
const entries = (res, action) => res.log.filter((l) => l.action === action);
const has = (s, id, name) => (s.enc.combatants[id].conditions || []).some((c) => c.name === name);

test('grimwire: surprise, targeted attack, trip, grapple, shield, blast, fire, non-lethal, agony, stabilize; no NPC number reaches a player', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '5'] });
  const { gm, players, campaignId } = await campaignOf(srv, t, 'grimwire');
  const [ann, bob] = players;
  const cyChar = await makeChar(ann.client, { name: 'Cyrus', sheet: sample('grimwire', 'cyrus') });
  const auChar = await makeChar(bob.client, { name: 'Aune', sheet: sample('grimwire', 'aune') });
  const scChar = await makeChar(gm, { name: 'Scrapper', sheet: SCRAPPER, npc: true });
  await ok(gm, 'enc.start', { module: 'grimwire.conflict' });
  const CY = (await ok(gm, 'enc.add', { char: cyChar })).id;
  const AU = (await ok(gm, 'enc.add', { char: auChar })).id;
  const SC = (await ok(gm, 'enc.add', { char: scChar })).id;
  const owner = { [CY]: ann.client, [AU]: bob.client, [SC]: gm };
  await act(gm, 'set_tn', null, { target: SC, tn: 9, attack_tn: 13 });

  // ---- surprise (002:521): the party's turns come first, the first attack +5 ----
  await nope(gm, 'begin', null, { surprise: 'nobody' }, 'rule', /nobody on side/);
  await act(gm, 'begin', null, { surprise: 'party' });
  let s = await settle(gm, players);
  assert.deepEqual([...s.enc.order].sort(), [CY, AU], 'round 1: only the surprising side');
  assert.deepEqual(s.enc.surprise, { side: 'party', bonus: 5 });
  const first = s.enc.order[0];
  assert.equal(first, s.enc.initiative.filter((id) => id !== SC)[0], 'in their initiative order');

  // a targeted attack (002:653): the first attack of the surprise, at +5, against 9 + 3
  await nope(owner[first], 'attack', first, { target: SC, effect: 'sensory', raise: 1 }, 'forbidden', /only the GM/);
  let r = await act(owner[first], 'attack', first, { target: SC, effect: 'sensory' });
  const surprise = entries(r, 'surprise')[0];
  assert.equal(surprise.result.bonus, 5);
  let a = entries(r, 'attack')[0];
  assert.equal(a.result.effect, 'sensory');
  const cor = first === CY ? 3 : 1;
  assert.equal(a.result.attack.total, a.result.attack.natural + cor + 5, 'COR + the surprise bonus');
  assert.equal(a.result.hit, a.result.attack.natural === 20 || a.result.attack.total >= 12, 'against 9 + 3');
  assert.equal(a.result.damage, undefined, 'a targeted attack does no damage');
  assert.equal(a.result.hit, true, 'seed 5: Aune hits (14 + 1 + 5 = 20)');
  s = await settle(gm, players);
  assert.equal(has(s, SC, 'sensory'), a.result.hit);
  assert.equal(s.enc.surprise, undefined, 'the bonus is used up');
  assert.equal(s.gm.enc.combatants[SC].stats.condition.current, 15);
  await act(owner[first], 'end_turn', first);

  // the second surprising PC trips the Scrapper (002:661): AGL against AGL
  s = await settle(gm, players);
  const second = s.enc.order[s.enc.turn];
  assert.notEqual(second, first);
  r = await act(owner[second], 'trip', second, { target: SC });
  const trip = entries(r, 'trip')[0];
  assert.equal(trip.dice.length, 2, "both AGL rolls' dice are open");
  assert.equal(trip.result.target_total, undefined, "the NPC's total is the GM's");
  assert.equal(trip.result.success, false, 'seed 5: the Scrapper keeps his feet');
  s = await settle(gm, players);
  assert.equal(has(s, SC, 'knocked_down'), trip.result.success);
  await nope(owner[second], 'trip', second, { target: SC }, 'rule', trip.result.success ? /already on the ground/ : /no action/);
  await act(owner[second], 'end_turn', second);

  // ---- round 2: everyone in the initiative order ----
  s = await settle(gm, players);
  assert.equal(s.enc.round, 2);
  assert.deepEqual(s.enc.order, s.enc.initiative);
  const endUntil = async (who) => {
    for (let i = 0; i < 6; i++) {
      const st = await settle(gm, players);
      const cur = st.enc.order[st.enc.turn];
      if (cur === who) return;
      await act(owner[cur], 'end_turn', cur);
    }
    assert.fail(`never ${who}'s turn`);
  };

  // Cyrus shields Aune (an auxiliary reaction, 002:761) before the Scrapper's turn
  await nope(ann.client, 'shield', CY, { target: CY }, 'rule', /themselves/);
  await act(ann.client, 'shield', CY, { target: AU });
  await nope(ann.client, 'shield', CY, { target: AU }, 'rule', /already shields/);
  await endUntil(SC);
  s = await settle(gm, players);
  const cyBefore = s.enc.combatants[CY].stats.condition.current;
  const auBefore = s.enc.combatants[AU].stats.condition.current;
  r = await act(gm, 'attack', SC, { target: AU });
  const sh = entries(r, 'shield')[0];
  assert.ok(sh, 'the shield steps in');
  assert.equal(sh.result.attacker_total, undefined, "the Scrapper's COR total is the GM's");
  assert.equal(sh.result.success, true, 'seed 5: the shield takes it');
  s = await settle(gm, players);
  if (sh.result.success) {
    assert.equal(s.enc.combatants[AU].stats.condition.current, auBefore, 'Aune is spared');
    assert.ok(s.enc.combatants[CY].stats.condition.current < cyBefore, 'Cyrus takes the blow');
  } else {
    assert.equal(s.enc.combatants[CY].stats.condition.current, cyBefore);
  }
  await act(gm, 'end_turn', SC);

  // Aune grapples the Scrapper (002:665): COR to grab against the hidden 9, then TOG/COR to hold
  await endUntil(AU);
  r = await act(bob.client, 'grapple', AU, { target: SC });
  const grab = entries(r, 'grapple')[0];
  assert.equal(grab.result.attack.total, grab.result.attack.natural + 1, "Aune's COR roll is open, the number it meets is not");
  assert.equal(grab.result.attack.tn, undefined);
  s = await settle(gm, players);
  assert.equal(has(s, SC, 'grappled'), true, 'seed 5: 15 + 1 grabs, 12 + 1 against 4 + 3 holds');
  if (has(s, SC, 'grappled')) {
    assert.equal(s.enc.combatants[SC].conditions.find((c) => c.name === 'grappled').by, AU);
    await nope(bob.client, 'grapple', AU, { target: SC }, 'rule', /already holds/);
    await act(bob.client, 'release', AU, { target: SC });
    s = await settle(gm, players);
    assert.equal(has(s, SC, 'grappled'), false, 'let go');
  }

  // ---- the GM's blast and fire (002:725-727) ----
  await nope(gm, 'splash', null, { who: `${CY},e9`, damage: '2d6', tn: 12 }, 'not_found');
  s = await settle(gm, players);
  const cyHp = s.enc.combatants[CY].stats.condition.current;
  r = await act(gm, 'splash', null, { who: `${CY},${SC}`, damage: '2d6', type: 'explosions', tn: 12 });
  const blast = entries(r, 'splash');
  const rolled = blast[0].result.rolled;
  assert.equal(rolled, blast[0].dice.reduce((n, d) => n + d.value, 0));
  const cyRoll = blast.find((l) => l.result?.natural !== undefined && /^Cyrus/.test(l.text));
  const cyDmg = cyRoll.result.success ? Math.max(1, Math.floor(rolled / 2)) : rolled;
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[CY].stats.condition.current, cyHp - Math.max(1, cyDmg - 2), "half on a good AGL roll, then Cyrus's armor 2");

  // Aune in the fire: at the start of her next turn she must move out or burn
  r = await act(gm, 'area', null, { who: AU, damage: '1d4', type: 'heat' });
  await act(bob.client, 'end_turn', AU);
  await endUntil(AU);
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[AU].area_due, s.enc.round);
  await nope(bob.client, 'attack', AU, { target: SC }, 'rule', /move out of it/);
  const auHp = s.enc.combatants[AU].stats.condition.current;
  await act(bob.client, 'leave', AU);
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[AU].stats.condition.current, auHp, 'out before it burns again');
  assert.equal(has(s, AU, 'area'), false);

  // ---- Cyrus drops; Aune stabilizes him (002:258), against the GM's hidden number ----
  s = await settle(gm, players);
  await act(gm, 'damage', null, { target: CY, amount: s.enc.combatants[CY].stats.condition.current + 1 });
  s = await settle(gm, players);
  assert.ok(has(s, CY, 'dying'));
  await nope(bob.client, 'stabilize', AU, { target: CY }, 'rule', /ask the GM/);
  await act(gm, 'set_tn', null, { target: CY, stabilize_tn: 2 });
  r = await act(bob.client, 'stabilize', AU, { target: CY, medkit: true });
  const stab = entries(r, 'stabilize')[0];
  assert.equal(stab.dice.length, 1, 'a medkit: only the COR roll');
  assert.equal(stab.result.success, true, 'seed 5');
  s = await settle(gm, players);
  assert.equal(has(s, CY, 'dying'), !stab.result.success);
  if (stab.result.success) assert.equal(s.enc.combatants[CY].stats.condition.current, 1, '002:260');

  // ---- the Scrapper held back on: left out cold at 1 (002:649); agony (002:805) ----
  await act(bob.client, 'end_turn', AU);
  await nope(gm, 'attack', SC, { target: AU, nonlethal: true }, 'rule', /player character's choice/);
  await act(gm, 'status', null, { target: SC, name: 'agony' });
  s = await settle(gm, players);
  assert.equal(s.gm.enc.combatants[SC].stats.burnout, 1, 'a temporary level of burnout');
  await act(gm, 'status', null, { target: SC, name: 'agony', on: false });
  s = await settle(gm, players);
  assert.equal(s.gm.enc.combatants[SC].stats.burnout, 0, 'gone with the agony');

  // ---- secrecy and replay ----
  s = await settle(gm, players);
  assertNoGmBytes(players, ['hates-salt', '"tn"', 'attack_tn', 'stabilize_tn', '"target_total"', '"attacker_total"', '"raise"']);
  for (const p of players) {
    const sc = p.client.state.enc.combatants[SC];
    assert.equal(sc.stats, undefined, `${p.client.name} sees no stats of the Scrapper`);
  }
  await gm.ping();
  const [zero] = srv.replay({ campaign: campaignId, fromZero: true });
  assert.deepEqual(zero.state, gm.state);
});
