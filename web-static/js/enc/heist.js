// The heist panel (issue 16, "cot heists") for the module cot.heist (rules/cot/heist.c; rules/RULES.md
// "Heists, research, Foresight and schemes", 000:174-222).
//   - The GM prepares the Spot before the job in three small forms whose defaults are accepted as
//     they open (a zone, a barrier between two known places, a guard in a zone), sees everything
//     (/gm/enc/spot: every zone with its tags and ratings, every barrier with its score, every guard
//     with Awareness and Training) and shows the crew one zone at a time (`reveal`), or marks a
//     guard Aware (`alert`).
//   - A player sees /enc/spot only: the zones the crew discovered, the barriers between known
//     places, the crew's positions and the guards a crew member has seen (Aware or not). The page
//     draws nothing from the GM's half, so nothing of it can show.
//   - The crew's actions (move, bypass, research, plan, scheme) are the server's moves, drawn by
//     the generic panel with the places and barriers the crew knows of as its choices. The board's
//     own forms and buttons (zone, barrier, guard, reveal, alert: `ownMoves`) show only while the
//     server's moves (ctx.moves) hold them, a zone's or guard's button only for a zone or guard
//     among the move's choices.
import { registerPanel, combatantsOf, isMine, h } from './panel.js';

const isObj = (v) => v && typeof v === 'object' && !Array.isArray(v);
const obj = (v) => (isObj(v) ? v : {});
const list = (v) => (Array.isArray(v) ? v : []);

// The spot as the viewer knows it: the GM's whole one, a player's discovered part.
const spotOf = (enc, ctx) => (ctx.isGm ? obj(ctx.state?.gm?.enc?.spot) : obj(enc.spot));
const placeName = (spot, id) => (id === 'outside' ? 'Outside' : obj(spot.zones)[id]?.name ?? 'an unknown place');

const TAGS = { hidden: 'Hidden', noisy: 'Noisy', hazardous: 'Hazardous', crowded: 'Crowded' };
const BARRIERS = { none: 'an open way', lock: 'a lock', vault: 'a vault', height: 'a height', structure: 'a structure' };

let open = null; // which of the GM's forms is open: 'zone' | 'barrier' | 'guard' | null

// The board draws these moves itself (ownMoves), each only while the server offers it (ctx.moves):
// the move of `action`, or null.
const OWN = ['zone', 'barrier', 'guard', 'reveal', 'alert'];
const moveOf = (ctx, action) => list(ctx.moves).find((m) => m.action === action) ?? null;
// Whether move m may take `value` for parameter `name` (its choices, when the server gave any).
function offers(m, name, value) {
  if (!m) return false;
  const p = list(m.params).find((x) => x.name === name);
  return !p || !Array.isArray(p.choices) || p.choices.some((c) => c.value === value);
}

// -- the spot ------------------------------------------------------------------------------------

// One zone as the viewer knows it: name and tags, who of the crew is there, its guards (with
// their scores and the Aware switch for the GM), and for the GM whether the crew knows it.
function zoneCard(id, z, enc, ctx, spot) {
  const pub = obj(enc.spot);
  const shown = Boolean(obj(pub.zones)[id]);
  const crew = Object.entries(obj(pub.crew)).filter(([, where]) => where === id);
  const guards = Object.entries(obj(spot.guards)).filter(([, g]) => g.zone === id);
  const tags = [...list(z.tags).map((t) => TAGS[t] ?? t)];
  if (ctx.isGm && z.edge) tags.unshift('at the edge');
  return h(
    'li',
    { class: ['heist-zone', ctx.isGm && !shown && 'unseen'], dataset: { zone: id } },
    h(
      'div',
      { class: 'heist-zone-head' },
      h('strong', { class: 'heist-zone-name' }, z.name ?? id),
      tags.map((t) => [' ', h('span', { class: 'chip' }, t)]),
      ctx.isGm ? [' ', h('span', { class: ['badge', shown ? 'shown-badge' : 'secret-badge'] }, shown ? 'the crew knows it' : 'GM only')] : null,
    ),
    ctx.isGm && list(z.tags).includes('hidden') ? h('p', { class: 'muted small' }, `Found by research at ${z.rating}`) : null,
    ctx.isGm && list(z.tags).includes('hazardous') ? h('p', { class: 'muted small' }, `Crossing it: difficulty ${z.hazard}`) : null,
    crew.length ? h('p', { class: 'heist-crew-here' }, `Here: ${crew.map(([cid]) => enc.combatants?.[cid]?.name ?? cid).join(', ')}`) : null,
    guards.length
      ? h(
          'ul',
          { class: 'heist-guards', attrs: { 'aria-label': `Guards in ${z.name ?? id}` } },
          guards.map(([gid, g]) => guardItem(gid, g, ctx, pub)),
        )
      : null,
    ctx.isGm && !shown && offers(moveOf(ctx, 'reveal'), 'zone', id)
      ? h('button', { type: 'button', class: 'heist-reveal', dataset: { key: `reveal-${id}` }, onclick: () => ctx.act('reveal', { params: { zone: id } }) }, `Show ${z.name ?? id} to the crew`)
      : null,
  );
}

// One guard: name and Aware; for the GM its scores and a switch.
function guardItem(gid, g, ctx, pub) {
  const aware = ctx.isGm ? Boolean(obj(pub.guards)[gid]?.aware ?? g.aware) : Boolean(g.aware);
  return h(
    'li',
    { class: ['heist-guard', aware && 'aware'], dataset: { guard: gid } },
    h('span', {}, g.name ?? gid),
    ' ',
    aware ? h('span', { class: 'chip cond heist-aware' }, 'Aware') : h('span', { class: 'muted small' }, 'not aware'),
    ctx.isGm ? [' ', h('span', { class: 'muted small' }, `Awareness ${g.awareness}, Training ${g.training}`)] : null,
    ctx.isGm && offers(moveOf(ctx, 'alert'), 'guard', gid)
      ? h(
          'button',
          { type: 'button', class: 'link-button heist-alert', dataset: { key: `alert-${gid}` }, onclick: () => ctx.act('alert', { params: { guard: gid, aware: aware ? 0 : 1 } }) },
          aware ? `Mark ${g.name ?? gid} not Aware` : `Mark ${g.name ?? gid} Aware`,
        )
      : null,
  );
}

// One barrier: where it leads, what it is; its Security Score only in the GM's spot.
function barrierItem(id, b, spot) {
  const what = BARRIERS[b.tag] ?? b.tag;
  const score = Number.isInteger(b.score) && b.tag !== 'none' ? ` (Security ${b.score})` : '';
  return h(
    'li',
    { class: 'heist-barrier', dataset: { barrier: id } },
    `${placeName(spot, b.from)} → ${placeName(spot, b.to)}: ${what}${score}`,
    b.tag !== 'none' ? h('span', { class: 'muted small' }, b.open ? ' · open' : ' · closed') : null,
  );
}

// Replaces the turn order (a heist has none): the spot, and for the GM the forms that build it.
function renderSpot(enc, ctx) {
  const spot = spotOf(enc, ctx);
  const zones = Object.entries(obj(spot.zones));
  const barriers = Object.entries(obj(spot.barriers));
  const outside = Object.entries(obj(enc.spot?.crew)).filter(([, where]) => where === 'outside');
  return h(
    'section',
    { class: 'heist', attrs: { 'aria-label': 'The spot' } },
    outside.length ? h('p', { class: 'heist-outside' }, `Outside the spot: ${outside.map(([cid]) => enc.combatants?.[cid]?.name ?? cid).join(', ')}`) : null,
    zones.length
      ? h('ul', { class: 'heist-zones', attrs: { 'aria-label': 'Zones' } }, zones.map(([id, z]) => zoneCard(id, z, enc, ctx, spot)))
      : h('p', { class: 'muted heist-none' }, ctx.isGm ? 'No zones yet: add the first one below.' : 'The crew knows nothing of the place yet: research it.'),
    barriers.length ? h('ul', { class: 'heist-barriers', attrs: { 'aria-label': 'Barriers' } }, barriers.map(([id, b]) => barrierItem(id, b, spot))) : null,
    ctx.isGm ? builder(ctx, spot) : null,
  );
}

// -- the GM's forms ------------------------------------------------------------------------------

// A fresh id for a new zone, barrier or guard: z1, z2, ... (the crew never sees it).
function freshId(prefix, taken) {
  for (let i = 1; ; i++) if (!(`${prefix}${i}` in taken)) return `${prefix}${i}`;
}

const field = (name, labelText, input) => h('div', { class: 'field', dataset: { param: name } }, h('label', { htmlFor: `heist-${name}` }, labelText), input);
const numIn = (name, value, min, max) => h('input', { id: `heist-${name}`, name, type: 'number', inputMode: 'numeric', step: 1, value: String(value), attrs: { min, max } });
const textIn = (name, value) => h('input', { id: `heist-${name}`, name, type: 'text', value, maxLength: 60, autocomplete: 'off' });
const check = (name, labelText, on) =>
  h('div', { class: 'field field-check' }, h('label', { class: 'checkline', htmlFor: `heist-${name}` }, h('input', { type: 'checkbox', id: `heist-${name}`, name, checked: on }), h('span', {}, labelText)));
const select = (name, options, sel) => h('select', { id: `heist-${name}`, name }, options.map(([v, l]) => h('option', { value: v, selected: v === sel }, l)));

// Each form's key carries the count of what it adds: after an add the next form opens with fresh
// defaults ("Zone 2") instead of the values the panel keeps across a re-render.
function builder(ctx, spot) {
  const zones = obj(spot.zones);
  const zoneIds = Object.keys(zones);
  const toggle = (what) => () => {
    open = open === what ? null : what;
    ctx.rerender();
  };
  // only the forms of the moves the server offers now
  const kinds = [
    ['zone', 'Add a zone'],
    ['barrier', 'Add a barrier'],
    ['guard', 'Place a guard'],
  ].filter(([k]) => moveOf(ctx, k));
  if (!kinds.some(([k]) => k === open)) open = null;
  if (!kinds.length) return null;
  const tools = h(
    'div',
    { class: 'actions heist-tools', attrs: { role: 'group', 'aria-label': 'Prepare the spot' } },
    kinds.map(([k, l]) => h('button', { type: 'button', class: open === k ? 'active' : null, dataset: { key: `heist-${k}` }, attrs: { 'aria-expanded': String(open === k) }, onclick: toggle(k) }, l)),
  );
  let form = null;
  const submit = (action, read) => (ev) => {
    ev.preventDefault();
    ctx.act(action, { params: read(ev.target.elements) }).then((r) => {
      if (r?.ok) ctx.rerender();
    });
  };
  if (open === 'zone') {
    const n = zoneIds.length + 1;
    form = h(
      'form',
      { class: 'enc-form stack', dataset: { key: `heist-zone-${n}` }, noValidate: true },
      h('h3', {}, 'Add a zone'),
      field('name', 'Name the crew will see', textIn('name', `Zone ${n}`)),
      check('edge', 'At the edge of the spot (the way in)', n === 1),
      check('hidden', 'Hidden: found only by research', false),
      field('rating', 'Hidden: the roll that finds it', numIn('rating', 9, 0, 60)),
      check('noisy', 'Noisy', false),
      check('crowded', 'Crowded', false),
      check('hazardous', 'Hazardous', false),
      field('hazard', 'Hazardous: the difficulty to cross', numIn('hazard', 9, 0, 60)),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', dataset: { key: 'heist-zone-submit' } }, 'Add the zone')),
    );
    form.addEventListener(
      'submit',
      submit('zone', (f) => {
        const tags = Object.keys(TAGS).filter((t) => f.namedItem(t).checked);
        const p = { id: freshId('z', zones), name: f.namedItem('name').value.trim() || `Zone ${n}`, edge: f.namedItem('edge').checked ? 1 : 0 };
        if (tags.length) p.tags = tags.join(',');
        if (tags.includes('hidden')) p.rating = Number(f.namedItem('rating').value || 9);
        if (tags.includes('hazardous')) p.hazard = Number(f.namedItem('hazard').value || 9);
        return p;
      }),
    );
  } else if (open === 'barrier' || open === 'guard') {
    if (!zoneIds.length) form = h('p', { class: 'muted small' }, 'Add a zone first.');
    else if (open === 'barrier') {
      const places = [['outside', 'Outside'], ...zoneIds.map((id) => [id, zones[id].name ?? id])];
      // Defaults: a way to the first zone no barrier reaches yet, from outside for a zone at the
      // edge (or while nothing leads in), else from the zone before it.
      const bars = Object.values(obj(spot.barriers));
      const to = zoneIds.find((id) => !bars.some((b) => b.from === id || b.to === id)) ?? zoneIds[zoneIds.length - 1];
      const before = zoneIds[Math.max(0, zoneIds.indexOf(to) - 1)];
      const from = zones[to]?.edge || !bars.some((b) => b.from === 'outside' || b.to === 'outside') || before === to ? 'outside' : before;
      form = h(
        'form',
        { class: 'enc-form stack', dataset: { key: `heist-barrier-${Object.keys(obj(spot.barriers)).length}` }, noValidate: true },
        h('h3', {}, 'Add a barrier'),
        field('from', 'From', select('from', places, from)),
        field('to', 'To', select('to', places, to)),
        field('tag', 'What stands in the way', select('tag', Object.entries(BARRIERS).map(([v, l]) => [v, l.replace(/^an? /, '').replace(/^./, (c) => c.toUpperCase())]), 'lock')),
        field('score', 'Security Score', numIn('score', 9, 0, 60)),
        h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', dataset: { key: 'heist-barrier-submit' } }, 'Add the barrier')),
      );
      form.addEventListener(
        'submit',
        submit('barrier', (f) => ({ id: freshId('b', obj(spot.barriers)), from: f.namedItem('from').value, to: f.namedItem('to').value, tag: f.namedItem('tag').value, score: Number(f.namedItem('score').value || 9) })),
      );
    } else {
      const n = Object.keys(obj(spot.guards)).length + 1;
      form = h(
        'form',
        { class: 'enc-form stack', dataset: { key: `heist-guard-${n}` }, noValidate: true },
        h('h3', {}, 'Place a guard'),
        field('gname', 'Name', textIn('gname', `Guard ${n}`)),
        field('zone', 'Where the guard stands', select('zone', zoneIds.map((id) => [id, zones[id].name ?? id]), zoneIds[zoneIds.length - 1])),
        h(
          'div',
          { class: 'heist-scores' },
          field('brains', 'Brains', numIn('brains', 2, 1, 10)),
          field('lookout', 'Lookout', numIn('lookout', 1, 0, 10)),
          field('muscle', 'Muscle', numIn('muscle', 2, 1, 10)),
          field('resist', 'Resist', numIn('resist', 1, 0, 10)),
        ),
        h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', dataset: { key: 'heist-guard-submit' } }, 'Place the guard')),
      );
      form.addEventListener(
        'submit',
        submit('guard', (f) => {
          const p = { id: freshId('g', obj(spot.guards)), name: f.namedItem('gname').value.trim() || `Guard ${n}`, zone: f.namedItem('zone').value };
          for (const k of ['brains', 'lookout', 'muscle', 'resist']) if (f.namedItem(k).value !== '') p[k] = Number(f.namedItem(k).value);
          return p;
        }),
      );
    }
  }
  return h('div', { class: 'heist-builder' }, h('h3', {}, 'Prepare the spot'), h('p', { class: 'muted small' }, 'The crew sees a zone only once you show it or their research finds it.'), tools, form);
}

// -- hooks ---------------------------------------------------------------------------------------

// What the heist stands at, instead of a turn.
function banner(enc, ctx) {
  const spot = spotOf(enc, ctx);
  const n = Object.keys(obj(spot.zones)).length;
  const g = Object.keys(obj(spot.guards)).length;
  const text = ctx.isGm
    ? `The heist: ${n} zone${n === 1 ? '' : 's'} and ${g} guard${g === 1 ? '' : 's'} prepared`
    : `The heist: the crew knows ${n} zone${n === 1 ? '' : 's'}`;
  return h('p', { class: 'turn-banner idle heist-banner', attrs: { role: 'status' } }, text);
}

// A crew member: where they are, the numbers heists spend (Foresight, Reputation, Heat,
// Resources) and a Training scheme waiting for the next roll.
function renderCombatant(c, enc, ctx) {
  const st = obj(c.stats);
  const where = enc.spot?.crew?.[c.id];
  const rows = [
    ['Foresight', st.foresight],
    ['Reputation', st.reputation],
    ['Heat', st.heat],
    ['Resources', st.resources],
  ].filter(([, v]) => Number.isFinite(v));
  const training = list(c.conditions).find((x) => x?.name === 'training');
  return h(
    'div',
    { class: 'enc-card-body' },
    h(
      'div',
      { class: 'enc-card-head' },
      h('strong', { class: 'enc-name' }, c.name ?? c.id),
      isMine(c, ctx) ? h('span', { class: 'badge you-badge' }, 'yours') : null,
      where ? h('span', { class: 'badge' }, where === 'outside' ? 'outside' : `in ${placeName(obj(enc.spot), where)}`) : null,
    ),
    rows.length ? h('dl', { class: 'stats' }, rows.map(([k, v]) => h('div', { class: 'stat', dataset: { stat: k.toLowerCase() } }, h('dt', {}, k), h('dd', {}, String(v))))) : null,
    training ? h('ul', { class: 'enc-conditions' }, h('li', { class: 'chip cond' }, `Training: +${training.level}, ${training.kept} kept on the next roll`)) : null,
  );
}

const extraFields = () => ({});

// The GM's spot is drawn above, not listed as numbers.
const gmShown = ['spot'];

// The GM starts preparing: the heist with the crew in it (every player character, by default).
function renderStart(ctx) {
  const chars = Object.entries(obj(ctx.state?.chars));
  const form = h(
    'form',
    { class: 'enc-form stack heist-setup', dataset: { key: 'heist-setup' }, noValidate: true },
    h('h3', {}, 'Prepare a heist'),
    h('p', { class: 'muted small' }, 'Zones, barriers and guards come next; the crew sees none of them until you show a zone or their research finds it.'),
    h(
      'fieldset',
      {},
      h('legend', {}, 'The crew'),
      chars.length ? chars.map(([id, c]) => check(`crew-${id}`, c?.name ?? id, true)) : h('p', { class: 'muted small' }, 'Nobody has a character yet: add the crew later.'),
    ),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', dataset: { key: 'heist-start' } }, 'Start preparing')),
  );
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const crew = chars.map(([id]) => id).filter((id) => form.elements.namedItem(`crew-${id}`)?.checked);
    form.querySelector('button[type=submit]').disabled = true; // one heist per tap
    const r = await ctx.run('enc.start', { module: 'cot.heist' });
    for (const id of r.ok ? crew : []) if (!(await ctx.run('enc.add', { char: id })).ok) break;
  });
  return form;
}

registerPanel('cot.heist', { renderBanner: banner, renderOrder: renderSpot, renderCombatant, gmShown, extraFields, renderStart, ownMoves: OWN });
