// HTTP on the WebSocket port (/healthz, /metrics, the web client) and the host's ops
// (campaign.create, campaign.list). PROTOCOL.md "Transport", "Metrics", "Ops".

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, table, closeAll } from './lib.mjs';

/** Parses Prometheus text format 0.0.4 into {types: {name: type}, samples: [{name, labels, value}]}. */
function parseMetrics(text) {
  const types = {};
  const samples = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let m;
    if ((m = /^# TYPE (\w+) (counter|gauge|histogram|summary|untyped)$/.exec(line))) {
      types[m[1]] = m[2];
      continue;
    }
    if (/^# HELP \w+ .+$/.test(line)) continue;
    m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([^}]*)\})? (-?[0-9.e+-]+|\+Inf|NaN)$/.exec(line);
    assert.ok(m, `not a Prometheus sample line: ${JSON.stringify(line)}`);
    const labels = {};
    if (m[2]) {
      for (const part of m[2].match(/\w+="(?:[^"\\]|\\.)*"/g)) {
        const [, k, v] = /^(\w+)="(.*)"$/.exec(part);
        labels[k] = v;
      }
    }
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return {
    types,
    samples,
    get(name, labels = {}) {
      const s = samples.filter((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
      return s.length === 1 ? s[0].value : s.length === 0 ? undefined : s.map((x) => x.value);
    },
  };
}

async function metrics(srv) {
  const r = await srv.get('/metrics');
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type'), /^text\/plain/);
  return parseMetrics(r.text);
}

test('/healthz answers JSON with campaigns and connections', async (t) => {
  const srv = await startServer(t);
  const h0 = await srv.get('/healthz');
  assert.equal(h0.status, 200);
  assert.match(h0.headers.get('content-type'), /^application\/json/);
  const j0 = h0.json();
  assert.equal(j0.ok, true);
  assert.equal(j0.campaigns, 1);
  assert.equal(j0.connections, 0);
  assert.equal(j0.version, srv.banner.version);
  const { gm, players } = await table(srv, ['Ann']);
  const j1 = (await srv.get('/healthz')).json();
  assert.equal(j1.connections, 2);
  await closeAll(gm, players[0].client);
  // the close is processed asynchronously by the server
  for (let i = 0; i < 50 && (await srv.get('/healthz')).json().connections !== 0; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal((await srv.get('/healthz')).json().connections, 0);
});

test('/metrics: connections, campaigns, commands by op and outcome, latency histogram, commits, bytes sent', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const m0 = await metrics(srv);
  for (const [name, type] of [
    ['tabled_connections', 'gauge'],
    ['tabled_campaigns', 'gauge'],
    ['tabled_commands_total', 'counter'],
    ['tabled_command_seconds', 'histogram'],
    ['tabled_commits_total', 'counter'],
    ['tabled_bytes_sent_total', 'counter'],
  ])
    assert.equal(m0.types[name], type, `# TYPE ${name} ${type}`);
  assert.equal(m0.get('tabled_campaigns'), 1);
  assert.equal(m0.get('tabled_connections'), 0);
  assert.equal(m0.get('tabled_commands_total', { op: 'roll', outcome: 'ack' }), undefined, 'no roll yet');
  const commits0 = m0.get('tabled_commits_total');
  const count0 = m0.get('tabled_command_seconds_count');

  const { gm, players } = await table(srv, ['Ann', 'Bob']);
  const clients = [gm, ...players.map((p) => p.client)];
  t.after(() => closeAll(clients));
  const N = 17;
  const acks = await Promise.all(Array.from({ length: N }, (_, i) => clients[i % 3].cmd('roll', { expr: `1d6+${i}` })));
  for (const a of acks) assert.equal(a.t, 'ack', a.raw);
  const bad = await Promise.all([gm.cmd('roll', { expr: '1d' }), players[0].client.cmd('roll', { expr: '1d6', secret: true }), gm.cmd('nope', {})]);
  assert.deepEqual(bad.map((b) => b.code), ['bad_request', 'forbidden', 'not_found']);
  await Promise.all(clients.map((c) => c.ping(1)));

  const m = await metrics(srv);
  assert.equal(m.get('tabled_connections'), 3);
  assert.equal(m.get('tabled_campaigns'), 1);
  assert.equal(m.get('tabled_commands_total', { op: 'roll', outcome: 'ack' }), N);
  assert.equal(m.get('tabled_commands_total', { op: 'roll', outcome: 'bad_request' }), 1);
  assert.equal(m.get('tabled_commands_total', { op: 'roll', outcome: 'forbidden' }), 1);
  const unknown = m.samples.filter((s) => s.name === 'tabled_commands_total' && s.labels.outcome === 'not_found');
  assert.equal(unknown.length, 1);
  assert.notEqual(unknown[0].labels.op, 'nope', 'an unknown op is not a label value (bounded cardinality)');
  // histogram: cumulative buckets ending in +Inf == _count; every command observed
  const buckets = m.samples.filter((s) => s.name === 'tabled_command_seconds_bucket');
  assert.ok(buckets.length >= 5);
  assert.equal(buckets.at(-1).labels.le, '+Inf');
  for (let i = 1; i < buckets.length; i++) {
    assert.ok(Number(buckets[i].labels.le) > Number(buckets[i - 1].labels.le) || buckets[i].labels.le === '+Inf');
    assert.ok(buckets[i].value >= buckets[i - 1].value, 'cumulative');
  }
  const count = m.get('tabled_command_seconds_count');
  assert.equal(buckets.at(-1).value, count);
  assert.ok(count - count0 >= N + 3 + 2, `every command observed (${count0} → ${count})`); // rolls, nacks, 2 joins
  const sum = m.get('tabled_command_seconds_sum');
  assert.ok(sum > 0 && sum < count * 5, `plausible latency sum ${sum}`);
  // commits: at least one, at most one per write
  const commits = m.get('tabled_commits_total') - commits0;
  assert.ok(commits >= 1 && commits <= N + 2, `commits ${commits}`);
  // bytes sent == every byte our clients received (they are the only clients)
  const received = clients.reduce((s, c) => s + c.frames.reduce((x, f) => x + Buffer.byteLength(f), 0), 0);
  assert.equal(m.get('tabled_bytes_sent_total'), received);
});

test('/ serves the web client', async (t) => {
  const srv = await startServer(t);
  const r = await srv.get('/');
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type'), /^text\/html/);
  assert.match(r.text, /^<!doctype html>/i);
  assert.match(r.text, /<script[^>]+type="module"/);
  assert.equal((await srv.get('/index.html')).text, r.text);
  const js = await srv.get('/js/patch.js');
  assert.equal(js.status, 200);
  assert.match(js.headers.get('content-type'), /javascript/);
  assert.equal((await srv.get('/no-such-file.txt')).status, 404);
  // secrets never in the page
  assert.ok(!r.text.includes(srv.gmToken) && !r.text.includes(srv.joinCode) && !r.text.includes(srv.hostToken));
});

test('host ops: campaign.create and campaign.list; refusals', async (t) => {
  const srv = await startServer(t);
  const [host, hw] = await srv.hello(srv.hostToken);
  t.after(() => host.close());
  assert.equal(hw.t, 'welcome', hw.raw);
  assert.deepEqual(hw.seat, { id: 'host', role: 'host', name: 'Host' });
  assert.equal(hw.campaign, null);

  const cr = await host.cmd('campaign.create', { name: 'The Heist', system: 'generic' });
  assert.equal(cr.t, 'ack', cr.raw);
  assert.equal(cr.seq, null, 'host ops answer seq null');
  assert.deepEqual(Object.keys(cr.result).sort(), ['campaign', 'gm_token', 'join_code']);
  assert.match(cr.result.campaign, /^c[0-9a-z]{9}$/);
  assert.notEqual(cr.result.campaign, srv.campaignId);
  assert.match(cr.result.gm_token, /^[A-Za-z0-9_-]{22}$/);
  assert.match(cr.result.join_code, /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);

  // the new GM token works and opens the new campaign
  const [gmB, wB] = await srv.hello(cr.result.gm_token);
  t.after(() => gmB.close());
  assert.equal(wB.t, 'welcome', wB.raw);
  assert.equal(wB.seat.role, 'gm');
  assert.deepEqual(wB.campaign, { id: cr.result.campaign, name: 'The Heist', system: 'generic' });
  assert.deepEqual(wB.state.campaign, wB.campaign);
  assert.deepEqual(wB.state.gm.join, { code: cr.result.join_code, open: true });
  assert.equal(wB.seq, 1);
  // its join code works, and joins that campaign
  const p = await srv.connect();
  t.after(() => p.close());
  const j = await p.join(cr.result.join_code, 'Nia');
  assert.equal(j.welcome.campaign.id, cr.result.campaign);
  // campaigns are separate: a roll in one is not seen in the other
  const [gmA] = await srv.hello(srv.gmToken);
  t.after(() => gmA.close());
  await gmB.cmd('roll', { expr: '1d6' });
  await gmA.ping(1);
  assert.deepEqual(gmA.diffSeqs, []);

  const list = await host.cmd('campaign.list');
  assert.equal(list.t, 'ack', list.raw);
  assert.equal(list.seq, null);
  const byId = Object.fromEntries(list.result.campaigns.map((c) => [c.id, c]));
  assert.equal(list.result.campaigns.length, 2);
  assert.deepEqual(byId[cr.result.campaign], { id: cr.result.campaign, name: 'The Heist', system: 'generic', seq: 3, seats: 2 });
  assert.deepEqual(byId[srv.campaignId], { id: srv.campaignId, name: 'My campaign', system: 'generic', seq: 1, seats: 1 });
  assert.equal((await srv.get('/healthz')).json().campaigns, 2);
  assert.ok(!list.raw.includes(cr.result.join_code), 'campaign.list does not expose join codes');

  // refusals
  const seqs = async () => (await host.cmd('campaign.list')).result.campaigns.map((c) => c.seq).join(',');
  const before = await seqs();
  const badSystem = await host.cmd('campaign.create', { name: 'X', system: 'dnd5e' });
  assert.equal(badSystem.code, 'bad_request', badSystem.raw);
  for (const args of [{ system: 'generic' }, { name: '', system: 'generic' }, { name: 'x'.repeat(81), system: 'generic' }, { name: 5, system: 'generic' }, { name: 'Y' }, { name: 'Z', system: 'generic', extra: 1 }]) {
    const r = await host.cmd('campaign.create', args);
    assert.equal(r.code, 'bad_request', `${JSON.stringify(args)}: ${r.raw}`);
  }
  const listArgs = await host.cmd('campaign.list', { x: 1 });
  assert.equal(listArgs.code, 'bad_request', listArgs.raw);
  const hostRoll = await host.cmd('roll', { expr: '1d6' });
  assert.equal(hostRoll.code, 'not_found', hostRoll.raw);
  // a seat is not the host: PROTOCOL.md documents `forbidden`
  for (const seat of [gmA, p]) {
    const r = await seat.cmd('campaign.create', { name: 'Mine', system: 'generic' });
    assert.equal(r.t, 'nack', r.raw);
    assert.equal(r.code, 'forbidden', r.raw);
    const l = await seat.cmd('campaign.list');
    assert.equal(l.code, 'forbidden', l.raw);
  }
  assert.equal(await seqs(), before, 'refusals wrote nothing');
  assert.equal((await host.cmd('campaign.list')).result.campaigns.length, 2);

  // after a restart both campaigns are printed with their links
  await srv.restart();
  assert.deepEqual(srv.banner.campaigns.map((c) => c.id).sort(), [srv.campaignId, cr.result.campaign].sort());
  const printed = srv.campaign(cr.result.campaign);
  assert.equal(printed.name, 'The Heist');
  assert.equal(printed.joinCode, cr.result.join_code);
  const [g2, w2] = await srv.hello(printed.gmToken);
  assert.equal(w2.campaign.id, cr.result.campaign);
  await g2.close();
});

test('a host token printed at an earlier start keeps working', async (t) => {
  const srv = await startServer(t);
  const oldHost = srv.hostToken;
  const oldGm = srv.gmToken;
  await srv.restart();
  assert.notEqual(srv.hostToken, oldHost, 'a new host token per start');
  assert.notEqual(srv.gmToken, oldGm, 'a new GM token per start');
  for (const tok of [oldHost, oldGm, srv.hostToken, srv.gmToken]) {
    const [c, w] = await srv.hello(tok);
    assert.equal(w.t, 'welcome', w.raw);
    await c.close();
  }
});

test('a campaign name may be 80 characters, trimmed like every name (PROTOCOL.md)', async (t) => {
  const srv = await startServer(t);
  const [host] = await srv.hello(srv.hostToken);
  t.after(() => closeAll(host));
  const long = await host.cmd('campaign.create', { name: `  ${'é'.repeat(80)}  `, system: 'generic' });
  assert.equal(long.t, 'ack', long.raw);
  const list = await host.cmd('campaign.list');
  assert.ok(list.result.campaigns.some((c) => c.id === long.result.campaign && c.name === 'é'.repeat(80)), list.raw);
  const tooLong = await host.cmd('campaign.create', { name: 'é'.repeat(81), system: 'generic' });
  assert.equal(tooLong.code, 'bad_request', tooLong.raw);
});

test('every ready-made character of every system has a description a player can read before picking (issue 15, item 9)', async (t) => {
  const srv = await startServer(t);
  for (const system of ['cot', 'heimr', 'grimwire', 'tenacity', 'fivey']) {
    const r = await fetch(srv.url(`/samples/${system}`));
    assert.equal(r.status, 200);
    const { samples } = await r.json();
    assert.ok(samples.length > 0, `${system} has ready-made characters`);
    for (const s of samples) assert.ok(typeof s.sheet.notes === 'string' && s.sheet.notes.trim().length >= 10, `${system}/${s.file} has no description`);
  }
});
