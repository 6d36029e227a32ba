// Table talk (PROTOCOL.md `chat.send`): Ann whispers the GM, rolls /gmroll, whispers Cyd, and the
// GM whispers Ann, then everyone talks in the open. Varied: what the whispers say and what the
// /gmroll rolls (same number of dice); Bob, who is in none of it, must not tell the runs apart.
// What this proves is the content of a whisper, not its existence: both runs whisper as often.
// Whether a whisper happened at all is not varied here, because a player's seq counts every event
// some player sees (protocol/PROTOCOL.md, "Two counts"): Ann's whisper to the GM moves Bob's count
// too, so Bob's next diff shows a jump of one. TODO (issue 29, "a whisper's existence reaches only
// its audience"): a seq per player seat; noninterference.test.mjs holds that case as `todo`.
export const scenario = {
  name: 'whispers and a roll for the GM',
  system: 'heimr',
  seed: 29,
  players: ['Ann', 'Bob', 'Cyd'],
  observers: ['Bob'],
  variants: [
    { toGm: 'meet me behind the inn', roll: '1d20', toCyd: 'watch the door', fromGm: 'the duke lies' },
    { toGm: 'I am the killer, tell nobody', roll: '1d20+5', toCyd: 'grab the ledger', fromGm: 'a trap below' },
  ],
  async script({ gm, p, ok }, v) {
    await ok(p.Ann, 'chat.send', { text: v.toGm, to: 'gm' });
    await ok(p.Ann, 'chat.send', { text: `/gmroll ${v.roll}` });
    await ok(p.Ann, 'chat.send', { text: `/w Cyd ${v.toCyd} [[1d6]]` });
    await ok(gm, 'chat.send', { text: `/w Ann ${v.fromGm}` });
    await ok(gm, 'chat.send', { text: 'Night falls on the city.' });
    await ok(p.Bob, 'chat.send', { text: 'I keep watch [[1d20]]' });
  },
};
