// heimr.combat: an NPC's readied action other than an attack (001:248-250). What the bandit
// readies and its trigger are the GM's (RULES.md, "What the table sees (heimr)"): the table
// reads that he readies an action and, when it fires, that he acts just before Astrid. Varied:
// the trigger and the action the GM wrote. Until issue 23 the firing line said both in public.
import { sample } from '../enc_lib.mjs';

const bandit = {
  name: 'Bandit',
  attributes: { str: 1, dex: -2, sta: 1, int: 0, soc: 0, emp: 0 },
  hp: 3,
  hp_max: 3,
  willpower: 1,
  willpower_max: 1,
  fatigue: 3,
};

export const scenario = {
  name: 'heimr.combat readied action',
  system: 'heimr',
  seed: 4,
  players: ['Ann'],
  variants: [
    { trigger: 'Astrid reaches for the door', action: 'throw sand in her eyes' },
    { trigger: 'the horn sounds twice', action: 'run for the stables' },
  ],
  async script({ gm, p, act, char, ok }, v) {
    const astrid = await char(p.Ann, { name: 'Astrid Ironhand', sheet: sample('heimr', 'astrid_ironhand') });
    const b = await char(gm, { name: 'Bandit', npc: true, sheet: bandit });
    await ok(gm, 'enc.start', { module: 'heimr.combat' });
    const A = (await ok(gm, 'enc.add', { char: astrid })).id;
    const B = (await ok(gm, 'enc.add', { char: b })).id;
    await act(gm, 'begin');
    const cur = async () => (await gm.ping(), gm.state.enc.order[gm.state.enc.turn]);
    const endUntil = async (id) => {
      for (let c = await cur(); c !== id; c = await cur()) await act(c === B ? gm : p.Ann, 'end_turn', {}, c);
    };
    await endUntil(B);
    await act(gm, 'ready', { trigger: v.trigger, action: v.action }, B);
    await act(gm, 'end_turn', {}, B);
    await endUntil(A);
    await act(gm, 'trigger', { target: A }, B);
  },
};
