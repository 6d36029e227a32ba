// A 10acity social contest (tenacity.social, 003:49, 003:70) through the real server with two
// players and the GM, seeded dice (--seed 12: every move is played, one lands at 0 and the next is refused): whatever the dice say, after every step each
// seat's received bytes hold exactly what that seat may know. The standing scale is public; the
// NPC's dice, totals, skill names and notes never reach a player's socket; a refused move changes
// nothing (rules/RULES.md, "Social scenes (module tenacity.social)").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, ok, refused, makeChar, assertNoGmBytes, settle, sample } from './enc_lib.mjs';

const SECRETS = ['Gorrakscheme ledger', 'Velvet Menace', 'Hush Lore'];

function gorrak() {
  const sheet = { ...sample('tenacity', 'odessa'), name: 'Gorrak', notes: 'Gorrakscheme ledger' };
  sheet.attributes = structuredClone(sheet.attributes);
  sheet.attributes[5].skills[0].name = 'Velvet Menace'; // Presence 3d10: Deception, rank 10
  sheet.attributes[2].skills[2].name = 'Hush Lore'; // Awareness 2d10: Insight, rank 2
  return sheet;
}

test('tenacity.social: the standing scale moves for everyone, the NPC keeps its numbers', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '12'] });
  const { gm, players } = await campaignOf(srv, t, 'tenacity', ['Ann', 'Bob']);
  const [ann, bob] = players;
  const odessa = await makeChar(ann.client, { name: 'Odessa', sheet: sample('tenacity', 'odessa') });
  const brakka = await makeChar(bob.client, { name: 'Brakka Vell', sheet: sample('tenacity', 'brakka') });
  const g = await makeChar(gm, { name: 'Gorrak', sheet: gorrak(), npc: true });
  await ok(gm, 'enc.start', { module: 'tenacity.social' });
  const O = (await ok(gm, 'enc.add', { char: odessa })).id;
  const B = (await ok(gm, 'enc.add', { char: brakka })).id;
  const G = (await ok(gm, 'enc.add', { char: g })).id;
  const act = (c, action, params, actor) => ok(c, 'enc.act', { action, params, actor });
  const scaleOn = (c, who, eyes) => c.state.enc.standing?.[who]?.[eyes];
  // every seat reads the same scale, and no player got a byte of the GM's
  async function check(step, who, eyes) {
    await settle(gm, players);
    const v = scaleOn(gm, who, eyes);
    for (const p of players) assert.equal(scaleOn(p.client, who, eyes), v, `${step}: ${p.name} sees the scale`);
    assertNoGmBytes(players, SECRETS);
    return v;
  }

  // only the GM opens a contest; nothing to sway before it is open
  await refused(ann.client, 'enc.act', { action: 'open', params: { target: O, target2: G } }, 'forbidden');
  await refused(ann.client, 'enc.act', { action: 'sway', actor: O, params: { target: G, skill: 'Persuasion' } }, 'rule', /opens that contest/);
  await act(gm, 'open', { target: O, target2: G, value: 2 });
  await act(gm, 'open', { target: B, target2: G, value: 4 });
  assert.equal(await check('open', O, G), 2, '003:70 where the narrator sets it');
  assert.equal(await check('open', B, G), 4);
  // a seat moves only its own character; a skill not on the sheet is refused before a die
  await refused(bob.client, 'enc.act', { action: 'sway', actor: O, params: { target: G, skill: 'Persuasion' } }, 'forbidden');
  await refused(ann.client, 'enc.act', { action: 'sway', actor: O, params: { target: G, skill: 'Juggling' } }, 'bad_request', /Juggling/);

  const lastEntry = (c, action) => c.state.log.filter((e) => e.action === action).at(-1);
  const moves = [
    [ann.client, 'sway', { target: G, skill: 'Performance' }, O, O],
    [gm, 'scrutiny', { target: B, skill: 'Hush Lore' }, G, B],
    [bob.client, 'sway', { target: G, skill: 'Intimidation', def_skill: 'Hush Lore' }, B, B],
    [gm, 'scrutiny', { target: O, skill: 'Hush Lore', def_skill: 'Insight' }, G, O],
    [bob.client, 'scrutiny', { target: O, target2: G, skill: 'Intimidation' }, B, O],
    [ann.client, 'sway', { target: G, skill: 'Performance', push: true }, O, O],
    [gm, 'scrutiny', { target: B, skill: 'Velvet Menace' }, G, B],
    [bob.client, 'sway', { target: G, skill: 'Intimidation' }, B, B],
  ];
  for (const [c, action, params, actor, who] of moves) {
    const before = scaleOn(gm, who, G);
    if (before === 0 || before === 10) {
      // a decided contest: refused before a die
      await refused(c, 'enc.act', { action, actor, params }, 'rule', /over/);
      continue;
    }
    await act(c, action, params, actor);
    const after = await check(`${action} by ${actor}`, who, G);
    const entry = lastEntry(ann.client, action);
    assert.equal(entry.result.before, before);
    assert.equal(entry.result.standing, after);
    // the move's direction: the talker's success raises, an opponent's success lowers (003:49, 003:70)
    const up = action === 'sway';
    if (entry.result.success) assert.ok(up ? after >= before : after <= before, JSON.stringify(entry.result));
    else if (!up) assert.equal(after, before, 'a failed scrutiny leaves the scale');
    else assert.ok(after <= before);
    // Gorrak's side of the roll is the GM's: no die by him and no total of his on a player's socket
    for (const p of players) {
      const mine = lastEntry(p.client, action);
      assert.ok(!(mine.dice || []).some((d) => d.by === G), `${p.name} got Gorrak's dice`);
      if (actor === G) assert.equal(mine.result.attack, undefined, `${p.name} got Gorrak's total`);
      if (params.target === G) assert.equal(mine.result.defence, undefined, `${p.name} got Gorrak's total`);
    }
  }
  const gmEntries = gm.state.gm.log.filter((e) => e.module === 'tenacity.social');
  assert.ok(gmEntries.some((e) => (e.dice || []).some((d) => d.by === G)), "the GM's log holds Gorrak's dice");

  // the scene ends: positive spin is lost (003:94), the scale goes with the scene
  await ok(gm, 'enc.end', {});
  await settle(gm, players);
  for (const c of [gm, ann.client, bob.client]) assert.equal(c.state.enc, undefined);
  assertNoGmBytes(players, SECRETS);
});
