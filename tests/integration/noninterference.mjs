// The non-interference harness (issue 11): a scenario is run twice against the real server with
// the same dice seed and the same test clock, changing only what the GM alone knows (an NPC's
// numbers, a hidden target number, notes, a secret roll's contents) by amounts that leave every
// outcome the players legitimately see as it was. Every byte every player socket receives must be
// the same in both runs: a player who could tell the runs apart has learned a GM secret.
//
// Both runs draw the same dice from the same seeded stream, so a variation must keep the number
// of dice drawn equal (an NPC's pool varies by swapping Muscle and Athletics, not by adding a die):
// otherwise every later die shifts, which under --seed would look like a leak but in production,
// with a CSPRNG, tells nobody anything.
//
// Nothing is normalized but the values that are random by design and never derived from a
// secret: tokens, the campaign id, the join code and the database's history id in each welcome
// (a CSPRNG makes them even under --seed).
// Times are made deterministic with `tabled serve --test-clock`, command ids and ping numbers are
// counters, and the scenario runs one step at a time, so the order of frames is fixed.
//
// A scenario (one file per encounter module in ./noninterference/, picked up by
// noninterference.test.mjs) is
//   { name, system, seed, players: ['Ann', ...], variants: [a, b], script: async (ctx, v) => {} }
// where `variants` are the two sets of GM-only inputs and `script` plays the scenario with one of
// them. A scenario that varies one seat's private inputs (a PC's Loyalties) names the seats that
// must not tell the runs apart in `observers` (default: every player). ctx offers: gm (the GM's client), p.<name> (a player's client), seat.<name>,
// ok(client, op, args) (asserts an ack, returns the result), act(client, action, params, actor)
// (enc.act, then every player's enc.moves), char(client, {name, sheet, seat, npc}) (a character id) and log(text) (a note in the
// failure message). The harness also checks that the GM's own frames differ between the runs, so
// a scenario whose variation does nothing fails instead of passing vacuously.
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';

/** The --test-clock of every run: 2023-11-14T22:13:20Z, event n one second later each. */
export const TEST_CLOCK = 1700000000000;

/** Starts a server and plays `sc` with `variant`. Returns {player frames by name, gm frames}. */
export async function runOnce(t, sc, variant) {
  const srv = await startServer(t, {
    args: ['--seed', String(sc.seed), '--test-clock', String(TEST_CLOCK), '--rate-limit', '0'],
  });
  const random = new Map(); // a value random by design -> its placeholder
  let n = 0;
  const ids = new Map();
  const idFor = (c) => {
    const k = (ids.get(c) || 0) + 1;
    ids.set(c, k);
    return `${c.name}-${k}`;
  };
  const clients = [];
  const hello = async (token, name) => {
    const [c, w] = await srv.hello(token);
    assert.equal(w.t, 'welcome', w.raw);
    if (w.history) random.set(w.history, '<history>'); // one per database (PROTOCOL.md "Histories")
    c.name = name;
    clients.push(c);
    return c;
  };
  random.set(srv.hostToken, '<host token>');
  const host = await hello(srv.hostToken, 'host');
  const made = await host.cmd('campaign.create', { name: sc.name, system: sc.system }, 'create');
  assert.equal(made.t, 'ack', made.raw);
  random.set(made.result.gm_token, '<gm token>');
  random.set(made.result.campaign, '<campaign>');
  random.set(made.result.join_code, '<join code>');
  const gm = await hello(made.result.gm_token, 'gm');
  const p = {};
  const seat = {};
  for (const name of sc.players) {
    const c = await srv.connect({ name });
    clients.push(c);
    const j = await c.join(made.result.join_code, name);
    assert.ok(j.joined, JSON.stringify(j));
    random.set(j.joined.token, `<token of ${name}>`);
    p[name] = c;
    seat[name] = j.joined.seat;
  }
  t.after(() => Promise.all(clients.map((c) => c.close())));
  const ok = async (client, op, args) => {
    const r = await client.cmd(op, args, idFor(client));
    assert.equal(r.t, 'ack', `${client.name}: ${op} ${JSON.stringify(args)}: ${r.raw}`);
    return r.result;
  };
  const ctx = {
    gm,
    p,
    seat,
    ok,
    // every player then asks what it may do now (enc.moves): its moves must not depend on what
    // the GM alone knows either
    act: async (client, action, params, actor) => {
      const r = await ok(client, 'enc.act', { action, ...(params ? { params } : {}), ...(actor ? { actor } : {}) });
      for (const name of sc.players) await ok(p[name], 'enc.moves', {});
      return r;
    },
    char: async (client, { name, sheet, seat: s, npc }) =>
      (await ok(client, 'char.create', { name, sheet, ...(s ? { seat: s } : {}), ...(npc ? { npc: true } : {}) })).id,
  };
  await sc.script(ctx, variant);
  // Settle: every frame of every command reached every socket before each pong (one socket's
  // frames are sent in order, and the server answers a ping after the commands before it).
  await gm.ping(++n);
  for (const name of sc.players) await p[name].ping(++n);
  if (process.env.NONINTERFERENCE_DEBUG) {
    // what the GM's log says of each run: to tune a scenario's variants
    for (const l of gm.state.gm?.log || []) console.log(`# ${sc.name} gm: ${l.text}`);
    for (const l of gm.state.log || []) console.log(`# ${sc.name} public: ${l.text ?? JSON.stringify(l)}`);
  }
  const norm = (raw) => {
    let s = raw;
    for (const [v, ph] of random) s = s.split(v).join(ph);
    return s;
  };
  const frames = {};
  for (const name of sc.players) frames[name] = p[name].frames.map(norm);
  return { frames, gm: gm.frames.map(norm) };
}

/** The first index where two frame lists differ, or -1. */
function firstDifference(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return -1;
}

/**
 * Runs sc with each of its two variants and asserts that every player socket (or each of
 * sc.observers) received the same bytes, and that the GM's did not (the variation took effect).
 */
export async function assertNonInterference(t, sc) {
  assert.equal(sc.variants.length, 2, `${sc.name}: two variants of the GM-only inputs`);
  const [a, b] = [await runOnce(t, sc, sc.variants[0]), await runOnce(t, sc, sc.variants[1])];
  for (const name of sc.observers || sc.players) {
    const i = firstDifference(a.frames[name], b.frames[name]);
    if (i < 0) continue;
    const [x, y] = [a.frames[name][i] ?? '(nothing)', b.frames[name][i] ?? '(nothing)'];
    let at = 0;
    while (at < x.length && x[at] === y[at]) at++;
    const near = (f) => `${at > 160 ? '…' : ''}${f.slice(Math.max(0, at - 160), at + 160)}`;
    assert.fail(
      `${sc.name}: ${name}'s socket tells the two runs apart at frame ${i} of ` +
        `${a.frames[name].length}/${b.frames[name].length}, character ${at}:\n` +
        `run 1: ${near(x)}\nrun 2: ${near(y)}`,
    );
  }
  assert.notEqual(firstDifference(a.gm, b.gm), -1, `${sc.name}: the GM-only inputs changed nothing the GM sees`);
}
