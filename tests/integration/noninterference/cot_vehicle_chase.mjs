// cot.chase as a vehicle chase (000:139-171): Big Tommy drives the stolen roadster with Vera
// beside him; Constable Pike's police car is right behind them (Distance 0). Vera hits the police
// car with her sap, the constable rams the roadster and Tommy accelerates away from him.
// Varied: the police car's Body (30 or 40: Vera's blow, at most 13, dents it either way, 000:151)
// and the constable's Cover (the GM's, 000:146; the ram hits the roadster, not him) and notes.
// The same dice are drawn in both runs.
import { sample } from '../enc_lib.mjs';
import { slotFor } from '../cot_slots.mjs';

const PIKE = (notes) => ({
  name: 'Constable Pike',
  abilities: { muscle: 2, fingers: 2, brains: 1, it: 1 },
  skills: { driving: 2, athletics: 1, resist: 1 },
  notes,
});

export const scenario = {
  name: 'cot.chase in vehicles',
  system: 'cot',
  seed: 9,
  players: ['Ann', 'Bob'],
  variants: [
    { body: 30, cover: 4, notes: 'on the take' },
    { body: 40, cover: 9, notes: 'honest to a fault' },
  ],
  async script(ctx, v) {
    const { gm, p, char, ok, act } = ctx;
    const vera = await char(p.Ann, { name: 'Vera Lockhart', sheet: sample('cot', 'vera_lockhart') });
    const tommy = await char(p.Bob, { name: 'Big Tommy Rourke', sheet: sample('cot', 'big_tommy_rourke') });
    const pike = await char(gm, { name: 'Constable Pike', sheet: PIKE(v.notes), npc: true });
    await ok(gm, 'enc.start', { module: 'cot.chase', options: { target_side: 'party', distance: 0, stage: 'vehicle_chase' } });
    const V = (await ok(gm, 'enc.add', { char: vera })).id;
    const T = (await ok(gm, 'enc.add', { char: tommy })).id;
    const P = (await ok(gm, 'enc.add', { char: pike, side: 'law' })).id;
    await act(gm, 'vehicle', { target: T, vehicle: 'Stolen roadster', driver: 1, speed: 3, body: 8, ram_bonus: 1 });
    await act(gm, 'vehicle', { target: V, vehicle: 'Stolen roadster' });
    await act(gm, 'vehicle', { target: P, vehicle: 'Police car', driver: 1, speed: 3, body: v.body, ram_bonus: 1 });
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${P}/stats/cover`, value: v.cover });
    await act(gm, 'begin');
    await slotFor(ctx, V);
    await act(p.Ann, 'attack', { target: P, weapon: 'Sap', at_vehicle: 1 }, V);
    await slotFor(ctx, P);
    await act(gm, 'ram', { target: T, at_vehicle: 1 }, P);
    await slotFor(ctx, T);
    await act(p.Bob, 'accelerate', {}, T);
  },
};
