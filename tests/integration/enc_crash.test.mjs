// Issue 12: no state can crash a module. The two inputs that crashed the server in a
// cot.initiative encounter — `enc.set /enc/order [{"slot":1}]` then `begin` (a slot without a
// side reached strcmp), `enc.set /enc/focus {}` then `give` (a Focus Round without `by`) — are
// refused with nothing changed, the server stays up and serves after a restart. A campaign that
// an older build already saved with those values (the event appended to the real SQLite file, as
// that build committed it) is refused by the module's actions instead of crashing the server,
// before and after a restart, and the GM can still end the encounter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar } from './enc_lib.mjs';

/** The server is up: its process runs and it answers a command. */
async function alive(srv, gm) {
  assert.equal(srv.exited, null, `the server exited: ${srv.stderr.slice(-2000)}`);
  const r = await gm.cmd('roll', { expr: '1d6' });
  assert.equal(r.t, 'ack', r.raw);
}

test('the two crash inputs are refused, the server stays up and serves after a restart', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '5'] });
  const { gm, players, gmToken } = await campaignOf(srv, t, 'cot', ['Ann']);
  const [ann] = players;
  const vera = await makeChar(ann.client, { name: 'Vera Lockhart', sheet: sample('cot', 'vera_lockhart') });
  await ok(gm, 'enc.start', { module: 'cot.initiative', options: { stage: 'heist' } });
  const V = (await ok(gm, 'enc.add', { char: vera })).id;
  await ok(gm, 'enc.add', { npc: { name: 'Watchman' }, side: 'guards' });

  await refused(gm, 'enc.set', { path: '/enc/order', value: [{ slot: 1 }] }, 'bad_request', /not something the GM may set/);
  await refused(gm, 'enc.set', { path: '/enc/focus', value: {} }, 'bad_request', /\/enc\/focus/);
  await refused(gm, 'enc.set', { path: `/enc/combatants/${V}/stats/cover`, value: 'lots' }, 'bad_request', /Vera Lockhart's Cover/);
  await ok(gm, 'enc.set', { path: `/enc/combatants/${V}/stats/cover`, value: 3 });
  await ok(gm, 'enc.act', { action: 'begin' });
  await refused(ann.client, 'enc.act', { action: 'give', actor: V }, 'rule', /no Focus Round/);
  await alive(srv, gm);

  await srv.restart();
  const [gm2, w] = await srv.hello(gmToken);
  t.after(() => gm2.close());
  assert.equal(w.state.enc.round, 1);
  assert.equal(w.state.enc.combatants[V].stats.cover, 3);
  await refused(gm2, 'enc.set', { path: '/enc/order', value: [{ slot: 1 }] }, 'bad_request');
  await alive(srv, gm2);
});

test('a campaign saved by an older build with a slot without a side is refused, not crashed, after the upgrade', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '5'] });
  const { gm, players, campaignId, gmToken } = await campaignOf(srv, t, 'cot', ['Ann']);
  const [ann] = players;
  const vera = await makeChar(ann.client, { name: 'Vera Lockhart', sheet: sample('cot', 'vera_lockhart') });
  await ok(gm, 'enc.start', { module: 'cot.initiative', options: { stage: 'heist' } });
  const V = (await ok(gm, 'enc.add', { char: vera })).id;
  await ok(gm, 'enc.act', { action: 'begin' });
  await srv.kill('SIGTERM');

  // What the older build committed for `enc.set /enc/order [{"slot":1}]` and `/enc/focus {}`.
  const seq = Number(srv.sqlite(`SELECT max(seq) FROM events WHERE campaign='${campaignId}'`));
  const bad = [
    [{ op: 'replace', path: '/enc/order', value: [{ slot: 1 }] }, { op: 'replace', path: '/enc/turn', value: 0 }],
    [{ op: 'add', path: '/enc/focus', value: {} }],
  ];
  bad.forEach((patch, i) => {
    const q = (o) => JSON.stringify(o).replaceAll("'", "''");
    srv.sqliteCampaign(campaignId, `INSERT INTO events (seq, seat, op, args, result, patch, at_ms) VALUES (${seq + 1 + i}, 'gm', 'enc.set', '${q({ path: patch[0].path, value: patch[0].value })}', '{}', '${q(patch)}', 0)`);
  });

  await srv.start();
  const [gm2, w] = await srv.hello(gmToken);
  t.after(() => gm2.close());
  assert.deepEqual(w.state.enc.order, [{ slot: 1 }], 'the damaged state was loaded as saved');
  await refused(gm2, 'enc.act', { action: 'begin' }, 'rule', /cannot go on.*end/);
  await refused(gm2, 'enc.act', { action: 'give', actor: V }, 'rule', /cannot go on/);
  await refused(gm2, 'enc.add', { npc: { name: 'Rat' } }, 'rule', /cannot go on/);
  await alive(srv, gm2);

  // still refused after another restart; then the GM ends it and the table plays on
  await srv.restart();
  const [gm3] = await srv.hello(gmToken);
  t.after(() => gm3.close());
  await refused(gm3, 'enc.act', { action: 'begin' }, 'rule', /cannot go on/);
  await ok(gm3, 'enc.end', {});
  await ok(gm3, 'enc.start', { module: 'cot.initiative', options: { stage: 'heist' } });
  await ok(gm3, 'enc.add', { char: vera });
  await ok(gm3, 'enc.act', { action: 'begin' });
  await alive(srv, gm3);
});
