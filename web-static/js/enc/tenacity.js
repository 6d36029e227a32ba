// The tenacity encounter panel (module tenacity.spotlight, rules/RULES.md "Encounters (module
// tenacity.spotlight)"): who holds the spotlight, who has acted this round, who may respond, and
// stress / wounds / spin / 10acity per combatant. Everything else is the generic panel's.
import { registerPanel, combatantsOf, isMine, cardFor, h } from './panel.js';

const list = (v) => (Array.isArray(v) ? v : []);

// A combatant's numbers: public stats for a PC, the GM's copy for an NPC (GM only).
function statsOf(c, enc, ctx) {
  if (c.stats) return c.stats;
  return ctx.state?.gm?.enc?.combatants?.[c.id]?.stats || null;
}

function track(t) {
  return t && Number.isFinite(t.current) && Number.isFinite(t.max) ? `${t.current}/${t.max}` : '—';
}

function renderOrder(enc, ctx) {
  const acted = new Set(list(enc.acted));
  const recalled = new Set(list(enc.recalled));
  const groups = list(enc.groups);
  const items = combatantsOf(enc).map((c) => {
    const holds = enc.spotlight === c.id;
    const notes = [];
    if (holds) notes.push(enc.choosing ? 'chooses who is next' : 'spotlight');
    if (enc.responder === c.id) notes.push('responding');
    if (acted.has(c.id)) notes.push('acted');
    if (recalled.has(c.id)) notes.push('may respond');
    if (c.out) notes.push(String(c.out));
    return h(
      'li',
      {
        class: ['enc-order-item', holds && 'current', acted.has(c.id) && 'acted', isMine(c, ctx) && 'mine'],
        dataset: { cid: c.id, side: c.side ?? '' },
        attrs: { 'aria-current': holds ? 'true' : null },
      },
      holds ? '★ ' : '',
      c.name ?? c.id,
      notes.length ? h('span', { class: 'muted small' }, ` (${notes.join(', ')})`) : null,
    );
  });
  const head = enc.round > 0 ? `Round ${enc.round}` : 'Initiative not rolled yet';
  const group = groups.length ? ` · groups: ${groups.join(' then ')} (acting: ${groups[enc.group] ?? '—'})` : '';
  return h(
    'div',
    { class: 'enc-spotlight' },
    h('div', { class: 'muted small' }, head + group),
    h('ol', { class: 'enc-order', attrs: { 'aria-label': 'Spotlight' } }, items),
  );
}

function renderCombatant(c, enc, ctx) {
  const { stats, ...rest } = c; // the generic card would list the whole skills map
  const card = cardFor(rest, enc, ctx);
  const s = statsOf(c, enc, ctx);
  if (!s) return card;
  const spin = Number.isFinite(s.spin) ? s.spin : 0;
  const bits = [
    ['stress', track(s.stress)],
    ['wounds', track(s.wounds)],
    ['spin', spin < 0 ? `${-spin} negative` : String(spin)],
  ];
  if (Number.isFinite(s.tenacity)) bits.push(['10acity', String(s.tenacity)]);
  if (s.unconscious) bits.push(['state', 'unconscious']);
  if (c.coup) bits.push(['coup de grâce', `on ${enc.combatants?.[c.coup.target]?.name ?? c.coup.target}`]);
  if (list(enc.edge).includes(c.id)) bits.push(['group', '+1 advantage die on the first action']);
  card.append(
    h(
      'dl',
      { class: 'stats tenacity' },
      bits.map(([k, v]) => h('div', { class: 'stat', dataset: { stat: k } }, h('dt', {}, k), h('dd', {}, v))),
    ),
  );
  return card;
}

const GM_ONLY = new Set(['initiative', 'spotlight']);
const OWNER = new Set(['respond', 'overflow']);

function actionsFor(enc, ctx) {
  const all = list(ctx.module?.actions).map((a) => a.name);
  if (ctx.isGm) return all;
  const mine = combatantsOf(enc).filter((c) => isMine(c, ctx));
  if (!mine.length) return [];
  const ids = new Set(mine.map((c) => c.id));
  const out = new Set(['overflow']);
  if (list(enc.recalled).some((id) => ids.has(id))) out.add('respond');
  const acting = enc.responder ? ids.has(enc.responder) : !enc.responder && ids.has(enc.spotlight);
  if (acting) for (const a of all) if (!GM_ONLY.has(a) && !OWNER.has(a)) out.add(a);
  return all.filter((a) => out.has(a));
}

registerPanel('tenacity', { renderOrder, renderCombatant, actionsFor });
