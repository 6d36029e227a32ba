// The GRIMWIRE encounter panel (module grimwire.conflict, rules/grimwire/conflict.c): the
// order with who is waiting after a pass (002:421), the action / movement / auxiliary action left
// to whoever has the turn (002:407-411) and the extra light-weapon attacks, a reaction that already
// took a later round's action (002:439), Condition, Focus and burnout, the status effects, and the
// dying and the dead (002:256). What may be done (the combat options of issue 17 too) is the
// server's moves, drawn by the generic panel (js/enc/panel.js), like everything else.
import { registerPanel, combatantsOf, currentId, isMine, statsOf, turnBanner, h } from './panel.js';
import { withBetween, banner, card, sheetStats as betweenStats, words as betweenWords } from './between.js';

const KINDS = [
  ['action', 'Action'],
  ['move', 'Move'],
  ['aux', 'Aux'],
];
const hasCond = (c, name) => (Array.isArray(c?.conditions) ? c.conditions : []).some((x) => x?.name === name);
const label = (s) => String(s).replace(/_/g, ' ');

// {action, move, aux, attacks?} left to c, only while c has the turn.
function left(c, enc) {
  if (currentId(enc) !== c.id || !c.budget) return null;
  return c.budget;
}

function budgetChips(b) {
  const chips = KINDS.map(([k, name]) =>
    h('li', { class: ['chip', 'gw-budget', Number(b[k]) > 0 ? 'left' : 'spent'], dataset: { kind: k }, attrs: { 'aria-label': `${name}: ${Number(b[k]) > 0 ? 'left' : 'used'}` } }, `${name} ${Number(b[k]) > 0 ? '✓' : '–'}`),
  );
  if (Number(b.attacks) > 0) chips.push(h('li', { class: 'chip gw-budget left', dataset: { kind: 'attacks' }, title: 'light-weapon attacks by COR (002:569-579)' }, `+${b.attacks} attack${b.attacks > 1 ? 's' : ''}`));
  return h('ul', { class: 'gw-budget-list', attrs: { 'aria-label': 'Left this turn' } }, chips);
}

// A reaction that took a later round's action: "no action until round N + 1" (002:439).
function reactionNote(c, enc) {
  const s = Number(c.spent?.action ?? 0);
  if (!(enc.round > 0) || s <= enc.round) return null;
  return h('p', { class: 'muted small gw-reacted', title: '002:439' }, `Reaction used round ${s}'s action: no action in round ${s}`);
}

function dyingState(c) {
  if (c.out === 'dead') return 'dead';
  const conds = Array.isArray(c.conditions) ? c.conditions : [];
  return conds.some((x) => x?.name === 'dying') ? 'dying' : null;
}

function renderOrder(enc, ctx) {
  const cur = currentId(enc);
  const inOrder = new Set(Array.isArray(enc.order) ? enc.order : []);
  const list = combatantsOf(enc).filter((c) => inOrder.has(c.id));
  return h(
    'div',
    { class: 'gw-order' },
    h('div', { class: 'muted small' }, enc.round > 0 ? `Round ${enc.round} · 6 seconds` : 'Before initiative (the GM rolls PER)'),
    h(
      'ol',
      { class: 'enc-order', attrs: { 'aria-label': 'Turn order' } },
      list.map((c) =>
        h(
          'li',
          { class: ['enc-order-item', c.id === cur && 'current', isMine(c, ctx) && 'mine', c.out && 'out'], dataset: { cid: c.id, side: c.side ?? '' }, attrs: { 'aria-current': c.id === cur ? 'true' : null } },
          c.name ?? c.id,
          Number.isFinite(c.init) ? h('span', { class: 'muted small' }, ` ${c.init}`) : null,
          c.waiting ? h('span', { class: 'badge', title: 'passed: acts later this round (002:421)' }, 'waiting') : null,
          dyingState(c) ? h('span', { class: 'badge gw-dying' }, dyingState(c)) : null,
        ),
      ),
    ),
    enc.pending ? h('p', { class: 'small gw-pending', title: '002:553-555', attrs: { role: 'status' } }, 'A natural 1: the GM picks who may be hit') : null,
    waitingNote(enc, ctx),
  );
}

// A player's move waiting for the GM's hidden numbers (/enc/waiting): an attack (RULES.md G4)
// needs the target number to hit its target; a build or a repair between the scenes the numbers
// the GM has not set (/gm/enc/waiting/needs: Mind to understand a new kind of object, Coordination
// to assemble it, Resonance for a supernatural one). The table sees it wait; the GM gets one
// prompt with those numbers (the server's `answer` move, its defaults filled in): one tap rolls it.
const BUILD_NUMBERS = [
  ['mnd_tn', 'Mind: to understand how it works', 'Mind'],
  ['cor_tn', 'Coordination: to put it together', 'Coordination'],
  ['rsn_tn', 'Resonance: for its supernatural part', 'Resonance'],
];

// {who, asks, line, numbers: [[param, label, short label]]} of the waiting move, or null.
function waitOf(enc, ctx) {
  const w = enc.waiting;
  if (!w) return null;
  const all = enc.combatants || {};
  if (w.builder) {
    if (!all[w.builder]) return null; // the builder left the scene: the wait is void
    const who = all[w.builder].name ?? 'Someone';
    const item = w.item ?? 'something';
    const needs = ctx.state?.gm?.enc?.waiting?.needs;
    const numbers = BUILD_NUMBERS.filter(([k]) => (Array.isArray(needs) ? needs.includes(k) : k === 'cor_tn'));
    return {
      who,
      asks: `${who} ${w.action === 'repair' ? 'repairs' : 'builds'} ${item}: how hard is it?`,
      line: `${who}'s work on ${item} waits for the GM's numbers.`,
      numbers: numbers.map(([k, l, short]) => [k, `Target number, ${l}`, short]),
    };
  }
  const who = all[w.attacker]?.name ?? 'Someone';
  const target = all[w.target]?.name ?? 'the target';
  return { who, asks: `${who} attacks ${target}: how hard is ${target} to hit?`, line: `${who}'s attack on ${target} waits for the GM's target number.`, numbers: [['tn', 'Target number to hit', 'Target number']] };
}

// The waiting move as the table sees it: a line for a player, the GM's prompt (`short`: the
// banner's one line).
function waitingNote(enc, ctx, short = false) {
  const w = waitOf(enc, ctx);
  if (!w) return null;
  if (!ctx.isGm) return short ? null : h('p', { class: 'gw-waiting', attrs: { role: 'status' } }, w.line);
  const move = (Array.isArray(ctx.moves) ? ctx.moves : []).find((m) => m.action === 'answer');
  const inputs = w.numbers.map(([k]) => h('input', { type: 'number', min: 1, max: 60, required: true, value: String(move?.args?.[k] ?? 11), class: 'gw-answer-tn', dataset: { param: k }, attrs: { inputmode: 'numeric' } }));
  return h(
    'form',
    {
      class: short ? 'gw-banner-answer' : 'gw-waiting gw-answer',
      attrs: { role: short ? null : 'status', 'aria-label': `${w.who}'s move waits for you${short ? ' (banner)' : ''}` },
      onsubmit: (ev) => {
        ev.preventDefault();
        ctx.act('answer', { params: Object.fromEntries(w.numbers.map(([k], i) => [k, Number(inputs[i].value)])) });
      },
    },
    h('p', {}, short ? `Waiting for you: ${w.asks}` : w.asks),
    w.numbers.map(([, l, brief], i) => h('label', {}, `${short ? brief : l} `, inputs[i])),
    h('button', { type: 'submit', class: 'primary gw-answer-go' }, 'Roll it'),
  );
}

// The GM's turn banner repeats a waiting prompt, and stays in view while it waits.
function askingBanner(enc, ctx, line) {
  const ask = ctx.isGm ? waitingNote(enc, ctx, true) : null;
  return ask ? h('div', { class: 'gw-banner asks' }, line, ask) : line;
}

function renderCombatant(c, enc, ctx) {
  const st = statsOf(c, ctx) || {};
  const b = left(c, enc) && { ...left(c, enc), ...ctx.state?.gm?.enc?.combatants?.[c.id]?.budget }; // an NPC's extra attacks are the GM's
  const rows = [];
  const cond = st.condition;
  if (cond && Number.isFinite(cond.current)) rows.push(['Condition', `${cond.current}/${cond.max ?? '?'}${cond.temporary ? ` +${cond.temporary}` : ''}`]);
  if (st.focus && Number.isFinite(st.focus.current)) rows.push(['Focus', `${st.focus.current}/${st.focus.max ?? '?'}`]);
  if (Number(st.burnout) > 0) rows.push(['Burnout', `level ${st.burnout} (${[0, -1, -3, -5, -5][Math.min(4, st.burnout)]} to rolls)`]);
  if (Number(st.armor) > 0) rows.push(['Armor', st.armor]);
  const traits = ['weak', 'resist', 'immune'].filter((k) => Array.isArray(st[k]) && st[k].length).map((k) => `${k} ${st[k].join(', ')}`);
  if (traits.length) rows.push(['Damage', traits.join('; ')]);
  const hidden = ctx.isGm ? ctx.state?.gm?.enc?.combatants?.[c.id] : null;
  const tns = hidden ? ['tn', 'attack_tn', 'terror_tn', 'stabilize_tn'].filter((k) => Number.isFinite(hidden[k])).map((k) => `${label(k)} ${hidden[k]}`) : [];
  const conds = Array.isArray(c.conditions) ? c.conditions.filter((x) => x?.name !== 'dying') : [];
  const dying = dyingState(c);
  return h(
    'div',
    { class: ['enc-card-body', 'gw-card', dying && `gw-${dying}`] },
    h(
      'div',
      { class: 'enc-card-head' },
      h('strong', { class: 'enc-name' }, c.name ?? c.id),
      c.side ? h('span', { class: ['badge', 'side-badge'], dataset: { side: c.side } }, c.side) : null,
      c.npc ? h('span', { class: 'badge' }, 'NPC') : null,
      isMine(c, ctx) ? h('span', { class: 'badge you-badge' }, 'yours') : null,
      currentId(enc) === c.id ? h('span', { class: 'badge turn-badge' }, 'turn') : null,
      dying ? h('span', { class: 'badge gw-dying', title: dying === 'dying' ? 'out cold, -1 Condition each turn, dead below -10 (002:256)' : '002:256' }, dying) : null,
      c.out && c.out !== 'dead' ? h('span', { class: 'badge' }, c.out) : null,
    ),
    b ? budgetChips(b) : null,
    reactionNote(c, enc),
    c.area_due === enc.round && hasCond(c, 'area') ? h('p', { class: 'small gw-area', attrs: { role: 'status' } }, 'In the fire: move out now, or stay and take the damage') : null,
    c.shield?.round === enc.round ? h('p', { class: 'muted small gw-shield' }, `Shielding ${enc.combatants?.[c.shield.target]?.name ?? 'an ally'} this round`) : null,
    rows.length ? h('dl', { class: 'stats' }, rows.map(([k, v]) => h('div', { class: 'stat', dataset: { stat: k } }, h('dt', {}, k), h('dd', {}, String(v))))) : null,
    tns.length ? h('p', { class: 'small gw-tn' }, h('span', { class: 'badge secret-badge' }, 'GM only'), ` ${tns.join(' · ')}`) : null,
    conds.length
      ? h(
          'ul',
          { class: 'enc-conditions', attrs: { 'aria-label': 'Status effects' } },
          conds.map((x) => h('li', { class: 'chip cond' }, `${label(x.name)}${x.turns ? ` (${x.turns})` : ''}${x.level ? ` ${x.level}/turn` : ''}`)),
        )
      : null,
  );
}

// The order, the round's seconds, the budget and a pending natural 1 are shown above.
const extraFields = () => ({});

// ---- grimwire.between (rules/grimwire/between.c): rests, days, burnout, levels, learning,
// building ----

function dayBanner(enc, ctx) {
  const notes = [];
  if (enc.sheltered === false) notes.push('no shelter: nobody can rest');
  else if (enc.supplied === false) notes.push('no food or beds: short rests only');
  return askingBanner(enc, ctx, banner(`Day ${enc.day ?? 1}${notes.length ? ` · ${notes.join(' · ')}` : ''}`));
}

function betweenCard(c, enc, ctx) {
  const st = betweenStats(c, ctx);
  const cond = st.condition || {};
  const focus = st.focus || {};
  const rests = [];
  if (Number(c.short_rests) > 0) rests.push(`${c.short_rests} short`);
  if (c.long_rest) rests.push('long');
  const items = Array.isArray(st.items) ? st.items : [];
  const learning = Array.isArray(st.learning) ? st.learning : [];
  return card(
    c,
    ctx,
    [
      ['level', `${st.level ?? 1} · ${st.xp ?? 0} XP`, 'level'],
      ['Condition', `${cond.current ?? '?'} of ${cond.max ?? '?'}`, 'condition'],
      // dying out of a fight: 1 Condition every 6 seconds until stabilized; dead below -10
      c.out === 'dead' ? ['state', 'dead', 'dying'] : Number(cond.current) <= 0 ? ['state', 'dying: loses 1 Condition every 6 seconds until stabilized', 'dying'] : null,
      ['Focus', `${focus.current ?? '?'} of ${focus.max ?? '?'}`, 'focus'],
      Number(st.burnout) > 0 ? ['burnout', st.burnout, 'burnout'] : null,
      ['rested today', rests.length ? rests.join(' and ') : 'not yet', 'rests'],
      Number(c.unrested) > 0 ? ['days without a long rest', c.unrested, 'unrested'] : null,
      Number(st.learning_hours) > 0 ? ['learning hours', st.learning_hours, 'hours'] : null,
      learning.length ? ['learning', learning.map((x) => `${x.name} ${x.points}/${x.effort}`).join(', '), 'learning'] : null,
      Array.isArray(st.learned) && st.learned.length ? ['learned, not ready', st.learned.join(', '), 'learned'] : null,
      items.length ? ['built', items.map((x) => `${x.name}${x.unstable_die ? ' (unstable)' : ''}${x.broken ? ' (broken)' : ''}`).join(', '), 'items'] : null,
    ],
    (Array.isArray(c.causes) ? c.causes : []).map(betweenWords),
  );
}

// a build waiting for the GM: the player's line, the GM's prompt
const betweenWait = (enc, ctx) => waitingNote(enc, ctx) ?? h('span');
const betweenGrim = { renderBanner: dayBanner, renderOrder: betweenWait, renderCombatant: betweenCard, extraFields: () => ({}) };
// the GM's turn banner with the waiting attack's prompt (null: the generic banner alone)
const fightBanner = (enc, ctx) => (ctx.isGm && enc.waiting ? askingBanner(enc, ctx, turnBanner(enc, ctx)) : null);

// the GM's question of a waiting move and its answer are the prompt's (not a raw line of the GM's
// values, not a second button)
registerPanel('grimwire', { ...withBetween('grimwire.between', { renderBanner: fightBanner, renderOrder, renderCombatant, extraFields }, betweenGrim), gmShown: ['waiting'], ownMoves: ['answer'] });
