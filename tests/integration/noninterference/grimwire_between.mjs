// grimwire.between: the GM's numbers for a build (002:53, 002:344, 002:356) are the GM's, in the
// scene (/gm/enc) and while they wait between two scenes (/gm/between). Varied: the MND and COR
// target numbers of Aune's build (1 or 2: any d20 + her MND 2 and COR 1 meets both, so the dice
// and the quality stay), given once and used in the next scene after a fight, and a GM note.
import { sample } from '../enc_lib.mjs';

export const scenario = {
  name: 'grimwire.between',
  system: 'grimwire',
  seed: 8,
  players: ['Ann', 'Bob'],
  variants: [
    { mnd: 1, cor: 1, note: 'the lockpicks are trapped' },
    { mnd: 2, cor: 2, note: 'the lockpicks are fine' },
  ],
  async script({ gm, p, act, char, ok }, v) {
    const cyrus = await char(p.Ann, { name: 'Cyrus', sheet: sample('grimwire', 'cyrus') });
    const aune = await char(p.Bob, { name: 'Aune', sheet: sample('grimwire', 'aune') });
    await ok(gm, 'enc.start', { module: 'grimwire.between' });
    const eC = (await ok(gm, 'enc.add', { char: cyrus })).id;
    let eA = (await ok(gm, 'enc.add', { char: aune })).id;
    await act(gm, 'set_build', { target: eA, mnd_tn: v.mnd, cor_tn: v.cor });
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${eA}/note`, value: v.note });
    await act(p.Ann, 'short_rest', {}, eC);
    await ok(gm, 'enc.end', {}); // the numbers wait under /gm/between
    await ok(gm, 'enc.start', { module: 'grimwire.conflict' });
    await ok(gm, 'enc.add', { char: aune });
    await ok(gm, 'enc.set', { path: '/enc/round', value: 2 });
    await ok(gm, 'enc.end', {});
    await ok(gm, 'enc.start', { module: 'grimwire.between' });
    eA = (await ok(gm, 'enc.add', { char: aune })).id;
    await act(p.Bob, 'craft', { item: 'Lockpick set' }, eA); // with the numbers kept for her
    await act(gm, 'next_day');
    await ok(gm, 'enc.end', {});
  },
};
