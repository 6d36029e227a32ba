// heimr.combat's panel (rules/heimr/enc_heimr.c; rules/RULES.md, heimr, "Encounters"): the
// order with its delayed and readied markers, and per combatant the HP and injury level, fatigue,
// the pre-rolled defence (its value only where the viewer may see it) and the defences used since
// the combatant's last turn. Everything else is the generic panel's (./panel.js).
import { registerPanel, combatantsOf, currentId, isMine, statsOf, h } from './panel.js';
import './chase.js'; // heimr.chase's own panel
import { withBetween, banner, card, sheetStats, words } from './between.js';

const nameOf = (enc, id) => enc?.combatants?.[id]?.name ?? id;

// Body parts as the table says them.
const PART = { torso: 'body', sword_arm: 'sword arm', other_arm: 'other arm', right_leg: 'right leg', left_leg: 'left leg' };

// The markers of one combatant, as short chips: delayed, readied, guarding, holding, held, out.
function markers(c, enc) {
  const out = [];
  if (c.guarding) out.push(h('span', { class: 'chip heimr-guarding', dataset: { marker: 'guarding' } }, `guards ${nameOf(enc, c.guarding)}`));
  if (c.holding) out.push(h('span', { class: 'chip heimr-holding', dataset: { marker: 'holding' } }, `holds ${nameOf(enc, c.holding)}`));
  if (c.held_by && typeof c.held_by === 'object')
    out.push(h('span', { class: 'chip heimr-held', dataset: { marker: 'held' } }, `held by ${nameOf(enc, c.held_by.by)} (${PART[c.held_by.part] ?? 'body'})`));
  const g = c.ground && typeof c.ground === 'object' ? c.ground : null;
  if (g && Number(g.height) > 0) out.push(h('span', { class: 'chip heimr-ground', dataset: { marker: 'height' } }, `height ${g.height}`));
  if (g && Number(g.concealment) > 0) out.push(h('span', { class: 'chip heimr-ground', dataset: { marker: 'cover' } }, `cover ${g.concealment}`));
  if (g && g.difficult) out.push(h('span', { class: 'chip heimr-ground', dataset: { marker: 'difficult' } }, 'difficult ground'));
  if (c.lending) out.push(h('span', { class: 'chip heimr-lending', dataset: { marker: 'lending' } }, `next action: moving ${nameOf(enc, c.lending)}`));
  if (c.delayed && typeof c.delayed === 'object') {
    const when = c.delayed.when === 'before' ? 'before' : 'after';
    out.push(h('span', { class: 'chip heimr-delayed', title: 'Delayed (001:246)' }, `delayed ${when} ${nameOf(enc, c.delayed.of)}`));
  }
  if (c.readied) out.push(h('span', { class: 'chip heimr-readied', title: 'Readied action (001:248)' }, 'readied'));
  if (c.out) out.push(h('span', { class: 'chip' }, typeof c.out === 'string' ? c.out : 'out'));
  return out;
}

function renderOrder(enc, ctx) {
  const cur = currentId(enc);
  const ids = new Set((Array.isArray(enc.order) ? enc.order : []).map(String));
  const list = combatantsOf(enc).filter((c) => ids.has(c.id));
  return h(
    'div',
    { class: 'heimr-order' },
    h('p', { class: 'muted small' }, `${enc.seconds ?? 0}–${(enc.seconds ?? 0) + (enc.turn_seconds ?? 2)} s · every turn lasts ${enc.turn_seconds ?? 2} seconds`),
    h(
      'ol',
      { class: 'enc-order', attrs: { 'aria-label': 'Turn order' } },
      list.map((c) =>
        h(
          'li',
          {
            class: ['enc-order-item', c.id === cur && 'current', isMine(c, ctx) && 'mine', c.out && 'out'],
            dataset: { cid: c.id, side: c.side ?? '' },
            attrs: { 'aria-current': c.id === cur ? 'true' : null },
          },
          c.name ?? c.id,
          ' ',
          markers(c, enc),
        ),
      ),
    ),
  );
}

// The combatant's private half as the viewer may see it: a PC's own object, or for the GM the
// NPC's /gm/enc object (pre-rolled defence, readied action).
function privOf(c, ctx) {
  if (!c.npc) return c;
  return ctx.isGm ? ctx.state?.gm?.enc?.combatants?.[c.id] ?? {} : {};
}

function renderCombatant(c, enc, ctx) {
  const st = statsOf(c, ctx) || {};
  const pv = privOf(c, ctx);
  const cur = currentId(enc) === c.id;
  const conds = Array.isArray(c.conditions) ? c.conditions : [];
  const defended = c.defended && typeof c.defended === 'object' ? Object.entries(c.defended) : [];
  const def = pv.defence;
  const line = (label, value, cls) => h('div', { class: ['stat', cls], dataset: { stat: cls } }, h('dt', {}, label), h('dd', {}, value));
  return h(
    'div',
    { class: 'enc-card-body heimr-card' },
    h(
      'div',
      { class: 'enc-card-head' },
      h('strong', { class: 'enc-name' }, c.name ?? c.id),
      c.side ? h('span', { class: ['badge', 'side-badge'], dataset: { side: c.side } }, c.side) : null,
      c.npc ? h('span', { class: 'badge' }, 'NPC') : null,
      isMine(c, ctx) ? h('span', { class: 'badge you-badge' }, 'yours') : null,
      cur ? h('span', { class: 'badge turn-badge' }, 'turn') : null,
      c.injury ? h('span', { class: ['badge', 'heimr-injury'], dataset: { injury: c.injury } }, c.injury) : null,
      markers(c, enc),
    ),
    h(
      'dl',
      { class: 'stats' },
      Number.isFinite(st.hp) ? line('HP', `${st.hp}/${st.hp_max ?? '?'}`, 'hp') : null,
      Number.isFinite(st.fatigue) ? line('fatigue', `${st.fatigue} (base ${st.base_fatigue ?? 1})${pv.fatigue_rose ? ' · rose this turn' : ''}`, 'fatigue') : null,
      Number.isFinite(st.willpower) ? line('willpower', `${st.willpower}/${st.willpower_max ?? '?'}`, 'willpower') : null,
      Array.isArray(st.injuries) && st.injuries.length ? line('injured', st.injuries.join(', ').replace(/_/g, ' '), 'injuries') : null,
      c.stance || def ? line('defence', def ? `${def.kind} ${def.result}` : `${c.stance} (pre-rolled)`, 'defence') : null,
      defended.length ? line('defended', defended.map(([k, n]) => `${k} ×${n}`).join(', '), 'defended') : null,
      c.dying ? line('dying', `unconscious round ${c.dying.unconscious}, dead round ${c.dying.dead}`, 'dying') : null,
      pv.ready ? line('readied', `${pv.ready.action} — when ${pv.ready.trigger}`, 'ready') : null,
      c.upcoming ? line('upcoming', c.upcoming.what, 'upcoming') : null,
      c.continuing ? line('continuing', c.continuing.what, 'continuing') : null,
      cur && c.budget && Number.isFinite(c.budget.standard) ? line('standard action', c.budget.standard ? 'left' : 'used', 'budget') : null,
    ),
    conds.length
      ? h(
          'ul',
          { class: 'enc-conditions', attrs: { 'aria-label': 'Conditions' } },
          conds.map((x) => h('li', { class: 'chip cond' }, `${x.name}${x.turns ? ` (${x.turns} turn${x.turns === 1 ? '' : 's'})` : ''}`)),
        )
      : null,
  );
}

// The seconds are in the order's header, the standard action on the current card.
const extraFields = () => ({});

// ---- heimr.between (rules/heimr/between.c): rests, XP, training, climbing and falls ----

const between = {
  renderBanner: (enc) =>
    banner(Number(enc.xp_carry) > 0 ? `${enc.xp_carry} XP kept for the next award` : 'Rest, train and share the XP'),
  renderOrder: () => h('span'),
  renderCombatant(c, enc, ctx) {
    const st = sheetStats(c, ctx);
    const hurt = Number(st.hp) < 1;
    return card(
      c,
      ctx,
      [
        Number.isFinite(st.hp) ? ['hit points', `${st.hp} of ${st.hp_max ?? '?'}${hurt ? ' · needs treatment, no rest' : ''}`, 'hp'] : null,
        Number.isFinite(st.xp) ? ['XP to spend', st.xp, 'xp'] : ['XP to spend', 0, 'xp'],
        Number.isFinite(st.fatigue) ? ['fatigue', st.fatigue, 'fatigue'] : null,
        Array.isArray(st.injuries) && st.injuries.length ? ['injured', st.injuries.map(words).join(', '), 'injuries'] : null,
      ],
      (Array.isArray(st.conditions) ? st.conditions : []).map(words),
    );
  },
  extraFields: () => ({}),
};

registerPanel('heimr', withBetween('heimr.between', { renderOrder, renderCombatant, extraFields }, between));
