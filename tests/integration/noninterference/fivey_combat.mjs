// fivey.combat: what a player sees of a zombie. Varied: the wisdom the GM gives it for surprise,
// the "power" it contests initiative with, the damage the GM deals it by hand, the DC of its
// morale check, and a note; every outcome Vesper sees (she wins the surprise, loses initiative,
// the zombie keeps order) is the same. Its defense class and hit points differ too (Vesper hits
// it, and it stands, either way). Then a ghoul joins as a mook or a grunt: its save against
// Vesper's Lightning Bolt (d20 + 1 or + 2, issue 17) is the GM's, and so is whether that bonus
// mattered; the table sees the same save outcome and damage.
import { sample } from '../enc_lib.mjs';

export const scenario = {
  name: 'fivey.combat',
  system: 'fivey',
  seed: 2,
  players: ['Ann'],
  variants: [
    { defense: 12, hp: 11, wis: 0, harm: 2, opp: 2, dc: 8, note: 'the zombie was the mayor', ghoul: 'M' },
    { defense: 13, hp: 14, wis: 1, harm: 3, opp: 3, dc: 9, note: 'the zombie was the baker', ghoul: 'G' },
  ],
  async script({ gm, p, act, char, ok }, v) {
    const vesperChar = await char(p.Ann, { name: 'Vesper', sheet: sample('fivey', 'vesper') });
    await ok(gm, 'enc.start', { module: 'fivey.combat' });
    const vesper = (await ok(gm, 'enc.add', { char: vesperChar })).id;
    const zombie = (await ok(gm, 'enc.add', { npc: { name: 'Zombie' } })).id;
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${zombie}/note`, value: v.note });
    await act(gm, 'bracket', { target: zombie, bracket: 'G', dc: v.defense, hp: v.hp });
    await act(gm, 'surprise', { wis: v.wis });
    await act(p.Ann, 'attack', { target: zombie });
    await act(p.Ann, 'end');
    await act(gm, 'harm', { target: zombie, amount: v.harm });
    await act(gm, 'initiative', { opp: v.opp });
    await act(gm, 'attack', { target: vesper }, zombie);
    await act(gm, 'morale', { side: 'foes', dc: v.dc });
    await act(gm, 'spawn', { name: 'Ghoul', bracket: v.ghoul, dc: 12, hp: 30 });
    await act(gm, 'end', {}, zombie);
    await act(p.Ann, 'cast', { spell: 'Lightning Bolt', target: 'e3' }, vesper);
  },
};
