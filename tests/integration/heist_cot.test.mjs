// City of Thieves heist through the real server (issue 16; 000 = rulebook 000_d2a475e9ec148dd1.txt):
// the GM prepares a Spot with a Hidden zone before the job (000:174-200), the crew researches
// (000:202-212), spends Foresight on a Training scheme (000:216-218), enters a zone and its guard
// becomes Aware (000:177). Every player's bytes hold only what the crew has discovered: the
// Hidden zone's name, the guards' scores and a guard not yet seen never reach them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const ADA = {
  name: 'Ada Quill',
  abilities: { muscle: 1, fingers: 2, brains: 3, it: 2 },
  skills: { planning: 3, lookout: 1 },
  reputation: 2,
  foresight: 3,
};
const VERA = {
  name: 'Vera Lockhart',
  abilities: { muscle: 1, fingers: 3, brains: 2, it: 2 },
  skills: { sneak: 2, lockpicking: 3 },
};

/** Every frame a player received, as one string. */
const bytesOf = (p) => p.client.frames.join('\n');

test('cot heist: hidden zones stay the GM\'s until the crew discovers them', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '16'] });
  const { gm, players } = await campaignOf(srv, t, 'cot', ['Ann', 'Bob']);
  const [ann, bob] = players;
  const ada = await makeChar(ann.client, { name: 'Ada Quill', sheet: ADA });
  const vera = await makeChar(bob.client, { name: 'Vera Lockhart', sheet: VERA });

  // ---- the GM prepares the Spot before the job ----
  await ok(gm, 'enc.start', { module: 'cot.heist' });
  const A = (await ok(gm, 'enc.add', { char: ada })).id;
  const V = (await ok(gm, 'enc.add', { char: vera })).id;
  await ok(gm, 'enc.act', { action: 'zone', params: { id: 'yard', name: 'Loading yard', edge: 1 } });
  await ok(gm, 'enc.act', { action: 'zone', params: { id: 'office', name: 'Counting office' } });
  await ok(gm, 'enc.act', { action: 'zone', params: { id: 'cellar', name: 'Smugglers cellar', tags: 'hidden', rating: 40 } });
  await ok(gm, 'enc.act', { action: 'barrier', params: { id: 'gate', from: 'outside', to: 'yard', tag: 'none' } });
  await ok(gm, 'enc.act', { action: 'barrier', params: { id: 'door', from: 'yard', to: 'office', tag: 'lock', score: 11 } });
  await ok(gm, 'enc.act', { action: 'barrier', params: { id: 'trap', from: 'office', to: 'cellar', tag: 'structure', score: 14 } });
  await ok(gm, 'enc.act', { action: 'guard', params: { id: 'g1', name: 'Porter Hobb', zone: 'yard', brains: 2, lookout: 1 } });
  await ok(gm, 'enc.act', { action: 'guard', params: { id: 'g2', name: 'Clerk Amsel', zone: 'office', brains: 3, lookout: 2 } });
  await refused(ann.client, 'enc.act', { action: 'zone', actor: A, params: { id: 'x', name: 'X' } }, 'forbidden');
  let s = await settle(gm, players);
  assert.deepEqual(Object.keys(s.gm.enc.spot.zones).sort(), ['cellar', 'office', 'yard']);
  assert.equal(s.gm.enc.spot.guards.g1.awareness, 7); // 3 x 2 kept + 1 extra die (000:196)
  for (const p of players) {
    assert.deepEqual(p.client.state.enc.spot.zones ?? {}, {}, `${p.name} sees no zone before research`);
    assert.deepEqual(p.client.state.enc.spot.crew, { [A]: 'outside', [V]: 'outside' });
  }

  // ---- research: the layout (6 + 2 zones that are not Hidden = 8) by Planning ----
  await refused(bob.client, 'enc.act', { action: 'move', actor: V, params: { zone: 'yard' } }, 'rule', /knows of no such zone/);
  const layout = await ok(ann.client, 'enc.act', { action: 'research', actor: A, params: { goal: 'layout', method: 'planning' } });
  const found = layout.log.at(-1).result.success;
  s = await settle(gm, players);
  assert.equal(Boolean(s.enc.spot.zones?.yard), found, 'the layout is shown exactly when the roll succeeds');
  if (!found) await ok(gm, 'enc.act', { action: 'reveal', params: { zone: 'yard' } });
  await ok(gm, 'enc.act', { action: 'reveal', params: { zone: 'office' } });
  s = await settle(gm, players);
  assert.deepEqual(Object.keys(s.enc.spot.zones).sort(), ['office', 'yard']);
  assert.equal(s.enc.spot.barriers.door.score, undefined, 'a Security Score stays the GM\'s');
  assert.equal(s.enc.spot.barriers.trap, undefined, 'a barrier to the Hidden cellar would give it away');
  // looking for Hidden zones against a rating of 40: not found
  await ok(ann.client, 'enc.act', { action: 'research', actor: A, params: { goal: 'hidden', method: 'planning' } });

  // ---- Connections costs Reputation; Foresight on a Training scheme (000:218) ----
  await ok(ann.client, 'enc.act', { action: 'research', actor: A, params: { goal: 'itinerary', method: 'connections' } });
  await refused(ann.client, 'enc.act', { action: 'scheme', actor: A, params: { scheme: 'training', rolled: 2, kept: 1 } }, 'rule', /has 3 Foresight; this takes 4/);
  await ok(ann.client, 'enc.act', { action: 'scheme', actor: A, params: { scheme: 'training', rolled: 1, kept: 1 } });
  s = await settle(gm, players);
  assert.equal(s.enc.combatants[A].stats.reputation, 1);
  assert.equal(s.enc.combatants[A].stats.foresight, 0);
  // +1k1: one die rolled and one kept (000:218; issue 25 item 3: a kept die no longer brings a free rolled one)
  assert.deepEqual(s.enc.combatants[A].conditions.find((c) => c.name === 'training'), { name: 'training', level: 1, kept: 1 });
  const sheet = s.chars?.[ada]?.sheet;
  if (sheet) assert.equal(sheet.foresight, 0, 'Foresight is written back to the sheet');

  // ---- Vera walks into the yard openly: the porter sees her (000:177) ----
  assert.ok(!bytesOf(ann).includes('Porter Hobb') && !bytesOf(bob).includes('Porter Hobb'), 'no guard seen yet');
  await ok(bob.client, 'enc.act', { action: 'move', actor: V, params: { zone: 'yard', stealth: 0 } });
  s = await settle(gm, players);
  assert.equal(s.enc.spot.crew[V], 'yard');
  assert.deepEqual(s.enc.spot.guards.g1, { name: 'Porter Hobb', zone: 'yard', aware: true });
  assert.equal(s.enc.spot.guards.g2, undefined, 'the office clerk is not seen from the yard');
  // an Aware guard: nobody sneaks into the yard now, refused before any die
  await refused(ann.client, 'enc.act', { action: 'move', actor: A, params: { zone: 'yard' } }, 'rule', /an Aware guard in Loading yard/);

  // ---- what each player holds ----
  for (const p of players) {
    const st = p.client.state;
    assert.deepEqual(Object.keys(st.enc.spot.zones).sort(), ['office', 'yard']);
    assert.deepEqual(Object.keys(st.enc.spot.guards), ['g1']);
    assert.equal(st.gm, undefined);
    const bytes = bytesOf(p);
    // the guards' Awareness (7, 11) and Training: a PC's own derived scores (Ada 10, Vera 6) are
    // on their sheets, so the guards' are looked for by value
    for (const secret of ['Smugglers cellar', 'cellar', 'Clerk Amsel', '"awareness":7', '"awareness":11', '"rating"', '"score"'])
      assert.ok(!bytes.includes(secret), `${p.name} got ${secret}`);
  }
  assertNoGmBytes(players, ['Smugglers cellar', 'Clerk Amsel']);
});
