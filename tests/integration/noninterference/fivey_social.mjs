// fivey.social: what a player sees of a village's hidden reaction. Varied: the disposition the
// GM picks (uncertain or friendly, 004:653-658), the villagers' wisdom and the DC of their morale
// check (the same margin), and a note. Every outcome the table sees is the same: the GM decided
// the reaction, Vesper's request for help succeeds and is granted (an uncertain village is
// persuaded, a friendly one helps anyway), the villagers keep order. The reveal is not played:
// once revealed, the disposition is the table's.
import { sample } from '../enc_lib.mjs';

export const scenario = {
  name: 'fivey.social',
  system: 'fivey',
  seed: 4,
  players: ['Ann', 'Bob'],
  variants: [
    { disposition: 'uncertain', wis: 0, dc: 8, note: 'the elder owes the baron' },
    { disposition: 'friendly', wis: 1, dc: 9, note: 'the elder hates the baron' },
  ],
  async script({ gm, p, act, char, ok }, v) {
    const vesperChar = await char(p.Ann, { name: 'Vesper', sheet: sample('fivey', 'vesper') });
    const brunChar = await char(p.Bob, { name: 'Brunhild', sheet: sample('fivey', 'brunhild') });
    await ok(gm, 'enc.start', { module: 'fivey.social' });
    const vesper = (await ok(gm, 'enc.add', { char: vesperChar })).id;
    await ok(gm, 'enc.add', { char: brunChar });
    const elder = (await ok(gm, 'enc.add', { npc: { name: 'Commoner elder', side: 'villagers' } })).id;
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${elder}/note`, value: v.note });
    await act(gm, 'reaction', { disposition: v.disposition });
    await act(gm, 'talker', { target: vesper });
    await act(gm, 'terms', { ask: 'help' });
    await act(p.Ann, 'request', { what: 'Shelter for the night', skill: 'Deception' }, vesper);
    await act(gm, 'morale', { wis: v.wis, dc: v.dc });
  },
};
