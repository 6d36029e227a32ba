// heimr.chase: what a player sees of an old man chasing Astrid (001:300-306). Varied: his hit
// points (a chase does not use them) and his notes. His fatigue and Agility decide whether he
// gains on her or drops out, which the table sees, so they do not vary.
import { sample } from '../enc_lib.mjs';

export const scenario = {
  name: 'heimr.chase',
  system: 'heimr',
  seed: 3,
  players: ['Ann', 'Bob'],
  variants: [
    { hp: 4, notes: 'knows the back alleys' },
    { hp: 7, notes: 'owes Astrid a debt' },
  ],
  async script({ gm, p, char, ok }, v) {
    const astrid = await char(p.Ann, { name: 'Astrid Ironhand', sheet: sample('heimr', 'astrid_ironhand') });
    const g = await char(gm, { name: 'Old Gunnar', npc: true, sheet: { ...sample('heimr', 'old_gunnar'), hp: v.hp, hp_max: v.hp, notes: v.notes } });
    await ok(gm, 'enc.start', { module: 'heimr.chase', options: { ability: 'Agility', target_side: 'party', distance: 2 } });
    const A = (await ok(gm, 'enc.add', { char: astrid })).id;
    const G = (await ok(gm, 'enc.add', { char: g, side: 'foes' })).id;
    const act = (who, action, actor, params) => ok(who, 'enc.act', { action, ...(actor ? { actor } : {}), ...(params ? { params } : {}) });
    await act(gm, 'begin');
    await act(p.Ann, 'run', A);
    await act(gm, 'run', G);
  },
};
