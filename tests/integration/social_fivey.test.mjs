// A FIVEY social encounter (module fivey.social, rules/fivey/social.c; rulebook
// 004_110cc4af3ff93059.txt cited 004:LINE) through the real server with two players and the GM,
// seeded dice (--seed 3): the GM rolls the non-player party's reaction (004:649-656) and keeps
// it; neither player socket receives a byte of the disposition, its die or what it will do until
// the GM reveals it, and then both do. The one request (004:660-662) is Vesper's charisma check,
// open to the table, its answer following the hidden disposition (004:658); a second is refused.
// The other party's morale check (004:670) runs in the same scene.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const DISPOSITIONS = ['hostile', 'uncertain', 'friendly'];
const entry = (res, action) => res.log.find((l) => l.action === action);
const sees = (p, s) => p.client.frames.some((raw) => raw.includes(s));
/** 004:653-656 */
const table = (d20) => (d20 <= 6 ? 'hostile' : d20 <= 14 ? 'uncertain' : 'friendly');

test('fivey.social: the reaction stays the GM\'s until revealed; one request; morale', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '3'] });
  const { gm, players } = await campaignOf(srv, t, 'fivey');
  const [ann, bob] = players;
  const vesperChar = await makeChar(ann.client, { name: 'Vesper', sheet: sample('fivey', 'vesper') });
  const brunChar = await makeChar(bob.client, { name: 'Brunhild', sheet: sample('fivey', 'brunhild') });

  await ok(gm, 'enc.start', { module: 'fivey.social' });
  const vesper = (await ok(gm, 'enc.add', { char: vesperChar })).id;
  const brun = (await ok(gm, 'enc.add', { char: brunChar })).id;
  const elder = (await ok(gm, 'enc.add', { npc: { name: 'Commoner elder', side: 'villagers' } })).id;
  await ok(gm, 'enc.add', { npc: { name: 'Commoner', side: 'villagers' } });

  // only the GM rolls the reaction or reveals it; nobody asks before the GM decided it
  await refused(ann.client, 'enc.act', { action: 'reaction' }, 'forbidden');
  await refused(ann.client, 'enc.act', { action: 'reveal' }, 'forbidden');
  await refused(ann.client, 'enc.act', { action: 'request', actor: vesper, params: { what: 'Shelter' } }, 'rule', /first react/);

  // 004:649: the GM expects the village to lean friendly: advantage, the better of two d20s
  const r = await ok(gm, 'enc.act', { action: 'reaction', params: { adv: true } });
  let s = await settle(gm, players);
  const gmEntry = s.gm.log.findLast((l) => l.action === 'reaction');
  const [d1, d2] = gmEntry.dice.map((d) => d.value);
  assert.equal(gmEntry.result.natural, Math.max(d1, d2), 'advantage keeps the better die (004:98)');
  const disposition = table(gmEntry.result.natural);
  t.diagnostic(`reaction d20s ${d1}, ${d2}: ${disposition}`);
  assert.equal(s.gm.enc.disposition, disposition, '004:653-656');
  assert.equal(gmEntry.result.disposition, disposition);
  assert.match(s.gm.enc.will, new RegExp(disposition, 'i'), "what it will and won't do, for the GM");
  assert.ok(r.log.some((l) => new RegExp(disposition, 'i').test(l.text || '')), "the GM's ack names it");
  for (const p of players) {
    assert.equal(p.client.state.enc.reacted, true, `${p.name} sees that the GM decided it`);
    assert.equal(p.client.state.enc.disposition, undefined);
    const pub = p.client.state.log.findLast((l) => l.action === 'reaction');
    assert.ok(pub && !pub.dice, `${p.name} sees no reaction die`);
  }
  // no seat but the GM's holds a byte of it: not the word, not the GM's text
  for (const d of DISPOSITIONS) for (const p of players) assert.ok(!sees(p, d), `${p.name} got '${d}'`);
  assertNoGmBytes(players, [s.gm.enc.will]);

  // the GM names the speaker and the terms: help, out of their way (DC 16), a good talk (adv)
  await refused(gm, 'enc.act', { action: 'talker', params: { target: elder } }, 'rule', /not of the party/);
  await refused(bob.client, 'enc.act', { action: 'talker', params: { target: brun } }, 'forbidden');
  await ok(gm, 'enc.act', { action: 'talker', params: { target: vesper } });
  await refused(ann.client, 'enc.act', { action: 'request', actor: vesper, params: { what: 'Shelter' } }, 'rule', /sets what the request asks/);
  await ok(gm, 'enc.act', { action: 'terms', params: { ask: 'help', hard: true, adv: true } });
  s = await settle(gm, players);
  assert.deepEqual(bob.client.state.enc.terms, { ask: 'help', dc: 16, edge: 'adv' }, '004:660-662');

  // the request is the talker's: Bob may not make it for Vesper, nor with Brunhild
  await refused(bob.client, 'enc.act', { action: 'request', actor: vesper, params: { what: 'Shelter' } }, 'forbidden');
  await refused(bob.client, 'enc.act', { action: 'request', actor: brun, params: { what: 'Shelter' } }, 'rule', /Vesper drives the negotiation/);
  await refused(ann.client, 'enc.act', { action: 'request', actor: vesper, params: { what: 'Shelter', skill: 'Masonry' } }, 'rule', /no skill/);

  // 004:660 Vesper's charisma, doubled by Deception (004:120), with advantage, vs DC 16
  const req = entry(
    await ok(ann.client, 'enc.act', { action: 'request', actor: vesper, params: { what: 'Shelter for the night', skill: 'Deception' } }),
    'request',
  );
  const [f1, f2] = req.dice.map((d) => d.value);
  assert.equal(req.result.natural, Math.max(f1, f2));
  assert.equal(req.result.bonus, 8);
  assert.equal(req.result.total, req.result.natural + 8);
  assert.equal(req.result.dc, 16);
  assert.equal(req.result.success, req.result.total >= 16);
  // 004:658: a hostile village never helps; an uncertain one if persuaded; a friendly one anyway
  t.diagnostic(`request: ${JSON.stringify(req.result)}`);
  const granted = disposition === 'hostile' ? false : disposition === 'friendly' ? true : req.result.success;
  assert.equal(req.result.granted, granted);
  assert.match(req.text, granted ? /they agree/ : /they refuse/);
  s = await settle(gm, players);
  for (const p of players) {
    const seen = p.client.state.log.findLast((l) => l.action === 'request');
    assert.deepEqual(seen.result, req.result, `${p.name} sees the roll and the answer`);
    assert.equal(p.client.state.enc.request.granted, granted);
  }
  for (const d of DISPOSITIONS) for (const p of players) assert.ok(!sees(p, d), `${p.name} got '${d}' from the request`);
  assert.ok(s.gm.log.findLast((l) => l.action === 'request').text.includes(disposition), 'why is the GM\'s');

  // 004:660 one request, lest they annoy them
  await refused(ann.client, 'enc.act', { action: 'request', actor: vesper, params: { what: 'And a horse' } }, 'rule', /one request/);
  await refused(gm, 'enc.act', { action: 'terms', params: { ask: 'spare' } }, 'rule', /one request/);

  // the reveal: now both players hold the disposition
  await ok(gm, 'enc.act', { action: 'reveal' });
  await refused(gm, 'enc.act', { action: 'reveal' }, 'rule', /revealed already/);
  s = await settle(gm, players);
  for (const p of players) {
    assert.equal(p.client.state.enc.disposition, disposition, `${p.name} learns it`);
    assert.ok(sees(p, disposition));
  }
  assertNoGmBytes(players, [s.gm.enc.will]);

  // 004:670 in the same scene: the villagers' collective check, wisdom = their INT (1), DC 14
  const m = await ok(gm, 'enc.act', { action: 'morale', params: {} });
  s = await settle(gm, players);
  const mGm = s.gm.log.findLast((l) => l.action === 'morale');
  assert.equal(mGm.result.dc, 14);
  assert.equal(mGm.result.total, mGm.dice[0].value + 1);
  const hold = mGm.result.total >= 14;
  const mPub = entry(m, 'morale');
  assert.equal(mPub.result.hold, hold);
  const annMorale = ann.client.state.log.findLast((l) => l.action === 'morale');
  assert.equal(annMorale.result.hold, hold);
  assert.equal(annMorale.result.dc, undefined, 'the DC of their morale is the GM\'s');
  assert.equal(annMorale.dice, undefined, 'their die is the GM\'s');
  assert.equal(s.enc.combatants[elder].out, hold ? undefined : 'fled');
  await refused(gm, 'enc.act', { action: 'morale', params: { side: 'party' } }, 'rule', /not the party/);
  assertNoGmBytes(players);
});
