// Table talk (PROTOCOL.md `chat.send`): Ann whispers the GM, rolls /gmroll, whispers Cyd, and the
// GM whispers Ann, then everyone talks in the open. Varied: what the whispers say and what the
// /gmroll rolls (same number of dice); Bob, who is in none of it, must not tell the runs apart.
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
