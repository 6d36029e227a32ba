// FIVEY spells through the real server (issue 17; rulebook 004:481-505, 004:680, 004:701;
// rules/RULES.md fivey, "Spells"): Vesper casts Lightning Bolt at an orc whose save bonus is the
// GM's, then Turn Undead, and is refused a third cast; her casts are on the sheet after each step
// and after a kill -9 restart, and the night's rest in fivey.between gives them back. A player's
// bytes never hold the orc's save (its die, bonus, total). Seed 6; every expected number is
// computed from the dice the server logged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const values = (entry) => (entry.dice || []).map((d) => d.value);

test('fivey spells: a cast spends a slot on the sheet, the NPC save stays the GM\'s, a rest restores it, all through kill -9', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '6'] });
  const { gm, players, campaignId, gmToken } = await campaignOf(srv, t, 'fivey');
  const [ann, bob] = players;
  const brunhild = await makeChar(ann.client, { name: 'Brunhild', sheet: sample('fivey', 'brunhild') });
  const vesper = await makeChar(bob.client, { name: 'Vesper', sheet: sample('fivey', 'vesper') });
  let s = await settle(gm, players);
  assert.deepEqual(s.chars[vesper].sheet.spell_slots, { max: 2, used: 0 });
  assert.equal(s.chars[vesper].derived.spell_dc, 11, '10 + INT 1');
  assert.equal(s.chars[brunhild].derived.spell_dc, undefined, 'a non-caster has no spell numbers');

  await ok(gm, 'enc.start', { module: 'fivey.combat' });
  const eB = (await ok(gm, 'enc.add', { char: brunhild })).id;
  const eV = (await ok(gm, 'enc.add', { char: vesper })).id;
  const act = (c, action, params, actor) => ok(c, 'enc.act', { action, params, ...(actor ? { actor } : {}) });
  const cast = (params) => ({ action: 'cast', actor: eV, params });
  await act(gm, 'spawn', { name: 'Orc captain', monster: 'Orc', hp: 40 });
  s = await settle(gm, players);
  const orc = Object.keys(s.enc.combatants).find((k) => s.enc.combatants[k].name === 'Orc captain');

  // ---- refused before any die: the fight has not started; an unknown spell; one not carried ----
  await refused(bob.client, 'enc.act', cast({ spell: 'Lightning Bolt', target: orc }), 'rule', /has not started/);
  await act(gm, 'initiative');
  // the GM ends every turn (Vesper's own, once she has acted) until Vesper's next one
  const current = async () => (await settle(gm, players)).enc.order[gm.state.enc.turn];
  const toVesper = async (after) => {
    if (after) await act(gm, 'end');
    for (let i = 0; i < 6 && (await current()) !== eV; i++) await act(gm, 'end');
    assert.equal(await current(), eV);
  };
  await toVesper(false);
  await refused(bob.client, 'enc.act', cast({ spell: 'Magic Missile', target: orc }), 'bad_request', /no spell called/);
  await refused(bob.client, 'enc.act', cast({ spell: 'Charm', target: orc }), 'rule', /does not carry the spell Charm/);
  await refused(bob.client, 'enc.act', cast({ spell: 'Lightning Bolt' }), 'bad_request', /needs a target/);

  // ---- Lightning Bolt: 1d6 to the orc, halved when it saves against DC 11 (reading 13) ----
  const r1 = await act(bob.client, 'cast', { spell: 'Lightning Bolt', target: orc }, eV);
  const e1 = r1.log.find((x) => x.action === 'cast');
  const [dmg] = values(e1);
  assert.equal(values(e1).length, 1, 'the player sees the damage die, not the orc\'s save die');
  const hit = e1.result.targets[0];
  assert.equal(hit.target, orc);
  assert.equal(hit.damage, hit.saved ? Math.floor(dmg / 2) : dmg);
  assert.equal(e1.result.dc, 11);
  assert.equal(e1.result[`save_${orc}`], undefined);
  s = await settle(gm, players);
  assert.deepEqual(s.chars[vesper].sheet.spell_slots, { max: 2, used: 1 }, 'the cast is spent on the sheet');
  assert.equal(s.chars[vesper].derived.spell_slots_left, 1);
  assert.equal(s.enc.combatants[eV].budget.actions, 0, 'a spell takes both ◆ (004:701)');
  const g1 = s.gm.log.filter((x) => x.action === 'cast').at(-1);
  assert.equal(g1.result[`save_${orc}`].bonus, 2, 'the GM sees the orc\'s save (GA 2)');
  assert.equal(s.gm.enc.combatants[orc].stats.hp.damage, hit.damage);

  // ---- next round: Turn Undead spends the second cast; then none is left ----
  await toVesper(true);
  const r2 = await act(bob.client, 'cast', { spell: 'Turn Undead' }, eV);
  assert.match(r2.log.find((x) => x.action === 'cast').text, /hit dice worth of undead turn away/);
  s = await settle(gm, players);
  assert.deepEqual(s.chars[vesper].sheet.spell_slots, { max: 2, used: 2 });
  await toVesper(true);
  await refused(bob.client, 'enc.act', cast({ spell: 'Turn Undead' }), 'rule', /no spell casts left until a rest/);

  // ---- the player never received the orc's save ----
  assertNoGmBytes(players);
  for (const p of players)
    for (const raw of p.client.frames) {
      assert.doesNotMatch(raw, /"save_e\d+"/, `${p.name} got the orc's save`);
      assert.doesNotMatch(raw, /Orc captain (saves|fails to save) \(/, `${p.name} got the orc's save arithmetic`);
    }

  // ---- kill -9: the spent casts are still spent ----
  await gm.ping();
  const before = structuredClone(gm.state);
  await srv.restart();
  const [gm2, w] = await srv.hello(gmToken);
  t.after(() => gm2.close());
  assert.deepEqual(w.state.chars, before.chars, 'the sheets survive kill -9');
  assert.deepEqual(w.state.chars[vesper].sheet.spell_slots, { max: 2, used: 2 });
  assert.deepEqual(w.state.enc, before.enc);

  // ---- the night's rest gives the casts back (fivey.between) ----
  await ok(gm2, 'enc.end', {});
  await ok(gm2, 'enc.start', { module: 'fivey.between' });
  const bV = (await ok(gm2, 'enc.add', { char: vesper })).id;
  const [bob2] = await srv.hello(bob.token);
  t.after(() => bob2.close());
  const rest = await ok(bob2, 'enc.act', { action: 'rest', actor: bV, params: { action: 'cook' } });
  assert.ok(rest.log.some((x) => x.text === "Vesper's spells are ready again (2 casts)"));
  await gm2.ping();
  assert.deepEqual(gm2.state.chars[vesper].sheet.spell_slots, { max: 2, used: 0 });
  assert.equal(gm2.state.chars[vesper].derived.spell_slots_left, 2);

  await gm2.ping();
  const [zero] = srv.replay({ campaign: campaignId, fromZero: true });
  assert.equal(zero.seq, gm2.seq);
  assert.deepEqual(zero.state, gm2.state);
});

// Saved campaigns keep working: a database written before spells (fixtures/
// fivey_before_spells_v1.db, made by fixtures/make_fivey_before_spells_v1.mjs with the binary of
// main at 9910f03) opens as it was — no upgrade event, since spells are new optional fields —, its
// sheets validate and derive no spell numbers, the fight it left running goes on (a cast there is
// refused cleanly: nobody in it carries a spell), and a sheet given spells casts in the next fight.
test('a fivey campaign saved before spells opens, its fight goes on, and its sheets take spells', async (t) => {
  const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
  const old = JSON.parse(fs.readFileSync(path.join(fixtures, 'fivey_before_spells_v1.json'), 'utf8'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-fivey-'));
  fs.copyFileSync(path.join(fixtures, 'fivey_before_spells_v1.db'), path.join(dir, 't.db'));
  const srv = await startServer(t, { dir, args: ['--seed', '6'] });
  const [gm, gw] = await srv.hello(old.gm_token);
  const [ann] = await srv.hello(old.ann.token);
  t.after(() => Promise.all([gm.close(), ann.close()]));
  assert.equal(gw.seq, old.seq, 'nothing to upgrade');
  const v = gw.state.chars[old.vesper];
  assert.equal(v.sheet.spells, undefined);
  assert.equal(v.derived.spell_dc, undefined);
  assert.equal(gw.state.enc.module, 'fivey.combat');

  // the old sheet still validates as it is
  await ok(ann, 'char.update', { id: old.vesper, sheet: v.sheet });
  // the running fight: on Vesper's turn a cast is refused before any die, an attack goes on
  for (let i = 0; i < 4 && gm.state.enc.order[gm.state.enc.turn] !== old.V; i++) {
    await ok(gm, 'enc.act', { action: 'end' });
    await gm.ping();
  }
  assert.equal(gm.state.enc.order[gm.state.enc.turn], old.V);
  await refused(ann, 'enc.act', { action: 'cast', actor: old.V, params: { spell: 'Turn Undead' } }, 'rule', /does not carry the spell Turn Undead/);
  await ok(ann, 'enc.act', { action: 'attack', actor: old.V, params: { target: old.orc } });

  // the player writes her spells into the sheet; the next fight knows them
  await ok(ann, 'char.update', { id: old.vesper, sheet: { ...v.sheet, spells: sample('fivey', 'vesper').spells, spell_slots: { max: 2, used: 0 } } });
  await gm.ping();
  assert.equal(gm.state.chars[old.vesper].derived.spell_dc, 11);
  await ok(gm, 'enc.end', {});
  await ok(gm, 'enc.start', { module: 'fivey.combat' });
  const eV = (await ok(gm, 'enc.add', { char: old.vesper })).id;
  await ok(gm, 'enc.act', { action: 'spawn', params: { name: 'Skeleton', monster: 'Skeleton', hp: 20 } });
  await ok(gm, 'enc.act', { action: 'initiative' });
  for (let i = 0; i < 4 && gm.state.enc.order[gm.state.enc.turn] !== eV; i++) {
    await ok(gm, 'enc.act', { action: 'end' });
    await gm.ping();
  }
  await ok(ann, 'enc.act', { action: 'cast', actor: eV, params: { spell: 'Turn Undead' } });
  await gm.ping();
  assert.deepEqual(gm.state.chars[old.vesper].sheet.spell_slots, { max: 2, used: 1 });

  const [zero] = srv.replay({ campaign: old.campaign, fromZero: true });
  assert.deepEqual(zero.state, gm.state);
});
