// The chase panel (issue 13 §4) for the modules cot.chase (rules/cot/enc_cot.c, 000:139-171) and
// heimr.chase (rules/heimr/enc_heimr.c, 001:300-306); rules/RULES.md describes both. What it adds
// to the generic encounter panel (./panel.js):
//   - the track: one lane per Pursuer with its Distance (heimr: squares) to the Target, which the
//     whole table sees (the combatants' public `distance`);
//   - the banner once the chase is over (what may be done is the server's moves, drawn by
//     ./panel.js);
//   - the GM's set-up: the kind of chase, who runs and who gives chase from the people of the
//     campaign, the initial Distance, in one form whose defaults start a chase.
// An NPC's numbers (pool, Velocity, fatigue, a vehicle's Body) stay where the server keeps them:
// the track shows only public Distances, and no hint derived from the GM's numbers is drawn.
import { registerPanel, combatantsOf, isMine, statsOf, h } from './panel.js';

const list = (x) => (Array.isArray(x) ? x : []);
const isObj = (v) => v && typeof v === 'object' && !Array.isArray(v);
const heimrOf = (enc) => enc?.module === 'heimr.chase';
const isTarget = (enc, c) => c.side === enc.target_side;

// Lanes longer than this show the number only (a Distance may reach 40).
const TRACK_CELLS = 10;

// -- the track -----------------------------------------------------------------------------------

// A Distance as the table says it: "Distance 2" in cot, "2 squares" in heimr.
function unit(enc, n) {
  if (heimrOf(enc)) return `${n} square${n === 1 ? '' : 's'}`;
  return `Distance ${n}`;
}

// "in the Cab, driving": a combatant's vehicle as far as the viewer may see it (an NPC's is the
// GM's), or ''.
function rideOf(c, ctx) {
  const st = statsOf(c, ctx);
  if (!isObj(st) || !st.vehicle) return '';
  return ` (${st.vehicle}${st.driver ? ', driving' : ''})`;
}

// Why a combatant is out of the chase ("caught", "fell off"...).
function outText(c) {
  return typeof c.out === 'string' ? c.out : 'out';
}

// One Pursuer's lane: the Target at the left end, the Pursuer on the cell of its Distance.
function lane(enc, p, targetName, ctx) {
  const d = Number.isInteger(p.distance) ? p.distance : 0;
  const cells = Math.max(d, 3) + 1;
  const said = p.out ? `${p.name}: ${outText(p)}` : `${p.name}: ${unit(enc, d)} behind ${targetName}`;
  const strip =
    !p.out && cells <= TRACK_CELLS + 1
      ? h(
          'ol',
          { class: ['chase-cells', heimrOf(enc) && 'squares'], attrs: { 'aria-hidden': 'true' } },
          Array.from({ length: cells }, (_, i) =>
            h('li', { class: ['chase-cell', i === 0 && 'target', i === d && 'pursuer'] }, i === d ? initial(p.name) : i === 0 ? initial(targetName) : ''),
          ),
        )
      : null;
  return h(
    'li',
    { class: ['chase-lane', isMine(p, ctx) && 'mine', p.out && 'out'], dataset: { cid: p.id, distance: d }, attrs: { 'aria-label': said } },
    h('div', { class: 'chase-lane-head' }, h('span', {}, h('strong', {}, p.name ?? p.id), rideOf(p, ctx)), ' ', h('span', { class: 'chase-distance' }, p.out ? outText(p) : unit(enc, d))),
    strip,
  );
}

// The letter a token on the track shows.
function initial(name) {
  return String(name ?? '?').trim().charAt(0).toUpperCase() || '?';
}

// cot's slots in one line (the slot list of ./cot.js is long on a phone); heimr's order.
function turnLine(enc, ctx) {
  const order = list(enc.order);
  if (!order.length) return null;
  const cur = Number.isInteger(enc.turn) ? enc.turn : -1;
  const mySides = new Set(combatantsOf(enc).filter((c) => isMine(c, ctx)).map((c) => c.side));
  return h(
    'ol',
    { class: 'enc-order chase-order', attrs: { 'aria-label': heimrOf(enc) ? 'Who runs when' : 'Initiative slots' } },
    order.map((o, i) => {
      const slot = isObj(o);
      const c = slot ? null : enc.combatants?.[o];
      const text = slot ? `${o.total} ${o.side}${o.claimed_by ? `: ${enc.combatants?.[o.claimed_by]?.name ?? ''}` : ''}` : c?.name ?? String(o);
      const mine = slot ? mySides.has(o.side) : c && isMine({ ...c, id: o }, ctx);
      return h('li', { class: ['enc-order-item', i === cur && 'current', mine && 'mine', !slot && c?.out && 'out'], attrs: { 'aria-current': i === cur ? 'true' : null } }, text);
    }),
  );
}

// Replaces the turn order: the ground, the Target, one lane per Pursuer, then who acts when.
function renderOrder(enc, ctx) {
  const all = combatantsOf(enc);
  const targets = all.filter((c) => isTarget(enc, c));
  const pursuers = all.filter((c) => !isTarget(enc, c));
  const tName = targets.map((c) => c.name ?? c.id).join(' and ') || 'the Target';
  const gone = targets.filter((c) => c.out);
  const where = [];
  if (heimrOf(enc)) where.push(`Terrain: ${enc.ability ?? '—'}`);
  else where.push(enc.stage === 'vehicle_chase' ? 'In vehicles' : 'On foot');
  if (enc.cramped) where.push('cramped: no one is at Speed');
  return h(
    'section',
    { class: 'chase', attrs: { 'aria-label': 'The chase' } },
    h('p', { class: 'chase-where muted small' }, where.join(' · ')),
    enc.offer ? h('p', { class: 'chase-offer' }, `The GM offers other ground: ${enc.offer}. ${tName} may take it.`) : null,
    h(
      'p',
      { class: 'chase-targets' },
      h('span', { class: 'badge chase-target-badge' }, 'Target'),
      ' ',
      h('strong', {}, tName),
      targets.length === 1 ? rideOf(targets[0], ctx) : '',
      targets.length === 1 && gone.length ? ` · ${outText(gone[0])}` : gone.length ? ` · ${gone.map((c) => `${c.name}: ${outText(c)}`).join(', ')}` : '',
    ),
    pursuers.length
      ? h('ol', { class: 'chase-track', attrs: { 'aria-label': heimrOf(enc) ? 'Squares to the target' : 'Distance to the Target' } }, pursuers.map((p) => lane(enc, p, tName, ctx)))
      : h('p', { class: 'muted small' }, ctx.isGm ? 'Nobody gives chase yet: add a pursuer.' : 'Nobody gives chase yet.'),
    turnLine(enc, ctx),
  );
}

// -- the end of a chase --------------------------------------------------------------------------

// A chase is over once its Target is out (caught, escaped) or no Pursuer is left (000:157-171,
// 001:304): nothing is left to do in it but end it.
function isOver(enc) {
  const all = combatantsOf(enc);
  return Number(enc.round) > 0 && (!all.some((x) => isTarget(enc, x) && !x.out) || !all.some((x) => !isTarget(enc, x) && !x.out));
}

// The hook: once the chase is over, say so instead of naming whose turn it is.
function banner(enc, ctx) {
  if (!isOver(enc)) return undefined;
  const all = combatantsOf(enc);
  const targets = all.filter((c) => isTarget(enc, c));
  const how = targets.some((c) => c.out) ? targets.map((c) => `${c.name}: ${outText(c)}`).join(', ') : 'every pursuer dropped out';
  return h('p', { class: 'turn-banner idle chase-over', attrs: { role: 'status' } }, `The chase is over (${how}).${ctx.isGm ? ' End it when the scene moves on.' : ''}`);
}

// The Distance is on the track; the stage, pool and cramped line head it.
const extraFields = () => ({});

// -- the GM's set-up -----------------------------------------------------------------------------

let stage = 'foot_chase'; // the set-up form's kind of cot chase (it shows the vehicle fields)

// The people the GM can put in a chase: the player characters and the GM's prepared NPCs.
function people(ctx) {
  const st = ctx.state || {};
  const pcs = Object.entries(isObj(st.chars) ? st.chars : {}).map(([id, c]) => ({ id, name: c?.name ?? id, npc: false }));
  const npcs = Object.entries(isObj(st.gm?.npcs) ? st.gm.npcs : {}).map(([id, c]) => ({ id, name: c?.name ?? id, npc: true }));
  return [...pcs, ...npcs];
}

const num = (name, labelText, value, min, max) =>
  h(
    'div',
    { class: 'field', dataset: { param: name } },
    h('label', { htmlFor: `chase-${name}` }, labelText),
    h('input', { id: `chase-${name}`, name, type: 'number', inputMode: 'numeric', step: 1, value: String(value), attrs: { min, max } }),
  );

const text = (name, labelText, value) =>
  h('div', { class: 'field', dataset: { param: name } }, h('label', { htmlFor: `chase-${name}` }, labelText), h('input', { id: `chase-${name}`, name, type: 'text', value, maxLength: 40, autocomplete: 'off' }));

// The hook: the set-up form (below the module select of the generic start form).
function renderStart(ctx) {
  const heimr = ctx.system === 'heimr';
  const who = people(ctx);
  const anyNpc = who.some((p) => p.npc);
  const vehicles = !heimr && stage === 'vehicle_chase';
  const form = h(
    'form',
    { class: 'enc-form stack chase-setup', dataset: { key: `chase-setup-${ctx.system}` }, noValidate: true },
    h('h3', {}, 'Set up the chase'),
    heimr
      ? text('ability', 'The ground: the ability everyone rolls', 'Agility')
      : h(
          'div',
          { class: 'field' },
          h('label', { htmlFor: 'chase-stage' }, 'How they move'),
          h(
            'select',
            {
              id: 'chase-stage',
              name: 'stage',
              onchange: (ev) => {
                stage = ev.target.value;
                ctx.rerender();
              },
            },
            h('option', { value: 'foot_chase', selected: stage === 'foot_chase' }, 'On foot'),
            h('option', { value: 'vehicle_chase', selected: stage === 'vehicle_chase' }, 'In vehicles'),
          ),
        ),
    num('distance', heimr ? 'Squares between them at the start' : 'Distance at the start', heimr ? 3 : 2, heimr ? 1 : 0, 20),
    h(
      'fieldset',
      { class: 'chase-who' },
      h('legend', {}, 'Who is in it'),
      who.length ? null : h('p', { class: 'muted small' }, 'Nobody has a character yet.'),
      who.map((p) =>
        h(
          'div',
          { class: 'field chase-person' },
          h('label', { htmlFor: `chase-role-${p.id}` }, p.name, p.npc ? h('span', { class: 'badge' }, 'NPC') : null),
          h(
            'select',
            { id: `chase-role-${p.id}`, name: `role-${p.id}`, dataset: { char: p.id, npc: p.npc ? '1' : '' } },
            h('option', { value: 'target', selected: !p.npc }, 'Runs away'),
            h('option', { value: 'pursuer', selected: p.npc }, 'Gives chase'),
            h('option', { value: '' }, 'Not in it'),
          ),
        ),
      ),
      text('quick', 'Another pursuer (a name is enough)', anyNpc ? '' : heimr ? 'Hunter' : 'Constable'),
    ),
    vehicles
      ? h(
          'fieldset',
          { class: 'chase-vehicles' },
          h('legend', {}, 'Vehicles (the first of each group drives)'),
          text('target_vehicle', 'The runners’ vehicle', 'Cab'),
          text('pursuer_vehicle', 'The pursuers’ vehicle', 'Police wagon'),
          num('speed', 'Speed rating of both', 3, 0, 10),
          num('body', 'Body Score of both', 10, 0, 60),
        )
      : null,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', dataset: { key: 'chase-start' } }, 'Start the chase')),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    startChase(form, ctx, heimr);
  });
  return form;
}

// enc.start, one enc.add per person, the vehicles, then Begin (its result where the GM tapped).
async function startChase(form, ctx, heimr) {
  const f = form.elements;
  const val = (n) => String(f.namedItem(n)?.value ?? '').trim();
  const roles = Array.from(form.querySelectorAll('select[data-char]')).map((s) => ({ char: s.dataset.char, npc: Boolean(s.dataset.npc), role: s.value }));
  const targets = roles.filter((r) => r.role === 'target');
  const pursuers = roles.filter((r) => r.role === 'pursuer');
  const quick = val('quick');
  if (!targets.length || (!pursuers.length && !quick)) {
    const msg = form.querySelector('.chase-setup-error') || form.insertBefore(h('p', { class: 'error-box chase-setup-error', attrs: { role: 'alert' } }), form.lastChild);
    msg.textContent = targets.length ? 'Somebody has to give chase: pick a pursuer or name one.' : 'Somebody has to run: pick who runs away.';
    return;
  }
  const targetSide = targets.every((r) => !r.npc) ? 'party' : 'foes';
  const pursuerSide = targetSide === 'party' ? 'foes' : 'party';
  const options = { target_side: targetSide, distance: Number(val('distance') || (heimr ? 3 : 2)) };
  if (heimr) options.ability = val('ability') || 'Agility';
  else options.stage = val('stage') || 'foot_chase';
  const vehicles = !heimr && options.stage === 'vehicle_chase' ? { target: val('target_vehicle') || 'Cab', pursuer: val('pursuer_vehicle') || 'Police wagon', speed: Number(val('speed') || 0), body: Number(val('body') || 0) } : null;
  const step = async (op, args) => {
    const r = await ctx.run(op, args);
    if (!r.ok) throw new Error(r.message);
    return r;
  };
  form.querySelector('button[type=submit]').disabled = true; // one chase per tap
  try {
    await step('enc.start', { module: heimr ? 'heimr.chase' : 'cot.chase', options });
    const ids = { target: [], pursuer: [] };
    for (const r of [...targets, ...pursuers]) {
      const side = r.role === 'target' ? targetSide : pursuerSide;
      const res = await step('enc.add', { char: r.char, side });
      ids[r.role].push(res.result?.id);
    }
    if (quick) ids.pursuer.push((await step('enc.add', { npc: { name: quick }, side: pursuerSide })).result?.id);
    if (vehicles) {
      for (const role of ['target', 'pursuer']) {
        const group = ids[role].filter(Boolean);
        for (const [i, id] of group.entries()) {
          const params = { target: id, vehicle: vehicles[role], driver: i === 0 ? 1 : 0 };
          if (i === 0) Object.assign(params, { speed: vehicles.speed, body: vehicles.body });
          await step('enc.act', { action: 'vehicle', params });
        }
      }
    }
    await step('enc.act', { action: 'begin' });
  } catch {
    /* the panel shows the refusal in its error line */
  }
}

const hooks = { renderBanner: banner, renderOrder, extraFields, renderStart };
registerPanel('cot.chase', hooks);
registerPanel('heimr.chase', hooks);
