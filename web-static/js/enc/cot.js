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

// Whether combatant c may take the current slot: the server offers a turn move for it.
const mayTakeSlot = (c, ctx) => list(ctx.moves).some((m) => m.actor === c.id && m.who === 'turn');

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
      mayTakeSlot(c, ctx) && !c.npc ? h('span', { class: 'badge turn-badge' }, 'may take this slot') : null,
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

// Stage and pool head the slots, the Focus Round is shown there; next_slot is bookkeeping.
const extraFields = () => ({});

registerPanel('cot', withSocial({ renderOrder, renderCombatant, extraFields }));
