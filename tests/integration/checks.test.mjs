// roll.check at the live table (issue 4): every system's checks run as one op with the same
// parameter names as `tabled roll`, the dice come from the server, everyone sees every die, bad
// parameters are refused with a clear message, and a secret target number never reaches a player.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startServer, closeAll, BIN } from './lib.mjs';
import { sample } from './enc_lib.mjs';

/** A new campaign of `system`, with its GM and one player (Ann) seated. */
async function campaignOf(srv, t, system) {
  const [host] = await srv.hello(srv.hostToken);
  const made = await host.cmd('campaign.create', { name: `A ${system} night`, system });
  assert.equal(made.t, 'ack', made.raw);
  const [gm, gw] = await srv.hello(made.result.gm_token);
  assert.equal(gw.campaign.system, system);
  const ann = await srv.connect({ name: 'Ann' });
  const j = await ann.join(made.result.join_code, 'Ann');
  assert.ok(j.joined, JSON.stringify(j));
  t.after(() => closeAll(host, gm, ann));
  return { gm, ann, annToken: j.joined.token };
}

const CLI_CASES = [
  ['cot', 'pool', { skill: 3, ability: 2, bonus: 1 }],
  ['heimr', 'challenge', { c: 2, p: 3, cr: 8 }],
  ['grimwire', 'check', { attr: 3, tn: 12, attack: 1 }],
  ['tenacity', 'check', { dice: 2, rank: 3, challenge: 8 }],
  ['fivey', 'check', { stat: 3, dc: 12, skilled: 1, adv: 1 }],
];

test('each system: the first check at a --seed server equals `tabled roll ... --seed` (one path)', async (t) => {
  for (const [system, check, params] of CLI_CASES) {
    const srv = await startServer(t, { args: ['--seed', '42'] });
    const { gm, ann } = await campaignOf(srv, t, system);
    const r = await ann.cmd('roll.check', { check, params });
    assert.equal(r.t, 'ack', r.raw);
    const cliArgs = ['roll', system, check, ...Object.entries(params).map(([k, v]) => `${k}=${v}`), '--seed', '42', '--json'];
    const cli = JSON.parse(execFileSync(BIN, cliArgs, { encoding: 'utf8' }).trim());
    assert.deepEqual(r.result.dice, cli.dice, `${system}: same dice at the table and in the shell`);
    assert.equal(r.result.total, cli.total, `${system}: same total`);
    assert.equal(r.result.success, cli.success, `${system}: same outcome`);
    assert.equal(r.result.system, system);
    assert.equal(r.result.check, check);
    // the roll is in everyone's log with every die
    for (const c of [gm, ann]) {
      await c.waitFor(() => c.seq >= r.seq, { what: `diff ${r.seq}` });
      const entry = c.state.log.find((e) => e.seq === r.seq);
      assert.equal(entry.kind, 'check');
      assert.equal(entry.seat, ann.seat.id);
      assert.deepEqual(entry.check.dice, cli.dice, `${system}: ${c.name} sees every die`);
    }
    await srv.stop();
  }
});

test('cot pool at the table: kept dice, total and success follow the rulebook', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { ann } = await campaignOf(srv, t, 'cot');
  for (let i = 0; i < 30; i++) {
    const r = await ann.cmd('roll.check', { check: 'pool', params: { skill: 3, ability: 2 } });
    assert.equal(r.t, 'ack', r.raw);
    const dice = r.result.dice;
    assert.equal(dice.length, 5, '3 + 2 dice rolled');
    const kept = dice.filter((d) => d.kept).map((d) => d.value);
    assert.equal(kept.length, 2, 'ability 2: two kept');
    const sorted = dice.map((d) => d.value).sort((a, b) => b - a);
    assert.deepEqual(kept.sort((a, b) => b - a), sorted.slice(0, 2), 'the highest are kept');
    assert.equal(r.result.total, kept[0] + kept[1]);
    const catastrophe = dice.every((d) => d.value === 1);
    assert.equal(r.result.catastrophe, catastrophe);
    assert.equal(r.result.success, !catastrophe && r.result.total >= 9, 'difficulty 9, met or exceeded');
  }
});

test('bad parameters are refused with a message naming them, and write nothing', async (t) => {
  const srv = await startServer(t);
  const { gm, ann } = await campaignOf(srv, t, 'cot');
  await gm.ping(); // every diff sent to the GM so far has arrived
  const before = gm.seq;
  const cases = [
    [{ check: 'pool', params: { skill: 3 } }, 'bad_request', /ability/],
    [{ check: 'pool', params: { skill: 3, ability: 2, luck: 1 } }, 'bad_request', /luck/],
    [{ check: 'pool', params: { skill: 99, ability: 2 } }, 'bad_request', /skill/],
    [{ check: 'pool', params: { skill: '3', ability: 2 } }, 'bad_request', /skill/],
    [{ check: 'nope', params: {} }, 'not_found', /nope/],
    [{ check: 'pool', params: { skill: 3, ability: 2 }, secret: true }, 'forbidden', /GM/],
    [{ check: 'pool', system: 'narnia' }, 'not_found', /narnia/],
    [{ params: { skill: 3, ability: 2 } }, 'bad_request', /check/],
  ];
  for (const [args, code, re] of cases) {
    const r = await ann.cmd('roll.check', args);
    assert.equal(r.t, 'nack', `${JSON.stringify(args)} → ${r.raw}`);
    assert.equal(r.code, code, r.raw);
    assert.match(r.message, re, r.raw);
  }
  assert.equal((await ann.ping(7)).t, 'pong', 'the connection is still usable');
  // (srv.gmView() is the server's first campaign, not this one: ask this campaign's GM, who is
  // sent every event)
  await gm.ping();
  assert.equal(gm.seq, before, 'nothing was written');
});

test('a generic campaign names the system; without it the check is refused', async (t) => {
  const srv = await startServer(t);
  const [gm] = await srv.hello(srv.gmToken);
  t.after(() => closeAll(gm));
  const bad = await gm.cmd('roll.check', { check: 'pool', params: { skill: 1, ability: 1 } });
  assert.equal(bad.code, 'bad_request', bad.raw);
  assert.match(bad.message, /system/);
  const ok = await gm.cmd('roll.check', { system: 'fivey', check: 'check', params: { stat: 2, dc: 12 } });
  assert.equal(ok.t, 'ack', ok.raw);
  assert.equal(ok.result.dice.length, 1);
  assert.equal(ok.result.total, ok.result.dice[0].value + 2, 'd20 + stat (not skilled: not doubled)');
});

test('grimwire: the target number of a public check stays under /gm; players never receive it', async (t) => {
  const srv = await startServer(t);
  const { gm, ann, annToken } = await campaignOf(srv, t, 'grimwire');
  const TN = 37; // unusual, so its bytes are searchable
  const r = await gm.cmd('roll.check', { check: 'check', params: { attr: 2, tn: TN } });
  assert.equal(r.t, 'ack', r.raw);
  assert.equal(r.result.tn, TN, 'the GM\'s own ack carries the target number');
  await ann.waitFor(() => ann.seq >= r.seq, { what: 'the check' });
  await gm.waitFor(() => gm.seq >= r.seq, { what: 'the check' });
  const publicEntry = ann.state.log.find((e) => e.seq === r.seq);
  assert.ok(publicEntry, 'the player sees that a check happened');
  assert.equal(publicEntry.check.tn, undefined);
  assert.equal(publicEntry.check.params.tn, undefined);
  assert.equal(publicEntry.check.success, r.result.success, 'the outcome is public');
  assert.deepEqual(gm.state.gm.hidden[String(r.seq)], { tn: TN }, 'the GM keeps it under /gm/hidden');
  for (const f of ann.frames) {
    assert.ok(!f.includes(`"tn":${TN}`) && !f.includes(`:${TN},`) && !f.includes(`:${TN}}`), `player frame leaks the TN: ${f}`);
    assert.ok(!f.includes('"hidden"'), 'no /gm/hidden in a player frame');
  }
  // a fresh welcome for the same player (a reload) does not carry it either
  const [again, w] = await srv.hello(annToken);
  assert.equal(w.t, 'welcome', w.raw);
  assert.ok(w.state.log.some((e) => e.seq === r.seq), 'the check is in the fresh state');
  assert.equal(w.state.gm, undefined, 'no /gm in a player welcome');
  assert.ok(!w.raw.includes(`"tn":${TN}`), 'the fresh welcome does not leak the TN');
  await closeAll(again);
});

test('fivey: the DC of a public check is open (004:83: the referee names it), unlike a grimwire target number', async (t) => {
  const srv = await startServer(t);
  const { gm, ann } = await campaignOf(srv, t, 'fivey');
  const r = await gm.cmd('roll.check', { check: 'check', params: { stat: 2, dc: 17 } });
  assert.equal(r.t, 'ack', r.raw);
  await ann.waitFor(() => ann.seq >= r.seq, { what: 'the check' });
  const publicEntry = ann.state.log.find((e) => e.seq === r.seq);
  assert.equal(publicEntry.check.params.dc, 17, 'the player sees the DC');
  assert.equal(publicEntry.check.success, r.result.success);
  await gm.waitFor(() => gm.seq >= r.seq, { what: 'the check' });
  assert.equal(gm.state.gm.hidden?.[String(r.seq)], undefined, 'nothing of it is kept hidden');
  // a secret roll keeps it to the GM
  const s = await gm.cmd('roll.check', { check: 'check', params: { stat: 2, dc: 19 }, secret: true });
  assert.equal(s.t, 'ack', s.raw);
  await ann.ping();
  assert.ok(!ann.frames.some((f) => f.includes('"dc":19')), 'a secret check stays the GM\'s');
});

test("grimwire: a player's check without the hidden target number waits for the GM's, who answers it (issue 15)", async (t) => {
  const srv = await startServer(t, { args: ['--seed', '7'] });
  const { gm, ann } = await campaignOf(srv, t, 'grimwire');
  // validate before asking: a bad parameter is refused, and nothing waits
  const bad = await ann.cmd('roll.check', { check: 'check', params: { attr: 99 } });
  assert.equal(bad.t, 'nack', bad.raw);
  assert.equal(bad.code, 'bad_request');
  assert.match(bad.message, /attr/);
  // the player rolls without the number: the roll waits, nobody is told a number
  const asked = await ann.cmd('roll.check', { check: 'check', params: { attr: 2 } });
  assert.equal(asked.t, 'ack', asked.raw);
  assert.deepEqual(asked.result.need, ['tn']);
  const key = asked.result.asked;
  await gm.waitFor(() => gm.seq >= asked.seq, { what: 'the ask' });
  assert.deepEqual(gm.state.asks[key], { seat: ann.seat.id, check: 'check', at: gm.state.asks[key].at });
  assert.deepEqual(gm.state.gm.asks[key].need, ['tn'], 'the GM is asked for the target number');
  await ann.ping();
  assert.equal(ann.state.asks[key].seat, ann.seat.id, 'the table sees the roll waiting');
  assert.equal(ann.state.gm, undefined);
  assert.equal(ann.state.log?.length ?? 0, 0, 'no die is rolled yet');
  // only the GM answers, with the number the roll waits for
  const notYou = await ann.cmd('roll.answer', { ask: key, params: { tn: 3 } });
  assert.equal(notYou.code, 'forbidden', notYou.raw);
  const noTn = await gm.cmd('roll.answer', { ask: key, params: {} });
  assert.equal(noTn.code, 'bad_request', noTn.raw);
  assert.match(noTn.message, /tn/);
  const outOfRange = await gm.cmd('roll.answer', { ask: key, params: { tn: 999 } });
  assert.equal(outOfRange.code, 'bad_request', outOfRange.raw);
  const unknown = await gm.cmd('roll.answer', { ask: '12345', params: { tn: 3 } });
  assert.equal(unknown.code, 'not_found', unknown.raw);
  await gm.ping();
  assert.ok(gm.state.asks[key], 'refused answers leave the roll waiting');
  const TN = 17;
  const done = await gm.cmd('roll.answer', { ask: key, params: { tn: TN } });
  assert.equal(done.t, 'ack', done.raw);
  assert.equal(done.result.tn, TN);
  assert.equal(done.result.success, done.result.total >= TN && true);
  await ann.waitFor(() => ann.seq >= done.seq, { what: 'the answer' });
  const entry = ann.state.log.find((e) => e.seq === done.seq);
  assert.equal(entry.seat, ann.seat.id, "the log names the player's roll, not the GM's");
  assert.equal(entry.check.success, done.result.success, 'everyone sees the outcome');
  assert.equal(entry.check.tn, undefined, 'never the number');
  assert.deepEqual(ann.state.asks, {}, 'nothing waits any more');
  assert.ok(!ann.frames.some((f) => f.includes(`"tn":${TN}`)), 'no frame of the player holds the number');
  await gm.ping();
  assert.equal(gm.state.gm.hidden[String(done.seq)].tn, TN, 'the GM keeps it');
  assert.deepEqual(gm.state.gm.asks, {});
  // the GM's own check still needs the number: the GM is never asked
  const gmNo = await gm.cmd('roll.check', { check: 'check', params: { attr: 2 } });
  assert.equal(gmNo.code, 'bad_request', gmNo.raw);
});

test('a check rolled for a character names the character and what was rolled in the log, not the player (issue 15)', async (t) => {
  const srv = await startServer(t);
  const { gm, ann } = await campaignOf(srv, t, 'fivey');
  const made = await ann.cmd('char.create', { name: 'Vesper', sheet: sample('fivey', 'vesper') });
  assert.equal(made.t, 'ack', made.raw);
  const mine = made.result.id;
  const gmsPc = await gm.cmd('char.create', { name: 'Brun', sheet: sample('fivey', 'vesper'), seat: 'gm' });
  const r = await ann.cmd('roll.check', { check: 'check', params: { stat: 2, dc: 12 }, char: mine, label: 'DEX 2' });
  assert.equal(r.t, 'ack', r.raw);
  await gm.waitFor(() => gm.seq >= r.seq, { what: 'the check' });
  const entry = gm.state.log.find((e) => e.seq === r.seq);
  assert.equal(entry.name, 'Vesper');
  assert.equal(entry.char, mine);
  assert.equal(entry.label, 'DEX 2');
  assert.equal(entry.seat, ann.seat.id, 'the seat stays: it is still the player who rolled');
  const unknown = await ann.cmd('roll.check', { check: 'check', params: { stat: 2, dc: 12 }, char: 'c999' });
  assert.equal(unknown.code, 'not_found', unknown.raw);
  assert.equal(gmsPc.t, 'ack', gmsPc.raw);
  const other = await ann.cmd('roll.check', { check: 'check', params: { stat: 2, dc: 12 }, char: gmsPc.result.id });
  assert.equal(other.code, 'forbidden', other.raw);
  await ann.ping();
  assert.equal(ann.state.log.length, 1, 'refused rolls roll nothing');
});
