// Picks instead of typed words: for an encounter action's parameter that names something on the
// acting character's sheet (a skill, a weapon, an item, a technique), the list to choose from.
// Values are what the server matches (rules/RULES.md names each parameter); labels are the
// sheet's own words. Weapons picked by name: the value is the weapon's number on the sheet, from 1
// in GRIMWIRE ("weapon number on the sheet (1 = first)") and from 0 in FIVEY.
//
// picksFor(system, param, sheet, stats) → [{value, label}] | null (null: not a pick)

import { label as keyLabel } from '../words.js';

const isObj = (v) => v && typeof v === 'object' && !Array.isArray(v);
const arr = (v) => (Array.isArray(v) ? v : []);
const named = (list) => arr(list).map((x) => (isObj(x) ? x.name : x)).filter((x) => typeof x === 'string' && x);

function weaponsByNumber(list, base) {
  return arr(list).map((w, i) => ({ value: String(i + base), label: isObj(w) ? `${w.name ?? `Weapon ${i + base}`}${w.damage ? ` (${w.damage})` : ''}` : String(w) }));
}

const SYSTEMS = {
  cot: {
    skill: (s) => Object.keys(isObj(s.skills) ? s.skills : {}).map((k) => ({ value: k, label: `${keyLabel(k)} ${s.skills[k]}` })),
    weapon: (s) => arr(s.gear).filter((g) => isObj(g) && g.kind === 'weapon' && g.name).map((g) => ({ value: g.name, label: g.name })),
  },
  heimr: {
    ability: (s, d) => named(arr(d?.abilities).length ? d.abilities : s.abilities).map((n) => ({ value: n, label: n })),
    item: (s) => named(s.items).map((n) => ({ value: n, label: n })),
  },
  grimwire: {
    weapon: (s) => weaponsByNumber(s.weapons, 1),
    name: (s) => named(s.techniques).map((n) => ({ value: n, label: n })),
  },
  tenacity: {
    skill: (s, d) => Object.keys(isObj(d?.skills) ? d.skills : {}).map((n) => ({ value: n, label: n })),
  },
  fivey: {
    weapon: (s) => weaponsByNumber(s.weapons, 0),
  },
};

export function picksFor(system, param, sheet, derived) {
  const fn = SYSTEMS[system]?.[param];
  if (!fn || !isObj(sheet)) return null;
  try {
    const list = fn(sheet, derived || {});
    return list.length ? list : null;
  } catch {
    return null;
  }
}

// The sheet (and derived values) behind a combatant, as far as the viewer may see it: a player
// character's public sheet, a prepared NPC's sheet for the GM, or the combatant's own stats.
export function sheetOf(c, state, stats) {
  if (!c) return { sheet: null, derived: null };
  const ch = (c.char && (state?.chars?.[c.char] || state?.gm?.npcs?.[c.char])) || null;
  if (ch && isObj(ch.sheet)) return { sheet: { ...(stats || {}), ...ch.sheet }, derived: ch.derived || null };
  return { sheet: isObj(stats) ? stats : null, derived: null };
}
