// grimwire.conflict: an NPC's light-weapon attacks (issue 23). The attacks a character has left this
// turn come from its COR (002:569-579); an NPC's COR is the GM's, so the count of its attacks left
// is too (/gm/enc/combatants/<id>/budget), while a PC's stays on its public budget. Varied: the
// knife-fighter's COR (3: two attacks a turn, 6: three); his one attack is evaded the same way
// (the PC's AGL against the hidden attack_tn), so every player must see the same frames.
import { sample } from '../enc_lib.mjs';

const cutter = (v) => ({
  name: 'Cutter',
  level: 1,
  xp: 0,
  attributes: { tog: 1, agl: 0, cor: v.cor, mnd: 0, per: 1, rsn: 0 },
  condition: { current: 12, max: 12 },
  focus: { current: 0, max: 2 },
  weapons: [{ name: 'Knife', kind: 'light', damage: '1d4' }],
});

export const scenario = {
  name: "grimwire.conflict: an NPC's light-weapon attacks",
  system: 'grimwire',
  seed: 2,
  players: ['Ann', 'Bob'],
  variants: [{ cor: 3 }, { cor: 6 }],
  async script({ gm, p, char, ok, act: ctxAct }, v) {
    const cy = await char(p.Ann, { name: 'Cyrus', sheet: sample('grimwire', 'cyrus') });
    const au = await char(p.Bob, { name: 'Aune', sheet: sample('grimwire', 'aune') });
    const cu = await char(gm, { name: 'Cutter', sheet: cutter(v), npc: true });
    await ok(gm, 'enc.start', { module: 'grimwire.conflict' });
    const CY = (await ok(gm, 'enc.add', { char: cy })).id;
    await ok(gm, 'enc.add', { char: au });
    const CU = (await ok(gm, 'enc.add', { char: cu })).id;
    // through the harness's act: after each action every player asks for its moves too
    const act = (who, action, actor, params) => ctxAct(who, action, params, actor);
    await act(gm, 'set_tn', null, { target: CU, tn: 12, attack_tn: 12 });
    await act(gm, 'begin');
    await act(p.Ann, 'end_turn', CY);
    await act(gm, 'attack', CU, { target: CY });
    await act(gm, 'end_turn', CU);
  },
};
