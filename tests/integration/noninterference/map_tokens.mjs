// The scene map (PROTOCOL.md "The scene map", issue 30): the GM sets a map for a fight, shows it,
// places the fighters' tokens and keeps an unseen guard and a trap hidden on it; Ann moves her
// token; the GM moves the hidden guard, and then shows the guard. Varied: how many hidden markers
// there are, where they stand, what they are called, the hidden guard's square and the picture
// the GM keeps for a map not yet shown (scene s2's draft). Ann must not tell the runs apart until
// a token is shown, and the shown guard's square is the same in both runs.
const PNG_A =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
import { sample } from '../enc_lib.mjs';

const PNG_B = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

export const scenario = {
  name: 'map tokens hidden and shown',
  system: 'heimr',
  seed: 30,
  players: ['Ann', 'Bob'],
  variants: [
    { traps: [{ label: 'Pit trap', x: 3, y: 4 }], guard: { x: 7, y: 1 }, draft: PNG_A },
    { traps: [{ label: 'Poison needle on the chest', x: 9, y: 9 }, { label: 'Second guard', x: 0, y: 0 }], guard: { x: 2, y: 8 }, draft: PNG_B },
  ],
  async script({ gm, p, char, ok }, v) {
    const ann = await char(p.Ann, { name: 'Astrid Ironhand', sheet: sample('heimr', 'astrid_ironhand') });
    await ok(gm, 'enc.start', { module: 'heimr.combat' });
    const A = (await ok(gm, 'enc.add', { char: ann })).id;
    await ok(gm, 'map.set', { size: 50, image: PNG_A, w: 600, h: 500, cols: 12, rows: 10 });
    for (const t of v.traps) await ok(gm, 'map.token', { label: t.label, x: t.x, y: t.y, hidden: true });
    const guard = (await ok(gm, 'map.token', { label: 'Guard', x: v.guard.x, y: v.guard.y, hidden: true })).id;
    await ok(gm, 'map.token', { cid: A, x: 1, y: 1 });
    await ok(gm, 'map.show', {});
    await ok(p.Ann, 'map.move', { id: A, x: 2, y: 3 });
    await ok(gm, 'map.move', { id: guard, x: v.guard.y, y: v.guard.x });
    await ok(gm, 'map.token', { label: 'Door', x: 5, y: 5 });
    await ok(gm, 'enc.start', { module: 'heimr.combat', scene: 'new' });
    await ok(gm, 'map.set', { scene: 's2', size: 40, image: v.draft, w: 400, h: 400, cols: 10, rows: 10 });
    await ok(gm, 'map.token', { id: guard, x: 6, y: 6, hidden: false });
    await ok(p.Ann, 'map.image', {});
  },
};
