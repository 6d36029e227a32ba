// grimwire.between: a player's build waiting for the GM's numbers (issue 24 item 2). Aune (Bob)
// builds with no numbers set: the build waits (the GM's question: which numbers, in /gm/enc), and
// the GM's one answer rolls it. Varied: the numbers of the answer (1 or 2: any d20 + her MND 2 and
// COR 1 meets both, so the dice and the quality stay) and whether the GM had set a COR number
// before (then the answer gives MND only): every player must see the same frames, the same wait
// and the same moves.
import { sample } from '../enc_lib.mjs';

export const scenario = {
  name: 'grimwire.between: a build waiting for the GM',
  system: 'grimwire',
  seed: 8,
  players: ['Ann', 'Bob'],
  variants: [
    { mnd: 1, cor: 1, before: false },
    { mnd: 2, cor: 2, before: true },
  ],
  async script({ gm, p, act, char, ok }, v) {
    const cyrus = await char(p.Ann, { name: 'Cyrus', sheet: sample('grimwire', 'cyrus') });
    const aune = await char(p.Bob, { name: 'Aune', sheet: sample('grimwire', 'aune') });
    await ok(gm, 'enc.start', { module: 'grimwire.between' });
    const eC = (await ok(gm, 'enc.add', { char: cyrus })).id;
    const eA = (await ok(gm, 'enc.add', { char: aune })).id;
    // (not `act`: it asks every player's moves after, frames the other run would not have)
    if (v.before) await ok(gm, 'enc.act', { action: 'set_build', params: { target: eA, cor_tn: v.cor } });
    await act(p.Bob, 'craft', { item: 'Lockpick set' }, eA); // waits for the GM
    await act(p.Ann, 'short_rest', {}, eC);
    await act(gm, 'answer', v.before ? { mnd_tn: v.mnd } : { mnd_tn: v.mnd, cor_tn: v.cor });
    await act(gm, 'next_day');
    await ok(gm, 'enc.end', {});
  },
};
