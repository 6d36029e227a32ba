// Campaigns as shards behind nginx (issue 28 items 2, 3, 6): three tabled processes (--shard a,
// b, c) and a real nginx running deploy/nginx-tabled-shards.conf on 127.0.0.1. Through it, 30
// campaigns are opened (10 from each process's console), each with a GM and a player over wss;
// every request of a campaign (its WebSocket, its GM's /api/join) reaches exactly one process,
// the one its id names, and its file is in that process's data alone. Then process b is killed
// with -9: the campaigns of a and c go on as if nothing happened (their sockets stay open, their
// rolls are answered), b's come back when it restarts and their pages resume where they were.
// Process a keeps the database of a single tabled of before (fixtures/store_sec.db, written by
// main 653b1ca): its links, without a key, keep working through the router, and so do they with
// the campaign's key. The second test moves a campaign live from b to c while its pages roll
// (issue 28 item 4): campaign.release on b, tabled export / import, the map line and a reload.
//
// Skipped, with the reason, where nginx or openssl is missing (deploy/install-deps test).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { BIN, Client, closeAll, repoRoot, sleep, tryHandshake } from './lib.mjs';
import { get, skipNginx as skip } from './nginx.mjs';
import { routeCampaign, startRouter, startShards } from './shards.mjs';

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

// A page of the live move: it rolls, one command after another, each with a new id; the command
// not yet acknowledged stays in its outbox. When its socket is told `moved` or closes, it
// reconnects through the router with backoff, says hello with its last seq (its replica resumes)
// and sends the outbox again with the same id, as web-static/js/conn.js does.
class MovePage {
  constructor(name, token, connect) {
    this.name = name;
    this.token = token;
    this.connect = connect; // () => a new Client through the router
    this.client = null;
    this.acks = new Map(); // id -> the ack's raw text (the first one received)
    this.n = 0;
    this.moved = 0; // errors `moved` seen
    this.refused = 0; // handshakes the router or a process refused meanwhile
    this.welcomes = [];
    this.stop = false;
  }

  async open() {
    for (let attempt = 0; ; attempt++) {
      let c;
      try {
        c = await this.connect(`${this.name}#${attempt}`);
      } catch {
        this.refused++;
        await sleep(Math.min(1000, 50 * 2 ** attempt));
        continue;
      }
      if (this.client) c.adopt(this.client);
      const w = await c.hello(this.token, this.client ? this.client.seq : undefined).catch((e) => ({ t: 'closed', e }));
      if (w.t === 'welcome') {
        this.client = c;
        this.welcomes.push(w);
        return;
      }
      if (w.t === 'error') assert.equal(w.code, 'moved', `${this.name}: ${w.raw}`);
      if (w.t === 'error') this.moved++;
      await c.close();
      await sleep(Math.min(1000, 50 * 2 ** attempt));
    }
  }

  async run() {
    await this.open();
    while (!this.stop) {
      const id = `${this.name}-${this.n}`;
      for (;;) {
        const seen = this.client.msgs.length;
        try {
          const r = await this.client.cmd('roll', { expr: '1d6' }, id);
          assert.equal(r.t, 'ack', `${this.name}: ${r.raw}`);
          this.acks.set(id, r.raw);
          break;
        } catch (e) {
          if (e.code === 'ERR_ASSERTION') throw e;
          if (this.client.msgs.slice(seen).some((m) => m.t === 'error' && m.code === 'moved')) this.moved++;
          await this.open(); // the socket is gone: resume elsewhere, then the same id again
        }
      }
      this.n++;
    }
  }
}

test('a campaign moved live from b to c under load: nothing acked is lost, nothing is applied twice', { skip, timeout: 600000 }, async (t) => {
  const servers = await startShards(t, ['a', 'b', 'c'], { args: ['--rate-limit', '0'] });
  const [, b, c] = servers;
  const proxy = await startRouter(t, servers);
  const { ca, origin } = proxy;
  const ws = (key) => `wss://127.0.0.1:${proxy.httpsPort}/c/${key}/ws`;

  // two campaigns on b: the one that moves, and one that stays
  const host = await b.connect({ url: ws('b'), ca, origin, name: 'host-b' });
  assert.equal((await host.hello(b.hostToken)).t, 'welcome');
  const made = [];
  for (const name of ['moving', 'staying']) {
    const r = await host.cmd('campaign.create', { name, system: 'generic' });
    assert.equal(r.t, 'ack', r.raw);
    made.push(r.result);
  }
  const [mv, stay] = made;
  const X = mv.campaign;
  // the staying table: a GM socket that must never notice
  const stayGm = await b.connect({ url: ws(stay.campaign), ca, origin, name: 'stay-gm' });
  assert.equal((await stayGm.hello(stay.gm_token)).t, 'welcome');

  // the moving table: its GM and seven players, each a page rolling as fast as it is answered
  const tokens = [['gm', mv.gm_token]];
  for (const name of ['Ann', 'Bob', 'Cyd', 'Dee', 'Eve', 'Fay', 'Gus']) {
    const p = await b.connect({ url: ws(X), ca, origin, name: `join-${name}` });
    const j = await p.join(mv.join_code, name);
    assert.ok(j.joined, JSON.stringify(j.error));
    tokens.push([name, j.joined.token]);
    await p.close();
  }
  const pages = tokens.map(([name, token]) => new MovePage(name, token, (n) => Client.connect(null, { url: ws(X), ca, origin, name: n })));
  const running = pages.map((p) => p.run());
  const until = async (what, pred, ms = 60000) => {
    const end = Date.now() + ms;
    while (!pred()) {
      if (Date.now() > end) assert.fail(`timed out waiting for ${what}: ${pages.map((p) => `${p.name} ${p.acks.size} acks, ${p.moved} moved`).join('; ')}`);
      await sleep(20);
    }
  };
  await until('10 acks per page on b', () => pages.every((p) => p.acks.size >= 10));

  // 1. the old owner lets it go: its pages are told `moved` and keep retrying (the map still says b)
  const rel = await host.cmd('campaign.release', { campaign: X, to: 'c' });
  assert.equal(rel.t, 'ack', rel.raw);
  assert.deepEqual(rel.result, { campaign: X, moved: true, to: 'c' });
  await until('every page told moved', () => pages.every((p) => p.moved >= 1));
  // (an ack comes before the `moved` on its socket: every ack of b has arrived by now)
  const ackedOnB = new Map(pages.map((p) => [p.name, new Map(p.acks)]));
  await sleep(500); // they keep knocking at b meanwhile, and b keeps saying moved
  assert.deepEqual(pages.map((p) => p.acks.size), [...ackedOnB.values()].map((m) => m.size), 'nothing is acknowledged while the campaign is between owners');
  // b, asked directly: a hello, a join and the GM's join links all say moved (the page keeps its token)
  const direct = await b.connect({ name: 'direct' });
  const dw = await direct.hello(mv.gm_token);
  assert.equal(dw.t, 'error', dw.raw);
  assert.equal(dw.code, 'moved');
  assert.doesNotMatch(dw.message, /moved|_/, 'the message is for a person');
  assert.equal((await direct.waitClosed()).code, 1012);
  const dj = await (await b.connect({ name: 'direct-join' })).join(mv.join_code, 'Late');
  assert.equal(dj.error?.code, 'moved', JSON.stringify(dj));
  const dapi = await get(b.url(`/c/${X}/api/join`), undefined, { authorization: `Bearer ${mv.gm_token}` });
  assert.equal(dapi.status, 421, dapi.body);
  assert.equal(JSON.parse(dapi.body).error.code, 'moved');
  const list = await host.cmd('campaign.list', {});
  assert.deepEqual(list.result.campaigns.filter((k) => k.moved).map((k) => [k.id, k.moved]), [[X, 'c']]);
  // a second release is acknowledged again; an unknown campaign is not found
  assert.equal((await host.cmd('campaign.release', { campaign: X })).t, 'ack');
  const nf = await host.cmd('campaign.release', { campaign: 'b-cnothere00' });
  assert.equal(nf.code, 'not_found', nf.raw);

  // 2. export from b, import into c (both running), 3. the map line and a reload
  const file = path.join(b.dir, `${X}.json`);
  execFileSync(BIN, ['export', '--db', b.db, '--campaign', X, '--out', file]);
  execFileSync(BIN, ['import', '--db', c.db, file]);
  routeCampaign(proxy, X, 'c');

  // 4. every page resumes on c, sends its outbox again, and goes on
  const before = new Map(pages.map((p) => [p.name, p.acks.size]));
  await until('10 more acks per page on c', () => pages.every((p) => p.acks.size >= before.get(p.name) + 10));
  for (const p of pages) p.stop = true;
  await Promise.all(running);

  // the staying table never noticed
  assert.equal(stayGm.closeInfo, null);
  const sr = await stayGm.cmd('roll', { expr: '1d4' });
  assert.equal(sr.t, 'ack', sr.raw);

  // every acknowledged command is in c's file exactly once, and nothing else is: an event keeps
  // its command's id, except a GM's whose ack carried an `entry`, which the import keeps as a
  // reply of its own (storage/export.c, import__split_idem)
  const ids = (sql) => c.sqliteCampaign(X, sql).split('\n').filter(Boolean);
  const rows = [...ids("SELECT cmd_id FROM events WHERE op = 'roll' AND cmd_id IS NOT NULL"), ...ids('SELECT cmd_id FROM replies')];
  const rolls = Number(c.sqliteCampaign(X, "SELECT count(*) FROM events WHERE op = 'roll'"));
  const acked = pages.flatMap((p) => [...p.acks.keys()]);
  assert.equal(rows.length, new Set(rows).size, 'no command applied twice');
  assert.deepEqual([...rows].sort(), [...acked].sort(), 'every acknowledged command, once');
  assert.equal(rolls, acked.length, 'one event per acknowledged command');
  // and b's copy stopped at the release: every command it acknowledged, nothing after
  const onB = b.sqliteCampaign(X, "SELECT cmd_id FROM events WHERE op = 'roll' AND cmd_id IS NOT NULL").split('\n').filter(Boolean);
  for (const [name, m] of ackedOnB) for (const id of m.keys()) assert.ok(onB.includes(id), `${name}'s ${id} acked by b is in b's file`);
  assert.equal(Number(b.sqliteCampaign(X, "SELECT count(*) FROM events WHERE op = 'roll'")), [...ackedOnB.values()].reduce((n, m) => n + m.size, 0), 'b applied exactly what it acknowledged');
  assert.ok(onB.every((id) => rows.includes(id)));

  for (const p of pages) {
    // it was told moved, and resumed on c from where it was (no fresh state needed)
    assert.ok(p.moved >= 1, `${p.name} was told moved`);
    const last = p.welcomes.at(-1);
    assert.equal(last.campaign.id, X);
    // its replica is c's state for its seat (a pong comes after every diff sent before it)
    await p.client.ping();
    const fresh = await Client.connect(null, { url: ws(X), ca, origin, name: `${p.name}-check` });
    const fw = await fresh.hello(p.token);
    assert.equal(fw.t, 'welcome', fw.raw);
    assert.deepEqual(p.client.state, fw.state, `${p.name}'s page resumed with nothing lost`);
    // a command b acknowledged, re-sent to c, gets b's very ack
    const [id, raw] = [...ackedOnB.get(p.name)].at(-1);
    const again = await fresh.cmd('roll', { expr: '1d6' }, id);
    assert.equal(again.raw, raw, `${p.name}: a re-sent command gets its original ack`);
    await closeAll(fresh, p.client);
  }
  assert.equal(Number(c.sqliteCampaign(X, "SELECT count(*) FROM events WHERE op = 'roll'")), rolls, 'the re-sent commands changed nothing');

  // the operator's tool does the four steps in one go: b's other table goes to a
  const out = execFileSync(path.join(repoRoot, 'deploy', 'move-campaign'), [stay.campaign, 'b', 'a',
    '--from-url', b.wsUrl('/c/b/ws'), '--from-db', b.db, '--to-db', servers[0].db, '--map', proxy.conf,
    '--reload', `kill -HUP ${proxy.pid}`, '--tabled', BIN], { encoding: 'utf8', env: { ...process.env, TABLED_HOST_TOKEN: b.hostToken } });
  assert.match(out, /^4\/4 /m, out);
  assert.equal((await stayGm.waitFor((m) => m.t === 'error')).code, 'moved');
  await stayGm.waitClosed();
  const stayPage = new MovePage('stay', stay.gm_token, (n) => Client.connect(null, { url: ws(stay.campaign), ca, origin, name: n }));
  stayPage.client = stayGm;
  await stayPage.open();
  const sr2 = await stayPage.client.cmd('roll', { expr: '1d4' }, sr.id);
  assert.equal(sr2.raw, sr.raw, 'the staying table, now on a, answers a re-sent id as b did');
  await stayPage.client.close();

  t.diagnostic(`moved: ${pages.map((p) => `${p.name} ${ackedOnB.get(p.name).size} acks on b + ${p.acks.size - ackedOnB.get(p.name).size} on c, told moved ${p.moved}x, ${p.refused} refused handshakes, ${p.welcomes.length} welcomes`).join('; ')}`);
  await closeAll(host);
  await sleep(300); // nginx writes a WebSocket's log line when it closes
  // after the reload, X's sockets went to c; before it, to b; nothing else ever served it
  const portOf = { b: `127.0.0.1:${b.port}`, c: `127.0.0.1:${c.port}` };
  const mine = proxy.accessLog().filter((l) => l.uri.startsWith(`/c/${X}/`));
  assert.ok(mine.some((l) => l.upstream === portOf.c), 'X reached c after the move');
  // (eight pages knocking from one address meet the recipe's 10 handshakes a second: nginx answers
  // 429 itself, upstream '-', and the page tries again — no process served those)
  const byNginx = (l) => l.status === 429 && l.upstream === '-';
  assert.deepEqual(mine.filter((l) => l.upstream !== portOf.b && l.upstream !== portOf.c && !byNginx(l)), []);

  // b, restarted, still says moved (the release is kept) and prints no link of X
  const printed = b.stdout.length;
  await b.restart();
  assert.ok(!b.stdout.slice(printed).includes(X), 'no link of the moved campaign at start');
  const after = await b.connect({ name: 'after-restart' });
  assert.equal((await after.hello(mv.gm_token)).code, 'moved');
  await after.waitClosed();
});
