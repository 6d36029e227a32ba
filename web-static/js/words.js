// Words a person reads at the table. Server messages and rule data are written for the log and the
// protocol reference: they may carry an error code ("rule: ..."), an op name ("enc.act attack:"),
// a rulebook line reference ("(002:567-579)"), a JSON path or a snake_case key. Every text the page
// shows from the server or from rule data goes through `plain` (a sentence) or `words` (a key shown
// as a label); line references stay in rules/RULES.md and the tooltip of the log line.

const CODES = /^(?:bad_request|unauthorized|forbidden|not_found|conflict|rule|rate_limited|too_large|internal)\s*:\s*/i;
// "(002:567-579)", "(002:567, 002:569)", "002:27", "000:37-40"
const LINE_REF = /\s*\(\s*\d{3}:\d+(?:[-–]\d+)?(?:\s*[,;]\s*\d{3}:\d+(?:[-–]\d+)?)*\s*\)|,?\s*\b\d{3}:\d+(?:[-–]\d+)?\b/g;
const OP_PREFIX = /^(?:[a-z]+\.[a-z_.]+)(?:\s+[a-z_]+)?\s*:\s*/; // "enc.act attack: ", "roll.check: "
const PATH = /(?:\/(?:gm|private\/[A-Za-z0-9_-]+))?(?:\/[A-Za-z0-9_-]+){2,}/g; // /gm/enc/combatants/e3/stats/stress

// The rulebooks' short names of attributes and stats, and of the parameters the sheets' checks
// roll with (Heimr 001:32-37 and 001:71; GRIMWIRE 002:97-166; FIVEY 004), as a person says them.
const SHORT = {
  str: 'Strength',
  dex: 'Dexterity',
  sta: 'Stamina',
  int: 'Intelligence',
  soc: 'Sociability',
  emp: 'Empathy',
  cha: 'Charisma',
  tog: 'Toughness',
  agl: 'Agility',
  cor: 'Coordination',
  mnd: 'Mind',
  per: 'Perception',
  rsn: 'Resonance',
  attr: 'attribute',
  c: 'consistency',
  p: 'potential',
};

// The word for a short name ("str" → "Strength", "AGL" → "Agility"), or null.
export function statWord(key) {
  return SHORT[String(key ?? '').toLowerCase()] ?? null;
}

// A key as a person says it: a stat's short name spelled out, else words(key).
export function said(key) {
  return statWord(key) ?? words(key);
}

// A rolled pool in a rule text ("7k3 → 6 6 5 [1 1 1] = 17", the book's 7k3: 7 dice rolled, 3
// kept) with the dice in words beside: "7k3 (rolled 6, 6, 5 kept and 1, 1, 1 dropped) = 17".
const POOL = /\b(\d+)k(\d+) → (\d+(?: \d+)*)(?: \[(\d+(?: \d+)*)\])?/g;
function poolWords(text) {
  const list = (faces) => faces.split(' ').join(', ');
  return text.replace(POOL, (m, n, k, kept, dropped) => `${n}k${k} (rolled ${list(kept)}${dropped ? ` kept and ${list(dropped)} dropped` : ''})`);
}

// A key as words: "kept_bonus" → "kept bonus", "attack_tn" → "attack TN".
export function words(key) {
  return String(key ?? '')
    .replace(/_/g, ' ')
    .replace(/\b(tn|hp|dc|gm|npc|xp|pc)\b/gi, (m) => m.toUpperCase())
    .replace(/\battr\b/g, 'attribute')
    .replace(/\bmod\b/g, 'modifier')
    .trim();
}

// A key as a label: "kept_bonus" → "Kept bonus".
export function label(key) {
  const w = words(key);
  return w.charAt(0).toUpperCase() + w.slice(1);
}

// A server message or rule text as a plain sentence: no code, no op name, no line reference, no
// JSON path, no snake_case.
export function plain(text) {
  let s = String(text ?? '').trim();
  s = s.replace(CODES, '').replace(OP_PREFIX, '');
  s = s.replace(LINE_REF, '');
  s = s.replace(PATH, (p) => words(p.split('/').filter(Boolean).slice(-1)[0]));
  s = s.replace(/\b([a-z]+(?:_[a-z0-9]+)+)\b/gi, (m) => words(m));
  s = poolWords(s);
  s = s.replace(/\s+([,.;:)])/g, '$1').replace(/\(\s*\)/g, '').replace(/\s{2,}/g, ' ').trim();
  if (s && !/[.!?…]$/.test(s)) s += '.';
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// A label or hint from rule data as a phrase: like `plain`, without the closing period.
export function phrase(text) {
  return plain(text).replace(/\.$/, '');
}

// The choices a parameter's description names ("dodge, block or parry", "aimed body part: torso,
// sword_arm, ..."), or null when it names none: [{value, label, isDefault}], the default first.
export function choicesIn(text) {
  let s = String(text ?? '').replace(LINE_REF, '');
  if (s.includes(':')) s = s.slice(s.lastIndexOf(':') + 1);
  s = s.replace(/\([^)]*\)\s*$/, '').trim();
  const items = s.split(/\s*,\s*|\s+or\s+/).map((x) => x.trim()).filter(Boolean);
  if (items.length < 2) return null;
  const out = [];
  for (const it of items) {
    const m = /^([a-z][a-z0-9_]*)(\s*\(default\))?$/.exec(it);
    if (!m) return null;
    const c = { value: m[1], label: label(m[1]), isDefault: Boolean(m[2]) };
    if (m[2]) out.unshift(c);
    else out.push(c);
  }
  return out;
}

// "1 seat", "3 seats".
export function count(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}
