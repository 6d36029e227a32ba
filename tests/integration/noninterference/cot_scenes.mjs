// Scenes at once (issue 13): a second scene's GM-only numbers change nothing a player receives.
// The first scene is Tommy's social call; beside it (scene s2) a constable chases Vera. Varied:
// the constable's Cover Score (the GM's, 000:146; a Close does not use it), set through the second
// scene's real GM path, and his notes. The table plays in both scenes.
import { sample } from '../enc_lib.mjs';

const COP = (notes) => ({
  name: 'Constable Pike',
  abilities: { muscle: 3, fingers: 2, brains: 1, it: 1 },
  skills: { athletics: 2, resist: 1 },
  notes,
});

export const scenario = {
  name: 'cot scenes',
  system: 'cot',
  seed: 7,
  players: ['Ann', 'Bob'],
  variants: [
    { cover: 4, notes: 'on the take' },
    { cover: 9, notes: 'honest to a fault' },
  ],
  async script({ gm, p, char, ok }, v) {
    const vera = await char(p.Ann, { name: 'Vera Lockhart', sheet: sample('cot', 'vera_lockhart') });
    const tommy = await char(p.Bob, { name: 'Big Tommy Rourke', sheet: sample('cot', 'big_tommy_rourke') });
    const pike = await char(gm, { name: 'Constable Pike', sheet: COP(v.notes), npc: true });
    await ok(gm, 'enc.start', { module: 'cot.social' });
    await ok(gm, 'enc.add', { char: tommy });
    await ok(gm, 'enc.add', { npc: { name: 'The Fence' }, side: 'fence' });
    await ok(gm, 'enc.start', { module: 'cot.chase', scene: 'new', options: { target_side: 'party', distance: 2 } });
    const V = (await ok(gm, 'enc.add', { scene: 's2', char: vera })).id;
    const P = (await ok(gm, 'enc.add', { scene: 's2', char: pike, side: 'law' })).id;
    await ok(gm, 'enc.set', { path: `/gm/scenes/s2/combatants/${P}/stats/cover`, value: v.cover });
    const act = (who, scene, action, actor, params) =>
      ok(who, 'enc.act', { scene, action, ...(actor ? { actor } : {}), ...(params ? { params } : {}) });
    await act(gm, 'enc', 'begin');
    await act(gm, 's2', 'begin');
    await act(gm, 's2', 'close', P, { target: V });
    await act(p.Ann, 's2', 'accelerate', V);
    await ok(gm, 'enc.end', { scene: 's2' });
  },
};
