// Picks instead of typed words: for an encounter action's parameter that names something on the
// acting character's sheet (a skill, a weapon, an item, a technique), the list to choose from.
// Values are what the server matches (rules/RULES.md names each parameter); labels are the
// sheet's own words. Weapons picked by name: the value is the weapon's number on the sheet, from 1
// in GRIMWIRE ("weapon number on the sheet (1 = first)") and from 0 in FIVEY.
//
// picksFor(system, param, sheet, derived, action) → [{value, label}] | null (null: not a pick)

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

// The first pick is the default; for an attack, the fighting skills come first (a tenacity sheet
// lists every skill, and "Negotiation" is a poor default for a punch).
const FIGHTING = /combat|melee|fight|shoot|firearm|unarmed|brawl|sword|weapon|archery|blade|axe|spear|gun/i;
const TALKING = /persua|decep|perform|intimid|insight|charm|negotia|etiquette|empath|diplom|bluff/i;

// When a sheet has nothing to pick (a quick NPC with a name only), the numbers that stand in for
// the pick, asked with their defaults filled in: a Heimr attack without an ability rolls C and P
// directly (a plain 1d6 at C 0, P 0: 001:71-75).
const SUBSTITUTES = {
  heimr: { ability: ['c', 'p'] },
};

export function substitutesFor(system, param) {
  return SUBSTITUTES[system]?.[param] || null;
}

export function picksFor(system, param, sheet, derived, action = '') {
  const fn = SYSTEMS[system]?.[param];
  if (!fn || !isObj(sheet)) return null;
  try {
    let list = fn(sheet, derived || {});
    if (/attack|ready|defend/.test(action) && /skill|ability/.test(param)) {
      const rank = (x) => (FIGHTING.test(x.label) ? 0 : 1);
      list = [...list].sort((a, b) => rank(a) - rank(b));
    }
    // a social move (tenacity.social): the talking skills first
    if (/sway|scrutiny/.test(action) && param === 'skill') {
      const rank = (x) => (TALKING.test(x.label) ? 0 : 1);
      list = [...list].sort((a, b) => rank(a) - rank(b));
    }
    return list.length ? list : null;
  } catch {
    return null;
  }
}

// The sheet (and derived values) behind a combatant, as far as the viewer may see it: a player
// character's public sheet, a prepared NPC's sheet for the GM, or the combatant's own stats.
// An NPC's character id and a quick NPC's sheet are GM-only: /gm/enc/combatants/<cid>/{char,sheet}
// (server/ops_enc.c, enc.add).
export function sheetOf(c, state, stats) {
  if (!c) return { sheet: null, derived: null };
  const hidden = state?.gm?.enc?.combatants?.[c.id] || {};
  const charId = c.char || hidden.char;
  const ch = (charId && (state?.chars?.[charId] || state?.gm?.npcs?.[charId])) || null;
  if (ch && isObj(ch.sheet)) return { sheet: { ...(stats || {}), ...ch.sheet }, derived: ch.derived || null };
  if (isObj(hidden.sheet)) return { sheet: { ...(stats || {}), ...hidden.sheet }, derived: null };
  return { sheet: isObj(stats) ? stats : null, derived: null };
}
