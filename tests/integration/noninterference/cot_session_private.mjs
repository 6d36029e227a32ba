// cot sessions (000:237; rules/RULES.md "Social Calls", reading 17) from another player's seat:
// at the beginning of a session Ann alters one of Vera's Loyalties — what it becomes is hers and
// the GM's (000:227) — and then Vera joins a Social Call, where the GM's copy of her Loyalties is
// the altered one. Varied: what Ann writes (a new Loyalty, or a swap with her Prime). Bob must
// not tell the runs apart: the table learns only that one of Vera's Loyalties changed.
import { sample } from '../enc_lib.mjs';

export const scenario = {
  name: 'cot session, a private alteration',
  system: 'cot',
  seed: 13,
  players: ['Ann', 'Bob'],
  observers: ['Bob'],
  variants: [
    { loyalty: 2, to: 'Desire: Revenge on the Police' },
    { loyalty: 3, prime: true },
  ],
  async script({ gm, p, char, ok }, v) {
    const vera = await char(p.Ann, { name: 'Vera Lockhart', sheet: sample('cot', 'vera_lockhart') });
    const tommy = await char(p.Bob, { name: 'Big Tommy Rourke', sheet: sample('cot', 'big_tommy_rourke') });
    await ok(gm, 'session.begin', {});
    await ok(p.Ann, 'session.alter', { char: vera, loyalty: v.loyalty, ...(v.to ? { to: v.to } : { prime: true }) });
    await ok(gm, 'enc.start', { module: 'cot.social' });
    await ok(gm, 'enc.add', { char: vera });
    await ok(gm, 'enc.add', { char: tommy });
    await ok(gm, 'enc.end', {});
  },
};
