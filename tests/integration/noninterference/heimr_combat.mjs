// heimr.combat: what a player sees of a bandit. Varied: his willpower (the potential of his
// initiative: he acts last either way), his hit points (bloodied after two hits either way) and
// his notes. His pre-rolled defence is open (001:446) and does not vary. Issue 17: the C/P the GM
// gives his grab (the brawl attack's bind, 001:401) and his Brawl, which is the requirement
// Liesbeth's break-free must reach (001:407), vary too; that she is held, and whether she gets
// free, do not.
import { sample } from '../enc_lib.mjs';

const bandit = (v) => ({
  name: 'Bandit',
  attributes: { str: 1, dex: -2, sta: 1, int: 0, soc: 0, emp: 0 },
  hp: v.hp,
  hp_max: v.hp,
  willpower: v.willpower,
  willpower_max: v.willpower,
  fatigue: 3,
  abilities: [
    { name: 'Axe fighting', attributes: ['str'], base_consistency: 1, trained_consistency: 1 },
    { name: 'Brawl', attributes: ['str'], base_consistency: 0, trained_potential: v.brawl },
  ],
  notes: v.notes,
});

export const scenario = {
  name: 'heimr.combat',
  system: 'heimr',
  seed: 5,
  players: ['Ann', 'Bob'],
  variants: [
    { hp: 2, willpower: 1, notes: 'paid by the mayor', grabP: 20, brawl: 0 },
    { hp: 3, willpower: 2, notes: 'paid by the abbot', grabP: 21, brawl: 1 },
  ],
  async script({ gm, p, char, ok }, v) {
    const astrid = await char(p.Ann, { name: 'Astrid Ironhand', sheet: sample('heimr', 'astrid_ironhand') });
    const lies = await char(p.Bob, { name: 'Liesbeth van Dam', sheet: sample('heimr', 'liesbeth_van_dam') });
    const b = await char(gm, { name: 'Bandit', npc: true, sheet: bandit(v) });
    await ok(gm, 'enc.start', { module: 'heimr.combat' });
    const A = (await ok(gm, 'enc.add', { char: astrid })).id;
    const L = (await ok(gm, 'enc.add', { char: lies })).id;
    const B = (await ok(gm, 'enc.add', { char: b })).id;
    const act = (who, action, actor, params) => ok(who, 'enc.act', { action, actor, params });
    await act(gm, 'begin');
    await act(p.Ann, 'ready', A, { trigger: 'the bandit moves toward Liesbeth', target: B, item: 'Longsword', damage: 2 });
    await act(p.Ann, 'end_turn', A, { defence: 'block', item: 'Medium shield' });
    await act(p.Bob, 'attack', L, { target: B, item: 'Bow', ranged: true, damage: 1 });
    await act(p.Bob, 'end_turn', L, {});
    await act(gm, 'act', B, { type: 'free', what: 'moves toward Liesbeth' });
    await act(p.Ann, 'trigger', A, { target: B });
    await act(gm, 'attack', B, { target: L, ability: 'Axe fighting', damage: 2 });
    await act(gm, 'end_turn', B, {});
    // issue 17: Liesbeth guards Astrid; the bandit's grab meets Liesbeth instead (001:450); she
    // tries to break free against his Brawl (001:407)
    const cur = async () => (await gm.ping(), gm.state.enc.order[gm.state.enc.turn]);
    const whose = (c) => (c === B ? gm : c === A ? p.Ann : p.Bob);
    const endUntil = async (id) => {
      for (let c = await cur(); c !== id; c = await cur()) await act(whose(c), 'end_turn', c, {});
    };
    await endUntil(L);
    await act(p.Bob, 'guard', L, { target: A });
    await act(p.Bob, 'end_turn', L, {});
    await endUntil(B);
    await act(gm, 'attack', B, { target: A, brawl: true, bind: true, c: 6, p: v.grabP });
    await act(gm, 'end_turn', B, {});
    await endUntil(L);
    await act(p.Bob, 'break_free', L, {});
  },
};
