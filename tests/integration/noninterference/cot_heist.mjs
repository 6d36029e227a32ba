// cot.heist (issue 16): what a player sees of a Spot the GM prepared. Varied: the Hidden zone's
// name and rating (40 or 45: the crew's search, at most 18, finds it in neither run, 000:208),
// the porter's Lookout (his Awareness, 000:197: Vera walks in openly, so no roll meets it,
// 000:177), the office door's Security Score (30 or 35: Vera's Lockpicking, at most 18, fails
// either way, 000:188-189) and the clerk behind it, whom nobody sees. The same dice are drawn in
// both runs.
export const scenario = {
  name: 'cot.heist',
  system: 'cot',
  seed: 16,
  players: ['Ann', 'Bob'],
  variants: [
    { cellar: 'Smugglers cellar', rating: 40, lookout: 1, score: 30, clerk: 'Clerk Amsel' },
    { cellar: 'Old crypt', rating: 45, lookout: 2, score: 35, clerk: 'Clerk Brandt' },
  ],
  async script({ gm, p, char, ok }, v) {
    const ada = await char(p.Ann, {
      name: 'Ada Quill',
      sheet: { name: 'Ada Quill', abilities: { muscle: 1, fingers: 2, brains: 3, it: 2 }, skills: { planning: 3 } },
    });
    const vera = await char(p.Bob, {
      name: 'Vera Lockhart',
      sheet: { name: 'Vera Lockhart', abilities: { muscle: 1, fingers: 3, brains: 2, it: 2 }, skills: { lockpicking: 3 } },
    });
    const act = (who, action, actor, params) => ok(who, 'enc.act', { action, ...(actor ? { actor } : {}), ...(params ? { params } : {}) });
    await ok(gm, 'enc.start', { module: 'cot.heist' });
    const A = (await ok(gm, 'enc.add', { char: ada })).id;
    const V = (await ok(gm, 'enc.add', { char: vera })).id;
    await act(gm, 'zone', null, { id: 'yard', name: 'Loading yard', edge: 1 });
    await act(gm, 'zone', null, { id: 'office', name: 'Counting office' });
    await act(gm, 'zone', null, { id: 'cellar', name: v.cellar, tags: 'hidden', rating: v.rating });
    await act(gm, 'barrier', null, { id: 'gate', from: 'outside', to: 'yard', tag: 'none' });
    await act(gm, 'barrier', null, { id: 'door', from: 'yard', to: 'office', tag: 'lock', score: v.score });
    await act(gm, 'barrier', null, { id: 'trap', from: 'office', to: 'cellar', tag: 'structure', score: 12 });
    await act(gm, 'guard', null, { id: 'g1', name: 'Porter Hobb', zone: 'yard', brains: 2, lookout: v.lookout });
    await act(gm, 'guard', null, { id: 'g2', name: v.clerk, zone: 'office', brains: 3, lookout: 2 });
    await act(gm, 'reveal', null, { zone: 'yard' });
    await act(gm, 'reveal', null, { zone: 'office' });
    await act(p.Ann, 'research', A, { goal: 'hidden', method: 'planning' });
    await act(p.Bob, 'move', V, { zone: 'yard', stealth: 0 });
    await act(p.Bob, 'bypass', V, { barrier: 'door' });
  },
};
