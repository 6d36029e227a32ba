// FIVEY spells outside a fight through the real server (issue 25 item 21; rulebook 004:481-505,
// rules/RULES.md fivey reading 14): in a social encounter Sylla charms the village elder (004:489:
// d20 + INT against 10 + CHA), between the scenes Vesper turns undead and bolts an NPC of the GM's
// (004:501, 004:505); each spends one of the casts on the sheet and no ◆; an NPC's save is the
// GM's; the night's rest gives the casts back (004:483, 004:549). Seed 8; every expected number
// is computed from the dice the server logged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const values = (entry) => (entry.dice || []).map((d) => d.value);
const cast = (res) => res.log.find((x) => x.action === 'cast');

test('fivey spells outside a fight: Charm in a conversation, a bolt and Turn Undead between the scenes', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '8'] });
  const { gm, players, campaignId } = await campaignOf(srv, t, 'fivey');
  const [ann, bob] = players;
  const sylla = await makeChar(ann.client, { name: 'Sylla', sheet: sample('fivey', 'sylla') });
  const vesper = await makeChar(bob.client, { name: 'Vesper', sheet: sample('fivey', 'vesper') });
  const act = (c, action, params, actor) => ok(c, 'enc.act', { action, params, ...(actor ? { actor } : {}) });

  // ---- a conversation: Sylla's Charm on the elder (a commoner: CHA 1, 004:751) ----
  await ok(gm, 'enc.start', { module: 'fivey.social' });
  const eS = (await ok(gm, 'enc.add', { char: sylla })).id;
  const elder = (await ok(gm, 'enc.add', { npc: { name: 'Commoner elder', side: 'villagers' } })).id;
  await refused(bob.client, 'enc.act', { action: 'cast', actor: eS, params: { spell: 'Charm', target: elder } }, 'forbidden');
  const c1 = cast(await act(ann.client, 'cast', { spell: 'Charm', target: elder }, eS));
  const [d20] = values(c1);
  const hit = d20 + 1 >= 11;
  assert.equal(c1.result.hit, hit);
  assert.equal(c1.result.against, undefined, "the elder's 10 + CHA is the GM's");
  let s = await settle(gm, players);
  assert.equal(s.chars[sylla].sheet.spell_slots.used, 1, 'the cast is spent on the sheet');
  assert.equal(Boolean((s.enc.combatants[elder].conditions || []).find((x) => x.name === 'charmed')), hit);
  await refused(ann.client, 'enc.act', { action: 'cast', actor: eS, params: { spell: 'Charm', target: elder } }, 'rule', /no spell casts left/);
  await ok(gm, 'enc.end', {});

  // ---- between the scenes: Vesper's Turn Undead and Lightning Bolt on an NPC with a sheet ----
  const mira = await makeChar(gm, { name: 'Mira', sheet: sample('fivey', 'sylla'), npc: true });
  await ok(gm, 'enc.start', { module: 'fivey.between' });
  const eV = (await ok(gm, 'enc.add', { char: vesper })).id;
  const eM = (await ok(gm, 'enc.add', { char: mira })).id;
  const tu = cast(await act(bob.client, 'cast', { spell: 'Turn Undead' }, eV));
  assert.equal(tu.result.hit_dice, values(tu)[0]);
  const lb = await act(bob.client, 'cast', { spell: 'Lightning Bolt', target: eM }, eV);
  const bolt = cast(lb);
  const [dmg] = values(bolt);
  assert.equal(values(bolt).length, 1, "Mira's save die is the GM's");
  const saved = bolt.result.targets[0].saved;
  assert.equal(bolt.result.targets[0].damage, saved ? Math.floor(dmg / 2) : dmg);
  s = await settle(gm, players);
  assert.equal(s.chars[vesper].sheet.spell_slots.used, 2);
  assert.equal(s.gm.enc.combatants[eM].stats.hp.damage, saved ? Math.floor(dmg / 2) : dmg);
  await act(bob.client, 'rest', { action: 'cook' }, eV);
  s = await settle(gm, players);
  assert.equal(s.chars[vesper].sheet.spell_slots.used, 0, 'the night gives the casts back');

  assertNoGmBytes(players);
  await ok(gm, 'enc.end', {});
  await gm.ping();
  const [zero] = srv.replay({ campaign: campaignId, fromZero: true });
  assert.equal(zero.seq, gm.seq);
  assert.deepEqual(zero.state, gm.state);
});
