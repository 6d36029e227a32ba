// grimwire.conflict: an NPC assisting (002:81-83, issue 23). The helper's total waits on the one it
// helps (condition `assisted`); an NPC helper's total is its attribute plus the die, so it is the
// GM's (/gm/enc/combatants/<id>/assisted), and so is whether it reached 0. Varied: the helper's MND
// (1 or 4): every player must see the same frames, the die and the helping.
import { sample } from '../enc_lib.mjs';

const npc = (name, v) => ({
  name,
  level: 1,
  xp: 0,
  attributes: { tog: 1, agl: 0, cor: 1, mnd: v.mnd, per: 1, rsn: 0 },
  condition: { current: 12, max: 12 },
  focus: { current: 0, max: 2 },
});

export const scenario = {
  name: 'grimwire.conflict: an NPC assists',
  system: 'grimwire',
  seed: 2,
  players: ['Ann'],
  variants: [{ mnd: 1 }, { mnd: 4 }],
  async script({ gm, p, char, ok, act: ctxAct }, v) {
    const cy = await char(p.Ann, { name: 'Cyrus', sheet: sample('grimwire', 'cyrus') });
    const fixer = await char(gm, { name: 'Fixer', sheet: npc('Fixer', v), npc: true });
    const boss = await char(gm, { name: 'Boss', sheet: npc('Boss', { mnd: 0 }), npc: true });
    await ok(gm, 'enc.start', { module: 'grimwire.conflict' });
    const CY = (await ok(gm, 'enc.add', { char: cy })).id;
    const FX = (await ok(gm, 'enc.add', { char: fixer })).id;
    const BO = (await ok(gm, 'enc.add', { char: boss })).id;
    // through the harness's act: after each action every player asks for its moves too
    const act = (who, action, actor, params) => ctxAct(who, action, params, actor);
    await act(gm, 'begin');
    // whoever comes first ends the turn until the helper has it (read from the state of the seat
    // that acted last: its own diff comes before its ack)
    let last = gm;
    for (let i = 0; i < 3; i++) {
      const cur = last.state.enc.order[last.state.enc.turn];
      if (cur === FX) break;
      last = cur === CY ? p.Ann : gm;
      await act(last, 'end_turn', cur);
    }
    await act(gm, 'assist', FX, { target: BO, attr: 'mnd' });
  },
};
