// grimwire.between: stabilizing a dying character out of a fight against the GM's number (issue 25
// item 11, 002:258). Varied: the number (1 or 2: Aune's COR roll with a medkit, d20 + 1, meets
// either unless it is a natural 1, which fails both), so every player must see the same frames:
// the countdown, the same attempts, the same outcome.
import { sample } from '../enc_lib.mjs';

export const scenario = {
  name: 'grimwire.between: stabilizing against the GM\'s number',
  system: 'grimwire',
  seed: 11,
  players: ['Ann', 'Bob'],
  variants: [{ tn: 1 }, { tn: 2 }],
  async script({ gm, p, char, ok, act: ctxAct }, v) {
    const cyrus = sample('grimwire', 'cyrus');
    const cy = await char(p.Ann, { name: 'Cyrus', sheet: { ...cyrus, condition: { ...cyrus.condition, current: -1 } } });
    const au = await char(p.Bob, { name: 'Aune', sheet: sample('grimwire', 'aune') });
    await ok(gm, 'enc.start', { module: 'grimwire.between' });
    const CY = (await ok(gm, 'enc.add', { char: cy })).id;
    const AU = (await ok(gm, 'enc.add', { char: au })).id;
    const act = (who, action, actor, params) => ctxAct(who, action, params, actor);
    await act(gm, 'wait', null, { seconds: 12 });
    await act(gm, 'set_stabilize', null, { target: CY, tn: v.tn });
    for (let i = 0; i < 3; i++) {
      await gm.ping();
      if ((gm.state.enc.combatants[CY].stats?.condition?.current ?? 1) > 0) break;
      await act(p.Bob, 'stabilize', AU, { target: CY, medkit: true });
    }
  },
};
