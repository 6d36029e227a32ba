// grimwire.between through the real server (issue 25 items 9, 11 and 14; rulebook
// 002_c1f3df0ad7b1e31f.txt, cited 002:LINE): Cyrus (Ann) comes out of a fight dying; between the
// scenes his Condition runs down with the campaign clock, 1 every 6 seconds (002:256); Aune (Bob)
// stabilizes him against the GM's hidden number (002:258-260), which never reaches a player; then
// Aune repairs her broken gun, which stays one gun and stays unstable (002:381-385), and builds a
// supernatural ward with a RSN roll (002:340). The sheets are checked after each step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, assertNoLineRefs, settle } from './enc_lib.mjs';

const sheetOf = (s, id) => s.chars[id].sheet;

test('grimwire.between: a dying character runs down, is stabilized; a repair mends; a RSN roll', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '25'] });
  const { gm, players } = await campaignOf(srv, t, 'grimwire');
  const [ann, bob] = players;
  const cyrusSheet = { ...sample('grimwire', 'cyrus') };
  cyrusSheet.condition = { ...cyrusSheet.condition, current: -2 };
  const auneSheet = {
    ...sample('grimwire', 'aune'),
    items: [{ name: 'Flare gun', unstable_die: 20, broken: true }],
    blueprints: ['Flare gun'],
  };
  const cyrus = await makeChar(ann.client, { name: 'Cyrus', sheet: cyrusSheet });
  const aune = await makeChar(bob.client, { name: 'Aune', sheet: auneSheet });

  await ok(gm, 'enc.start', { module: 'grimwire.between' });
  const C = (await ok(gm, 'enc.add', { char: cyrus })).id;
  const A = (await ok(gm, 'enc.add', { char: aune })).id;
  const act = (who, action, actor, params) => ok(who, 'enc.act', { action, actor, params });
  const no = (who, action, actor, params, code, re) => refused(who, 'enc.act', { action, actor, params }, code, re);

  // ---- dying out of conflict: 1 Condition every 6 seconds (002:256) ----
  await no(ann.client, 'learn', C, { technique: 'Quickdraw', attribute: 'cor', effort: 12 }, 'rule', /dying/);
  const w = await act(gm, 'wait', undefined, { seconds: 12 });
  assert.ok(w.log.some((l) => l.text === 'Cyrus is dying: Condition -2 → -4'), JSON.stringify(w.log));
  let s = await settle(gm, players);
  assert.equal(sheetOf(s, cyrus).condition.current, -4);
  const seen = ann.client.state.log.filter((l) => /Cyrus is dying/.test(l.text ?? ''));
  assert.ok(seen.length > 0, 'the players see the countdown');

  // ---- stabilizing (002:258-260): the GM's number first, never a player's ----
  await no(bob.client, 'stabilize', A, { target: C }, 'rule', /ask the GM/);
  const movesBob = await ok(bob.client, 'enc.moves', {});
  assert.ok(!movesBob.moves.enc.some((m) => m.action === 'stabilize'), 'no stabilize before the GM names the number');
  await act(gm, 'set_stabilize', undefined, { target: C, tn: 3 });
  const movesBob2 = await ok(bob.client, 'enc.moves', {});
  const stab = movesBob2.moves.enc.find((m) => m.action === 'stabilize');
  assert.ok(stab, 'the stabilize move is offered now');
  assert.equal(stab.args.target, C, 'its default is the dying character');
  let done = false;
  for (let i = 0; i < 5 && !done; i++) {
    const r = await act(bob.client, 'stabilize', A, { ...stab.args, medkit: true });
    done = r.log.some((l) => /it works/.test(l.text ?? ''));
    for (const l of r.log) assert.doesNotMatch(l.text ?? '', /target number/, 'the number is the GM\'s');
  }
  assert.ok(done, 'a COR roll against 3 succeeds within five tries');
  s = await settle(gm, players);
  const cs = sheetOf(s, cyrus);
  assert.equal(cs.condition.current, 1);
  assert.equal(cs.focus.current, 0);
  assert.equal(cs.burnout, 1);
  assert.ok(cs.status.includes('out_cold'));
  await act(gm, 'wait', undefined, { seconds: 60 });
  s = await settle(gm, players);
  assert.equal(sheetOf(s, cyrus).condition.current, 1, 'stabilized: no more countdown');

  // ---- repairing (002:381-385): the broken gun itself, still unstable ----
  await act(gm, 'set_build', undefined, { target: A, cor_tn: 2 });
  let mended = false;
  for (let i = 0; i < 5 && !mended; i++) {
    const r = await act(bob.client, 'repair', A, { item: 'Flare gun' });
    mended = r.log.some((l) => /works again/.test(l.text ?? ''));
    if (!mended) await act(gm, 'set_build', undefined, { target: A, cor_tn: 2 });
  }
  assert.ok(mended, 'a COR roll against 2 succeeds within five tries');
  s = await settle(gm, players);
  assert.deepEqual(sheetOf(s, aune).items, [{ name: 'Flare gun', unstable_die: 20 }]);

  // ---- a supernatural object (002:340): a RSN roll against the GM's number ----
  await act(gm, 'set_build', undefined, { target: A, cor_tn: 30, mnd_tn: 30 });
  // issue 24 item 2: the RSN number is missing, so the player's build waits (no die) for the
  // GM's one answer, the RSN number alone (the numbers set stand), which rolls it as Aune's
  const waits = await act(bob.client, 'craft', A, { item: 'Ward', supernatural: true });
  assert.ok(waits.log.some((l) => l.text === 'Aune sets to work on Ward: the GM names the numbers'), JSON.stringify(waits.log));
  assert.ok(waits.log.every((l) => !(l.dice ?? []).length), 'no die while it waits');
  s = await settle(gm, players);
  assert.deepEqual(s.gm.enc.waiting.needs, ['rsn_tn']);
  assert.deepEqual(bob.client.state.enc.waiting, { builder: A, action: 'craft', item: 'Ward' });
  await no(gm, 'answer', undefined, { cor_tn: 30 }, 'bad_request', /RSN/);
  await act(gm, 'answer', undefined, { rsn_tn: 31 });
  await settle(gm, players);
  assert.equal(bob.client.state.enc.waiting, undefined);
  const line = bob.client.state.log.find((l) => /builds Ward/.test(l.text ?? ''));
  assert.match(line.text, /RSN \d+, the supernatural part goes wrong — it does not come together/);

  // the GM's numbers (3, 2, 30, 31) never reached a player; no line reference on a screen
  await settle(gm, players);
  assertNoGmBytes(players);
  for (const p of players)
    for (const l of p.client.state.log) assert.doesNotMatch(l.text ?? '', /target number|against \d/, l.text);
  assertNoLineRefs([gm, ...players]);
});
