// cot: a PC's Loyalties are their player's and the GM's (000:227; rules/RULES.md, "What the table
// sees (cot)"). Varied: Vera's Loyalties (Ann's); Bob, another player, must not tell the runs
// apart — while Ann edits her sheet, and while Vera fights.
import { sample } from '../enc_lib.mjs';

const vera = (loyalties) => ({ ...sample('cot', 'vera_lockhart'), loyalties });

export const scenario = {
  name: 'cot Loyalties',
  system: 'cot',
  seed: 5,
  players: ['Ann', 'Bob'],
  observers: ['Bob'],
  variants: [
    [{ kind: 'Devoted', target: 'Crew', prime: true }, { kind: 'Hated', target: 'Police', prime: false }],
    [{ kind: 'Desire', target: 'Gold', prime: true }],
  ],
  async script({ gm, p, char, ok }, loyalties) {
    const v = await char(p.Ann, { name: 'Vera Lockhart', sheet: vera(loyalties) });
    const t = await char(p.Bob, { name: 'Big Tommy Rourke', sheet: sample('cot', 'big_tommy_rourke') });
    await ok(p.Ann, 'char.update', { id: v, sheet: { ...vera(loyalties), foresight: 2 } });
    await ok(gm, 'char.update', { id: v, sheet: { ...vera(loyalties), reputation: 3 } });
    await ok(gm, 'enc.start', { module: 'cot.warfare' });
    await ok(gm, 'enc.add', { char: v });
    await ok(gm, 'enc.add', { char: t });
    await ok(gm, 'enc.end', {});
  },
};
