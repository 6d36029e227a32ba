// Chases through the real server (issue 13): a cot foot chase (000:139-171) and a heimr chase on
// fatigue (001:300-306), with two players and the GM. Seeded dice (--seed 7); what is asserted
// follows from the rules whatever the faces: a Distance moves exactly as the logged success or
// failure says, refusals name the rule and change nothing, and no GM byte reaches a player.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const COP = { name: 'Constable Pike', abilities: { muscle: 3, fingers: 2, brains: 1, it: 1 }, skills: { athletics: 2, resist: 1 } };

test('cot.chase: Vera runs from a constable; Distance follows the opposed rolls, escape needs the Velocity', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '7'] });
  const { gm, players } = await campaignOf(srv, t, 'cot', ['Ann', 'Bob']);
  const [ann, bob] = players;
  const vera = await makeChar(ann.client, { name: 'Vera Lockhart', sheet: sample('cot', 'vera_lockhart') });
  const pike = await makeChar(gm, { name: 'Constable Pike', sheet: COP, npc: true });

  await refused(gm, 'enc.start', { module: 'cot.chase', options: {} }, 'bad_request', /target_side/);
  await ok(gm, 'enc.start', { module: 'cot.chase', options: { target_side: 'party', distance: 2 } });
  const V = (await ok(gm, 'enc.add', { char: vera })).id;
  const P = (await ok(gm, 'enc.add', { char: pike, side: 'law' })).id;
  let s = await settle(gm, players);
  assert.equal(s.enc.pool, 'Muscle+Athletics');
  assert.equal(s.enc.combatants[P].distance, 2, "the GM's initial Distance (000:146)");
  assert.equal(typeof s.gm.enc.combatants[P].stats.cover, 'number', "the constable's Cover is the GM's");
  assert.equal(ann.client.state.enc.combatants[P].stats, undefined);
  await ok(gm, 'enc.act', { action: 'begin' });
  await refused(bob.client, 'enc.act', { action: 'accelerate', actor: V }, 'forbidden', /not your character/);
  await refused(ann.client, 'enc.act', { action: 'vehicle', params: { target: V, vehicle: 'cab' } }, 'forbidden');

  // play up to 6 rounds: Vera accelerates on her slot (or escapes when she may), Pike closes
  // (or takes her down at Distance 0); every move matches what the log says
  for (let i = 0; i < 12; i++) {
    s = await settle(gm, players);
    if (s.enc.combatants[V].out || s.enc.combatants[P].out) break;
    const slot = s.enc.order[s.enc.turn];
    const d = s.enc.combatants[P].distance;
    if (slot.side === 'party') {
      if (d >= 3) { // Pike's Velocity at Muscles velocity is his Muscle 3 (RULES.md, cot chases, reading 2)
        const r = await ok(ann.client, 'enc.act', { action: 'escape', actor: V });
        assert.match(r.log.at(-1).text, /escape: the chase is theirs$/);
        continue;
      }
      await refused(ann.client, 'enc.act', { action: 'escape', actor: V }, 'rule', new RegExp(`at Distance ${d}: escaping needs Distance 3`));
      await refused(ann.client, 'enc.act', { action: 'takedown', actor: V, params: { target: P } }, 'rule', /only a Pursuer may make a Takedown/);
      const r = await ok(ann.client, 'enc.act', { action: 'accelerate', actor: V });
      const e = r.log.find((x) => x.action === 'accelerate');
      s = await settle(gm, players);
      assert.equal(s.enc.combatants[P].distance, d + (e.result.success ? 1 : 0), e.text);
      assert.equal(e.result.difficulty, undefined, "the difficulty the constable's roll set is the GM's");
    } else if (d === 0) {
      const r = await ok(gm, 'enc.act', { action: 'takedown', actor: P, params: { target: V } });
      const e = r.log.find((x) => x.action === 'takedown' && x.result);
      s = await settle(gm, players);
      if (e.result.success) assert.equal(s.enc.combatants[V].out, 'caught');
      else assert.equal(s.enc.combatants[P].distance, 2, 'a failed Takedown: Distance + 2 (000:161)');
    } else {
      await refused(gm, 'enc.act', { action: 'takedown', actor: P, params: { target: V } }, 'rule', /needs Distance 0/);
      const r = await ok(gm, 'enc.act', { action: 'close', actor: P, params: { target: V } });
      const e = r.log.find((x) => x.action === 'close' && x.result);
      s = await settle(gm, players);
      assert.equal(s.enc.combatants[P].distance, d - (e.result.success ? 1 : 0), e.text);
    }
  }
  s = await settle(gm, players);
  assert.ok(s.log.some((e) => e.action === 'accelerate'));
  if (process.env.CHASE_DEBUG) console.log(s.log.map((e) => e.text).join('\n'));
  assertNoGmBytes(players);
  await ok(gm, 'enc.end', {});
});

test('heimr.chase: a fatigue chase on Athletics; the GM offers other ground (Survival) and the target takes it', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '3'] });
  const { gm, players } = await campaignOf(srv, t, 'heimr', ['Ann', 'Bob']);
  const [ann, bob] = players;
  const astrid = await makeChar(ann.client, { name: 'Astrid', sheet: sample('heimr', 'astrid_ironhand') });
  const gunnar = await makeChar(gm, { name: 'Old Gunnar', sheet: sample('heimr', 'old_gunnar'), npc: true });
  await ok(gm, 'enc.start', { module: 'heimr.chase', options: { ability: 'Agility', target_side: 'party', distance: 2 } });
  const A = (await ok(gm, 'enc.add', { char: astrid })).id;
  const G = (await ok(gm, 'enc.add', { char: gunnar, side: 'foes' })).id;
  await ok(gm, 'enc.act', { action: 'begin' });
  let s = await settle(gm, players);
  assert.deepEqual(s.enc.order, [A, G]);
  assert.equal(s.enc.combatants[G].distance, 2);
  await refused(gm, 'enc.act', { action: 'run', actor: G }, 'rule', /turn/);
  await refused(bob.client, 'enc.act', { action: 'choose', actor: A }, 'forbidden');
  await refused(ann.client, 'enc.act', { action: 'choose', actor: A }, 'rule', /offered no other terrain/);
  await ok(ann.client, 'enc.act', { action: 'run', actor: A });
  await ok(gm, 'enc.act', { action: 'offer', params: { ability: 'Survival' } });
  await ok(ann.client, 'enc.act', { action: 'choose', actor: A, params: { take: true } });
  s = await settle(gm, players);
  assert.equal(s.enc.ability, 'Survival');
  let fatigue = s.enc.combatants[A].stats.fatigue;
  for (let i = 0; i < 20; i++) {
    s = await settle(gm, players);
    if (s.enc.combatants[A].out || s.enc.combatants[G].out) break;
    const who = s.enc.order[s.enc.turn];
    const d = s.enc.combatants[G].distance;
    const r = await ok(who === A ? ann.client : gm, 'enc.act', { action: 'run', actor: who });
    s = await settle(gm, players);
    if (who === A) {
      assert.ok(s.enc.combatants[A].stats.fatigue >= fatigue, 'fatigue never falls in a chase (001:304)');
      fatigue = s.enc.combatants[A].stats.fatigue;
    } else {
      assert.ok(Math.abs(s.enc.combatants[G].distance - d) <= 1, r.log.at(-1).text);
      assert.equal(ann.client.state.log.at(-1).dice, undefined, "Gunnar's dice are the GM's");
    }
  }
  if (process.env.CHASE_DEBUG) console.log(s.log.map((e) => e.text).join('\n'));
  assertNoGmBytes(players);
});
