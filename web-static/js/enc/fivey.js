// The FIVEY encounter panel (module fivey.combat, rules/fivey/enc_fivey.c): the initiative order
// with who beat the opposition, the ◆ left of whoever has the turn (2 per turn, 004:674), hit
// points, defense class, inspiration dice, armor, spells and the casts left, leaders, the dead and
// the fled, and a side due a morale check. Cast is offered with a pick of the caster's spells,
// only while a cast and both ◆ are left. Everything else is the generic panel's (js/enc/panel.js).
//
// The social encounter (module fivey.social, rules/fivey/social.c) replaces the order with the
// conversation: their disposition as this viewer knows it (the GM sees it and what it will and
// won't do before the reveal; a player sees only that the GM judged it, until revealed), who
// speaks for the party, what the one request asks, and its answer; the request is one button,
// only for the speaker's player and only until it is made.
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
  if (st?.armor && st.armor !== 'none') rows.push(['Armor', st.armor]);
  if (spellsOf(st).length) {
    rows.push(['Spells', spellsOf(st).map((x) => x.name).join(', ')]);
    rows.push(['Casts left', `${castsLeft(st)} of ${st.spell_slots?.max ?? 0}`]);
  }
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

// Spells (004:481-505): the ones the sheet carries and the casts left before a rest.
const spellsOf = (st) => (Array.isArray(st?.spells) ? st.spells.filter((x) => x && typeof x.name === 'string') : []);
function castsLeft(st) {
  const s = st?.spell_slots;
  return s && Number.isFinite(s.max) ? Math.max(0, s.max - (s.used ?? 0)) : 0;
}

// ---- fivey.social ----

const isSocial = (enc) => enc?.module === 'fivey.social';

const ASKS = { help: 'to help', danger: 'to help at their own risk', spare: 'not to attack the party' };
const EDGES = { adv: 'with advantage for the conversation', dis: 'with disadvantage for the conversation' };

// One line of the conversation: a label and its value, one under the other on a phone.
function row(key, label, ...value) {
  return h('p', { class: 'fivey-social-row', dataset: { social: key } }, h('span', { class: 'muted small' }, `${label}: `), h('span', { class: 'value' }, ...value));
}

function renderSocial(enc, ctx) {
  const gm = ctx.isGm ? ctx.state?.gm?.enc || {} : {};
  const name = (cid) => enc.combatants?.[cid]?.name ?? cid;
  const rows = [];
  // Their disposition: public once revealed; before that, the GM's alone.
  if (enc.disposition) rows.push(row('disposition', 'Their disposition', enc.disposition));
  else if (ctx.isGm && gm.disposition) {
    const roll = gm.reaction?.rolled && Number.isFinite(gm.reaction.natural) ? ` (rolled ${gm.reaction.natural})` : ' (your pick)';
    rows.push(row('disposition', 'Their disposition', `${gm.disposition}${roll} `, h('span', { class: 'badge secret-badge' }, 'GM only, not revealed')));
  }
  else rows.push(row('disposition', 'Their disposition', enc.reacted ? 'the GM has judged how they react' : 'not judged yet'));
  rows.push(row('talker', 'Speaking for the party', enc.talker ? name(enc.talker) : 'nobody yet'));
  const t = enc.terms;
  if (t) rows.push(row('terms', 'The request', `asks them ${ASKS[t.ask] ?? t.ask}: charisma against DC ${t.dc}${EDGES[t.edge] ? `, ${EDGES[t.edge]}` : ''}`));
  const r = enc.request;
  if (r)
    rows.push(
      row(
        'answer',
        'The answer',
        `${name(r.by)} asked: ${r.what}. Charisma ${r.total} against DC ${r.dc}: ${r.success ? 'success' : 'failure'}; `,
        h('strong', { class: r.granted ? 'social-yes' : 'social-no' }, r.granted ? 'they agree' : 'they refuse'),
      ),
    );
  return h(
    'div',
    { class: 'fivey-social', attrs: { role: 'group', 'aria-label': 'The conversation' } },
    rows,
    ctx.isGm && gm.will ? h('p', { class: 'muted small fivey-will' }, h('span', { class: 'badge secret-badge' }, 'GM only'), ' ', gm.will) : null,
  );
}

// No turns in a conversation: the banner says what this seat may do now.
function socialBanner(enc, ctx) {
  const talker = enc.talker ? enc.combatants?.[enc.talker] : null;
  const mine = !ctx.isGm && Boolean(talker) && isMine(talker, ctx);
  let text;
  if (enc.request) text = 'The party has made its one request.';
  else if (!enc.reacted) text = ctx.isGm ? 'Roll how they first react (or pick it).' : 'The party meets them: the GM judges how they react.';
  else if (!talker) text = ctx.isGm ? 'Name who speaks for the party.' : 'Talk with them: the GM names who speaks for the party.';
  else if (mine) text = enc.terms ? `Your move, ${talker.name}: make the one request.` : `${talker.name} speaks for the party: talk, then the GM sets the request.`;
  else text = `${talker.name ?? enc.talker} speaks for the party.`;
  const yourMove = mine && !enc.request && Boolean(enc.terms);
  return h('p', { class: ['turn-banner', yourMove && 'mine'], attrs: { role: 'status' } }, text);
}

// /enc/party, /enc/budget and /enc/phase are shown above; morale as a badge on the cards; the
// social module's fields in its conversation box.
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
      ['Spell casts', spellsOf(s).length ? `${castsLeft(s)} of ${s.spell_slots?.max ?? 0} left` : null],
      ['Rest', (enc.rested || []).includes(c.id) ? 'taken tonight' : null],
    ];
  });
}

const between = (enc) => enc?.module === BETWEEN;

registerPanel('fivey', {
  renderBanner: (enc, ctx) => (isSocial(enc) ? socialBanner(enc, ctx) : null),
  renderOrder: (enc, ctx) => (between(enc) ? betweenOrder(enc) : isSocial(enc) ? renderSocial(enc, ctx) : renderOrder(enc, ctx)),
  gmShown: ['disposition', 'reaction', 'will'], // fivey.social: shown in the conversation box
  renderCombatant: (c, enc, ctx) => (between(enc) ? betweenCombatant(c, enc, ctx) : renderCombatant(c, enc, ctx)),
  extraFields: (enc) => (between(enc) ? {} : extraFields(enc)),
});
