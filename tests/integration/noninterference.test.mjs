// Secrecy by construction, proven (issue 11): every encounter module's scenario in
// ./noninterference/ runs twice with different GM-only inputs, and every player socket must
// receive the same bytes both times (the harness: ./noninterference.mjs).
import { test } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertNonInterference } from './noninterference.mjs';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'noninterference');
const only = process.env.NONINTERFERENCE_ONLY; // a scenario's file name, to run one while writing it

for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.mjs')).sort()) {
  if (only && !file.startsWith(only)) continue;
  const { scenario } = await import(path.join(dir, file));
  const who = scenario.observers ? `${scenario.observers.join(' and ')} sees the same bytes whatever another seat keeps private` : "players see the same bytes whatever the GM's secrets";
  test(`non-interference: ${scenario.name}: ${who}`, (t) =>
    assertNonInterference(t, scenario));
}

// A GM's secret action must not even show that it happened: a seat whose view did not change
// receives nothing (the engine sends no frame to a seat whose filtered diff is empty).
const secretRoll = {
  name: 'a secret roll by the GM',
  system: 'fivey',
  seed: 3,
  players: ['Ann'],
  variants: [{ secret: false }, { secret: true }],
  async script({ gm, ok }, v) {
    await ok(gm, 'roll', { expr: '1d20' });
    if (v.secret) await ok(gm, 'roll', { expr: '1d20+3', secret: true });
  },
};
test('non-interference: a secret roll by the GM sends the players nothing', (t) =>
  assertNonInterference(t, secretRoll));

// The same, followed by a public change (a rename: no dice, whose stream a secret roll shifts
// under --seed, though not unpredictably in production): the next diff's seq does not count the
// secret roll either, so the table cannot tell that the GM did something in between. A player's
// seq counts only the events that change what players see (issue 27 item 11; server/playerseq.h).
const secretThenPublic = {
  ...secretRoll,
  name: 'a secret roll by the GM, then a public change',
  async script(ctx, v) {
    await secretRoll.script(ctx, v);
    await ctx.ok(ctx.gm, 'campaign.rename', { name: 'After the roll' });
  },
};
test('non-interference: the seq of the next public diff does not count a secret roll', (t) =>
  assertNonInterference(t, secretThenPublic));

// And the numbers inside what players see: a public roll's log entry carries a seq (and, under
// the test clock, a time made from it) that must not count the secret roll before it.
const secretThenRoll = {
  ...secretRoll,
  name: 'a secret roll by the GM, then a public roll',
  variants: [{ secret: false }, { secret: true }],
  async script({ gm, p, ok }, v) {
    await ok(gm, 'roll', { expr: '1d20' });
    if (v.secret) await ok(gm, 'gm.set', { key: 'plan', value: 'ambush at dawn' }); // no dice
    await ok(p.Ann, 'roll', { expr: '1d20' });
  },
};
test('non-interference: a public log entry after a GM secret does not count it', (t) =>
  assertNonInterference(t, secretThenRoll));

// The GM's own /gmroll is read by the GM alone (/gm/chat): it sends the players nothing and the
// next public message's seq and id do not count it (its id is "g<campaign seq>", PROTOCOL.md
// `chat.send`). The message after it has no dice (a /gmroll shifts the seeded stream).
const gmRollThenTalk = {
  ...secretRoll,
  name: "the GM's /gmroll, then a public message",
  players: ['Ann', 'Bob'],
  async script({ gm, p, ok }, v) {
    await ok(p.Ann, 'chat.send', { text: 'who goes first?' });
    if (v.secret) await ok(gm, 'chat.send', { text: '/gmroll 1d20+2' });
    await ok(gm, 'chat.send', { text: 'Night falls on the city.' });
    await ok(p.Bob, 'chat.send', { text: 'I keep watch' });
  },
};
test("non-interference: the GM's /gmroll does not show in the players' seqs or ids", (t) =>
  assertNonInterference(t, gmRollThenTalk));

// Whether a whisper happened at all (issue 29: "a whisper's content and its existence reach only
// its audience"): each player seat has its own seq, counting only the diffs it receives, and a
// public message's id is the public count (PROTOCOL.md "Two counts"), so Ann's whisper to the GM
// moves nothing of Bob's: not his seq, not the next message's id.
const whisperThenTalk = {
  name: 'a whisper to the GM or none, then a public message',
  system: 'heimr',
  seed: 29,
  players: ['Ann', 'Bob'],
  observers: ['Bob'],
  variants: [{ whisper: false }, { whisper: true }],
  async script({ gm, p, ok }, v) {
    await ok(p.Ann, 'chat.send', { text: 'who goes first?' });
    if (v.whisper) await ok(p.Ann, 'chat.send', { text: 'meet me behind the inn', to: 'gm' });
    await ok(gm, 'chat.send', { text: 'Night falls on the city.' });
  },
};

// The same for a whisper between two other players (Ann to Cyd, and Cyd's answer), for a roll
// Ann keeps for the GM (/gmroll), and for the GM's whisper to Ann: Bob sees none of it.
const whispersAroundBob = {
  name: 'whispers among the others or none, then public talk',
  system: 'heimr',
  seed: 29,
  players: ['Ann', 'Bob', 'Cyd'],
  observers: ['Bob'],
  variants: [{ whisper: false }, { whisper: true }],
  async script({ gm, p, ok }, v) {
    await ok(p.Bob, 'chat.send', { text: 'who goes first?' });
    if (v.whisper) {
      await ok(p.Ann, 'chat.send', { text: '/w Cyd watch the door [[1d6]]' });
      await ok(p.Cyd, 'chat.send', { text: '/w Ann done' });
      await ok(p.Ann, 'chat.send', { text: '/gmroll 1d4' });
      await ok(gm, 'chat.send', { text: '/w Ann the duke lies' });
    }
    await ok(gm, 'chat.send', { text: 'Night falls on the city.' });
    await ok(p.Bob, 'chat.send', { text: 'I keep watch' });
  },
};
test('non-interference: whispers among the others do not show in his seq or ids', (t) =>
  assertNonInterference(t, whispersAroundBob));

// A handout shown to Bob alone, or not at all (issue 29): Ann's seq and the ids she reads (the
// key of a handout shown to everyone next) do not move with it.
const handoutToBob = {
  name: 'a handout shown to Bob alone or not, then one to everyone',
  system: 'cot',
  seed: 31,
  players: ['Ann', 'Bob'],
  observers: ['Ann'],
  variants: [{ show: false }, { show: true }],
  async script({ gm, seat, ok }, v) {
    const bob = (await ok(gm, 'handout.add', { title: 'A letter for Bob', text: 'Meet me at the docks' })).id;
    const map = (await ok(gm, 'handout.add', { title: 'The city map', text: 'Streets and sewers' })).id;
    if (v.show) await ok(gm, 'handout.show', { id: bob, to: [seat.Bob] });
    await ok(gm, 'handout.show', { id: map });
    if (v.show) await ok(gm, 'handout.hide', { id: bob });
    await ok(gm, 'handout.hide', { id: map });
    await ok(gm, 'handout.show', { id: map, to: [seat.Ann] });
  },
};
test('non-interference: a handout shown to Bob alone does not show in Ann\'s seq or ids', (t) =>
  assertNonInterference(t, handoutToBob));

// A handout shown to Ann alone or to Ann and Bob: Ann reads the same bytes (her copy's key names
// only her seat, not who else was shown it: the GM's `to`).
const handoutToAnnOrBoth = {
  name: 'a handout shown to Ann, or to Ann and Bob',
  system: 'cot',
  seed: 31,
  players: ['Ann', 'Bob'],
  observers: ['Ann'],
  variants: [{ both: false }, { both: true }],
  async script({ gm, seat, ok }, v) {
    const letter = (await ok(gm, 'handout.add', { title: 'A letter', text: 'Meet me at the docks' })).id;
    await ok(gm, 'handout.show', { id: letter, to: v.both ? [seat.Ann, seat.Bob] : [seat.Ann] });
    await ok(gm, 'handout.hide', { id: letter });
  },
};
test('non-interference: who else a handout is shown to does not show in Ann\'s copy', (t) =>
  assertNonInterference(t, handoutToAnnOrBoth));

test('non-interference: a whisper Bob is not in does not show in his seq', (t) =>
  assertNonInterference(t, whisperThenTalk));
