// tenacity.spotlight: what a player sees of Gorrak, an NPC with a sheet, and of a goblin. Varied:
// Gorrak's Reaction rank (his defence total: the first time Brakka's attack ties it, then misses
// it by one; both are misses, and his later defence is still beaten), the names of his skills,
// his notes, and the bonus the GM gives his attack (a miss either way). Then a second fight for
// the combat options (issue 17): the goblin's fire resistance (2 or 3: Missa's hit shows its
// impact, never the stress) and the trigger of its held action (rules/RULES.md, "Combat options");
// a third fight: the bonus to the goblin's stealth roll (issue 25 item 19).
import { sample } from '../enc_lib.mjs';

function gorrak(v) {
  const sheet = { ...sample('tenacity', 'odessa'), name: 'Gorrak', notes: v.notes };
  sheet.attributes = structuredClone(sheet.attributes);
  sheet.attributes[3].skills[0].name = v.lore; // Intellect 3d10, rank 2
  sheet.attributes[1].skills[0].rank = v.reaction; // Dexterity 2d10: Reaction
  return sheet;
}

export const scenario = {
  name: 'tenacity.spotlight',
  system: 'tenacity',
  seed: 1,
  players: ['Ann', 'Bob'],
  variants: [
    { notes: 'Gorrak fears silver', lore: 'Shadow Lore', reaction: 2, bonus: 0, resist: 2, trigger: 'when the bell rings', hide: 0 },
    { notes: 'Gorrak fears gold', lore: 'Old Lore', reaction: 3, bonus: 1, resist: 3, trigger: 'when Missa blinks', hide: 5 },
  ],
  async script({ gm, p, seat, act, char, ok }, v) {
    const missa = await char(p.Ann, { name: 'Missa', sheet: sample('tenacity', 'missa') });
    const brakka = await char(p.Bob, { name: 'Brakka Vell', sheet: sample('tenacity', 'brakka') });
    const g = await char(gm, { name: 'Gorrak', sheet: gorrak(v), npc: true });
    await ok(gm, 'enc.start', { module: 'tenacity.spotlight' });
    const eM = (await ok(gm, 'enc.add', { char: missa })).id;
    const eB = (await ok(gm, 'enc.add', { char: brakka })).id;
    const eG = (await ok(gm, 'enc.add', { char: g })).id;
    const eQ = (await ok(gm, 'enc.add', { npc: { name: 'Goblin' } })).id;
    await act(gm, 'initiative');
    await act(p.Ann, 'attack', { target: eQ, skill: 'Telekinesis' });
    await act(p.Ann, 'end');
    await act(gm, 'attack', { target: eM });
    await act(gm, 'end');
    await act(p.Ann, 'pass', { target: eG });
    await act(gm, 'attack', { target: eB, skill: v.lore, bonus: v.bonus });
    await act(gm, 'end');
    await act(p.Bob, 'attack', { target: eG, skill: 'Melee Combat' });
    await act(p.Bob, 'end');
    await act(gm, 'attack', { target: eB, skill: v.lore });
    await act(gm, 'end');
    await act(p.Bob, 'attack', { target: eG, skill: 'Melee Combat' });

    await ok(gm, 'enc.end', {});
    await ok(gm, 'enc.start', { module: 'tenacity.spotlight' });
    const fM = (await ok(gm, 'enc.add', { char: missa })).id;
    const fQ = (await ok(gm, 'enc.add', { npc: { name: 'Goblin' } })).id;
    await act(gm, 'initiative');
    await act(gm, 'resist', { target: fQ, type: 'fire', value: v.resist });
    await act(gm, 'spotlight', { target: fQ });
    await act(gm, 'hold', { trigger: v.trigger }, fQ);
    await act(gm, 'end', undefined, fQ);
    await act(p.Ann, 'attack', { target: fQ, skill: 'Telekinesis', type: 'fire' }, fM);
    await act(gm, 'release', undefined, fQ);
    await act(gm, 'grapple', { target: fM }, fQ);

    // issue 25 item 19: the goblin hides (003:73); the GM's bonus changes its number, which no
    // player reads ("Goblin hides")
    await ok(gm, 'enc.end', {});
    await ok(gm, 'enc.start', { module: 'tenacity.spotlight' });
    await ok(gm, 'enc.add', { char: missa });
    const hQ = (await ok(gm, 'enc.add', { npc: { name: 'Goblin' } })).id;
    await act(gm, 'initiative');
    await act(gm, 'spotlight', { target: hQ });
    await act(gm, 'hide', { bonus: v.hide }, hQ);
    await act(gm, 'end', undefined, hQ);
    void seat;
  },
};
