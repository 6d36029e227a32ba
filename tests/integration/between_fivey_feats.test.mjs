// fivey.between through the real server, issue 25 items 20 and 21 (rulebook 004, rules/RULES.md
// "Between the scenes (module fivey.between)"): the feats that change the night — Sylla's
// Sleepwalker takes two rest actions (004:206), Brunhild's Battle-Hardened heals 1d8 + level and
// gains a hit point more at her level-up (004:337) — each landing on the sheets; an institution
// built with establish, its level and line of credit (004:616-633), kept into the next scene; a
// season of downtime (004:574: three turns for twice the lifestyle, 30 days); the
// refusals change nothing; no /gm byte reaches a player; the log replays to the live state. Seed
// 7; every expected number is computed from the dice the server logged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const values = (entry) => (entry.dice || []).map((d) => d.value);

test('fivey feats change the night: a sleepwalker rests twice, a battle-hardened veteran heals 1d8 and levels up with +1', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '7'] });
  const { gm, players, campaignId } = await campaignOf(srv, t, 'fivey');
  const [ann, bob] = players;
  const brunhild = await makeChar(ann.client, { name: 'Brunhild', sheet: { ...sample('fivey', 'brunhild'), hp: { max: 9, damage: 8 } } });
  const sylla = await makeChar(bob.client, { name: 'Sylla', sheet: sample('fivey', 'sylla') });
  await ok(gm, 'enc.start', { module: 'fivey.between' });
  const eB = (await ok(gm, 'enc.add', { char: brunhild })).id;
  const eS = (await ok(gm, 'enc.add', { char: sylla })).id;
  const act = (c, action, params, actor) => ok(c, 'enc.act', { action, params, ...(actor ? { actor } : {}) });

  // ---- Sleepwalker (004:206): two rest actions tonight, not three ----
  await act(bob.client, 'rest', { action: 'cook' }, eS);
  await act(bob.client, 'rest', { action: 'scavenge' }, eS);
  await refused(bob.client, 'enc.act', { action: 'rest', actor: eS, params: { action: 'march' } }, 'rule', /both of tonight's rest actions/);
  let s = await settle(gm, players);
  assert.deepEqual(s.enc.rested, [eS, eS]);

  // ---- Battle-Hardened (004:337): 1d8 + level 1 of her 8 damage ----
  const rr = await act(ann.client, 'rest', { action: 'recover' }, eB);
  const rest = rr.log.find((x) => x.action === 'rest');
  assert.equal(rest.dice[0].sides, 8, 'a d8 healing rate');
  const heal = values(rest)[0] + 1;
  s = await settle(gm, players);
  assert.equal(s.chars[brunhild].sheet.hp.damage, Math.max(0, 8 - heal), 'the healing lands on the sheet');
  await refused(ann.client, 'enc.act', { action: 'rest', actor: eB, params: { action: 'cook' } }, 'rule', /already taken tonight's rest action/);

  // ---- her level-up: 4 hit points and 1 more (004:337, 004:397) ----
  await act(gm, 'award', { target: eB, xp: 200 });
  await act(ann.client, 'level_up', { stat: 'str' }, eB);
  s = await settle(gm, players);
  assert.deepEqual([s.chars[brunhild].sheet.level, s.chars[brunhild].sheet.hp.max], [2, 14]);

  assertNoGmBytes(players);
  await ok(gm, 'enc.end', {});
  await gm.ping();
  const [zero] = srv.replay({ campaign: campaignId, fromZero: true });
  assert.equal(zero.seq, gm.seq);
  assert.deepEqual(zero.state, gm.state);
});

test('fivey institutions: establish builds capital and a level, a tennite offers its credit, and it outlives the scene', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '7'] });
  const { gm, players, campaignId } = await campaignOf(srv, t, 'fivey');
  const [, bob] = players;
  const vesper = await makeChar(bob.client, { name: 'Vesper', sheet: { ...sample('fivey', 'vesper'), crowns: 1000 } });
  await ok(gm, 'enc.start', { module: 'fivey.between' });
  let eV = (await ok(gm, 'enc.add', { char: vesper })).id;
  const act = (c, action, params, actor) => ok(c, 'enc.act', { action, params, ...(actor ? { actor } : {}) });

  // d20 + CHA 4 of capital (004:620); 10 or more is an insignificant institution (004:624)
  const dt = await act(bob.client, 'downtime', { lifestyle: 'wealthy', activity: 'establish', stat: 'cha', event: 0 }, eV);
  const capital = values(dt.log.find((x) => x.action === 'downtime'))[0] + 4;
  let s = await settle(gm, players);
  const level = capital >= 10 ? 1 : 0;
  assert.deepEqual(s.enc.combatants[eV].institution, { capital, level, credit: 0 });
  assert.equal(s.chars[vesper].sheet.crowns, 900, 'the wealthy lifestyle is paid');
  // a tennite: the line of credit of its level (004:618)
  await act(gm, 'tennite');
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[eV].institution.credit, level ? 1 : 0);
  if (level) assert.ok(s.log.some((x) => x.text === "Vesper's institution offers its line of credit: 1 cr. this tennite"));
  // a season (004:574): 30 days, three turns of establish for 2 x 100 crowns
  const day = s.enc.day;
  await act(gm, 'tennite', { span: 'season' });
  const ds = await act(bob.client, 'downtime', { lifestyle: 'wealthy', activity: 'establish', stat: 'cha', event: 0 }, eV);
  const season = ds.log.find((x) => x.action === 'downtime');
  assert.equal(values(season).length, 3, 'three turns, a d20 each');
  assert.match(season.text, /^Vesper lives wealthy for a season \(200 crowns, 3 downtime turns\) and invests \d+ capital/);
  s = await settle(gm, players);
  assert.equal(s.enc.day, day + 30);
  assert.equal(s.chars[vesper].sheet.crowns, 700);
  const added = values(season).reduce((a, b) => a + b, 0) + 3 * 4;
  const capital2 = capital + added;
  assert.equal(s.enc.combatants[eV].institution.capital, capital2);
  // the GM spends the credit on hirelings (004:631)
  await ok(gm, 'enc.set', { path: `/enc/combatants/${eV}/institution/credit`, value: 0 });
  // the next scene: the institution is Vesper's still
  await ok(gm, 'enc.end', {});
  await ok(gm, 'enc.start', { module: 'fivey.between' });
  eV = (await ok(gm, 'enc.add', { char: vesper })).id;
  s = await settle(gm, players);
  assert.deepEqual(s.enc.combatants[eV].institution, { capital: capital2, level: s.enc.combatants[eV].institution.level, credit: 0 });
  assert.ok(s.enc.combatants[eV].institution.level >= level);

  assertNoGmBytes(players);
  await ok(gm, 'enc.end', {});
  await gm.ping();
  const [zero] = srv.replay({ campaign: campaignId, fromZero: true });
  assert.equal(zero.seq, gm.seq);
  assert.deepEqual(zero.state, gm.state);
});
