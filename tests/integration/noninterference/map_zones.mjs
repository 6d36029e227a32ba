// Zones on the scene map (PROTOCOL.md "The scene map", issue 30; rules/RULES.md cot heist
// reading 8): the GM draws zones on a heist's map, keeps some hidden, binds one to the Loading
// yard and one to a zone of the Spot the crew has not found, shows the map, reveals the yard and
// then shows a hidden zone. Varied: how many hidden zones there are, before the shown ones (their
// ids and the GM's count move), their names and squares, and the unrevealed heist zone — its name
// in the Spot, its map zone's name and squares. Ann and Bob must not tell the runs apart.
const ADA = {
  name: 'Ada Quill',
  abilities: { muscle: 1, fingers: 2, brains: 3, it: 2 },
  skills: { planning: 3, lookout: 1 },
  reputation: 2,
  foresight: 3,
};

export const scenario = {
  name: 'map zones hidden, bound to a heist zone, shown',
  system: 'cot',
  seed: 31,
  players: ['Ann', 'Bob'],
  variants: [
    {
      hidden: [{ name: 'Pit', x: 3, y: 4, w: 1, h: 1 }],
      vault: 'Vault of Ages',
      bound: { name: 'Vault', x: 6, y: 1, w: 2, h: 2 },
    },
    {
      hidden: [
        { name: 'Secret stair', x: 0, y: 0, w: 2, h: 1 },
        { name: 'Trap door', x: 9, y: 9, w: 1, h: 1 },
      ],
      vault: 'The strongroom below',
      bound: { name: 'Strongroom', x: 1, y: 6, w: 3, h: 2 },
    },
  ],
  async script({ gm, p, char, ok }, v) {
    const ada = await char(p.Ann, { name: 'Ada Quill', sheet: ADA });
    await ok(gm, 'enc.start', { module: 'cot.heist' });
    await ok(gm, 'enc.add', { char: ada });
    await ok(gm, 'enc.act', { action: 'zone', params: { id: 'yard', name: 'Loading yard', edge: 1 } });
    await ok(gm, 'enc.act', { action: 'zone', params: { id: 'vault', name: v.vault } });
    await ok(gm, 'map.set', { size: 40, cols: 12, rows: 10 });
    for (const z of v.hidden) await ok(gm, 'map.zone', { ...z, hidden: true });
    const door = (await ok(gm, 'map.zone', { name: 'Back door', x: 11, y: 5, w: 1, h: 1, hidden: true })).id;
    await ok(gm, 'map.zone', { name: 'Street', x: 0, y: 9, w: 12, h: 1 });
    await ok(gm, 'map.zone', { name: 'Loading yard', x: 0, y: 0, w: 5, h: 3 });
    await ok(gm, 'map.zone', { ...v.bound, heist: 'vault' });
    await ok(gm, 'map.show', {});
    await ok(gm, 'map.zone', { id: 'z1', hidden: true }); // a hidden zone hidden again
    await ok(gm, 'enc.act', { action: 'reveal', params: { zone: 'yard' } });
    await ok(gm, 'map.zone', { id: door, hidden: false });
    await ok(gm, 'map.unzone', { id: 'z1' });
  },
};
