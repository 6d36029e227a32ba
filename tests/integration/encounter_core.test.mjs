// Characters, GM notes and the encounter ops every module shares (issue 5 "At the table", issue 6
// "Hidden information"): sheets validated by the system's rules, NPCs and notes under /gm, reveal
// and hide, the encounter lifecycle (start, add, remove, set, end) and its who-checks. The
// per-system scenarios (encounter_<system>.test.mjs) drive each module's actions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

test('characters: validated sheets, owners, NPCs only under /gm', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '7'] });
  const { gm, players } = await campaignOf(srv, t, 'fivey');
  const [ann, bob] = players;
  const vesper = sample('fivey', 'vesper');

  const desc = await ok(ann.client, 'system.describe', {});
  assert.equal(desc.system, 'fivey');
  assert.ok(desc.sheet.some((f) => f.name === 'stats'), 'the sheet schema is there');
  assert.ok(desc.checks.some((c) => c.name === 'check'));
  assert.ok(desc.modules.some((m) => m.id === 'fivey.combat'));

  const annChar = await makeChar(ann.client, { name: 'Vesper', sheet: vesper });
  await settle(gm, players);
  assert.equal(bob.client.state.chars[annChar].seat, ann.seat, 'the party sees the sheet');
  assert.deepEqual(bob.client.state.chars[annChar].sheet, vesper);
  assert.ok(bob.client.state.chars[annChar].derived, 'derived values are computed');

  // a bad sheet names the field; nothing is written
  const bad = structuredClone(vesper);
  bad.stats.dex = 99;
  await refused(ann.client, 'char.create', { name: 'Bad', sheet: bad }, 'bad_request', /stats\.dex/);
  await refused(ann.client, 'char.create', { name: 'X', sheet: vesper, seat: bob.seat }, 'forbidden');
  await refused(ann.client, 'char.create', { name: 'X', sheet: vesper, npc: true }, 'forbidden');
  await refused(bob.client, 'char.update', { id: annChar, name: 'Mine now' }, 'forbidden', /Vesper/);
  await refused(bob.client, 'char.delete', { id: annChar }, 'forbidden');

  // the owner changes it; the GM too
  await ok(ann.client, 'char.update', { id: annChar, name: 'Vesper the Grey' });
  await ok(gm, 'char.update', { id: annChar, sheet: { ...vesper, inspiration: 1 } });
  await settle(gm, players);
  assert.equal(ann.client.state.chars[annChar].name, 'Vesper the Grey');
  assert.equal(ann.client.state.chars[annChar].sheet.inspiration, 1);

  // an NPC lives under /gm; a player asking for it gets not_found, as for a missing id
  const npc = await makeChar(gm, { name: 'Sergeant Vulk', sheet: { ...sample('fivey', 'brunhild'), name: 'Sergeant Vulk' }, npc: true });
  await settle(gm, players);
  assert.equal(gm.state.gm.npcs[npc].name, 'Sergeant Vulk');
  const e1 = await refused(ann.client, 'char.update', { id: npc, name: 'x' }, 'not_found');
  const e2 = await refused(ann.client, 'char.update', { id: 'c999', name: 'x' }, 'not_found');
  assert.equal(e1.message.replace(npc, 'ID'), e2.message.replace('c999', 'ID'), 'the same message');
  assertNoGmBytes(players, ['Sergeant Vulk']);

  // a generic campaign has no sheets
  const srv2 = await startServer(t);
  const g2 = await campaignOf(srv2, t, 'generic', []);
  await refused(g2.gm, 'char.create', { name: 'A', sheet: vesper }, 'rule', /generic/);
});

test('GM notes stay under /gm until revealed; hide takes them back', async (t) => {
  const srv = await startServer(t);
  const { gm, players } = await campaignOf(srv, t, 'grimwire', ['Ann']);
  const [ann] = players;
  await ok(gm, 'gm.set', { key: 'villain', value: { name: 'The Pale Duke', weakness: 'silver' } });
  await ok(gm, 'gm.set', { key: 'doom-clock', value: 3 });
  await refused(ann.client, 'gm.set', { key: 'x', value: 1 }, 'forbidden');
  await refused(gm, 'gm.set', { key: 'bad key!', value: 1 }, 'bad_request', /key/);
  await refused(gm, 'gm.reveal', { path: '/gm/join' }, 'bad_request', /join/);
  await refused(gm, 'gm.reveal', { path: '/gm/join/code' }, 'bad_request', /join/);
  await refused(gm, 'gm.reveal', { path: '/gm/notes/nothing' }, 'not_found');
  await refused(gm, 'gm.reveal', { path: '/chars' }, 'bad_request');
  await settle(gm, players);
  assertNoGmBytes(players, ['Pale Duke', 'silver']);

  await ok(gm, 'gm.reveal', { path: '/gm/notes/villain/name' });
  await settle(gm, players);
  assert.deepEqual(ann.client.state.revealed, { notes: { villain: { name: 'The Pale Duke' } } });
  assert.ok(!ann.client.frames.some((f) => f.includes('silver')), 'only the revealed part');

  await ok(gm, 'gm.hide', { path: '/gm/notes/villain/name' });
  await refused(gm, 'gm.hide', { path: '/gm/notes/villain/name' }, 'not_found');
  await ok(gm, 'gm.unset', { key: 'doom-clock' });
  await refused(gm, 'gm.unset', { key: 'doom-clock' }, 'not_found');
  await ok(gm, 'campaign.rename', { name: '  The Salt Road  ' });
  await refused(ann.client, 'campaign.rename', { name: 'Mine' }, 'forbidden');
  await settle(gm, players);
  assert.deepEqual(ann.client.state.revealed.notes.villain, {});
  assert.equal(ann.client.state.campaign.name, 'The Salt Road');
  assert.equal(gm.state.gm.notes['doom-clock'], undefined);
});

test('the encounter lifecycle: start, add PCs and NPCs, adjust, end; who may do what', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '11'] });
  const { gm, players, campaignId } = await campaignOf(srv, t, 'fivey');
  const [ann] = players;
  const c1 = await makeChar(ann.client, { name: 'Vesper', sheet: sample('fivey', 'vesper') });
  const npcSheet = { ...sample('fivey', 'brunhild'), name: 'Ogre' };
  const n1 = await makeChar(gm, { name: 'Ogre', sheet: npcSheet, npc: true });

  await refused(gm, 'enc.act', { action: 'x' }, 'rule', /no encounter/);
  await refused(ann.client, 'enc.start', { module: 'fivey.combat' }, 'forbidden');
  await refused(gm, 'enc.start', { module: 'cot.initiative' }, 'not_found', /fivey\.combat/);
  await ok(gm, 'enc.start', { module: 'fivey.combat' });
  await refused(gm, 'enc.start', { module: 'fivey.combat' }, 'rule', /already/);

  const pc = (await ok(gm, 'enc.add', { char: c1 })).id;
  await refused(gm, 'enc.add', { char: c1 }, 'rule', /already/);
  const ogre = (await ok(gm, 'enc.add', { char: n1 })).id;
  const rat = (await ok(gm, 'enc.add', { npc: { name: 'Giant rat', side: 'vermin' } })).id;
  await refused(gm, 'enc.add', { char: 'c99' }, 'not_found');
  await refused(gm, 'enc.add', {}, 'bad_request', /char.*npc/);
  await refused(ann.client, 'enc.add', { char: c1 }, 'forbidden');
  await refused(gm, 'char.delete', { id: c1 }, 'rule', /encounter/);

  let s = await settle(gm, players);
  assert.deepEqual(Object.keys(s.enc.combatants), [pc, ogre, rat]);
  assert.equal(s.enc.combatants[pc].seat, ann.seat);
  assert.equal(s.enc.combatants[pc].char, c1);
  assert.equal(s.enc.combatants[ogre].npc, true);
  assert.equal(s.enc.combatants[ogre].char, undefined, 'an NPC names its sheet only under /gm');
  assert.equal(s.gm.enc.combatants[ogre].char, n1);
  assert.equal(s.enc.combatants[rat].side, 'vermin');
  assert.deepEqual(ann.client.state.enc, s.enc, 'players see the public encounter');

  await refused(ann.client, 'enc.act', { action: 'no-such-action' }, 'not_found', /fivey\.combat/);
  await refused(ann.client, 'enc.set', { path: '/enc/round', value: 3 }, 'forbidden');
  await refused(gm, 'enc.set', { path: '/chars/c1/name', value: 'x' }, 'bad_request', /\/enc/);
  await refused(gm, 'enc.set', { path: '/enc/module', value: 'x' }, 'bad_request');
  await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${ogre}/note`, value: 'hates fire' });
  await ok(gm, 'enc.set', { path: `/enc/combatants/${rat}/side`, value: 'foes' });
  // damage lands on the sheet; a GM's edit of a value the action did not touch survives
  await ok(gm, 'char.update', { id: c1, sheet: { ...sample('fivey', 'vesper'), inspiration: 0 } });
  await ok(gm, 'enc.act', { action: 'harm', params: { target: pc, amount: 2 } });
  s = await settle(gm, players);
  assert.equal(s.chars[c1].sheet.hp.damage, sample('fivey', 'vesper').hp.damage + 2, 'the damage is on the sheet');
  assert.equal(s.chars[c1].sheet.inspiration, 0, "the GM's edit survives an action that did not touch it");
  assert.equal(s.enc.combatants[pc].stats.inspiration, sample('fivey', 'vesper').inspiration, 'the encounter keeps its own copy');
  await ok(gm, 'enc.remove', { id: rat });
  await refused(gm, 'enc.remove', { id: rat }, 'not_found');
  s = await settle(gm, players);
  assert.equal(s.gm.enc.combatants[ogre].note, 'hates fire');
  assert.equal(s.enc.combatants[rat], undefined);
  assertNoGmBytes(players, ['hates fire']);

  const end = await ok(gm, 'enc.end', {});
  assert.equal(end.rounds, 0);
  s = await settle(gm, players);
  assert.equal(s.enc, undefined);
  assert.equal(s.gm.enc, undefined);
  assert.ok(s.log.some((e) => e.kind === 'enc' && /ends/.test(e.text)));
  await ok(gm, 'char.delete', { id: c1 });

  // replaying the log rebuilds the live state
  await gm.ping();
  const [zero] = srv.replay({ campaign: campaignId, fromZero: true });
  assert.equal(zero.seq, gm.seq);
  assert.deepEqual(zero.state, gm.state);
});
