// Who may move a token now (PROTOCOL.md "The scene map", "Moving on your turn"): every shown
// token carries `by`, kept current as a Heimr fight's turns run. Varied: whether Bob's fighter
// has a token the GM keeps hidden (and where it stands and goes), and the hidden markers. `by` is
// made from public state only, so Ann and Bob must not tell the runs apart while the turns run,
// the GM moves the hidden tokens, a fighter's token is placed and a fighter leaves.
import { sample } from '../enc_lib.mjs';

export const scenario = {
  name: 'map tokens: who may move one now, across turns',
  system: 'heimr',
  seed: 5,
  players: ['Ann', 'Bob'],
  variants: [
    { bob: null, traps: [{ label: 'Pit trap', x: 3, y: 4 }] },
    { bob: { x: 6, y: 5, to: { x: 4, y: 1 } }, traps: [{ label: 'Net', x: 0, y: 5 }, { label: 'Caltrops', x: 7, y: 0 }] },
  ],
  async script({ gm, p, char, ok }, v) {
    const astrid = await char(p.Ann, { name: 'Astrid Ironhand', sheet: sample('heimr', 'astrid_ironhand') });
    const gunnar = await char(p.Bob, { name: 'Old Gunnar', sheet: sample('heimr', 'old_gunnar') });
    await ok(gm, 'enc.start', { module: 'heimr.combat' });
    const A = (await ok(gm, 'enc.add', { char: astrid })).id;
    const G = (await ok(gm, 'enc.add', { char: gunnar })).id;
    const B = (await ok(gm, 'enc.add', { npc: { name: 'Bandit' } })).id;
    await ok(gm, 'map.set', { size: 40, cols: 8, rows: 6 });
    await ok(gm, 'map.token', { cid: A, x: 0, y: 0 });
    await ok(gm, 'map.token', { cid: B, x: 5, y: 3 });
    if (v.bob) await ok(gm, 'map.token', { cid: G, x: v.bob.x, y: v.bob.y, hidden: true });
    const traps = [];
    for (const t of v.traps) traps.push((await ok(gm, 'map.token', { label: t.label, x: t.x, y: t.y, hidden: true })).id);
    await ok(gm, 'map.show', {});
    await ok(gm, 'enc.act', { action: 'begin' });
    for (let i = 0; i < 3; i++) {
      await gm.ping();
      const { order, turn } = gm.state.enc;
      if (v.bob) await ok(gm, 'map.move', { id: G, x: v.bob.to.x, y: i });
      for (const id of traps) await ok(gm, 'map.move', { id, x: i, y: 5 });
      await ok(gm, 'enc.act', { action: 'end_turn', actor: order[turn] });
    }
    await ok(gm, 'enc.remove', { id: B });
    await ok(gm, 'map.token', { label: 'Door', x: 7, y: 5 });
  },
};
