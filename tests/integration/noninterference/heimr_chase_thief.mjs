// heimr.chase with an NPC as the target (001:300-306): Astrid chases a thief. The thief's
// Agility and every roll he makes are the GM's (RULES.md, heimr.chase, "What the table sees"):
// the table reads that he runs on, how many squares Astrid gains or loses and who drops out.
// Varied: his trained Agility potential (his totals, the number Astrid's rolls are compared
// with; the seed is one where her squares come out the same: she keeps pace, falls behind,
// gains) and his notes. The GM offers him other ground (001:306), which he turns down.
import { sample } from '../enc_lib.mjs';

const thief = (v) => ({
  name: 'Thief',
  attributes: { str: 0, dex: 2, sta: 3, int: 0, soc: 0, emp: 0 },
  hp: 4,
  hp_max: 4,
  willpower: 1,
  willpower_max: 1,
  fatigue: 1,
  abilities: [{ name: 'Agility', attributes: ['dex'], base_consistency: 1, trained_potential: v.agility }],
  notes: v.notes,
});

export const scenario = {
  name: 'heimr.chase, an NPC target',
  system: 'heimr',
  seed: 17,
  players: ['Ann'],
  variants: [
    { agility: 0, notes: 'stole the mayor\'s seal' },
    { agility: 1, notes: 'stole a loaf' },
  ],
  async script({ gm, p, act, char, ok }, v) {
    const astrid = await char(p.Ann, { name: 'Astrid Ironhand', sheet: sample('heimr', 'astrid_ironhand') });
    const t = await char(gm, { name: 'Thief', npc: true, sheet: thief(v) });
    await ok(gm, 'enc.start', { module: 'heimr.chase', options: { ability: 'Agility', target_side: 'foes', distance: 3 } });
    const A = (await ok(gm, 'enc.add', { char: astrid })).id;
    const T = (await ok(gm, 'enc.add', { char: t, side: 'foes' })).id;
    await act(gm, 'begin');
    for (let i = 0; i < 3; i++) {
      await act(gm, 'run', {}, T);
      await act(p.Ann, 'run', {}, A);
      if (i === 0) {
        await act(gm, 'offer', { ability: 'Climbing' });
        await act(gm, 'choose', { take: false }, T);
      }
    }
  },
};
