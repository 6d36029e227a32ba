// The FIVEY encounter panel (module fivey.combat, rules/fivey/enc_fivey.c): the initiative order
// with who beat the opposition, the ◆ left of whoever has the turn (2 per turn, 004:674), hit
// points, defense class, inspiration dice, leaders, the dead and the fled, and a side due a morale
// check. Everything else is the generic panel's (js/enc/panel.js).
import { registerPanel, combatantsOf, currentId, isMine, statsOf, h } from './panel.js';
import { betweenHead, betweenCard } from './between.js';

const DIAMONDS = 2; // 004:674 "All characters can perform 2 actions ◆ during their turn."

function diamondsLeft(c, enc) {
  if (currentId(enc) !== c.id) return null;
  const left = Number(c.budget?.actions ?? 0);
  const max = Number(enc.budget?.actions ?? DIAMONDS);
  return { left, max };
}

function diamonds({ left, max }) {
  return h(
    'span',
    { class: 'fivey-diamonds', attrs: { 'aria-label': `${left} of ${max} actions left`, title: `${left} of ${max} ◆ left` } },
    '◆'.repeat(Math.max(0, left)) + '◇'.repeat(Math.max(0, max - left)),
  );
}

function hpText(st) {
  const hp = st?.hp;
  if (!hp || !Number.isFinite(hp.max)) return null;
  return `${Math.max(0, hp.max - (hp.damage ?? 0))}/${hp.max}`;
}

function renderOrder(enc, ctx) {
  const cur = currentId(enc);
  const inOrder = new Set((enc.order || []).map((o) => (typeof o === 'object' ? o?.id : o)));
  const list = combatantsOf(enc).filter((c) => inOrder.has(c.id));
  const phase = enc.phase === 'surprise' ? 'Surprise: free turns' : enc.round > 0 ? `Round ${enc.round}` : 'Before initiative';
  return h(
    'div',
    { class: 'fivey-order' },
    h('div', { class: 'muted small fivey-phase' }, phase),
    h(
      'ol',
      { class: 'enc-order', attrs: { 'aria-label': 'Turn order' } },
      list.map((c) => {
        const d = diamondsLeft(c, enc);
        return h(
          'li',
          {
            class: ['enc-order-item', c.id === cur && 'current', isMine(c, ctx) && 'mine', c.out && 'out'],
            dataset: { cid: c.id, side: c.side ?? '' },
            attrs: { 'aria-current': c.id === cur ? 'true' : null },
          },
          c.name ?? c.id,
          c.won ? [' ', h('span', { class: 'badge', title: 'beat the opposition at initiative (004:666)' }, 'first')] : null,
          c.out ? [' ', h('span', { class: 'badge' }, c.out)] : null,
          d ? ' ' : null,
          d ? diamonds(d) : null,
        );
      }),
    ),
  );
}

function renderCombatant(c, enc, ctx) {
  const st = statsOf(c, ctx);
  const d = diamondsLeft(c, enc);
  const due = enc.morale?.[c.side]?.due;
  const rows = [];
  const hp = hpText(st);
  if (hp) rows.push(['HP', hp]);
  if (Number.isFinite(st?.defense)) rows.push(['DC', st.defense]);
  if (Number.isFinite(st?.inspiration)) rows.push(['Inspiration', st.inspiration]);
  if (st?.bracket) rows.push(['Bracket', `${st.bracket} (HD ${st.hd}, GA +${st.ga}, ${st.die})`]);
  for (const w of Array.isArray(st?.weapons) ? st.weapons : []) rows.push([w.name, `+${w.bonus}, ${w.die}+${w.stat}`]);
  const conds = Array.isArray(c.conditions) ? c.conditions : [];
  return h(
    'div',
    { class: ['enc-card-body', 'fivey-card', c.out && 'out'] },
    h(
      'div',
      { class: 'enc-card-head' },
      h('strong', { class: 'enc-name' }, c.name ?? c.id),
      c.side ? h('span', { class: ['badge', 'side-badge'], dataset: { side: c.side } }, c.side) : null,
      c.npc ? h('span', { class: 'badge' }, 'NPC') : null,
      c.leader ? h('span', { class: 'badge' }, 'leader') : null,
      isMine(c, ctx) ? h('span', { class: 'badge you-badge' }, 'yours') : null,
      currentId(enc) === c.id ? h('span', { class: 'badge turn-badge' }, 'turn') : null,
      c.out ? h('span', { class: 'badge' }, c.out) : null,
      due ? h('span', { class: 'badge', title: 'a morale check is due (004:670)' }, 'morale!') : null,
    ),
    d ? h('div', { class: 'enc-budget' }, h('span', { class: 'muted small' }, 'Actions left '), diamonds(d)) : null,
    rows.length
      ? h(
          'dl',
          { class: 'stats' },
          rows.map(([k, v]) => h('div', { class: 'stat', dataset: { stat: k } }, h('dt', {}, k), h('dd', {}, String(v)))),
        )
      : null,
    conds.length ? h('ul', { class: 'enc-conditions' }, conds.map((x) => h('li', { class: 'chip cond' }, x?.name ?? String(x)))) : null,
  );
}

// Turn actions only for whoever has the turn, and those costing ◆ only while ◆ are left.
function actionsFor(enc, ctx) {
  const mod = ctx.module;
  const acts = Array.isArray(mod?.actions) ? mod.actions : [];
  const cur = currentId(enc);
  const c = cur ? enc.combatants?.[cur] : null;
  const mayTurn = Boolean(c) && (ctx.isGm || isMine(c, ctx));
  const left = Number(c?.budget?.actions ?? 0);
  return acts
    .filter((a) => {
      if (a.who === 'gm') return ctx.isGm;
      if (a.who !== 'turn') return true;
      if (!mayTurn) return false;
      return a.name === 'end' || left > 0;
    })
    .map((a) => a.name);
}

// /enc/party, /enc/budget and /enc/phase are shown above; morale as a badge on the cards.
const extraFields = () => ({});

// ---- Between the scenes (module fivey.between, rules/fivey/between.c) -------------------------
// The day and its travel hours (12, +4 a march, 004:511-527), the site clock (x-in-20, 004:547),
// the tennite; a card with level, experience (and what the next level needs, 004:387-393), hit
// points, inspiration and crowns. Who may act: the generic rule.
const BETWEEN = 'fivey.between';
const LEVEL_XP = [0, 100, 300, 600, 1000, 1500]; // 004:387-393

function betweenOrder(enc) {
  return betweenHead([
    `Day ${enc.day ?? 1} · ${enc.hours ?? 0} of ${enc.limit ?? 12} travel hours used`,
    enc.site > 0 ? `In a site: the clock stands at ${enc.site} (a ${enc.site}-in-20 chance of an encounter)` : null,
    enc.tennite > 0 ? `Downtime rounds: ${enc.tennite}` : null,
  ]);
}

function betweenCombatant(c, enc, ctx) {
  return betweenCard(c, ctx, (s) => {
    const next = LEVEL_XP[(s.level ?? 0) + 1];
    return [
      ['Level', s.level ?? null],
      ['XP', Number.isFinite(s.xp) ? (next ? `${s.xp} (next level at ${next})` : s.xp) : null],
      ['HP', hpText(s)],
      ['Inspiration', s.inspiration ?? null],
      ['Crowns', s.crowns ?? null],
      ['Rest', (enc.rested || []).includes(c.id) ? 'taken tonight' : null],
    ];
  });
}

const between = (enc) => enc?.module === BETWEEN;

registerPanel('fivey', {
  renderOrder: (enc, ctx) => (between(enc) ? betweenOrder(enc) : renderOrder(enc, ctx)),
  renderCombatant: (c, enc, ctx) => (between(enc) ? betweenCombatant(c, enc, ctx) : renderCombatant(c, enc, ctx)),
  actionsFor: (enc, ctx) => (between(enc) ? null : actionsFor(enc, ctx)),
  extraFields: (enc) => (between(enc) ? {} : extraFields(enc)),
});
