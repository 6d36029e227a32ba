// A GRIMWIRE player's check that waits for the GM's hidden target number (issue 15, item 5):
// what the GM answers (TN 2 or 3, both met by any d20 + 2) never reaches the players; they see
// the roll wait, then its outcome.
export const scenario = {
  name: 'grimwire: a check waiting for the target number',
  system: 'grimwire',
  seed: 3,
  players: ['Ann', 'Bob'],
  variants: [{ tn: 2 }, { tn: 3 }],
  async script({ gm, p, ok }, v) {
    const asked = await ok(p.Ann, 'roll.check', { check: 'check', params: { attr: 2 } });
    await ok(gm, 'roll.answer', { ask: asked.asked, params: { tn: v.tn } });
  },
};
