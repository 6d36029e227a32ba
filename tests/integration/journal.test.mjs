// The journal of the evening (PROTOCOL.md `journal.export`, issue 29 item 4): the log and the
// table talk as Markdown and as a standalone HTML page, for one audience. The players' version
// holds none of the GM's bytes (an NPC's name and numbers, a secret roll, a player's /gmroll, a
// whisper to another seat, GM log lines) while the GM's has them all; a seat's version holds its
// own private parts and no other seat's; a player may ask only for their own; and, run twice with
// different GM-only inputs (the non-interference harness), the players' journal and everything
// a player's socket receives — their own journal with it — are the same bytes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar } from './enc_lib.mjs';
import { assertNonInterference } from './noninterference.mjs';

const npcSheet = (name, muscle) => ({
  name,
  abilities: { muscle, fingers: 1, brains: 2, it: 2 },
  skills: { size_up: 1 },
  loyalties: [{ kind: 'Devoted', target: 'The Syndicate', prime: true }],
});

/** Every version of the journal client may ask for, as {md, html}. */
async function journal(client, args) {
  const md = await ok(client, 'journal.export', { ...args, format: 'md' });
  const html = await ok(client, 'journal.export', { ...args, format: 'html' });
  assert.equal(md.format, 'md');
  assert.match(md.filename, /\.md$/);
  assert.match(html.filename, /\.html$/);
  return { md: md.text, html: html.text };
}

test('journal: the players\' version holds no GM byte, a seat\'s no other seat\'s, the GM\'s everything', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0', '--seed', '5'] });
  const { gm, players } = await campaignOf(srv, t, 'cot', ['Ann', 'Bob']);
  const [ann, bob] = players.map((p) => p.client);
  await ok(gm, 'session.begin', {});
  await ok(ann, 'chat.send', { text: 'before ZZ-SESSION-ONE' });
  await ok(gm, 'session.begin', {});
  // the GM's secrets
  const npc = await makeChar(gm, { name: 'Zzgrask the Fence', sheet: npcSheet('Zzgrask the Fence', 4), npc: true });
  assert.ok(npc);
  await ok(gm, 'roll.check', { check: 'pool', params: { skill: 3, ability: 2 }, label: 'Zzgrask watches', secret: true });
  await ok(gm, 'roll', { expr: '1d20+4242', secret: true });
  await ok(gm, 'chat.send', { text: '/w Bob ZZ-GM-TO-BOB the fence lies' });
  const gmroll = await ok(bob, 'chat.send', { text: '/gmroll 1d1000+90000' });
  // Ann's own
  await ok(ann, 'chat.send', { text: 'ZZ-ANN-TO-GM I am the killer', to: 'gm' });
  // the table's
  await ok(ann, 'chat.send', { text: 'ZZ-PUBLIC we go in at midnight [[1d6]] <script>alert(1)</script> & *stars*' });
  await ok(bob, 'roll', { expr: '2d6+1' });
  await gm.ping();
  const bobsRoll = gm.state.gm.chat.find((m) => m.id === gmroll.id).rolls[0].total;
  assert.ok(bobsRoll > 90000);

  const gmOnly = ['Zzgrask', '4242', String(bobsRoll), '1d1000+90000', 'ZZ-GM-TO-BOB', 'GM only'];
  const annOnly = ['ZZ-ANN-TO-GM'];
  const bobOnly = ['ZZ-GM-TO-BOB', '1d1000+90000'];
  const publicBits = ['ZZ-PUBLIC', '2d6+1', 'Session 2', 'Ann', 'Bob'];

  const versions = {
    players: await journal(gm, { audience: 'players' }),
    gm: await journal(gm, {}),
    annByGm: await journal(gm, { audience: players[0].seat }),
    ann: await journal(ann, {}),
    bob: await journal(bob, {}),
  };
  assert.deepEqual(versions.ann, versions.annByGm, "Ann's journal is the same whoever asks for it");
  for (const [name, v] of Object.entries(versions))
    for (const [fmt, text] of Object.entries(v)) {
      const has = (s) => text.includes(s);
      for (const s of publicBits) assert.ok(has(s), `${name} ${fmt}: has the public ${s}`);
      const mine = { ann: annOnly, annByGm: annOnly, bob: bobOnly, gm: [...gmOnly, ...annOnly], players: [] }[name];
      for (const s of new Set([...gmOnly, ...annOnly, ...bobOnly]))
        assert.equal(has(s), mine.includes(s), `${name} ${fmt}: ${mine.includes(s) ? 'misses' : 'holds'} ${s}`);
    }
  // Bob sees that he rolled for the GM, never the number
  assert.match(versions.bob.md, /rolled 1d1000\+90000 for the GM/);
  // the GM's version: the check's numbers, the whisper, the secret roll
  assert.match(versions.gm.md, /Zzgrask watches \(Skill 3, Ability 2\)/);

  // The HTML page: standalone, escaped, no script, a policy that would refuse one anyway.
  for (const v of Object.values(versions)) {
    assert.match(v.html, /^<!DOCTYPE html>/);
    assert.match(v.html, /<style>/);
    assert.match(v.html, /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"/);
    assert.doesNotMatch(v.html, /<script/i);
    assert.ok(v.html.includes('&lt;script&gt;alert(1)&lt;/script&gt; &amp; *stars*'));
    assert.ok(v.md.includes('\\<script\\>alert(1)\\</script\\> & \\*stars\\*'), 'Markdown is escaped');
  }

  // This session: from the latest session.begin
  const now = await journal(gm, { audience: 'players', scope: 'session' });
  assert.ok(now.md.includes('ZZ-PUBLIC') && !now.md.includes('ZZ-SESSION-ONE'));
  assert.ok(versions.players.md.includes('ZZ-SESSION-ONE'));
  assert.match(now.md, /_Session 2, as the players saw it/);

  // A player's journal is their own; bad arguments are refused with words
  await refused(ann, 'journal.export', { audience: 'players' }, 'forbidden');
  await refused(ann, 'journal.export', { audience: 'gm' }, 'forbidden');
  await refused(ann, 'journal.export', { audience: players[1].seat }, 'forbidden');
  await refused(gm, 'journal.export', { audience: 'p99' }, 'not_found');
  await refused(gm, 'journal.export', { format: 'pdf' }, 'bad_request');
  await refused(gm, 'journal.export', { scope: 'week' }, 'bad_request');
});

test('journal: no session yet is refused for "this session", the whole campaign still exports', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm } = await campaignOf(srv, t, 'cot', ['Ann']);
  await refused(gm, 'journal.export', { scope: 'session' }, 'rule', /no session/);
  const r = await ok(gm, 'journal.export', {});
  assert.match(r.text, /Nothing was said or rolled yet/);
});

// Non-interference: the GM's secrets vary (an NPC's name and numbers, a secret roll, a secret
// check, a whisper to Bob, Bob's /gmroll), keeping the dice drawn the same; Ann's socket — her
// own journal with it — and the players' journal the GM exports must not tell the runs apart.
const exported = new Map(); // variant -> {players: [text], gm: [text]}
const scenario = {
  name: 'journal of the evening',
  system: 'cot',
  seed: 29,
  players: ['Ann', 'Bob'],
  observers: ['Ann'],
  variants: [
    { npc: 'Zzgrask the Fence', muscle: 4, stats: { skill: 3, ability: 2 }, secret: '1d20+3', gmroll: '1d20', toBob: 'the fence lies' },
    { npc: 'Lady Morrow', muscle: 1, stats: { skill: 2, ability: 3 }, secret: '1d20+9', gmroll: '1d20+5', toBob: 'a trap below, tell nobody' },
  ],
  async script({ gm, p, ok: step, char }, v) {
    const out = { players: [], gm: [] };
    exported.set(v, out);
    await step(gm, 'session.begin', {});
    await char(p.Ann, { name: 'Vera Lockhart', sheet: sample('cot', 'vera_lockhart') });
    await char(gm, { name: v.npc, sheet: npcSheet(v.npc, v.muscle), npc: true });
    await step(p.Ann, 'chat.send', { text: 'We go in at midnight [[1d6]]' });
    await step(gm, 'roll', { expr: v.secret, secret: true });
    await step(gm, 'roll.check', { check: 'pool', params: v.stats, label: `${v.npc.split(' ')[0]} watches`, secret: true });
    await step(p.Bob, 'chat.send', { text: `/gmroll ${v.gmroll}` });
    await step(gm, 'chat.send', { text: `/w Bob ${v.toBob}` });
    await step(p.Ann, 'roll', { expr: '2d6' });
    await step(gm, 'chat.send', { text: 'The clock strikes twelve.' });
    for (const format of ['md', 'html']) {
      await step(p.Ann, 'journal.export', { format });
      await step(p.Ann, 'journal.export', { format, scope: 'session' });
      out.players.push((await step(gm, 'journal.export', { audience: 'players', format })).text);
      out.gm.push((await step(gm, 'journal.export', { format })).text);
    }
  },
};

test('journal: changing what the GM alone knows changes no byte of the players\' journal', async (t) => {
  await assertNonInterference(t, scenario);
  const [a, b] = scenario.variants.map((v) => exported.get(v));
  assert.equal(a.players.length, 2);
  assert.deepEqual(a.players, b.players, "the players' journal tells the runs apart");
  assert.ok(a.players[0].includes('We go in at midnight'));
  assert.notDeepEqual(a.gm, b.gm, "the GM's journal shows the secrets that changed");
  assert.ok(a.gm[0].includes('Zzgrask') && b.gm[0].includes('Lady watches'));
});
