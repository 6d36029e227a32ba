// Sessions of play and the Loyalty a City of Thieves character may alter at their beginning
// (000:237 "A Character may alter one of their Loyalties in the same way at the beginning of a
// session"; rules/RULES.md "Social Calls", reading 17; protocol/PROTOCOL.md `session.*`), through
// the real server: the GM begins a session, Ann alters one of her Loyalties, Bob's socket never
// receives a byte of it, a second alteration is refused, a kill -9 loses neither the session nor
// the sheet, and the first scene ends the window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, closeAll } from './lib.mjs';
import { campaignOf, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const PC = (name, loyalties) => ({
  name,
  abilities: { muscle: 1, fingers: 1, brains: 1, it: 2 },
  skills: { size_up: 1 },
  loyalties,
});

test('session.alter: one Loyalty at the beginning of a session, private to its player and the GM, durable', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '7'] });
  const { gm, players, gmToken } = await campaignOf(srv, t, 'cot', ['Ann', 'Bob']);
  const [ann, bob] = players;
  const annChar = await makeChar(ann.client, {
    name: 'Ann Vale',
    sheet: PC('Ann Vale', [
      { kind: 'Devoted', target: 'Annsecret Crew', prime: true },
      { kind: 'Hatred', target: 'Annsecret Police' },
    ]),
  });
  const bobChar = await makeChar(bob.client, { name: 'Bob Reyes', sheet: PC('Bob Reyes', [{ kind: 'Desire', target: 'Bobsecret Jazz', prime: true }, { kind: 'Hatred', target: 'Bobsecret Mob' }]) });

  // a campaign without sessions: nothing is open, nothing to close
  assert.equal((await settle(gm, players)).session, undefined, 'a campaign starts without /session');
  await refused(ann.client, 'session.alter', { char: annChar, loyalty: 2, to: 'Desire: Annsecret Money' }, 'rule', /begins one first/);
  await refused(gm, 'session.close', {}, 'rule', /no session has begun/);
  await refused(ann.client, 'session.begin', {}, 'forbidden');

  // the GM begins session 1: public, logged in plain words
  assert.deepEqual(await ok(gm, 'session.begin', {}), { number: 1, open: true });
  await settle(gm, players);
  assert.deepEqual(bob.client.state.session, { number: 1, open: true, altered: {} });
  assert.ok(bob.client.state.log.some((e) => e.kind === 'session' && e.text === 'Session 1 begins'));

  // refusals change nothing: another seat's character, bad shapes, no such Loyalty
  await refused(bob.client, 'session.alter', { char: annChar, loyalty: 1, prime: true }, 'forbidden', /another seat/);
  await refused(bob.client, 'session.alter', { char: bobChar, loyalty: 1 }, 'bad_request', /one of the two/);
  await refused(bob.client, 'session.alter', { char: bobChar, loyalty: 1, to: 'Desire: x', prime: true }, 'bad_request', /one of the two/);
  await refused(bob.client, 'session.alter', { char: bobChar, loyalty: 1, to: 'Money' }, 'bad_request', /Kind: Target/);
  await refused(bob.client, 'session.alter', { char: bobChar, loyalty: 3, prime: true }, 'rule', /no Loyalty 3/);
  await refused(bob.client, 'session.alter', { char: bobChar, loyalty: 1, prime: true }, 'rule', /already is Bob Reyes's Prime/);
  await refused(bob.client, 'session.alter', { char: 'c99', loyalty: 1, prime: true }, 'not_found');

  // Ann changes her Loyalty 2; the result tells her (only) what it is now
  const r = await ok(ann.client, 'session.alter', { char: annChar, loyalty: 2, to: 'Desire: Annsecret Revenge' });
  assert.equal(r.now, 'Desire: Annsecret Revenge');
  let s = await settle(gm, players);
  const annSheet = () => ann.client.state.private[ann.seat].sheets[annChar];
  assert.deepEqual(annSheet().loyalties[1], { kind: 'Desire', target: 'Annsecret Revenge' });
  assert.equal(s.private[ann.seat].sheets[annChar].loyalties[1].target, 'Annsecret Revenge', "the GM's replica");
  assert.deepEqual(s.session.altered, { [annChar]: 1 });
  assert.ok(bob.client.state.log.some((e) => e.kind === 'session' && e.text === "One of Ann Vale's Loyalties changes"));
  assert.ok(s.gm.log.some((e) => e.kind === 'session' && /Ann Vale's Loyalty 2 is now Desire: Annsecret Revenge/.test(e.text)));

  // one a session: a second change is refused, whichever kind
  await refused(ann.client, 'session.alter', { char: annChar, loyalty: 2, prime: true }, 'rule', /one a session/);
  await refused(gm, 'session.alter', { char: annChar, loyalty: 1, to: 'Desire: Annsecret Gold' }, 'rule', /one a session/);
  // the GM may make Bob's: not his Prime, which is swapped, never rewritten (000:237, issue 25)
  await refused(gm, 'session.alter', { char: bobChar, loyalty: 1, to: 'Devoted: Bobsecret Sister' }, 'rule', /the Prime is not changed, only swapped/);
  await ok(gm, 'session.alter', { char: bobChar, loyalty: 2, to: 'Devoted: Bobsecret Sister' });
  await settle(gm, players);
  assert.equal(bob.client.state.private[bob.seat].sheets[bobChar].loyalties[1].target, 'Bobsecret Sister');

  // Bob's socket never carried a byte of Ann's Loyalties, old or new; Ann never saw Bob's
  assertNoGmBytes([bob], ['Annsecret']);
  assertNoGmBytes([ann], ['Bobsecret']);

  // kill -9: the session, the record and the sheet survive
  await srv.restart();
  const [gm2, w] = await srv.hello(gmToken);
  const [ann2, wa] = await srv.hello(ann.token);
  const [bob2, wb] = await srv.hello(bob.token);
  t.after(() => closeAll(gm2, ann2, bob2));
  assert.deepEqual(w.state.session, { number: 1, open: true, altered: { [annChar]: 1, [bobChar]: 1 } });
  assert.deepEqual(wa.state.private[ann.seat].sheets[annChar].loyalties[1], { kind: 'Desire', target: 'Annsecret Revenge' });
  assert.ok(!JSON.stringify(wb.state).includes('Annsecret'), "Bob's fresh state holds none of Ann's Loyalties");
  await refused(ann2, 'session.alter', { char: annChar, loyalty: 1, to: 'Desire: Annsecret Gold' }, 'rule', /one a session/);

  // the first scene ends the beginning of the session; a new session opens a new one
  await ok(gm2, 'enc.start', { module: 'cot.initiative' });
  await gm2.ping();
  assert.equal(gm2.state.session.open, false);
  await refused(bob2, 'session.alter', { char: bobChar, loyalty: 1, to: 'Desire: Bobsecret Cards' }, 'rule', /already under way/);
  await refused(gm2, 'session.close', {}, 'rule', /already over/);
  await ok(gm2, 'enc.add', { char: bobChar });
  assert.deepEqual(await ok(gm2, 'session.begin', {}), { number: 2, open: true });
  await refused(bob2, 'session.alter', { char: bobChar, loyalty: 1, to: 'Desire: Bobsecret Cards' }, 'rule', /running scene/);
  await ok(ann2, 'session.alter', { char: annChar, loyalty: 2, prime: true });
  await ann2.ping();
  assert.equal(ann2.state.private[ann.seat].sheets[annChar].loyalties[1].prime, true, 'Loyalty 2 is the Prime now');
  assert.equal(ann2.state.private[ann.seat].sheets[annChar].loyalties[0].prime, undefined);
  assert.deepEqual(await ok(gm2, 'session.close', {}), { number: 2, open: false });
  assertNoGmBytes([bob2], ['Annsecret']);
});
