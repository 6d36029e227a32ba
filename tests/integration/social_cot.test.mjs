// A cot Social Call (000:224-291) through the real server with two players and an NPC, seeded
// dice (--seed 7): whatever the dice say, after every step each seat's received bytes hold
// exactly what that seat knows. Another seat's Loyalties, the NPC's Loyalties and true identity,
// and the agenda of the other side never appear on a socket that has not learned them; what a
// Read Room finds lands with the seat that rolled it (rules/RULES.md, "Social Calls").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const PC = (name, loyalty, ...more) => ({
  name,
  abilities: { muscle: 1, fingers: 1, brains: 1, it: 3 },
  skills: { size_up: 2, convince: 2, intimidate: 1 },
  loyalties: [loyalty, ...more],
});

const sees = (p, s) => p.client.frames.some((raw) => raw.includes(s));

test('cot.social: Read Room and agendas land only with the seats that learned them', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '7'] });
  const { gm, players } = await campaignOf(srv, t, 'cot', ['Ann', 'Bob']);
  const [ann, bob] = players;
  const annChar = await makeChar(ann.client, { name: 'Ann Vale', sheet: PC('Ann Vale', { kind: 'Devoted', target: 'Annsecret Crew', prime: true }, { kind: 'Hatred', target: 'Annsecret Police' }) });
  const bobChar = await makeChar(bob.client, { name: 'Bob Reyes', sheet: PC('Bob Reyes', { kind: 'Desire', target: 'Bobsecret Jazz', prime: true }) });
  const npc = await makeChar(gm, {
    name: 'The Countess',
    npc: true,
    sheet: {
      name: 'The Countess',
      abilities: { muscle: 1, fingers: 1, brains: 2, it: 2 },
      skills: { size_up: 1 },
      loyalties: [
        { kind: 'Devoted', target: 'Husband Karl', prime: true },
        { kind: 'Hatred', target: 'Germans Zeppelin', prime: false },
      ],
    },
  });
  await ok(gm, 'enc.start', { module: 'cot.social' });
  const A = (await ok(gm, 'enc.add', { char: annChar })).id;
  const B = (await ok(gm, 'enc.add', { char: bobChar })).id;
  const N = (await ok(gm, 'enc.add', { char: npc, side: 'foes' })).id;
  await ok(gm, 'enc.act', { action: 'identity', params: { target: N, identity: 'Countess Orlova' } });
  let s = await settle(gm, players);
  assert.equal(s.enc.pool, 'It+Size Up', '000:250 a Social Call rolls initiative as in chapter 1');
  assert.equal(s.gm.enc.combatants[A].loyalties[0].target, 'Annsecret Crew', "the GM's copy of Ann's Loyalties");

  // only a character that has identified its target may ask for a Loyalty or push an agenda
  await refused(ann.client, 'enc.act', { action: 'agenda', actor: A, params: { target: N, text: 'the ledger' } }, 'rule', /Read Room/);
  await ok(gm, 'enc.act', { action: 'begin' });

  const sideOf = (cid) => gm.state.enc.combatants[cid].side;
  const claimed = (cid) => (gm.state.enc.combatants[cid].claimed || []).length > 0;
  // The GM has the others wait until cid may take the current slot.
  async function turnOf(cid) {
    for (let i = 0; i < 12; i++) {
      s = await settle(gm, players);
      const slot = s.enc.order[s.enc.turn];
      if (slot && slot.side === sideOf(cid) && !claimed(cid)) return;
      const other = [A, B, N].find((c) => sideOf(c) === slot.side && !claimed(c) && c !== cid);
      await ok(gm, 'enc.act', { action: 'wait', actor: other });
    }
    assert.fail(`${cid} never got a slot`);
  }
  const lastRoll = (action) => gm.state.gm.log.concat(gm.state.log).filter((e) => e.action === action).sort((x, y) => x.seq - y.seq).at(-1);

  // 1. Ann reads the room on the Countess: she learns who she is, success or not (000:253)
  await turnOf(A);
  await ok(ann.client, 'enc.act', { action: 'read_room', actor: A, params: { target: N } });
  s = await settle(gm, players);
  const first = lastRoll('read_room').result.success;
  assert.equal(ann.client.state.private[ann.seat].social[N].identity, 'Countess Orlova');
  assert.equal(bob.client.state.private?.[bob.seat]?.social, undefined, 'Bob learned nothing');
  assert.ok(!sees(bob, 'Countess Orlova'), "the Countess's identity reached Bob");
  // on a failure the Countess's side (the GM) learns whom Ann presents as
  assert.equal(s.gm.enc.known?.[A]?.presented_seen, first ? undefined : 'Ann Vale');

  // 2. Ann asks for the Countess's second Loyalty
  await turnOf(A);
  await ok(ann.client, 'enc.act', { action: 'read_room', actor: A, params: { target: N, ask: 'loyalty', loyalty: 2 } });
  s = await settle(gm, players);
  const second = lastRoll('read_room').result.success;
  const annKnows = ann.client.state.private[ann.seat].social[N].loyalties;
  assert.deepEqual(annKnows, second ? { 2: 'Hatred: Germans Zeppelin' } : {});
  assert.equal(sees(ann, 'Zeppelin'), second, 'Ann sees the Loyalty exactly when she learned it');

  // 3. Ann sets an agenda: her side (Ann and Bob) and the GM know it (000:258)
  await ok(ann.client, 'enc.act', { action: 'agenda', actor: A, params: { target: N, text: 'lend us the ledger Q7' } });
  s = await settle(gm, players);
  assert.equal(bob.client.state.private[bob.seat].social[N].agenda.text, 'lend us the ledger Q7');
  assert.equal(s.gm.enc.known[N].agenda.text, 'lend us the ledger Q7');

  // 4. The Countess identifies Bob and sets an agenda on him: the players never see its text
  await turnOf(N);
  await ok(gm, 'enc.act', { action: 'read_room', actor: N, params: { target: B } });
  await ok(gm, 'enc.act', { action: 'agenda', actor: N, params: { target: B, text: 'turn informant X9' } });
  s = await settle(gm, players);
  assert.equal(s.gm.enc.known[B].agenda.text, 'turn informant X9');

  // Bob's knowledge is his own; nobody else's Loyalties reached another seat
  await turnOf(B);
  await ok(bob.client, 'enc.act', { action: 'read_room', actor: B, params: { target: N } });
  s = await settle(gm, players);
  assert.equal(bob.client.state.private[bob.seat].social[N].identity, 'Countess Orlova');
  assert.deepEqual(Object.keys(ann.client.state.private), [ann.seat]);
  assert.deepEqual(Object.keys(bob.client.state.private), [bob.seat]);
  assert.ok(!sees(ann, 'Bobsecret') && !sees(bob, 'Annsecret'), "a PC's Loyalties reached another player");
  assertNoGmBytes(players, ['Husband Karl', 'turn informant X9']);
  assertNoGmBytes([bob], ['Zeppelin']);

  // The GM rules that Ann's Loyalty changes (000:237): it lands in her private sheet, the table
  // reads only that one of her Loyalties changed; once per call
  await refused(bob.client, 'enc.act', { action: 'alter', actor: A, params: { loyalty: 1, to: 'Desire: Bobsees Nothing' } }, 'forbidden');
  // (her regular Loyalty 2: a Prime is swapped, never rewritten, 000:237, issue 25)
  await refused(ann.client, 'enc.act', { action: 'alter', actor: A, params: { loyalty: 2, to: 'Desire: Annsecret Revenge' } }, 'rule', /achieved/);
  await ok(gm, 'enc.act', { action: 'alter', actor: A, params: { loyalty: 2, to: 'Desire: Annsecret Revenge' } });
  s = await settle(gm, players);
  assert.equal(ann.client.state.private[ann.seat].sheets[annChar].loyalties[1].target, 'Annsecret Revenge');
  assert.ok(!sees(bob, 'Annsecret Revenge'), "Ann's new Loyalty reached Bob");
  assert.ok(bob.client.state.log.some((e) => e.action === 'alter' && /Loyalties changes/.test(e.text)));
  await refused(gm, 'enc.act', { action: 'alter', actor: A, params: { loyalty: 1, prime: true } }, 'rule', /one per call/);

  // The call ends: every seat forgets what it learned in it; the sheets (and Loyalties) stay
  await ok(gm, 'enc.end', {});
  s = await settle(gm, players);
  for (const p of players) {
    assert.equal(p.client.state.private[p.seat].social, undefined, `${p.name} still holds the call's knowledge`);
    assert.ok(p.client.state.private[p.seat].sheets, `${p.name}'s private sheets went too`);
  }
  assert.equal(s.gm.enc, undefined);
});
