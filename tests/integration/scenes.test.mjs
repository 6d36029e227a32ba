// Several scenes at once and the campaign clock (issue 13) through the real server, with two
// players and the GM: a cot foot chase that breaks out of a heist when a Drop's target flees,
// a cot vehicle chase, and a heimr fatigue chase in its own campaign, each while another scene
// (a social call, a combat) runs in the same campaign. kill -9 mid-chase: every seat's page
// resumes exactly. A database written before scenes existed, with an encounter running, still
// works, and an old client's enc.act without `scene` acts in the first scene. Seeded dice; what is
// asserted follows from the rules (PROTOCOL.md "Scenes and the clock", RULES.md "Scenes and the
// campaign clock").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, closeAll } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** A strong, steady guard: a Drop with bare hands fails against his Training (000:102, 000:198). */
const HARLAN = { name: 'Harlan', abilities: { muscle: 5, fingers: 2, brains: 2, it: 1 }, skills: { resist: 5, athletics: 1 } };
const COP = { name: 'Officer Dunn', abilities: { muscle: 3, fingers: 3, brains: 1, it: 1 }, skills: { driving: 2, resist: 1 } };

/** The campaign time a scene ending at `at` comes to beside a running scene of a longer round (000:24). */
function resolvedAt(at, other) {
  return other.start_s + Math.ceil((at - other.start_s) / other.unit_s) * other.unit_s;
}

/** Each seat's state, after every client caught up. */
async function pages(gm, clients) {
  await settle(gm, clients);
  return [gm, ...clients].map((c) => structuredClone(c.state));
}

test('cot: a Drop whose target flees opens a foot chase beside a social call; the clock keeps them in step; kill -9 mid-chase resumes every page', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '7'] });
  const { gm, players, gmToken } = await campaignOf(srv, t, 'cot', ['Ann', 'Bob']);
  const [ann, bob] = players;
  const vera = await makeChar(ann.client, { name: 'Vera Lockhart', sheet: sample('cot', 'vera_lockhart') });
  const tommy = await makeChar(bob.client, { name: 'Big Tommy Rourke', sheet: sample('cot', 'big_tommy_rourke') });
  const harlan = await makeChar(gm, { name: 'Harlan', sheet: HARLAN, npc: true });
  const fence = await makeChar(gm, { name: 'The Fence', sheet: sample('cot', 'professor_ada_quill'), npc: true });

  // the first scene (/enc): Tommy's social call with the fence
  assert.equal((await ok(gm, 'enc.start', { module: 'cot.social' })).scene, 'enc');
  const T = (await ok(gm, 'enc.add', { char: tommy })).id;
  await ok(gm, 'enc.add', { char: fence, side: 'fence' });
  // a second scene beside it: Vera's heist; without scene: "new" the old refusal stands
  await refused(gm, 'enc.start', { module: 'cot.initiative', options: { stage: 'heist' } }, 'rule', /already running.*scene: "new"/);
  await refused(gm, 'enc.start', { module: 'cot.initiative', scene: 's9' }, 'bad_request', /'scene' is "new"/);
  assert.equal((await ok(gm, 'enc.start', { module: 'cot.initiative', scene: 'new', options: { stage: 'heist' } })).scene, 's2');
  await refused(gm, 'enc.add', { scene: 's2', char: tommy }, 'rule', /^Big Tommy Rourke is already in another scene, enc \(Social Call, e1\): a character is in one scene at a time$/);
  await refused(gm, 'enc.add', { scene: 's7', char: vera }, 'not_found', /no scene 's7' is running \(enc \(Social Call\), s2 \(Initiative slots\)\)/);
  const V = (await ok(gm, 'enc.add', { scene: 's2', char: vera })).id;
  const H = (await ok(gm, 'enc.add', { scene: 's2', char: harlan, side: 'guards' })).id;
  assert.deepEqual([V, H], ['e3', 'e4'], 'combatant ids are unique across the running scenes (e1, e2: the social call)');
  await ok(gm, 'enc.act', { action: 'begin' }); // the social call: no scene = the first
  await ok(gm, 'enc.act', { scene: 's2', action: 'begin' });
  let s = await settle(gm, players);
  assert.equal(s.enc.round, 1);
  assert.equal(s.scenes.s2.round, 1);
  assert.equal(s.scenes.s2.combatants[H].name, 'Harlan');
  assert.ok(s.gm.scenes.s2.combatants[H].stats, "Harlan's numbers are the GM's");
  for (const p of players) {
    assert.equal(p.client.state.scenes.s2.module, 'cot.initiative', 'every seat sees the second scene');
    assert.equal(p.client.state.scenes.s2.combatants[H].stats, undefined);
    assert.equal(p.client.state.gm, undefined);
  }
  // 000:17-24: a Social Call round is 10 minutes, a Heist round 5; both began at 0; the Heist
  // plays until it reaches the Social Call's threshold
  assert.deepEqual(s.clock.scenes.enc, { stage: 'social_call', label: 'Social Call', unit_s: 600, start_s: 0, round: 1, elapsed_s: 600 });
  assert.deepEqual(s.clock.scenes.s2, { stage: 'heist', label: 'Heist', unit_s: 300, start_s: 0, round: 1, elapsed_s: 300 });
  assert.equal(s.clock.elapsed_s, 600);
  assert.equal(s.clock.next, 's2');
  assert.ok(s.log.filter((e) => e.kind === 'enc').every((e) => e.scene === 'enc' || e.scene === 's2'), 'every encounter line names its scene');

  // the guards' slots pass until Vera's; she tries the Drop on Harlan with bare hands and fails
  for (let i = 0; i < 6; i++) {
    s = await settle(gm, players);
    const slot = s.scenes.s2.order[s.scenes.s2.turn];
    if (slot && slot.side === 'party') break;
    await ok(gm, 'enc.act', { scene: 's2', action: 'skip' });
  }
  await refused(ann.client, 'enc.act', { action: 'drop', actor: V, params: { target: H } }, 'not_found', /cot.social has no action 'drop'/); // no scene: the social call
  const drop = await ok(ann.client, 'enc.act', { scene: 's2', action: 'drop', actor: V, params: { target: H } });
  assert.equal(drop.scene, 's2');
  assert.equal(drop.log[0].result.outcome, 'Aware', drop.log[0].text);
  assert.equal(drop.log[0].scene, 's2');
  await ok(gm, 'enc.act', { scene: 's2', action: 'react', actor: H, params: { choice: 'flee' } });

  // 000:117, 000:126: he flees; the GM opens a chase from the heist with the same people
  await refused(gm, 'enc.start', { module: 'cot.chase', scene: 'new', from: 's8' }, 'not_found', /no scene 's8'/);
  const chase = await ok(gm, 'enc.start', { module: 'cot.chase', scene: 'new', from: 's2', options: { distance: 1 } });
  assert.equal(chase.scene, 's3');
  assert.ok(chase.log.some((e) => e.scene === 's2' && /Vera Lockhart leaves for Chase/.test(e.text)), JSON.stringify(chase.log));
  s = await settle(gm, players);
  const c3 = s.scenes.s3;
  assert.equal(c3.target_side, 'guards', 'the side of the one who fled is the Target (000:147)');
  assert.equal(c3.stage, 'foot_chase');
  assert.deepEqual(Object.values(c3.combatants).map((c) => [c.name, c.side]).sort(), [['Harlan', 'guards'], ['Vera Lockhart', 'party']]);
  assert.deepEqual(s.scenes.s2.combatants, {}, 'they left the heist');
  const VV = Object.values(c3.combatants).find((c) => c.char === vera).id;
  const HH = Object.keys(c3.combatants).find((k) => k !== VV);
  assert.equal(c3.combatants[VV].distance, 1, "the GM's initial Distance (000:146)");
  assert.equal(s.clock.scenes.s3.start_s, 300, 'the chase starts when the heist is');
  assert.equal(s.clock.scenes.s3.unit_s, 60);
  // the emptied heist ends: 1 Heist round beside the Social Call counts to its threshold (000:24)
  const ended = await ok(gm, 'enc.end', { scene: 's2' });
  assert.equal(ended.scene, 's2');
  s = await settle(gm, players);
  assert.equal(s.scenes.s2, undefined);
  assert.equal(s.clock.settled_s, 600);
  await ok(gm, 'enc.act', { scene: 's3', action: 'begin' });

  // play the chase: Harlan accelerates or escapes on his slot, Vera closes or takes him down
  const play = async (gmc, annc, steps) => {
    for (let i = 0; i < steps; i++) {
      s = await settle(gmc, [annc]);
      const sc = s.scenes.s3;
      if (sc.combatants[VV].out || sc.combatants[HH].out) return true;
      const slot = sc.order[sc.turn];
      const d = sc.combatants[VV].distance;
      if (slot.side === 'guards') {
        const r = await ok(gmc, 'enc.act', { scene: 's3', action: 'accelerate', actor: HH });
        const e = r.log.find((x) => x.action === 'accelerate' && x.result);
        s = await settle(gmc, [annc]);
        assert.equal(s.scenes.s3.combatants[VV].distance, d + (e.result.success ? 1 : 0), e.text);
      } else if (d === 0) {
        const r = await ok(annc, 'enc.act', { scene: 's3', action: 'takedown', actor: VV, params: { target: HH } });
        const e = r.log.find((x) => x.action === 'takedown' && x.result);
        s = await settle(gmc, [annc]);
        if (e.result.success) assert.equal(s.scenes.s3.combatants[HH].out, 'caught');
        else assert.equal(s.scenes.s3.combatants[VV].distance, 2, 'a failed Takedown: Distance + 2 (000:161)');
      } else {
        await refused(annc, 'enc.act', { scene: 's3', action: 'takedown', actor: VV, params: { target: HH } }, 'rule', /needs Distance 0/);
        const r = await ok(annc, 'enc.act', { scene: 's3', action: 'close', actor: VV, params: { target: HH } });
        const e = r.log.find((x) => x.action === 'close' && x.result);
        s = await settle(gmc, [annc]);
        assert.equal(s.scenes.s3.combatants[VV].distance, d - (e.result.success ? 1 : 0), e.text);
      }
    }
    return false;
  };
  await play(gm, ann.client, 3);
  // the social call goes on beside the chase; Bob acts in it without naming it
  await refused(bob.client, 'enc.act', { scene: 's3', action: 'close', actor: VV, params: { target: HH } }, 'forbidden', /not your character/);

  // kill -9 mid-chase: every seat's page comes back exactly
  const before = await pages(gm, [ann.client, bob.client]);
  const replicas = [ann.client, bob.client];
  await srv.restart();
  const [gm2, gw] = await srv.hello(gmToken);
  const [ann2, aw] = await srv.hello(ann.token);
  const [bob2, bw] = await srv.resume(bob.token, replicas[1]);
  t.after(() => closeAll(gm2, ann2, bob2));
  assert.deepEqual(gw.state, before[0], "the GM's page");
  assert.deepEqual(aw.state, before[1], "Ann's page");
  await bob2.ping();
  assert.deepEqual(bob2.state, before[2], "Bob's page (resumed from his last seq)");
  assert.equal(gw.state.clock.scenes.s3.round, before[0].clock.scenes.s3.round);

  await play(gm2, ann2, 12);
  s = await settle(gm2, [ann2, bob2]);
  const at = s.clock.scenes.s3.start_s + s.clock.scenes.s3.round * 60;
  const social = s.clock.scenes.enc;
  const end = await ok(gm2, 'enc.end', { scene: 's3' });
  assert.equal(end.scene, 's3');
  s = await settle(gm2, [ann2, bob2]);
  // the chase resolves inside a Social Call round: a full round of the next highest unit (000:24)
  assert.equal(s.clock.settled_s, Math.max(600, resolvedAt(at, social)));
  assert.equal(s.clock.elapsed_s, Math.max(s.clock.settled_s, social.start_s + social.round * social.unit_s));
  assert.deepEqual(Object.keys(s.clock.scenes), ['enc']);
  assert.equal(s.scenes, undefined, 'no scene beside the first: /scenes goes');
  assert.equal(s.gm.scenes, undefined);
  // replay from the log is the live state
  const [zero] = srv.replay({ campaign: gw.campaign.id, fromZero: true });
  assert.deepEqual(zero.state, s);
  assertNoGmBytes([ann.client, bob.client, ann2, bob2], ['Harlan\'s numbers']);
  for (const c of [ann2, bob2]) for (const raw of c.frames) assert.ok(!raw.includes('"/gm/scenes'), raw);
});

test('cot: a vehicle chase beside a social call; after the first scene ends an op must name its scene', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '11'] });
  const { gm, players } = await campaignOf(srv, t, 'cot', ['Ann', 'Bob']);
  const [ann, bob] = players;
  const vera = await makeChar(ann.client, { name: 'Vera Lockhart', sheet: sample('cot', 'vera_lockhart') });
  const tommy = await makeChar(bob.client, { name: 'Big Tommy Rourke', sheet: sample('cot', 'big_tommy_rourke') });
  const fence = await makeChar(gm, { name: 'The Fence', sheet: sample('cot', 'professor_ada_quill'), npc: true });
  await ok(gm, 'enc.start', { module: 'cot.social' });
  await ok(gm, 'enc.add', { char: fence, side: 'fence' });
  await ok(gm, 'enc.start', { module: 'cot.chase', scene: 'new', options: { stage: 'vehicle_chase', target_side: 'party', distance: 1 } });
  const V = (await ok(gm, 'enc.add', { scene: 's2', char: vera })).id;
  const T = (await ok(gm, 'enc.add', { scene: 's2', char: tommy })).id;
  const D = (await ok(gm, 'enc.add', { scene: 's2', npc: { name: 'Officer Dunn', sheet: COP }, side: 'law' })).id;
  await refused(gm, 'enc.add', { char: tommy }, 'rule', /already in another scene, s2/);
  await ok(gm, 'enc.act', { scene: 's2', action: 'vehicle', params: { target: V, vehicle: 'cab', driver: 1, speed: 3, body: 10 } });
  await ok(gm, 'enc.act', { scene: 's2', action: 'vehicle', params: { target: T, vehicle: 'cab' } });
  await ok(gm, 'enc.act', { scene: 's2', action: 'vehicle', params: { target: D, vehicle: 'cruiser', driver: 1, speed: 3, body: 12 } });
  let s = await settle(gm, players);
  assert.equal(s.scenes.s2.pool, 'Fingers+Driving', 'a vehicle chase rolls Fingers+Driving (000:36)');
  assert.equal(s.clock.scenes.s2.stage, 'action');
  assert.equal(s.clock.scenes.enc.stage, 'social_call');
  await ok(gm, 'enc.act', { scene: 's2', action: 'begin' });
  await ok(gm, 'enc.act', { action: 'begin' });
  // only the driver accelerates (000:150)
  for (let i = 0; i < 10; i++) {
    s = await settle(gm, players);
    const sc = s.scenes.s2;
    if (sc.combatants[V].out || sc.combatants[D].out) break;
    const slot = sc.order[sc.turn];
    const d = sc.combatants[D].distance;
    if (slot.side === 'party' && sc.order.some((x) => x.claimed_by === V)) {
      await ok(gm, 'enc.act', { scene: 's2', action: 'skip' }); // Vera drove this round already
    } else if (slot.side === 'party') {
      await refused(bob.client, 'enc.act', { scene: 's2', action: 'accelerate', actor: T }, 'rule', /driver/);
      const r = await ok(ann.client, 'enc.act', { scene: 's2', action: 'accelerate', actor: V });
      const e = r.log.find((x) => x.action === 'accelerate' && x.result);
      s = await settle(gm, players);
      assert.equal(s.scenes.s2.combatants[D].distance, d + (e.result.success ? 1 : 0), e.text);
    } else {
      const r = await ok(gm, 'enc.act', { scene: 's2', action: 'close', actor: D, params: { target: V } });
      const e = r.log.find((x) => x.action === 'close' && x.result);
      s = await settle(gm, players);
      assert.equal(s.scenes.s2.combatants[D].distance, d - (e.result.success ? 1 : 0), e.text);
    }
  }
  s = await settle(gm, players);
  assert.ok(s.log.some((x) => x.scene === 's2' && x.action === 'accelerate'), 'the cab accelerated');
  assert.ok(s.clock.scenes.s2.round >= 2, 'the chase went on past its first round');
  assert.equal(s.clock.scenes.s2.elapsed_s, s.scenes.s2.round * 60);
  // the social call ends: an op without `scene` now names the scenes instead of guessing
  await ok(gm, 'enc.end', {});
  await refused(ann.client, 'enc.act', { action: 'accelerate', actor: V }, 'rule', /the first scene has ended; name the scene to act in \('scene': s2 \(Chase\)\)/);
  await refused(gm, 'enc.end', {}, 'rule', /first scene has ended/);
  // a new scene takes the free first place again
  assert.equal((await ok(gm, 'enc.start', { module: 'cot.social', scene: 'new' })).scene, 'enc');
  await ok(gm, 'enc.end', { scene: 's2' });
  await ok(gm, 'enc.end', {});
  s = await settle(gm, players);
  assert.equal(s.enc, undefined);
  assert.equal(s.scenes, undefined);
  assert.deepEqual(s.clock.scenes, {});
  assert.equal(s.clock.next, null);
  assert.ok(s.clock.elapsed_s >= 600, 'the social call round counts');
  assertNoGmBytes(players);
});

test('heimr: a fatigue chase beside a fight in the same campaign; 2-second turns on one clock', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '3'] });
  const { gm, players } = await campaignOf(srv, t, 'heimr', ['Ann', 'Bob']);
  const [ann, bob] = players;
  const astrid = await makeChar(ann.client, { name: 'Astrid', sheet: sample('heimr', 'astrid_ironhand') });
  const liesbeth = await makeChar(bob.client, { name: 'Liesbeth', sheet: sample('heimr', 'liesbeth_van_dam') });
  const gunnar = await makeChar(gm, { name: 'Old Gunnar', sheet: sample('heimr', 'old_gunnar'), npc: true });
  // the first scene: Liesbeth fights a wolf
  await ok(gm, 'enc.start', { module: 'heimr.combat' });
  await ok(gm, 'enc.add', { char: liesbeth });
  await ok(gm, 'enc.add', { npc: { name: 'Wolf' } });
  await ok(gm, 'enc.act', { action: 'begin' });
  // the second: Astrid runs from Old Gunnar
  await ok(gm, 'enc.start', { module: 'heimr.chase', scene: 'new', options: { ability: 'Agility', target_side: 'party', distance: 2 } });
  await refused(gm, 'enc.add', { scene: 's2', char: liesbeth }, 'rule', /already in another scene, enc/);
  const A = (await ok(gm, 'enc.add', { scene: 's2', char: astrid })).id;
  const G = (await ok(gm, 'enc.add', { scene: 's2', char: gunnar, side: 'foes' })).id;
  await ok(gm, 'enc.act', { scene: 's2', action: 'begin' });
  let s = await settle(gm, players);
  assert.deepEqual(s.scenes.s2.order, [A, G]);
  assert.equal(s.clock.scenes.s2.unit_s, 2, 'every turn lasts two seconds (001:238)');
  assert.equal(s.clock.scenes.enc.unit_s, 2);
  assert.equal(s.clock.scenes.s2.start_s, 2, 'the fight had begun its first turn when the chase opened');
  await refused(bob.client, 'enc.act', { scene: 's2', action: 'run', actor: A }, 'forbidden');
  await refused(ann.client, 'enc.act', { action: 'run', actor: A }, 'not_found'); // the fight has no `run`
  let fatigue = s.scenes.s2.combatants[A].stats.fatigue;
  for (let i = 0; i < 20; i++) {
    s = await settle(gm, players);
    const sc = s.scenes.s2;
    if (sc.combatants[A].out || sc.combatants[G].out) break;
    const who = sc.order[sc.turn];
    const d = sc.combatants[G].distance;
    await ok(who === A ? ann.client : gm, 'enc.act', { scene: 's2', action: 'run', actor: who });
    s = await settle(gm, players);
    if (who === A) {
      assert.ok(s.scenes.s2.combatants[A].stats.fatigue >= fatigue, 'fatigue never falls in a chase (001:304)');
      fatigue = s.scenes.s2.combatants[A].stats.fatigue;
    } else {
      assert.ok(Math.abs(s.scenes.s2.combatants[G].distance - d) <= 1);
    }
    assert.equal(s.clock.scenes.s2.round, s.scenes.s2.round);
    assert.equal(s.clock.elapsed_s, Math.max(s.clock.scenes.enc.start_s + s.clock.scenes.enc.round * 2, s.clock.scenes.s2.start_s + s.clock.scenes.s2.round * 2));
  }
  assert.ok(s.scenes.s2.combatants[A].out || s.scenes.s2.combatants[G].out || s.scenes.s2.round > 1, 'the chase went on');
  await ok(gm, 'enc.end', { scene: 's2' });
  s = await settle(gm, players);
  assert.equal(s.enc.module, 'heimr.combat', 'the fight goes on');
  assertNoGmBytes(players);
});

test('a database saved before scenes, with an encounter running, still works; an old client needs no `scene`', async (t) => {
  const old = JSON.parse(fs.readFileSync(path.join(fixtures, 'enc_running_v1.json'), 'utf8'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-scenes-'));
  fs.copyFileSync(path.join(fixtures, 'enc_running_v1.db'), path.join(dir, 't.db'));
  const srv = await startServer(t, { dir, args: ['--seed', '5'] });
  const [gm, gw] = await srv.hello(old.gm_token);
  const [ann, aw] = await srv.hello(old.ann.token);
  t.after(() => closeAll(gm, ann));
  assert.equal(gw.seq, old.seq, 'opening it records nothing');
  assert.equal(gw.state.enc.module, 'cot.initiative');
  assert.equal(gw.state.enc.round, 1);
  assert.equal(gw.state.clock, undefined);
  assert.equal(aw.state.enc.combatants[old.V].char, old.vera);
  // the old client's ops, without `scene`, act in the running encounter
  await ok(gm, 'enc.act', { action: 'skip' });
  await ok(gm, 'enc.set', { path: `/enc/combatants/${old.V}/stats/cover`, value: 2 });
  let s = await settle(gm, [ann]);
  assert.equal(s.enc.combatants[old.V].stats.cover, 2);
  // the clock appears with the first op: the heist, running since before, started at 0
  assert.deepEqual(s.clock.scenes.enc, { stage: 'heist', label: 'Heist', unit_s: 300, start_s: 0, round: 1, elapsed_s: 300 });
  assert.equal(s.clock.elapsed_s, 300);
  // and a second scene opens beside it
  assert.equal((await ok(gm, 'enc.start', { module: 'cot.social', scene: 'new' })).scene, 's2');
  await refused(gm, 'enc.add', { scene: 's2', char: old.vera }, 'rule', /already in another scene, enc/);
  await ok(gm, 'enc.end', {});
  s = await settle(gm, [ann]);
  assert.equal(s.enc, undefined);
  assert.equal(s.clock.settled_s, 300, 'one Heist round beside a Social Call that has not begun keeps its time');
  const [zero] = srv.replay({ campaign: old.campaign, fromZero: true });
  assert.deepEqual(zero.state, s);
  assertNoGmBytes([ann]);
});
