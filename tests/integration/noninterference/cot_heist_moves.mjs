// cot.heist's moves (issue 23): what each player is offered to do in a Spot, after every action
// (the harness's act asks enc.moves for every player). The crew knows the yard and the office;
// the GM's plan also holds a vault behind the office, its door, and a guard. Varied: the vault's
// name, rating and whether it is Hazardous, the door's tag and Security Score, the guards'
// Lookout and the office door's Security (Vera fails it either way, 000:188-189). What the crew
// may do — where to move, which barrier to work at, what to research — must not tell them apart.
// The same dice are drawn in both runs.
export const scenario = {
  name: 'cot.heist, the moves',
  system: 'cot',
  seed: 17,
  players: ['Ann', 'Bob'],
  variants: [
    { vault: 'Old vault', tags: 'hidden', rating: 40, door: 'lock', vscore: 20, lookout: 1, score: 30 },
    { vault: 'Bullion room', tags: 'hidden,hazardous', rating: 45, door: 'vault', vscore: 25, lookout: 2, score: 35 },
  ],
  async script({ gm, p, char, ok, act }, v) {
    const ada = await char(p.Ann, {
      name: 'Ada Quill',
      sheet: { name: 'Ada Quill', abilities: { muscle: 1, fingers: 2, brains: 3, it: 2 }, skills: { planning: 3 }, foresight: 2 },
    });
    const vera = await char(p.Bob, {
      name: 'Vera Lockhart',
      sheet: { name: 'Vera Lockhart', abilities: { muscle: 1, fingers: 3, brains: 2, it: 2 }, skills: { lockpicking: 3 } },
    });
    await ok(gm, 'enc.start', { module: 'cot.heist' });
    const A = (await ok(gm, 'enc.add', { char: ada })).id;
    const V = (await ok(gm, 'enc.add', { char: vera })).id;
    await act(gm, 'zone', { id: 'yard', name: 'Loading yard', edge: 1 });
    await act(gm, 'zone', { id: 'office', name: 'Counting office' });
    await act(gm, 'zone', { id: 'vault', name: v.vault, tags: v.tags, rating: v.rating });
    await act(gm, 'barrier', { id: 'gate', from: 'outside', to: 'yard', tag: 'none' });
    await act(gm, 'barrier', { id: 'door', from: 'yard', to: 'office', tag: 'lock', score: v.score });
    await act(gm, 'barrier', { id: 'strong', from: 'office', to: 'vault', tag: v.door, score: v.vscore });
    await act(gm, 'guard', { id: 'g1', name: 'Porter Hobb', zone: 'yard', brains: 2, lookout: v.lookout });
    await act(gm, 'guard', { id: 'g2', name: 'Night clerk', zone: 'vault', brains: 3, lookout: v.lookout });
    await act(gm, 'reveal', { zone: 'yard' });
    await act(gm, 'reveal', { zone: 'office' });
    await act(p.Ann, 'plan', {}, A);
    await act(p.Bob, 'move', { zone: 'yard', stealth: 0 }, V);
    await act(p.Bob, 'bypass', { barrier: 'door' }, V);
  },
};
