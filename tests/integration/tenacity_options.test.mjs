// The combat options of tenacity.spotlight through the real server (issue 17; rulebook 003,
// rules/RULES.md "Combat options"): a resistance the GM keeps (003:120), partial cover and the
// high ground (003:114, 003:116), help (003:57), an NPC's held action with its secret trigger and
// its release (003:81), a parting strike and the withdrawal that avoids it (003:111-112), the
// narrator's trade of negative spin (003:39), a grapple, its lock and the escape (003:104-105), and
// the player's choice to die (003:108). After every step each seat's bytes are checked: the GM's
// numbers (the goblin's resistance and stress, its trigger, its grappling roll) never reach a
// player's socket. Seed 2 (Brakka's attack hits; the goblin fails its free roll out of the
// grapple); every other assertion follows from the rules whatever the dice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const SECRETS = ['when Brakka charges', 'Gorrak fears silver', 'Shadow Lore'];

test('tenacity options: cover, help, a held action, a parting strike, the trade, a grapple and a lock', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '2'] });
  const { gm, players } = await campaignOf(srv, t, 'tenacity');
  const [ann, bob] = players;
  const missa = await makeChar(ann.client, { name: 'Missa', sheet: sample('tenacity', 'missa') });
  const brakka = await makeChar(bob.client, { name: 'Brakka Vell', sheet: sample('tenacity', 'brakka') });
  const shade = { ...sample('tenacity', 'odessa'), name: 'Gorrak', notes: 'Gorrak fears silver' };
  shade.attributes = structuredClone(shade.attributes);
  shade.attributes[3].skills[0].name = 'Shadow Lore';
  const gorrak = await makeChar(gm, { name: 'Gorrak', sheet: shade, npc: true });
  await ok(gm, 'enc.start', { module: 'tenacity.spotlight' });
  const eM = (await ok(gm, 'enc.add', { char: missa })).id;
  const eB = (await ok(gm, 'enc.add', { char: brakka })).id;
  const eG = (await ok(gm, 'enc.add', { char: gorrak })).id;
  const eQ = (await ok(gm, 'enc.add', { npc: { name: 'Goblin' } })).id;
  const act = (c, action, params, actor) => ok(c, 'enc.act', { action, params, ...(actor ? { actor } : {}) });
  const no = (c, action, params, actor, code, re) =>
    refused(c, 'enc.act', { action, params, ...(actor ? { actor } : {}) }, code, re);
  const all = [gm, ann.client, bob.client];
  // every seat sees the same public encounter, and no player got a byte of the GM's
  async function check(step) {
    await settle(gm, players);
    for (const p of players) assert.deepEqual(p.client.state.enc, gm.state.enc, `${step}: ${p.name}'s /enc`);
    assertNoGmBytes(players, SECRETS);
    for (const p of players)
      assert.ok(!p.client.state.log.some((e) => /ignores|resists fire/.test(e.text)), `${step}: ${p.name} learned the goblin's resistance`);
    return gm.state;
  }
  const holder = () => gm.state.enc.spotlight;
  const lastLog = (c, action) => c.state.log.filter((e) => e.action === action).at(-1);

  await act(gm, 'initiative');
  await act(gm, 'spotlight', { target: eM }); // whoever rolled highest, Missa begins
  let s = await check('initiative');
  assert.equal(holder(), eM);

  // ---- the GM's resistance and the goblin's cover; Missa takes the high ground ----
  await no(ann.client, 'resist', { target: eQ, type: 'fire', value: 2 }, eM, 'forbidden', /GM/);
  await act(gm, 'resist', { target: eQ, type: 'fire', value: 2 });
  s = await check('resist');
  assert.deepEqual(s.gm.enc.combatants[eQ].resist, { fire: 2 });
  assert.equal(s.enc.combatants[eQ].resist, undefined);
  await no(ann.client, 'size', { target: eM, size: 2 }, undefined, 'forbidden', /GM/);
  await no(ann.client, 'cover', { cover: 'bush' }, eM, 'bad_request', /none, partial/);
  await act(gm, 'cover', { cover: 'partial' }, eQ);
  await act(ann.client, 'high_ground', { elevated: true }, eM);
  s = await check('states');
  assert.equal(s.enc.combatants[eQ].cover, 'partial');
  assert.equal(s.enc.combatants[eM].elevated, true);

  // ---- Missa helps Brakka (003:57) and ends ----
  await no(ann.client, 'help', { target: eB, skill: 'Melee Combat' }, eM, 'rule', /at least one rank/);
  await act(ann.client, 'help', { target: eB, skill: 'Persuasion' }, eM);
  s = await check('help');
  assert.ok(s.enc.combatants[eB].conditions.some((c) => c.name === 'helped'));
  await act(ann.client, 'end', undefined, eM);
  await act(gm, 'spotlight', { target: eQ }); // the GM picks the goblin of the opposing side
  s = await check('Missa ends');
  assert.equal(holder(), eQ);

  // ---- the goblin holds its action with a trigger only the GM reads (003:81) ----
  await act(gm, 'hold', { trigger: 'when Brakka charges' }, eQ);
  s = await check('hold');
  assert.deepEqual(s.enc.combatants[eQ].held, { what: 'action' });
  assert.equal(s.gm.enc.combatants[eQ].held_trigger, 'when Brakka charges');
  for (const p of players) assert.match(lastLog(p.client, 'hold').text, /^Goblin holds its action$/);
  await act(gm, 'end', undefined, eQ);
  s = await check('goblin ends');
  assert.equal(holder(), eB);

  // ---- Brakka attacks the goblin with fire, helped, against partial cover ----
  // (a bonus of 10 makes the hit certain: 3d10 + 6 + 10 against at most 2d6 + 1)
  await act(bob.client, 'attack', { target: eQ, skill: 'Melee Combat', type: 'fire', bonus: 10 }, eB);
  s = await check('attack');
  assert.ok(!s.enc.combatants[eB].conditions.some((c) => c.name === 'helped'), 'the help is spent');
  const atk = lastLog(ann.client, 'attack');
  assert.match(atk.text, /behind partial cover/);
  // issue 25 item 18: an attack is an impact action: no advantage die, Missa cooperates (003:57, 003:79-80)
  assert.equal(atk.dice.filter((d) => d.by === eB && d.role === 'attack').length, 3, 'Might 3d10, no helper\'s die on an impact action');
  assert.ok(!(atk.dice || []).some((d) => d.by === eQ), "the goblin's dice are the GM's");
  assert.equal(atk.result.success, true, 'the attack hits');
  const coop = lastLog(ann.client, 'cooperate');
  for (const c of all) {
    const line = lastLog(c, 'cooperate');
    assert.ok(line, 'every seat reads the cooperation');
    assert.equal(line.result.success, coop.result.success);
  }
  assert.match(coop.text, /^Missa cooperates with Brakka Vell with Persuasion: (\+0 impact|no impact added)$/);
  assert.ok(gm.state.gm.log.some((e) => e.action === 'cooperate' && /Persuasion: \d+ vs \d+: /.test(e.text)), "the GM reads the goblin's defence");
  // Persuasion 1: Presence 1d10 and no impact die (half of rank 1, 003:15): it adds nothing
  assert.equal(coop.dice.filter((d) => d.by === eM && d.role === 'cooperate').length, 1, "Missa's Presence 1d10, open");
  {
    assert.match(atk.text, /a hit, \d+ impact$/, 'a partly resisted hit shows the impact, not the stress');
    assert.match(lastLog(ann.client, 'stress').text, /^Goblin takes the hit/);
    assert.ok(gm.state.gm.log.some((e) => /Goblin ignores 2 of the fire damage/.test(e.text)), 'the GM reads what was resisted');
    const impact = atk.result.impact;
    assert.equal(s.gm.enc.combatants[eQ].stats.stress.current, Math.max(0, impact - 2), '003:120 ignored before any stress');
  }
  // ---- Brakka charges: the goblin acts on its hold; Brakka moves away: a parting strike ----
  await no(gm, 'parting', { target: eB }, eQ, 'rule', /not moving away/);
  await act(bob.client, 'move', { what: 'charges past the goblin' }, eB);
  await act(gm, 'release', undefined, eQ);
  s = await check('release');
  assert.equal(s.enc.responder, eQ);
  assert.equal(s.enc.combatants[eQ].held, undefined);
  await act(gm, 'parting', { target: eB }, eQ);
  await no(gm, 'parting', { target: eB }, eQ, 'rule', /already struck/);
  await no(bob.client, 'parting', { target: eB }, eM, 'forbidden');
  await act(gm, 'attack', { target: eB }, eQ); // the held action
  s = await check('parting and the held action');
  assert.equal(s.enc.responder, null, 'the held action was one action');
  assert.equal(holder(), eB, 'reactions and a released hold leave the spotlight where it was');

  // ---- the narrator's trade (003:39): some of Brakka's negative spin for a turn of the story ----
  const spin = s.enc.combatants[eB].stats.spin;
  if (spin < 0) {
    await no(gm, 'offer', { target: eB, negative: -spin + 1, cost: 'x' }, undefined, 'rule', /only/);
    await act(gm, 'offer', { target: eB, negative: -spin, cost: 'the axe handle comes loose' });
    s = await check('offer');
    assert.deepEqual(s.enc.combatants[eB].offer, { negative: -spin, cost: 'the axe handle comes loose' });
    await no(ann.client, 'accept', undefined, eB, 'forbidden');
    await act(bob.client, 'accept', undefined, eB);
    s = await check('accept');
    assert.equal(s.enc.combatants[eB].stats.spin, 0);
    assert.equal(s.enc.combatants[eB].offer, undefined);
  } else {
    await no(gm, 'offer', { target: eB, negative: 1, cost: 'x' }, undefined, 'rule', /no negative spin/);
  }
  await act(bob.client, 'end', undefined, eB);
  await check('Brakka ends');

  // ---- a second fight: Brakka grapples the goblin, locks it; the goblin tries to break free ----
  await ok(gm, 'enc.end', {});
  await ok(gm, 'enc.start', { module: 'tenacity.spotlight' });
  const fB = (await ok(gm, 'enc.add', { char: brakka })).id;
  const fM = (await ok(gm, 'enc.add', { char: missa })).id;
  const fQ = (await ok(gm, 'enc.add', { npc: { name: 'Goblin' } })).id;
  await act(gm, 'initiative');
  await act(gm, 'spotlight', { target: fB });
  await no(bob.client, 'lock', { target: fQ }, fB, 'rule', /does not hold/);
  // Melee Combat 3d10 + 6 + 6 beats any 2d6: the grapple holds
  await act(bob.client, 'grapple', { target: fQ, skill: 'Melee Combat', bonus: 6, what: 'Might' }, fB);
  s = await check('grapple');
  const grappled = s.enc.combatants[fQ].conditions.find((c) => c.name === 'grappled');
  assert.ok(grappled && grappled.level >= 1, 'the impact is the hinder (003:104)');
  assert.deepEqual(s.enc.combatants[fQ].grip, { by: fB, locked: false, limbs: 1 });
  assert.equal(s.gm.enc.combatants[fQ].conds.grappled, lastLog(gm, 'grapple').result.attack, "the escape rolls against Brakka's roll");
  await act(bob.client, 'end', undefined, fB);
  await check('Brakka ends');
  assert.equal(holder(), fQ, 'the grappled goblin was brought into the spotlight');
  await no(gm, 'end', { shake: 'locked' }, fQ, 'rule', /no condition/);
  await act(gm, 'end', { shake: 'grappled' }, fQ);
  s = await check('the free roll');
  const shook = lastLog(gm, 'shake');
  assert.equal(shook.result.success, !s.enc.combatants[fQ].grip);
  assert.ok(!lastLog(ann.client, 'shake').dice?.some((d) => d.by === fQ), "the goblin's escape dice are the GM's");
  assert.ok(s.enc.combatants[fQ].grip, 'seed 2: the goblin fails its free roll');
  {
    // round 2 for Brakka: the lock (no movement at all, damage without a check)
    while (gm.state.enc.round < 2) await act(gm, 'end', undefined, holder());
    await act(gm, 'spotlight', { target: fB });
    await act(bob.client, 'lock', { target: fQ, skill: 'Unarmed Combat' }, fB);
    s = await check('lock');
    assert.equal(s.enc.combatants[fQ].grip.locked, true);
    assert.ok(s.enc.combatants[fQ].conditions.some((c) => c.name === 'locked' && c.kind === 'stop'));
    await act(bob.client, 'end', undefined, fB);
    await no(gm, 'move', undefined, fQ, 'rule', /locked prevents it/);
    await no(gm, 'end', { shake: 'locked' }, fQ, 'rule', /only with an action/);
  }

  // ---- the player's choice (003:108) ----
  await no(gm, 'die', { confirm: true }, fQ, 'rule', /player's/);
  await no(bob.client, 'die', { confirm: false }, fB, 'bad_request', /confirm/);
  await act(bob.client, 'die', { confirm: true }, fB);
  s = await check('die');
  assert.equal(s.enc.combatants[fB].out, 'dead');
  assert.equal(s.enc.combatants[fQ].grip, undefined, 'a dead grappler holds nobody');
  for (const c of all) assert.ok(c.state.log.some((e) => /perishes: their player's choice/.test(e.text)));
});

// Issue 25 item 19: stealth (003:52, 003:73). A PC's roll is the open challenge to find her; the
// goblin's is the GM's: no player receives its number, in /enc, the log or anywhere.
test('tenacity stealth: hiding sets the challenge to find the hider; an NPC\'s stays the GM\'s', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '3'] });
  const { gm, players } = await campaignOf(srv, t, 'tenacity');
  const [ann, bob] = players;
  const missa = await makeChar(ann.client, { name: 'Missa', sheet: sample('tenacity', 'missa') });
  const brakka = await makeChar(bob.client, { name: 'Brakka Vell', sheet: sample('tenacity', 'brakka') });
  await ok(gm, 'enc.start', { module: 'tenacity.spotlight' });
  const eM = (await ok(gm, 'enc.add', { char: missa })).id;
  const eB = (await ok(gm, 'enc.add', { char: brakka })).id;
  const eQ = (await ok(gm, 'enc.add', { npc: { name: 'Goblin' } })).id;
  const act = (c, action, params, actor) => ok(c, 'enc.act', { action, params, ...(actor ? { actor } : {}) });
  const lastLog = (c, action) => c.state.log.filter((e) => e.action === action).at(-1);
  await act(gm, 'initiative');
  await act(gm, 'spotlight', { target: eQ });
  await refused(bob.client, 'enc.act', { action: 'seek', actor: eB, params: { target: eQ } }, 'rule', /Goblin holds the spotlight/);
  await act(gm, 'hide', undefined, eQ);
  let s = await settle(gm, players);
  assert.ok(s.enc.combatants[eQ].conditions.some((c) => c.name === 'hidden'));
  const number = s.gm.enc.combatants[eQ].stealth;
  assert.ok(Number.isInteger(number), "the goblin's roll is the GM's");
  for (const p of players) {
    assert.equal(lastLog(p.client, 'hide').text, 'Goblin hides');
    assert.deepEqual(p.client.state.enc, gm.state.enc);
  }
  assertNoGmBytes(players, ['"stealth":']);
  await act(gm, 'end', undefined, eQ);
  await act(gm, 'spotlight', { target: eM });
  // Missa hides: her roll is open (the challenge to find her)
  await act(ann.client, 'hide', undefined, eM);
  s = await settle(gm, players);
  const mine = s.enc.combatants[eM].conditions.find((c) => c.name === 'hidden');
  assert.match(lastLog(bob.client, 'hide').text, new RegExp(`^Missa hides with Stealth: ${mine.level} to find them$`));
  await act(ann.client, 'end', undefined, eM);
  await act(gm, 'spotlight', { target: eB });
  // Brakka looks for the goblin (Perception): found or not, its number stays the GM's
  await act(bob.client, 'seek', { target: eQ }, eB);
  s = await settle(gm, players);
  const seek = lastLog(ann.client, 'seek');
  assert.match(seek.text, /^Brakka Vell looks for Goblin with Perception: (found|still unseen)$/);
  assert.equal(seek.result.success, seek.result.total > number);
  assert.equal(s.enc.combatants[eQ].conditions.some((c) => c.name === 'hidden'), !seek.result.success);
  assert.ok(gm.state.gm.log.some((e) => e.action === 'seek' && new RegExp(`: ${seek.result.total} vs ${number}: `).test(e.text)));
  assertNoGmBytes(players, ['"stealth":', ` vs ${number}`]);
});
