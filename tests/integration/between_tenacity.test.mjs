// tenacity.between through the real server (issue 17; rulebook 003, rules/RULES.md "Between the
// scenes (module tenacity.between)"): an evening between the scenes — a healing item and the end
// of the scene clear stress (003:74), a healer tends a wound day by day (003:74), a crafting
// project makes progress (003:69), the short rest for 10acity (003:76) — checking the sheets after
// each step and after a kill -9 restart; the refusals change nothing; no /gm byte reaches a
// player; the log replays to the live state. Seed 3; every expected number is computed from the
// dice the server logged, so the test checks the rule, not one seed's luck.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const faces = (entry, role) => (entry.dice || []).filter((d) => !role || d.role === role).map((d) => d.value);
const sum = (a) => a.reduce((x, y) => x + y, 0);

test('tenacity between the scenes: stress, a healer, crafting and a rest land on the sheets and survive kill -9', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '3'] });
  const { gm, players, campaignId, gmToken } = await campaignOf(srv, t, 'tenacity');
  const [ann, bob] = players;
  // Missa with Medicine 2 (one impact d4 a day) is the healer; Brakka has 4 stress, 1 wound, 3 recovery
  const ms = sample('tenacity', 'missa');
  ms.attributes[3].skills[3].rank = 2;
  const missa = await makeChar(ann.client, { name: 'Missa', sheet: ms });
  const brakka = await makeChar(bob.client, { name: 'Brakka Vell', sheet: sample('tenacity', 'brakka') });
  await ok(gm, 'enc.start', { module: 'tenacity.between' });
  const eM = (await ok(gm, 'enc.add', { char: missa })).id;
  const eB = (await ok(gm, 'enc.add', { char: brakka })).id;
  const act = (c, action, params, actor) => ok(c, 'enc.act', { action, params, ...(actor ? { actor } : {}) });
  let s = await settle(gm, players);
  assert.equal(s.enc.day, 0);
  assert.deepEqual(s.chars[brakka].sheet.stress, { current: 4, max: 14 });

  // ---- stress: a salve now, the rest at the end of the scene (003:74) ----
  await act(bob.client, 'heal_item', { stress: 3, what: 'a salve' }, eB);
  s = await settle(gm, players);
  assert.equal(s.chars[brakka].sheet.stress.current, 1, 'the salve lands on the sheet');
  assert.equal(ann.client.state.chars[brakka].sheet.stress.current, 1);
  await refused(bob.client, 'enc.act', { action: 'scene_end' }, 'forbidden', /GM/);
  await act(gm, 'scene_end');
  s = await settle(gm, players);
  assert.equal(s.chars[brakka].sheet.stress.current, 0, 'the end of the scene clears stress');
  await refused(bob.client, 'enc.act', { action: 'heal_item', actor: eB, params: { stress: 1 } }, 'rule', /no stress/);

  // ---- a healer's care: 5 x 1 wound = 5 recovery heals Brakka's last wound (003:74) ----
  await refused(bob.client, 'enc.act', { action: 'tend', actor: eM, params: { target: eB, skill: 'Medicine' } }, 'forbidden', /not your character/);
  await refused(ann.client, 'enc.act', { action: 'tend', actor: eM, params: { target: eB, skill: 'Healing Arts' } }, 'rule', /no impact die/);
  await act(ann.client, 'tend', { target: eB, skill: 'Medicine' }, eM);
  let recovery = 3;
  for (let day = 1; day <= 2 && s.chars[brakka].sheet.wounds.current > 0; day++) {
    const r = await act(gm, 'advance');
    const care = r.log.find((e) => e.action === 'care' && e.dice);
    const d = faces(care, 'impact');
    assert.equal(d.length, 1, 'Medicine 2: one impact d4');
    recovery += d[0];
    s = await settle(gm, players);
    assert.equal(s.enc.day, day);
    if (recovery >= 5) {
      assert.equal(s.chars[brakka].sheet.wounds.current, 0, `day ${day}: ${recovery} recovery heals the wound`);
      assert.equal(s.chars[brakka].sheet.recovery, 0);
    } else {
      assert.equal(s.chars[brakka].sheet.wounds.current, 1);
      assert.equal(s.chars[brakka].sheet.recovery, recovery, `day ${day}: the recovery is on the sheet`);
    }
  }
  assert.equal(s.chars[brakka].sheet.wounds.current, 0, 'healed within two days (3 + 2 x at least 1)');

  // ---- crafting: Missa's Crafting (1d10 + 2) against one challenge d6, 1d4 + 1 (lockpicks) a success (003:69) ----
  await refused(ann.client, 'enc.act', { action: 'task', params: { task: 'charm', kind: 'craft', need: 3 } }, 'forbidden', /GM/);
  await act(gm, 'task', { task: 'charm', kind: 'craft', need: 3, skill: 'Crafting', challenge_dice: 1 });
  let total = 0;
  for (let i = 0; i < 6 && total < 3; i++) {
    const r = await act(ann.client, 'work', { task: 'charm' }, eM);
    const e = r.log.find((x) => x.action === 'work');
    const [hero] = faces(e, 'skill');
    const [ch] = faces(e, 'challenge');
    const success = hero + 2 > ch;
    assert.equal(e.result.success, success, `${hero} + 2 against ${ch}`);
    if (success) total += sum(faces(e, 'impact')) + 1;
    s = await settle(gm, players);
    assert.equal(s.enc.tasks.charm.total, total);
  }
  assert.ok(total >= 3, 'six tries finish a need of 3');
  assert.equal(s.enc.tasks.charm.done, true);
  await refused(ann.client, 'enc.act', { action: 'work', actor: eM, params: { task: 'charm' } }, 'rule', /already finished/);

  // ---- issue 25 item 17: a natural 10 is a critical between the scenes too (003:28) ----
  // Missa works on a long project until her d10 shows a 10: it beats any one d6 on its own, so
  // (no `crit` named) the critical's die is an impact die: 2d4 + 1 instead of 1d4 + 1
  await act(gm, 'task', { task: 'clock', kind: 'craft', need: 999, skill: 'Crafting', challenge_dice: 1 });
  let crit = null;
  for (let i = 0; i < 60 && !crit; i++) {
    const r = await act(ann.client, 'work', { task: 'clock' }, eM);
    const e = r.log.find((x) => x.action === 'work');
    if (faces(e, 'skill')[0] === 10) crit = e;
    else assert.equal(e.result.crit, undefined, 'no critical without a natural 10');
  }
  assert.ok(crit, 'seed 3: a natural 10 within 60 tries');
  assert.equal(crit.result.crit, 'impact');
  assert.equal(crit.result.success, true);
  assert.equal(faces(crit, 'impact').length, 2, "the critical's extra impact die");
  assert.equal(crit.result.impact, sum(faces(crit, 'impact')) + 1);
  s = await settle(gm, players);
  for (const p of players) assert.equal(p.client.state.log.filter((x) => x.action === 'work').at(-1).result.crit, 'impact', 'a PC\'s critical is open');

  // ---- the short rest: 10acity only when none is left (003:76) ----
  await refused(ann.client, 'enc.act', { action: 'rest', actor: eM }, 'rule', /still has 3 10acity/);
  await ok(gm, 'enc.set', { path: `/enc/combatants/${eM}/stats/tenacity`, value: 0 });
  await act(ann.client, 'rest', {}, eM);
  s = await settle(gm, players);
  assert.equal(s.chars[missa].sheet.tenacity, 1);

  // ---- kill -9: everything acknowledged is still there, and the evening goes on ----
  assertNoGmBytes(players);
  await gm.ping();
  const before = structuredClone(gm.state);
  await srv.restart();
  const [gm2, w] = await srv.hello(gmToken);
  t.after(() => gm2.close());
  assert.deepEqual(w.state.chars, before.chars, 'the sheets survive kill -9');
  assert.deepEqual(w.state.enc, before.enc, 'the between-scenes state survives kill -9');
  assert.equal(w.state.chars[brakka].sheet.wounds.current, 0);
  assert.equal(w.state.chars[missa].sheet.tenacity, 1);
  await ok(gm2, 'enc.act', { action: 'advance', params: { days: 2 } });
  await gm2.ping();
  assert.equal(gm2.state.enc.day, before.enc.day + 2);
  await ok(gm2, 'enc.end', {});

  // replaying the log rebuilds the live state
  await gm2.ping();
  const [zero] = srv.replay({ campaign: campaignId, fromZero: true });
  assert.equal(zero.seq, gm2.seq);
  assert.deepEqual(zero.state, gm2.state);
});
