// tenacity.social: what a player sees of a social scene against Gorrak, an NPC with a sheet.
// Varied: Gorrak's notes and the names of his skills (his scrutiny rolls one under either name,
// Intellect 3d10 rank 2, so the dice and every outcome stay), and a GM-only note on him. The
// standing scale is public, the NPC's dice, totals and skill names are the GM's (rules/RULES.md,
// "Social scenes (module tenacity.social)").
import { sample } from '../enc_lib.mjs';

function gorrak(v) {
  const sheet = { ...sample('tenacity', 'odessa'), name: 'Gorrak', notes: v.notes };
  sheet.attributes = structuredClone(sheet.attributes);
  sheet.attributes[3].skills[0].name = v.lore; // Intellect 3d10, rank 2
  return sheet;
}

export const scenario = {
  name: 'tenacity.social',
  system: 'tenacity',
  seed: 12,
  players: ['Ann', 'Bob'],
  variants: [
    { notes: 'Gorrak owes the guild', lore: 'Court Lore', note: 'bribable' },
    { notes: 'Gorrak hates the guild', lore: 'Street Lore', note: 'loyal to a fault' },
  ],
  async script({ gm, p, act, char, ok }, v) {
    const odessa = await char(p.Ann, { name: 'Odessa', sheet: sample('tenacity', 'odessa') });
    const brakka = await char(p.Bob, { name: 'Brakka Vell', sheet: sample('tenacity', 'brakka') });
    const g = await char(gm, { name: 'Gorrak', sheet: gorrak(v), npc: true });
    await ok(gm, 'enc.start', { module: 'tenacity.social' });
    const eO = (await ok(gm, 'enc.add', { char: odessa })).id;
    const eB = (await ok(gm, 'enc.add', { char: brakka })).id;
    const eG = (await ok(gm, 'enc.add', { char: g })).id;
    await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${eG}/note`, value: v.note });
    await act(gm, 'open', { target: eO, target2: eG, value: 3 });
    await act(gm, 'open', { target: eB, target2: eG, value: 8 });
    await act(p.Ann, 'sway', { target: eG, skill: 'Performance' }, eO);
    await act(gm, 'scrutiny', { target: eO, skill: v.lore }, eG);
    await act(p.Bob, 'sway', { target: eG, skill: 'Intimidation' }, eB);
    await act(gm, 'scrutiny', { target: eB, skill: v.lore, def_skill: 'Willpower' }, eG);
    await act(p.Bob, 'scrutiny', { target: eO, target2: eG, skill: 'Intimidation' }, eB);
    await ok(gm, 'enc.end', {});
  },
};
