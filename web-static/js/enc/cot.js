// The City of Thieves encounter panel (modules cot.initiative and cot.warfare, rules/cot/enc_cot.c;
// rules/RULES.md "cot", "Encounters"). What is cot's own: the initiative slots, highest first,
// with the side that owns each and who claimed it this round; the Focus Round; per combatant its
// Cover (a PC's is public; an NPC's only the GM sees, from /gm/enc) and its state (Wounded with
// the days to recover, Aware, Restrained, fleeing, Bolstered, out). Everything else is the
// generic panel's (js/enc/panel.js).
import { registerPanel, h, isMine, statsOf } from './panel.js';
import { withSocial } from './social.js';
import { words } from '../words.js';
import './chase.js'; // cot.chase's own panel
import './heist.js'; // cot.heist's own panel

const nameOf = (enc, cid) => enc?.combatants?.[cid]?.name ?? cid;
const list = (x) => (Array.isArray(x) ? x : []);
const condOf = (c, name) => list(c.conditions).find((x) => x && x.name === name);

// The current slot object, or null (between rounds, before round 1).
function currentSlot(enc) {
  const order = list(enc.order);
  return Number.isInteger(enc.turn) && enc.turn >= 0 && enc.turn < order.length ? order[enc.turn] : null;
}

// How many slots cid may take this round: one; in a Focus Round its character one plus the slots
// given, a crewmate who gave none (000:38-40). Mirrors claim_limit in enc_cot.c.
function limitOf(enc, cid) {
  const f = enc.focus;
  if (f && f.by === cid) return 1 + list(f.given).length;
  if (f && list(f.given).includes(cid)) return 0;
  return 1;
}

// Whether combatant c may act at the current slot (cot_may_act in enc_cot.c).
function mayTakeSlot(enc, c) {
  const s = currentSlot(enc);
  if (!s || c.out) return false;
  if (s.claimed_by) return s.claimed_by === c.id;
  return c.side === s.side && list(c.claimed).length < limitOf(enc, c.id);
}

function renderOrder(enc, ctx) {
  const order = list(enc.order);
  const mySides = new Set(Object.values(enc.combatants || {}).filter((c) => isMine(c, ctx)).map((c) => c.side));
  const f = enc.focus;
  return h(
    'div',
    { class: 'cot-slots' },
    enc.pool ? h('p', { class: 'muted small' }, `Initiative (${words(enc.stage ?? 'stage')}): ${enc.pool}`) : null,
    order.length
      ? h(
          'ol',
          { class: 'enc-order cot-slot-list', attrs: { 'aria-label': 'Initiative slots' } },
          order.map((s, i) => {
            const cur = i === enc.turn;
            return h(
              'li',
              { class: ['enc-order-item', cur && 'current', mySides.has(s.side) && 'mine'], dataset: { slot: s.id, side: s.side }, attrs: { 'aria-current': cur ? 'true' : null } },
              h('strong', { class: 'cot-slot-total' }, `Slot ${s.total}`),
              ' ',
              h('span', { class: ['badge', 'side-badge'], dataset: { side: s.side } }, s.side),
              ' ',
              s.claimed_by
                ? h('span', { class: 'cot-claimed' }, `taken by ${nameOf(enc, s.claimed_by)}`)
                : h('span', { class: 'muted small' }, cur ? 'up now: its side picks who takes it' : 'open'),
            );
          }),
        )
      : h('p', { class: 'muted small' }, 'No slots yet: each combatant rolls one when added.'),
    enc.round === 0 && order.length ? h('p', { class: 'muted small' }, 'The GM begins round 1 (Begin round 1).') : null,
    f
      ? h(
          'p',
          { class: 'cot-focus' },
          h('span', { class: 'badge' }, 'Focus Round'),
          ` ${nameOf(enc, f.by)} may take ${1 + list(f.given).length} slot${list(f.given).length ? 's' : ''} this round`,
          list(f.given).length ? ` (given by ${list(f.given).map((g) => nameOf(enc, g)).join(', ')})` : '',
        )
      : null,
  );
}

function stateChips(c, enc, stats) {
  const chips = [];
  if (c.out) chips.push(h('li', { class: 'chip cond cot-out' }, String(c.out)));
  if (condOf(c, 'wounded')) {
    const days = Number.isInteger(stats?.recovery_days) ? `, ${stats.recovery_days} days` : '';
    chips.push(h('li', { class: 'chip cond cot-wounded' }, `Wounded${days}`));
  }
  const r = condOf(c, 'restrained');
  if (r) chips.push(h('li', { class: 'chip cond' }, `Restrained by ${nameOf(enc, r.by)}`));
  if (condOf(c, 'aware')) chips.push(h('li', { class: 'chip cond' }, 'Aware'));
  if (condOf(c, 'fleeing')) chips.push(h('li', { class: 'chip cond' }, 'Fleeing'));
  const b = condOf(c, 'bolstered');
  if (b) chips.push(h('li', { class: 'chip cond' }, `Bolstered +${b.level ?? 1}k0`));
  return chips;
}

function renderCombatant(c, enc, ctx) {
  const stats = statsOf(c, ctx) || {};
  const hiddenCover = c.npc && !ctx.isGm;
  const cover = Number.isInteger(stats.cover) ? stats.cover : null;
  const chips = stateChips(c, enc, stats);
  const claimed = list(c.claimed).map((id) => list(enc.order).find((s) => s.id === id)?.total).filter((x) => x !== undefined);
  return h(
    'div',
    { class: 'enc-card-body' },
    h(
      'div',
      { class: 'enc-card-head' },
      h('strong', { class: 'enc-name' }, c.name ?? c.id),
      c.side ? h('span', { class: ['badge', 'side-badge'], dataset: { side: c.side } }, c.side) : null,
      c.npc ? h('span', { class: 'badge' }, 'NPC') : null,
      isMine(c, ctx) ? h('span', { class: 'badge you-badge' }, 'yours') : null,
      mayTakeSlot(enc, c) && !c.npc ? h('span', { class: 'badge turn-badge' }, 'may take this slot') : null,
    ),
    enc.module === 'cot.warfare' || cover !== null
      ? h(
          'p',
          { class: 'cot-cover', dataset: { stat: 'cover' } },
          'Cover ',
          hiddenCover ? h('span', { class: 'muted' }, 'hidden') : h('strong', {}, cover === null ? '—' : String(cover)),
          c.npc && ctx.isGm ? h('span', { class: 'badge secret-badge' }, 'GM only') : null,
        )
      : null,
    claimed.length ? h('p', { class: 'muted small' }, `This round: slot ${claimed.join(', slot ')}`) : null,
    chips.length ? h('ul', { class: 'enc-conditions', attrs: { 'aria-label': 'State' } }, chips) : null,
  );
}

// The actions the viewer may take now: the GM every one; a player the turn actions when one of
// their characters may take the current slot, Focus Round and Give when the rules allow them.
function actionsFor(enc, ctx) {
  const actions = list(ctx.module?.actions);
  if (ctx.isGm) return actions.filter((a) => a.name !== 'begin' || !(enc.round > 0)).map((a) => a.name);
  const mine = Object.entries(enc.combatants || {})
    .map(([id, c]) => ({ id, ...c }))
    .filter((c) => isMine(c, ctx) && !c.out);
  const myTurn = mine.some((c) => mayTakeSlot(enc, c));
  const f = enc.focus;
  const out = [];
  for (const a of actions) {
    if (a.who === 'turn' && myTurn) out.push(a.name);
    if (a.name === 'focus' && !f && mine.some((c) => !c.stats?.focus_used)) out.push(a.name);
    if (a.name === 'give' && f && mine.some((c) => c.id !== f.by && c.side === enc.combatants?.[f.by]?.side && !list(f.given).includes(c.id) && !list(c.claimed).length)) out.push(a.name);
  }
  return out;
}

// Stage and pool head the slots, the Focus Round is shown there; next_slot is bookkeeping.
const extraFields = () => ({});

registerPanel('cot', withSocial({ renderOrder, renderCombatant, actionsFor, extraFields }));
