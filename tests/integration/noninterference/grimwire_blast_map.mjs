// grimwire.conflict: a blast placed on the scene map (issue 30, rules/RULES.md G26). The module
// decides who is caught from the shown tokens only: a hidden token's square is the GM's and must
// decide nothing a player sees. Varied: where the GM keeps the Lurker's hidden token (next to the
// blast's centre, where a shown token would be caught, or far away) and the Lurker's hidden
// Condition; the blast and its dice are the same, so every player must see the same frames.
import { sample } from '../enc_lib.mjs';

const LURKER = (condition) => ({
  name: 'Lurker',
  level: 1,
  xp: 0,
  attributes: { tog: 1, agl: 0, cor: 1, mnd: 0, per: 0, rsn: 0 },
  condition: { current: condition, max: condition },
  focus: { current: 0, max: 0 },
  armor: 0,
});

export const scenario = {
  name: 'grimwire.conflict: a blast on the map and a hidden token',
  system: 'grimwire',
  seed: 30,
  players: ['Ann', 'Bob'],
  variants: [
    { lurker: { x: 1, y: 2 }, condition: 20 },
    { lurker: { x: 6, y: 5 }, condition: 9 },
  ],
  async script({ gm, p, char, ok, act: ctxAct }, v) {
    const cy = await char(p.Ann, { name: 'Cyrus', sheet: sample('grimwire', 'cyrus') });
    const au = await char(p.Bob, { name: 'Aune', sheet: sample('grimwire', 'aune') });
    const lu = await char(gm, { name: 'Lurker', npc: true, sheet: LURKER(v.condition) });
    await ok(gm, 'enc.start', { module: 'grimwire.conflict' });
    const CY = (await ok(gm, 'enc.add', { char: cy })).id;
    const AU = (await ok(gm, 'enc.add', { char: au })).id;
    const LU = (await ok(gm, 'enc.add', { char: lu })).id;
    const act = (who, action, actor, params) => ctxAct(who, action, params, actor);
    await ok(gm, 'map.set', { size: 40, cols: 8, rows: 6 });
    await ok(gm, 'map.token', { cid: CY, x: 1, y: 1 });
    await ok(gm, 'map.token', { cid: AU, x: 4, y: 1 });
    await ok(gm, 'map.token', { cid: LU, x: v.lurker.x, y: v.lurker.y, hidden: true });
    await ok(gm, 'map.show', {});
    await act(gm, 'begin');
    await act(gm, 'splash', null, { centre: '1,1', damage: '2d6', type: 'explosions', tn: 11 });
    await act(gm, 'area', null, { centre: '1,1', radius: 2, damage: '1d4', type: 'heat' });
  },
};
