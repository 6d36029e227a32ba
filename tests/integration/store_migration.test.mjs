// Saved databases keep working when storage gives each campaign a file of its own (issues 26 and
// 28): fixtures/store_v1.db was written by main 1b6115d in the single-file layout (every
// campaign's events, idempotency rows and snapshots in one file; made by
// fixtures/make_store_v1.mjs). Opening it splits it into PATH.campaigns/<id>.db — and then every
// link printed by the old server still works, a re-sent command id gets the very bytes of its
// old reply (ack or nack), the join code still joins, and each campaign's log replays to the live
// state. `tabled replay` reads such a file (a backup is one) without changing it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, startServer } from './lib.mjs';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const old = JSON.parse(fs.readFileSync(path.join(fixtures, 'store_v1.json'), 'utf8'));
const raw = (db, sql) => execFileSync('sqlite3', [db, sql], { encoding: 'utf8' }).trim();
const sha = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

test('a single-file database of 1b6115d is split into a file per campaign; links, replies and join codes keep working', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-split-'));
  fs.copyFileSync(path.join(fixtures, 'store_v1.db'), path.join(dir, 't.db'));
  const srv = await startServer(t, { dir, args: ['--rate-limit', '0'] });

  // the layout: one file per campaign, the host file without the campaigns' tables
  const ids = [old.first, old.campaign, old.cot.campaign].sort();
  assert.deepEqual(srv.banner.campaigns.map((c) => c.id).sort(), ids);
  assert.deepEqual(fs.readdirSync(`${srv.db}.campaigns`).filter((f) => f.endsWith('.db')).sort(), ids.map((id) => `${id}.db`));
  assert.equal(raw(srv.db, 'PRAGMA user_version'), '2');
  assert.equal(raw(srv.db, "SELECT count(*) FROM sqlite_master WHERE name IN ('events', 'snapshots')"), '0');
  assert.equal(raw(`${srv.db}.campaigns/${old.campaign}.db`, 'SELECT count(*) || max(seq) FROM events'), `${old.seq}${old.seq}`);

  // every old link: the GM's, the players', the host's; a removed seat's stays refused
  const [gm, gw] = await srv.hello(old.gm_token);
  const [ann, aw] = await srv.hello(old.ann.token);
  const [bob, bw] = await srv.hello(old.bob.token);
  t.after(() => Promise.all([gm.close(), ann.close(), bob.close()]));
  for (const w of [gw, aw, bw]) {
    assert.equal(w.t, 'welcome', w.raw);
    assert.equal(w.seq, old.seq);
  }
  assert.ok(gw.state.chars[old.char], 'the character is there');
  assert.equal(gw.state.seats[old.cy.seat], undefined, 'the removed seat stays removed');
  const [cy, cw] = await srv.hello(old.cy.token);
  t.after(() => cy.close());
  assert.equal(cw.t, 'error');
  assert.equal(cw.code, 'unauthorized');

  // re-sent ids get the very bytes of their old replies: acks (rebuilt from their events) and a nack
  for (const a of old.acks) {
    const seat = a.id.startsWith('gm') ? gm : ann;
    const again = await seat.cmd('roll', { expr: '1d4' }, a.id);
    assert.equal(again.raw, a.raw, a.id);
  }
  assert.equal((await ann.cmd('roll', { expr: '1d4' }, old.nack.id)).raw, old.nack.raw);
  assert.equal(gm.seq, old.seq, 'no re-sent id ran again');

  // the log goes on; the join code joins; a closed one does not
  const next = await ann.cmd('roll', { expr: '2d6' });
  assert.equal(next.seq, old.seq + 1);
  const dee = await srv.connect();
  t.after(() => dee.close());
  const j = await dee.join(old.join_code, 'Dee');
  assert.equal(j.welcome.campaign.id, old.campaign);

  // the host: its old token, a re-sent campaign.create (same campaign, a fresh GM token), the list
  const [host, hw] = await srv.hello(old.host_token);
  t.after(() => host.close());
  assert.equal(hw.t, 'welcome');
  const re = await host.cmd('campaign.create', { name: 'ignored', system: 'generic' }, old.host_create.id);
  assert.equal(re.result.campaign, old.campaign);
  const [gm2, gw2] = await srv.hello(re.result.gm_token);
  t.after(() => gm2.close());
  assert.equal(gw2.campaign.id, old.campaign);
  const list = (await host.cmd('campaign.list')).result.campaigns;
  const cot = list.find((c) => c.id === old.cot.campaign);
  assert.deepEqual(cot, { id: old.cot.campaign, name: 'Old heist', system: 'cot', seq: 3, seats: 1 });

  // each campaign's log replays to its live state
  await gm.ping();
  for (const c of srv.replay({ fromZero: true })) {
    if (c.campaign !== old.campaign) continue;
    assert.equal(c.seq, gm.seq);
    assert.deepEqual(c.state, (await srv.gmView(old.gm_token)).state);
  }

  // restarted: nothing is split again, everything is still there
  await srv.restart();
  const [gm3, gw3] = await srv.hello(old.gm_token);
  t.after(() => gm3.close());
  assert.equal(gw3.seq, old.seq + 2, 'the roll and Dee joining');
});

test('tabled replay reads a single-file database without changing it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-split-'));
  const file = path.join(dir, 'old.db');
  fs.copyFileSync(path.join(fixtures, 'store_v1.db'), file);
  const before = sha(file);
  const out = execFileSync(BIN, ['replay', '--db', file], { encoding: 'utf8' });
  const camps = out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  assert.equal(camps.length, 3);
  assert.equal(camps.find((c) => c.campaign === old.campaign).seq, old.seq);
  assert.equal(sha(file), before, 'the file is unchanged');
  assert.deepEqual(fs.readdirSync(dir), ['old.db'], 'nothing was written beside it');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a single-file database of main with the two counts (issue 27) is split too: its acks, history id and player seqs keep working', async (t) => {
  // fixtures/store_sec.db (fixtures/make_store_sec.mjs, main 653b1ca): idempotency rows hold a
  // player's ack with its player seq and the GM's with `entry`; tabled_meta the history id.
  const sec = JSON.parse(fs.readFileSync(path.join(fixtures, 'store_sec.json'), 'utf8'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-split-'));
  fs.copyFileSync(path.join(fixtures, 'store_sec.db'), path.join(dir, 't.db'));
  const srv = await startServer(t, { dir, args: ['--rate-limit', '0'] });
  assert.equal(raw(`${srv.db}.campaigns/${sec.campaign}.db`, 'SELECT max(seq) FROM events'), String(sec.seq));

  // the same history: a page open from before resumes from its player seq, not a fresh state
  const [gm, gw] = await srv.hello(sec.gm_token);
  const ann = await srv.connect();
  t.after(() => Promise.all([gm.close(), ann.close()]));
  assert.equal(gw.history, sec.history, 'the history id survives the split');
  assert.equal(gw.seq, sec.seq);
  const aw = await ann.hello(sec.ann_token, sec.player_seq, { history: sec.history });
  assert.equal(aw.t, 'welcome', aw.raw);
  assert.equal(aw.resume, true, `a resume, not a fresh state: ${aw.raw}`);
  assert.equal(aw.seq, sec.player_seq);

  // every re-sent id gets the bytes it got from main: the player seq in Ann's, entry in the GM's
  const send = async () => {
    for (const a of sec.acks) {
      const c = a.seat === 'gm' ? gm : ann;
      assert.equal((await c.cmd('roll', { expr: '1d4' }, a.id)).raw, a.raw, a.id);
    }
  };
  await send();
  await gm.ping();
  assert.equal(gm.seq, sec.seq, 'no re-sent id ran again');
  const next = await ann.cmd('roll', { expr: '2d6' });
  assert.equal(next.seq, sec.player_seq + 1, 'the player seq goes on from where main left it');

  // restarted: still the same replies, and the log replays to the live state
  await srv.restart();
  const [gm2] = await srv.hello(sec.gm_token);
  t.after(() => gm2.close());
  for (const a of sec.acks.filter((x) => x.seat === 'gm')) {
    assert.equal((await gm2.cmd('roll', { expr: '1d4' }, a.id)).raw, a.raw, a.id);
  }
  await gm2.ping();
  const replayed = srv.replay({ fromZero: true, campaign: sec.campaign })[0];
  assert.equal(replayed.seq, sec.seq + 1);
  assert.deepEqual(replayed.state, (await srv.gmView(sec.gm_token)).state);
});

test('a data directory of main 09e2d41 (one player seq for every player) keeps working with a seq per seat', async (t) => {
  // fixtures/seat_seq_v1*.db (fixtures/make_seat_seq_v1.mjs, main 09e2d41): its log holds
  // whispers and a handout for one seat, which moved every player's seq then. Every seat's seq
  // goes on from that shared count; pages left open before the whispers resume (the walk back
  // reads the old events as they were counted); from now on what one seat is told moves only its
  // own seq; also after kill -9.
  const v = JSON.parse(fs.readFileSync(path.join(fixtures, 'seat_seq_v1.json'), 'utf8'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-seatseq-'));
  fs.copyFileSync(path.join(fixtures, 'seat_seq_v1.db'), path.join(dir, 't.db'));
  fs.mkdirSync(path.join(dir, 't.db.campaigns'));
  fs.copyFileSync(path.join(fixtures, 'seat_seq_v1.campaign.db'), path.join(dir, 't.db.campaigns', `${v.campaign}.db`));
  const srv = await startServer(t, { dir, args: ['--rate-limit', '0'] });
  const open = [];
  t.after(() => Promise.all(open.map((c) => c.close())));
  const hello = async (token, last) => {
    const [c, w] = await srv.hello(token, last);
    open.push(c);
    assert.equal(w.t, 'welcome', w.raw);
    return [c, w];
  };
  const [gm, gw] = await hello(v.gm_token);
  assert.equal(gw.seq, v.seq);
  assert.equal(gw.history, v.history);
  const players = ['ann', 'bob'];
  const fresh = {};
  for (const p of players) {
    fresh[p] = (await hello(v[p].token))[1];
    assert.equal(fresh[p].seq, v.player_seq, `${p}: the seq goes on from the shared count`);
  }
  const resumeAll = async (what) => {
    const out = {};
    for (const p of players) {
      const [c, w] = await srv.resume(v[p].token, v.before[p], { name: `${p} ${what}` });
      open.push(c);
      assert.equal(w.resume, true, `${p} ${what}: a resume, ${w.raw}`);
      await c.ping();
      assert.deepEqual(c.state, (await hello(v[p].token))[1].state, `${p} ${what}: resumed == fresh`);
      out[p] = c;
    }
    return out;
  };
  const live = await resumeAll('from before the whispers');

  // now: the GM whispers Ann; Bob's seq does not move, the next public diff is his seq + 1
  // (ids of their own: the fixture's GM used c1, c2, ... and a re-sent id gets its old reply)
  assert.equal((await gm.cmd('chat.send', { text: 'psst', to: v.ann.seat }, 'after-1')).t, 'ack');
  const pub = await gm.cmd('chat.send', { text: 'Night falls.' }, 'after-2');
  assert.equal(pub.entry, v.player_seq + 1, "the public message's number");
  for (const c of Object.values(live)) await c.ping();
  assert.equal(live.bob.seq, v.player_seq + 1, 'Bob: only the public message');
  assert.equal(live.ann.seq, v.player_seq + 2, 'Ann: the whisper and the public message');
  assert.equal(pub.result.id, `m${v.player_seq + 1}`);
  // the handout main showed Ann alone (its key then: "s<shared count>") is taken back as before
  const [hid] = Object.keys(gm.state.gm.handouts);
  assert.equal((await gm.cmd('handout.hide', { id: hid }, 'after-3')).t, 'ack');
  for (const c of Object.values(live)) await c.ping();
  assert.deepEqual(live.ann.state.private[v.ann.seat].handouts, {});
  assert.equal(live.ann.seq, v.player_seq + 3, 'Ann: the hiding too');
  assert.equal(live.bob.seq, v.player_seq + 1, 'Bob: nothing more');

  // kill -9: the same resumes from before the whispers, and from the seqs just reached
  const reached = { ann: { seq: live.ann.seq, state: live.ann.state, history: v.history }, bob: { seq: live.bob.seq, state: live.bob.state, history: v.history } };
  await srv.kill('SIGKILL');
  await Promise.all(open.splice(0).map((c) => c.close()));
  await srv.restart();
  await resumeAll('after kill -9');
  for (const p of players) {
    const [c, w] = await srv.resume(v[p].token, reached[p]);
    open.push(c);
    assert.equal(w.resume, true, w.raw);
    assert.equal(w.seq, reached[p].seq);
  }
});
