// Campaigns as shards behind nginx (issue 28 items 2, 3, 6): three tabled processes (--shard a,
// b, c) and a real nginx running deploy/nginx-tabled-shards.conf on 127.0.0.1. Through it, 30
// campaigns are opened (10 from each process's console), each with a GM and a player over wss;
// every request of a campaign (its WebSocket, its GM's /api/join) reaches exactly one process,
// the one its id names, and its file is in that process's data alone. Then process b is killed
// with -9: the campaigns of a and c go on as if nothing happened (their sockets stay open, their
// rolls are answered), b's come back when it restarts and their pages resume where they were.
// Process a keeps the database of a single tabled of before (fixtures/store_sec.db, written by
// main 653b1ca): its links, without a key, keep working through the router, and so do they with
// the campaign's key.
//
// Skipped, with the reason, where nginx or openssl is missing (deploy/install-deps test).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeAll, sleep, tryHandshake } from './lib.mjs';
import { get, skipNginx as skip } from './nginx.mjs';
import { startRouter, startShards } from './shards.mjs';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const old = JSON.parse(fs.readFileSync(path.join(fixtures, 'store_sec.json'), 'utf8'));

test('three processes behind nginx: 30 campaigns, each on one process; kill -9 of one; links of before', { skip, timeout: 600000 }, async (t) => {
  const dirA = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-shard-a-'));
  fs.copyFileSync(path.join(fixtures, 'store_sec.db'), path.join(dirA, 't.db'));
  const servers = await startShards(t, ['a', 'b', 'c'], { args: ['--rate-limit', '0'], dirs: { a: dirA } });
  const byName = Object.fromEntries(servers.map((s) => [s.shard, s]));
  const proxy = await startRouter(t, servers);
  const { ca, origin } = proxy;
  const ws = (key) => (key ? `wss://127.0.0.1:${proxy.httpsPort}/c/${key}/ws` : `wss://127.0.0.1:${proxy.httpsPort}/ws`);
  // each table from an address of its own, as players are: the recipe's limits are per address
  let peers = 0;
  const peer = () => `127.0.${1 + Math.floor(peers / 250)}.${1 + (peers++ % 250)}`;
  const through = (srv, key, name, localAddress) => srv.connect({ url: ws(key), ca, origin, name, localAddress });

  // each process prints its console with its own key; a's links of before stay as they were
  for (const s of servers) assert.match(s.stdout, new RegExp(`^console link: http://127\\.0\\.0\\.1:\\d+/c/${s.shard}/#host=\\S+$`, 'm'));
  // a campaign of before gets links with its key too (the map's default sends them to a)
  assert.match(byName.a.stdout, /^GM link: http:\/\/127\.0\.0\.1:\d+\/c\/c[0-9a-z]{9}\/#token=\S+$/m);

  // 30 campaigns: 10 from each process's console, reached through the router by its key
  const camps = [];
  for (const s of servers) {
    const host = await through(s, s.shard, `host-${s.shard}`, peer());
    const hw = await host.hello(s.hostToken);
    assert.equal(hw.t, 'welcome', hw.raw);
    assert.equal(hw.seat.role, 'host');
    for (let i = 0; i < 10; i++) {
      const r = await host.cmd('campaign.create', { name: `${s.shard} table ${i}`, system: 'generic' });
      assert.equal(r.t, 'ack', r.raw);
      assert.match(r.result.campaign, new RegExp(`^${s.shard}-c[0-9a-z]{9}$`), 'the id names its process');
      camps.push({ id: r.result.campaign, shard: s.shard, gmToken: r.result.gm_token, code: r.result.join_code, from: peer() });
    }
    await host.close();
  }
  assert.equal(new Set(camps.map((c) => c.id)).size, 30);

  // a GM and a player at each, through the router; a roll each; the GM's invite names the key
  for (const c of camps) {
    c.gm = await through(byName[c.shard], c.id, `gm-${c.id}`, c.from);
    const gw = await c.gm.hello(c.gmToken);
    assert.equal(gw.t, 'welcome', gw.raw);
    assert.equal(gw.campaign.id, c.id);
    c.player = await through(byName[c.shard], c.id, `p-${c.id}`, c.from);
    const j = await c.player.join(c.code, 'Ann');
    assert.ok(j.joined, JSON.stringify(j.error));
    c.playerToken = j.joined.token;
    const r = await c.player.cmd('roll', { expr: '2d6' });
    assert.equal(r.t, 'ack', r.raw);
    await c.gm.waitSeq(r.seq);
    const invite = await get(`https://127.0.0.1:${proxy.httpsPort}/c/${c.id}/api/join`, ca, { authorization: `Bearer ${c.gmToken}` }, c.from);
    assert.equal(invite.status, 200, invite.body);
    assert.equal(JSON.parse(invite.body).links[0].url, `https://127.0.0.1:${proxy.httpsPort}/c/${c.id}/#join=${c.code}`);
  }
  // the page at a campaign's path is the page (any process serves it)
  const page = await get(`https://127.0.0.1:${proxy.httpsPort}/c/${camps[0].id}/`, ca);
  assert.equal(page.status, 200);
  assert.match(page.body, /<html/i);

  // each campaign's file is in its own process's data and no other's
  for (const c of camps)
    for (const s of servers)
      assert.equal(fs.existsSync(`${s.db}.campaigns/${c.id}.db`), s.shard === c.shard, `${c.id} in ${s.shard}'s data`);
  // a process asked directly for another's campaign says so (421), it does not serve it
  const wrong = await tryHandshake(byName.b.wsUrl(`/c/${camps.find((c) => c.shard === 'a').id}/ws`));
  assert.equal(wrong.status, 421);

  // kill -9 of b: a's and c's tables never notice; b's come back when it restarts
  const rest = camps.filter((c) => c.shard !== 'b');
  const bs = camps.filter((c) => c.shard === 'b');
  const seqBefore = new Map(bs.map((c) => [c.id, c.gm.seq]));
  await byName.b.kill('SIGKILL');
  await Promise.all(bs.map((c) => c.gm.closed));
  for (const c of rest) {
    const r = await c.player.cmd('roll', { expr: '1d20' });
    assert.equal(r.t, 'ack', r.raw);
    await c.gm.waitSeq(r.seq);
  }
  const down = await tryHandshake(ws(bs[0].id), { ca, origin });
  assert.equal(down.status, 502, 'b\'s campaign is refused while b is down, never sent elsewhere');
  await byName.b.restart();
  for (const c of bs) {
    const gm = await through(byName.b, c.id, `gm2-${c.id}`, c.from);
    gm.adopt(c.gm);
    const w = await gm.hello(c.gmToken, c.gm.seq);
    assert.equal(w.t, 'welcome', w.raw);
    assert.equal(w.seq, seqBefore.get(c.id), 'b\'s campaign is where it was');
    const p = await through(byName.b, c.id, `p2-${c.id}`, c.from);
    const pw = await p.hello(c.playerToken);
    assert.equal(pw.t, 'welcome', pw.raw);
    const r = await p.cmd('roll', { expr: '1d8' });
    assert.equal(r.t, 'ack', r.raw);
    await gm.waitSeq(r.seq);
    await closeAll(c.gm, c.player);
    c.gm = gm;
    c.player = p;
  }
  for (const c of rest) assert.equal(c.gm.closeInfo, null, `${c.id}'s GM socket stayed open`);
  for (const c of rest) assert.equal(c.player.closeInfo, null, `${c.id}'s player socket stayed open`);

  // links of before the shards (a's database from main 653b1ca): without a key, and with one
  for (const url of [ws(null), ws(old.campaign)]) {
    for (const token of [old.gm_token, old.ann_token]) {
      const cl = await byName.a.connect({ url, ca, origin });
      const w = await cl.hello(token);
      assert.equal(w.t, 'welcome', `${url}: ${w.raw}`);
      assert.equal(w.campaign.id, old.campaign);
      await cl.close();
    }
  }
  const oldCode = byName.a.campaign(old.campaign).joinCode;
  const late = await byName.a.connect({ url: ws(null), ca, origin });
  const lj = await late.join(oldCode, 'Late');
  assert.ok(lj.joined, JSON.stringify(lj.error));
  await late.close();
  const oldInvite = await get(`https://127.0.0.1:${proxy.httpsPort}/api/join`, ca, { authorization: `Bearer ${byName.a.campaign(old.campaign).gmToken}` });
  assert.equal(oldInvite.status, 200, oldInvite.body);

  await closeAll(camps.flatMap((c) => [c.gm, c.player]));
  await sleep(300); // nginx writes a WebSocket's log line when it closes

  // every request of a campaign went to the process its id names, and only there
  const portOf = Object.fromEntries(servers.map((s) => [s.shard, `127.0.0.1:${s.port}`]));
  const log = proxy.accessLog();
  for (const c of camps) {
    const mine = log.filter((l) => l.uri.startsWith(`/c/${c.id}/ws`) || l.uri.startsWith(`/c/${c.id}/api/`));
    assert.ok(mine.length >= (c.shard === 'b' ? 5 : 3), `${c.id}: ${mine.length} requests logged`);
    const wrongPlace = mine.filter((l) => l.upstream !== portOf[c.shard] && !(l.status === 502 && c.shard === 'b'));
    assert.deepEqual(wrongPlace, [], `${c.id} reached only ${c.shard}`);
  }
  // the keyless links of before went to a
  const keyless = log.filter((l) => l.uri === '/ws' || l.uri === '/api/join');
  assert.ok(keyless.length >= 4);
  for (const l of keyless) assert.equal(l.upstream, portOf.a);
});
