// The social panel (issue 14 §4): what a social scene looks like to the person holding the phone.
// Plugged into the system panels by one line each: js/enc/cot.js (module cot.social, rules/RULES.md
// "Social Calls") and js/enc/tenacity.js (module tenacity.social, "Social scenes").
//
//   socialView(enc, ctx)    → Node | null  who is talking to whom, the agendas, the emotional
//                                          state or the standing scale, as this seat knows them
//                                          (null for a module that is not social)
//   withSocial(hooks)       → hooks        a system's panel hooks with the view above in front:
//                                          above (cot: beside) the order (tenacity:
//                                          instead of it); a tenacity social scene's banner says
//                                          what one can do (no turns). The moves are the server's
//                                          (enc.moves), drawn by panel.js.
//
// What a seat knows is what its replica holds, nothing else: a player's own knowledge under
// /private/<seat>/social/<cid> and its characters' Loyalties under /private/<seat>/sheets; the
// GM's under /gm/enc (every agenda, the NPC side's knowledge, true identities and Loyalties). The
// server never sends a seat more (DESIGN.md "State and visibility"), so this file only chooses
// how to show it.
import { h, isMine, combatantsOf } from './panel.js';

const list = (x) => (Array.isArray(x) ? x : []);
const obj = (x) => (x && typeof x === 'object' && !Array.isArray(x) ? x : {});
const nameOf = (enc, cid) => enc?.combatants?.[cid]?.name ?? 'someone';

const SCALE_TOP = 10; // rules/tenacity/social.c SCALE_TOP (003:70)

// ---- cot.social -------------------------------------------------------------------------------

// What this seat knows, by the combatant it is about: {identified, identity, presented_seen,
// loyalties {n: text}, impedes, agenda {by, text, alters, achieved, denied}}.
function knowledge(ctx) {
  if (ctx.isGm) return obj(ctx.state?.gm?.enc?.known);
  return obj(ctx.state?.private?.[ctx.seat]?.social);
}

function loyaltyText(l) {
  return `${l?.kind ?? '?'}: ${l?.target ?? '?'}${l?.prime ? ' (Prime)' : ''}`;
}

// The Loyalties of c this seat may read: its own character's (its private sheet), every one for
// the GM; null otherwise.
function ownLoyalties(c, ctx) {
  if (ctx.isGm) return list(ctx.state?.gm?.enc?.combatants?.[c.id]?.loyalties);
  if (!isMine(c, ctx) || !c.char) return null;
  return list(ctx.state?.private?.[ctx.seat]?.sheets?.[c.char]?.loyalties);
}

function agendaLine(enc, about, a) {
  const status = a.denied ? 'denied: a Loyalty stands against it' : a.achieved ? 'achieved' : 'in play';
  return h(
    'li',
    { class: ['social-agenda', a.achieved && 'achieved', a.denied && 'denied'], dataset: { by: a.by ?? '', about } },
    h('strong', {}, `${nameOf(enc, a.by)} → ${nameOf(enc, about)}`),
    ': ',
    h('q', {}, a.text ?? ''),
    a.alters ? h('span', { class: 'muted small' }, ` (to change Loyalty ${a.alters})`) : null,
    ' ',
    h('span', { class: 'badge' }, status),
  );
}

function cotPerson(c, enc, ctx, known) {
  const k = obj(known[c.id]);
  const m = obj(c.emotion);
  const facts = [];
  if (c.presented && c.presented !== c.name) facts.push(['presents as', c.presented]);
  if (m.state) facts.push(['mood', `${m.state}${m.by ? ` (by ${nameOf(enc, m.by)})` : ''}`]);
  const truth = ctx.isGm ? ctx.state?.gm?.enc?.combatants?.[c.id]?.identity : null;
  if (truth) facts.push(['truly', truth]);
  else if (k.identity) facts.push(['you know them as', k.identity]);
  else if (k.identified) facts.push(['you know who they are', 'yes']);
  const learned = Object.entries(obj(k.loyalties)).map(([n, t]) => `${n}. ${t}`);
  if (learned.length) facts.push([ctx.isGm ? 'their side learned' : 'Loyalties you learned', learned.join(' · ')]);
  if (k.presented_seen) facts.push(['seen presenting as', k.presented_seen]);
  if (Number.isInteger(k.alterable)) facts.push(['a Loyalty to change', `${k.alterable}: an agenda against ${isMine(c, ctx) ? 'you' : 'them'} succeeded (Alter a Loyalty)`]);
  const own = ownLoyalties(c, ctx);
  if (own && own.length) facts.push([ctx.isGm ? 'Loyalties' : 'your Loyalties', own.map((l, i) => `${i + 1}. ${loyaltyText(l)}`).join(' · ')]);
  return h(
    'li',
    { class: ['social-person', isMine(c, ctx) && 'mine'], dataset: { cid: c.id } },
    h('strong', {}, c.name ?? c.id),
    c.side ? h('span', { class: ['badge', 'side-badge'], dataset: { side: c.side } }, c.side) : null,
    isMine(c, ctx) ? h('span', { class: 'badge you-badge' }, 'yours') : null,
    facts.length
      ? h(
          'dl',
          { class: 'social-facts' },
          facts.map(([k2, v]) => h('div', {}, h('dt', {}, k2), h('dd', {}, v))),
        )
      : null,
  );
}

function cotView(enc, ctx) {
  const known = knowledge(ctx);
  const agendas = Object.entries(known)
    .filter(([, k]) => k && typeof k.agenda === 'object' && k.agenda)
    .map(([about, k]) => agendaLine(enc, about, k.agenda));
  return h(
    'section',
    { class: 'social-panel', attrs: { 'aria-label': 'Social call' } },
    h('h3', {}, 'Who wants what'),
    agendas.length
      ? h('ul', { class: 'social-agendas' }, agendas)
      : h('p', { class: 'muted small' }, ctx.isGm ? 'No agenda set yet.' : 'No agenda you know of yet: a Read Room tells you who you face, then set one.'),
    h('ul', { class: 'social-people' }, combatantsOf(enc).map((c) => cotPerson(c, enc, ctx, known))),
  );
}

// ---- tenacity.social --------------------------------------------------------------------------

// [{who, eyes, value}] of every contest whose two sides are still in the scene.
function contests(enc) {
  const out = [];
  for (const [who, row] of Object.entries(obj(enc.standing))) {
    for (const [eyes, v] of Object.entries(obj(row))) {
      if (enc.combatants?.[who] && enc.combatants?.[eyes] && Number.isInteger(v)) out.push({ who, eyes, value: v });
    }
  }
  return out;
}

const decided = (v) => v <= 0 || v >= SCALE_TOP;

function scaleRow(enc, ctx, { who, eyes, value }) {
  const mine = isMine({ ...enc.combatants[who], id: who }, ctx) || isMine({ ...enc.combatants[eyes], id: eyes }, ctx);
  const status = value >= SCALE_TOP ? 'won over' : value <= 0 ? 'all credibility lost' : null;
  const title = `${nameOf(enc, who)} → ${nameOf(enc, eyes)}`;
  return h(
    'li',
    { class: ['social-contest', mine && 'mine', status && 'decided'], dataset: { who, eyes, standing: String(value) } },
    h('div', { class: 'social-contest-head' }, h('strong', {}, title), h('span', { class: 'social-standing' }, ` ${value} of ${SCALE_TOP}`), status ? h('span', { class: 'badge' }, status) : null),
    h(
      'div',
      { class: 'social-scale', attrs: { role: 'meter', 'aria-label': `${title}: standing`, 'aria-valuemin': '0', 'aria-valuemax': String(SCALE_TOP), 'aria-valuenow': String(value), 'aria-valuetext': `${value} of ${SCALE_TOP}` } },
      Array.from({ length: SCALE_TOP }, (_, i) => h('span', { class: ['social-cell', i < value && 'on'] })),
    ),
  );
}

function tenacityView(enc, ctx) {
  const all = contests(enc);
  return h(
    'section',
    { class: 'social-panel', attrs: { 'aria-label': 'Social scene' } },
    h('h3', {}, 'Who is winning whom over'),
    all.length
      ? h('ul', { class: 'social-contests' }, all.map((c) => scaleRow(enc, ctx, c)))
      : h('p', { class: 'muted small' }, ctx.isGm ? 'No contest yet: open one (who talks, whom they want to win over).' : 'No contest yet: the GM opens one.'),
  );
}

// The line over a scene without turns: what this person can do now.
function socialBanner(enc, ctx) {
  if (enc?.module !== 'tenacity.social') return null;
  const mine = new Set(combatantsOf(enc).filter((c) => isMine(c, ctx)).map((c) => c.id));
  const open = contests(enc).filter((c) => !decided(c.value));
  let text;
  if (ctx.isGm) text = open.length ? 'Call for the rolls as the conversation goes.' : 'Open a contest: who talks, and whom they want to win over.';
  else {
    const talking = open.filter((c) => mine.has(c.who));
    if (talking.length) text = `Your move: win over ${talking.map((c) => nameOf(enc, c.eyes)).join(' or ')}.`;
    else if (open.length && mine.size) text = 'You may work against a talker when the GM calls for it.';
    else text = 'Listen in: the GM opens the contests.';
  }
  return h('p', { class: ['turn-banner', !ctx.isGm && open.some((c) => mine.has(c.who)) && 'mine'], attrs: { role: 'status' } }, text);
}

// ---- the two hooks ------------------------------------------------------------------------------

export function socialView(enc, ctx) {
  if (enc?.module === 'cot.social') return cotView(enc, ctx);
  if (enc?.module === 'tenacity.social') return tenacityView(enc, ctx);
  return null;
}

// A system's hooks (js/enc/panel.js contract) with the social view in front. `replace`:
// the social view stands in for the system's order (a tenacity social scene
// has no spotlight); otherwise they come beside them (a cot Social Call keeps its slots).
export function withSocial(hooks, { replace = false } = {}) {
  const { renderOrder, renderBanner } = hooks;
  return {
    ...hooks,
    gmShown: [...(Array.isArray(hooks.gmShown) ? hooks.gmShown : []), 'known'],
    renderBanner(enc, ctx) {
      return (replace && socialBanner(enc, ctx)) || renderBanner?.(enc, ctx);
    },
    renderOrder(enc, ctx) {
      const view = socialView(enc, ctx);
      const order = view && replace ? null : renderOrder?.(enc, ctx);
      if (!view) return order;
      return order ? h('div', { class: 'social-with-order' }, order, view) : view;
    },
  };
}
