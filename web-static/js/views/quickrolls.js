// One-tap checks from a character: for each rule system, the checks a sheet makes obvious, with
// the parameters the sheet gives (rules/RULES.md names the parameters). A roll whose check still
// needs a number the sheet cannot know (a fivey DC, a grimwire target number) lists it in `need`;
// the page asks for it (remembering the last value) before rolling.
//
// quickRolls(system, char) → [{group, label, check, params, need: [param names], gmOnly?}]
// `gmOnly` lists the needs only the GM knows: a player's roll goes without them and waits for the
// GM's answer (views/asks.js).

import { statWord } from '../words.js';

// FIVEY: the usual difficulty class, offered (and changeable) when a sheet check opens its form:
// "a task set at a difficulty class even lower than 12 is only appropriate for unskilled
// characters" (004:94), and a light defense class is DC 12 (004:426).
const DEFAULT_DC = 12;

const num = (v) => (Number.isFinite(v) ? v : null);
const title = (s) => String(s).replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
// A stat as the rulebook's sheet names it, spelled out with its short form: "Agility (AGL)".
const stat = (k) => (statWord(k) ? `${statWord(k)} (${k.toUpperCase()})` : title(k));

const SYSTEMS = {
  // City of Thieves: a pool of ability + skill (the skill's group names its ability).
  cot(sheet, derived, schema) {
    const out = [];
    const ab = sheet.abilities || {};
    const skillsField = (schema || []).find((f) => f.name === 'skills');
    const groupOf = {};
    for (const f of skillsField?.fields || []) groupOf[f.name] = String(f.group || '').toLowerCase();
    for (const [k, v] of Object.entries(sheet.skills || {})) {
      const ability = num(ab[groupOf[k]]);
      if (!num(v) || ability === null) continue;
      out.push({ group: 'Skills', label: `${title(k)} ${v} + ${title(groupOf[k])} ${ability}`, check: 'pool', params: { skill: v, ability }, need: [] });
    }
    for (const [k, v] of Object.entries(ab)) {
      if (num(v) === null || v < 1) continue;
      out.push({ group: 'Abilities', label: `${title(k)} ${v}`, check: 'pool', params: { skill: 0, ability: v }, need: [] });
    }
    return out;
  },
  // Heimr: an ability's consistency and potential (derived), fatigue from the sheet.
  heimr(sheet, derived) {
    const out = [];
    const fatigue = num(sheet.fatigue) ?? 1;
    for (const a of Array.isArray(derived?.abilities) ? derived.abilities : []) {
      if (num(a.consistency) === null || num(a.potential) === null) continue;
      // the book's C and P (001:71), spelled out in the group's name
      out.push({ group: 'Abilities (C consistency, P potential)', label: `${a.name} C${a.consistency} P${a.potential}`, check: 'challenge', params: { c: a.consistency, p: a.potential, fatigue }, need: [] });
    }
    const attrs = sheet.attributes || {};
    if (num(attrs.dex) !== null && num(sheet.willpower) !== null) {
      out.push({ group: 'Combat', label: 'Initiative', check: 'initiative', params: { dex: attrs.dex, willpower: sheet.willpower }, need: [] });
    }
    return out;
  },
  // GRIMWIRE: attribute vs a target number the GM names (secret from the table).
  grimwire(sheet) {
    return Object.entries(sheet.attributes || {})
      .filter(([, v]) => num(v) !== null)
      .map(([k, v]) => ({ group: 'Attributes', label: `${stat(k)} ${v >= 0 ? '+' : ''}${v}`, check: 'check', params: { attr: v }, need: ['tn'], gmOnly: ['tn'] }));
  },
  // 10acity Tactics: attribute dice + skill rank (derived skills list both).
  tenacity(sheet, derived) {
    const out = [];
    for (const [name, s] of Object.entries(derived?.skills || {})) {
      if (num(s.dice) === null || num(s.rank) === null) continue;
      if (s.rank === 0 && Object.keys(derived.skills).length > 12) continue; // untrained: use the form
      out.push({ group: s.attribute || 'Skills', label: `${name}: best of ${s.dice}d10 + ${s.rank}`, check: 'check', params: { dice: s.dice, rank: s.rank }, need: [] });
    }
    return out;
  },
  // FIVEY: d20 + stat against a DC the GM names.
  fivey(sheet) {
    return Object.entries(sheet.stats || {})
      .filter(([, v]) => num(v) !== null)
      .map(([k, v]) => ({ group: 'Stats', label: `${stat(k)} ${v}`, check: 'check', params: { stat: v, dc: DEFAULT_DC }, need: ['dc'] }));
  },
};

export function quickRolls(system, char, schema) {
  const fn = SYSTEMS[system];
  if (!fn || !char || typeof char.sheet !== 'object') return [];
  try {
    return fn(char.sheet, char.derived || {}, schema);
  } catch {
    return [];
  }
}
