// The tenacity encounter panel (module tenacity.spotlight, rules/RULES.md "Encounters (module
// tenacity.spotlight)" and "Combat options"): who holds the spotlight, who has acted this round,
// who may respond, stress / wounds / spin / 10acity per combatant, and the fight's states in plain
// words (cover, prone, high ground, size, a grapple or lock, a held action, help, the GM's offer).
// The moves offered are the ones the rules allow this viewer now. Everything else is the generic
// panel's.
import { registerPanel, combatantsOf, isMine, h } from './panel.js';
import { betweenHead, betweenCard, nameIn } from './between.js';
import { withSocial } from './social.js';

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

// The card: name and badges, the turn budget of the spotlight holder only, and stress / wounds /
// spin / 10acity (for an NPC the GM's copy, GM only; a sheetless one's challenge dice too).
function renderCombatant(c, enc, ctx) {
  const s = statsOf(c, enc, ctx);
  const holds = enc.spotlight === c.id;
  const conds = list(c.conditions);
  const bits = [];
  if (s) {
    const spin = Number.isFinite(s.spin) ? s.spin : 0;
    bits.push(['stress', track(s.stress)], ['wounds', track(s.wounds)], ['spin', spin < 0 ? `${-spin} negative` : String(spin)]);
    if (Number.isFinite(s.tenacity)) bits.push(['10acity', String(s.tenacity)]);
    if (Number.isFinite(s.challenge_dice)) bits.push(['challenge', `${s.challenge_dice}d6+${s.challenge_bonus ?? 0}`]);
    if (Number.isFinite(s.impact_dice)) bits.push(['impact', `${s.impact_dice}d4+${s.impact_bonus ?? 0}`]);
    if (s.unconscious) bits.push(['state', 'unconscious']);
  }
  if (c.coup) bits.push(['coup de grâce', `on ${enc.combatants?.[c.coup.target]?.name ?? c.coup.target}`]);
  for (const b of optionBits(c, enc, ctx)) bits.push(b);
  if (list(enc.edge).includes(c.id)) bits.push(['group', '+1 advantage die on the first action']);
  const b = holds && c.budget ? c.budget : null;
  const left = b ? ['action', 'interaction', 'move'].map((k) => `${k} ${Number(b[k]) > 0 ? '✓' : '–'}`).join(' · ') : null;
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
      holds ? h('span', { class: 'badge turn-badge' }, 'spotlight') : null,
      c.out ? h('span', { class: 'badge' }, String(c.out)) : null,
      c.npc && ctx.isGm && s ? h('span', { class: 'badge secret-badge' }, 'GM only') : null,
    ),
    left ? h('p', { class: 'small enc-left', dataset: { stat: 'left' } }, h('span', { class: 'muted' }, 'Left this turn: '), left) : null,
    bits.length
      ? h(
          'dl',
          { class: 'stats tenacity' },
          bits.map(([k, v]) => h('div', { class: 'stat', dataset: { stat: k } }, h('dt', {}, k), h('dd', {}, v))),
        )
      : null,
    conds.length
      ? h(
          'ul',
          { class: 'enc-conditions', attrs: { 'aria-label': 'Conditions' } },
          conds.map((x) => h('li', { class: 'chip cond' }, typeof x === 'string' ? x : String(x?.what ?? x?.name ?? '?') + (x?.kind ? ` (${x.kind}${x.level ? ` ${x.level}` : ''})` : ''))),
        )
      : null,
  );
}

// The combat options' states of a combatant, in words (rules/tenacity/options.c).
const COVER = { partial: 'partial cover', full: 'completely behind hard cover', soft: 'behind soft cover' };
function optionBits(c, enc, ctx) {
  const name = (id) => enc.combatants?.[id]?.name ?? id;
  const out = [];
  const where = [];
  if (c.cover) where.push(COVER[c.cover] ?? c.cover);
  if (c.prone) where.push('prone');
  if (c.elevated) where.push('on high ground');
  if (where.length) out.push(['position', where.join(', ')]);
  if (Number.isFinite(c.size) && c.size) out.push(['size', `${c.size > 0 ? '+' : ''}${c.size} step${Math.abs(c.size) === 1 ? '' : 's'}`]);
  if (c.grip) out.push(['held', `${c.grip.locked ? 'locked' : 'grappled'} by ${name(c.grip.by)}`]);
  if (c.gripping) out.push(['holding', name(c.gripping)]);
  if (c.held) {
    const trigger = c.held.trigger ?? (ctx.isGm ? ctx.state?.gm?.enc?.combatants?.[c.id]?.held_trigger : null);
    out.push(['waiting', `holds the ${c.held.what === 'move' ? 'movement' : 'action'}${trigger ? ` until ${trigger}` : ''}`]);
  }
  // an NPC helper's skill is the GM's (rules/tenacity/options.c)
  const helpSkill = c.help_skill ?? (ctx.isGm ? ctx.state?.gm?.enc?.combatants?.[c.id]?.help_skill : null);
  if (c.helped_by) out.push(['help', `from ${name(c.helped_by)}${helpSkill ? ` (${helpSkill})` : ''}: a die on a quick roll, or added impact`]);
  // a hider's roll is the challenge to find them (003:73): a PC's open, an NPC's the GM's
  const hidden = (c.conditions ?? []).find((x) => x?.name === 'hidden');
  const stealth = hidden?.level || (ctx.isGm ? ctx.state?.gm?.enc?.combatants?.[c.id]?.stealth : null);
  if (hidden) out.push(['hidden', stealth ? `${stealth} to find` : 'unseen']);
  if (c.offer) out.push(['offer', `${c.offer.cost}, for ${c.offer.negative} negative spin`]);
  const resist = c.resist ?? (ctx.isGm ? ctx.state?.gm?.enc?.combatants?.[c.id]?.resist : null);
  if (resist && Object.keys(resist).length) out.push(['resists', Object.entries(resist).map(([k, v]) => `${k} ${v}`).join(', ')]);
  return out;
}

// Who holds the spotlight, who acted and who may respond are in the order; the modes stay.
function extraFields(enc) {
  const o = enc.options || {};
  const out = {};
  if (o.hardcore) out.mode = 'hardcore';
  if (o.group) out.initiative = 'by group';
  return out;
}

// ---- Between the scenes (module tenacity.between, rules/tenacity/between.c) -------------------
// The day, every task with its progress (each climber's impact against the deadline, the explored
// scene's pool, the craft's total) and who tends whom; a card with stress, wounds, the recovery
// towards the next wound (5 x wounds, 003:74) and 10acity. Who may act: the generic rule.
const BETWEEN = 'tenacity.between';

function taskLine(name, t, enc) {
  if (t?.kind === 'explore') return `${name}: ${t.pool ?? 0} impact in the pool to spend`;
  if (t?.kind === 'craft') return `${name}: ${t.total ?? 0} of ${t.need} impact${t.done ? ', finished' : ''}`;
  const who = Object.entries(t?.by || {}).map(([id, p]) => `${nameIn(enc, id)} ${p.impact}/${t.need}${p.done ? ' made it' : p.failed ? ' out of time' : ` (try ${p.tries}${t.rounds ? ` of ${t.rounds}` : ''})`}`);
  const head = `${name}: ${t?.need} impact${t?.rounds ? ` within ${t.rounds} rounds` : ''}`;
  return who.length ? `${head} — ${who.join(', ')}` : head;
}

// Who tends whom, with the healer's skill: a PC's is in /enc/care, an NPC's only the GM sees
// (/gm/enc/care/<patient>.skill); without one the line names no skill.
function betweenOrder(enc, ctx) {
  const tasks = Object.entries(enc.tasks || {}).map(([n, t]) => taskLine(n, t, enc));
  const hidden = ctx?.isGm ? ctx.state?.gm?.enc?.care || {} : {};
  const care = Object.entries(enc.care || {}).map(([p, c]) => {
    const skill = c.skill ?? hidden[p]?.skill;
    return `${nameIn(enc, c.by)} tends ${nameIn(enc, p)}${skill ? ` (${skill})` : ''}`;
  });
  return betweenHead([`Day ${enc.day ?? 0}`, ...tasks, ...care]);
}

function betweenCombatant(c, enc, ctx) {
  return betweenCard(c, ctx, (s) => {
    const w = s.wounds?.current ?? 0;
    return [
      ['stress', track(s.stress)],
      ['wounds', track(s.wounds)],
      ['recovery', w > 0 ? `${s.recovery ?? 0} of ${5 * w}` : null],
      ['10acity', Number.isFinite(s.tenacity) ? s.tenacity : null],
    ];
  });
}

const between = (enc) => enc?.module === BETWEEN;

registerPanel(
  'tenacity',
  withSocial(
    {
      renderOrder: (enc, ctx) => (between(enc) ? betweenOrder(enc, ctx) : renderOrder(enc, ctx)),
      renderCombatant: (c, enc, ctx) => (between(enc) ? betweenCombatant(c, enc, ctx) : renderCombatant(c, enc, ctx)),
      extraFields: (enc) => (between(enc) ? {} : extraFields(enc)),
      gmShown: ['care'], // tenacity.between: an NPC healer's skill, in the line of who tends whom
    },
    { replace: true },
  ),
);
