// The encounter panel: the generic view of /enc (and /gm/enc for the GM) with its actions, and the
// registry the rule systems' own panels (js/enc/<system>.js) plug into.
//
// ---- CONTRACT for js/enc/<system>.js ---------------------------------------------------------
//
//   import { registerPanel } from './panel.js';
//   registerPanel('fivey', {
//     renderOrder(enc, ctx)        → Node   replaces the generic turn-order strip
//     renderCombatant(c, enc, ctx) → Node   replaces the generic card of one combatant
//     extraFields(enc, ctx)        → {key: value} the module fields listed under the cards ({}
//                                    when the panel shows them itself); default: every /enc
//                                    field the generic panel does not show
//     renderBanner(enc, ctx)       → Node   replaces the generic "whose turn" line (a module
//                                    without turns: a social scene, between the scenes)
//     gmShown                      [key] /gm/enc keys the system panel shows itself (left out
//                                    of the generic GM-only list)
//     renderStart(ctx)             → Node   the GM's start form of this module (no encounter yet)
//     ownMoves                     [action] moves the panel draws itself (a heist board's zone
//                                    form), each only while ctx.moves holds it; left out of the
//                                    generic buttons
//   });
//   What the viewer may do is not a panel's to decide: the action buttons and their forms are
//   the server's moves (enc.moves, PROTOCOL.md), drawn by this file for every system. A panel
//   that draws a button of its own (a zone board's "show to the crew") offers it only when
//   ctx.moves holds that action.
//   registerPanel('cot.chase', {...}) registers hooks for one module: they win over the system's.
//
// Every hook is optional; a missing hook (or one returning null/undefined) falls back to the
// generic rendering. Hooks are called on every re-render of the panel (whenever /enc, /gm/enc,
// /chars, /gm/npcs or the seat changes), must not keep DOM between calls and must not mutate
// `enc` or `ctx.state`. A system's module is loaded by app.js with `import('./enc/<system>.js')`
// for the campaign's system; a missing file is ignored (the generic panel is used).
//
// ctx (the same object for every hook of one render):
//   seat      the viewer's seat id ("gm", "p1", ...)
//   isGm      true for the GM seat
//   system    the campaign's rule system id
//   describe  the `system.describe` result: {system, name, sheet, checks, modules:[{id, name,
//             options:[param], actions:[{name, label, who, params:[param]}]}]} (null until loaded)
//   module    the describe entry of the running module (describe.modules[i] with id === enc.module)
//   send(op, args) → Promise<reply>; reply is {ok: true, seq, result} or {ok: false, code,
//             message}. It never rejects. A command sent while offline waits in the outbox and is
//             delivered once after the reconnect (same command id).
//   act(action, {actor, params}) → Promise<reply>  = send('enc.act', ...), and shows a refusal
//             in the panel's error line.
//   run(op, args) → Promise<reply>  = send(op, args) with the panel's result box and error line.
//   moves     the server's moves for this scene and seat ([] until the first answer)
//   rerender() re-renders the panel (after a hook's own open/closed state changed).
//   state     the whole replica (read-only): enc = state.enc, GM-only parts at state.gm.enc
//
// Helpers exported below for system panels: combatantsOf, currentId, isMine, statsOf (public
// stats, plus the GM-only NPC stats for the GM), cardFor (the generic card, to wrap or extend),
// orderStrip (the generic order), statsList, h (the element builder).
//
// /enc = {module, name, round, turn (index into order, -1 between rounds), order:[cid | {id}],
//         combatants:{<cid>:{id, name, side, seat, npc, char, stats?, conditions:[...],
//         budget?:{...}, out?}}, ...module fields}; /gm/enc = {combatants:{<cid>:{stats}}, ...}
//         (rules/encounter.h)
// ------------------------------------------------------------------------------------------------

import { h } from '../dom.js';
import { paramFields, paramLabel, paramType, readParams, showFieldError, paramInMessage } from '../views/params.js';
import { resultBox } from '../views/result.js';
import { logOf } from '../views/model.js';
import { label as keyLabel, words, plain } from '../words.js';

export { h };

const registry = new Map();

// The actions whose roll may wait for the GM's number (grimwire G4, a GRIMWIRE build): the outcome
// the answer rolls.
const WAITED = new Set(['attack', 'shove', 'grapple', 'craft', 'repair', 'answer']); // answer: a build called off

// What a success says when it wrote no log line of its own (the log lines of the command's seq
// are shown instead, with their dice, where the person tapped).
const DONE = {
  'enc.act': (a, ctx) => `${actionLabel(ctx, a.action)}: done.`,
  'enc.start': () => 'The encounter started.',
  'enc.add': () => 'Added to the encounter.',
  'enc.remove': () => 'Removed from the encounter.',
  'enc.set': () => 'Changed.',
  'enc.end': () => 'The encounter ended.',
};

function actionLabel(ctx, name) {
  const a = (Array.isArray(ctx?.module?.actions) ? ctx.module.actions : []).find((x) => x.name === name);
  return a?.label || keyLabel(name);
}

export function registerPanel(system, hooks = {}) {
  registry.set(String(system), { ...hooks });
}

// The hooks for a system's panel, with those of the running module (if registered) over them.
export function panelHooks(system, module) {
  return { ...(registry.get(String(system)) || {}), ...(module ? registry.get(String(module)) || {} : {}) };
}

// -- read helpers ------------------------------------------------------------------------------

const orderId = (o) => (o && typeof o === 'object' ? o.id : o);

// The module fields the generic panel lists under the cards: what it does not show otherwise
// (the per-turn budget template is on the current combatant's card).
function genericExtra(enc) {
  const extra = {};
  for (const [k, v] of Object.entries(enc)) {
    if (['module', 'name', 'round', 'turn', 'order', 'combatants', 'current', 'log', 'next_id', 'budget', 'options'].includes(k)) continue;
    if (v && typeof v === 'object' && !Object.keys(v).length) continue;
    extra[k] = v;
  }
  return extra;
}

export function combatantsOf(enc) {
  const all = enc && enc.combatants && typeof enc.combatants === 'object' ? enc.combatants : {};
  const seen = new Set();
  const out = [];
  for (const o of Array.isArray(enc?.order) ? enc.order : []) {
    const id = orderId(o);
    if (all[id] && !seen.has(id)) {
      seen.add(id);
      out.push({ id, ...all[id] });
    }
  }
  for (const id of Object.keys(all).sort()) if (!seen.has(id)) out.push({ id, ...all[id] });
  return out;
}

// The id of the combatant whose turn it is, or null.
export function currentId(enc) {
  if (!enc) return null;
  if (typeof enc.current === 'string') return enc.current;
  const order = Array.isArray(enc.order) ? enc.order : [];
  if (Number.isInteger(enc.turn) && enc.turn >= 0 && enc.turn < order.length) return orderId(order[enc.turn]) ?? null;
  if (typeof enc.turn === 'string') return enc.turn;
  return null;
}

// The combatants who may act on the current turn: whoever has it, or, when the turn is a side's
// slot (cot's initiative slots: {id, side, claimed_by?}), whoever took it or anyone of that side
// who is still in. [] between rounds.
export function turnTakers(enc) {
  const order = Array.isArray(enc?.order) ? enc.order : [];
  const cur = currentId(enc);
  const all = combatantsOf(enc);
  if (cur && enc.combatants?.[cur]) return all.filter((c) => c.id === cur);
  const slot = Number.isInteger(enc?.turn) ? order[enc.turn] : null;
  if (slot && typeof slot === 'object' && slot.side) {
    if (slot.claimed_by) return all.filter((c) => c.id === slot.claimed_by);
    return all.filter((c) => c.side === slot.side && !c.out);
  }
  return [];
}

// Whether c is one of the viewing player's own combatants. Always false for the GM: NPCs carry the
// GM's seat, but "yours" on every foe tells the GM nothing (the GM controls every combatant).
export function isMine(c, ctx) {
  return Boolean(c && !ctx.isGm && ctx.seat && c.seat === ctx.seat);
}

function moduleEntry(describe, id) {
  const mods = Array.isArray(describe?.modules) ? describe.modules : [];
  return mods.find((m) => m.id === id) || null;
}

const who = (a) => String(a?.who ?? 'any').toLowerCase();

// -- generic pieces ----------------------------------------------------------------------------

function valueText(v) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'object') {
    if (Number.isFinite(v.value) && Number.isFinite(v.max)) return `${v.value}/${v.max}`;
    if (Number.isFinite(v.current) && Number.isFinite(v.max)) return `${v.current}/${v.max}`;
    if (Array.isArray(v)) return v.map(valueText).join(', ');
    return Object.entries(v)
      .map(([k, x]) => `${words(k)} ${valueText(x)}`)
      .join(', ');
  }
  if (v === true) return 'yes';
  if (v === false) return 'no';
  return typeof v === 'string' ? words(v) : String(v);
}

export function statsList(obj, cls = 'stats') {
  if (!obj || typeof obj !== 'object') return null;
  const entries = Object.entries(obj);
  if (!entries.length) return null;
  return h(
    'dl',
    { class: cls },
    entries.map(([k, v]) => h('div', { class: 'stat', dataset: { stat: k } }, h('dt', {}, keyLabel(k)), h('dd', {}, valueText(v)))),
  );
}

export function orderStrip(enc, ctx) {
  const cur = currentId(enc);
  const list = combatantsOf(enc).filter((c) => (Array.isArray(enc.order) ? enc.order.some((o) => orderId(o) === c.id) : true));
  return h(
    'ol',
    { class: 'enc-order', attrs: { 'aria-label': 'Turn order' } },
    list.map((c) =>
      h(
        'li',
        { class: ['enc-order-item', c.id === cur && 'current', isMine(c, ctx) && 'mine'], dataset: { cid: c.id, side: c.side ?? '' }, attrs: { 'aria-current': c.id === cur ? 'true' : null } },
        c.name ?? c.id,
      ),
    ),
  );
}

// A combatant's stats as the viewer may see them: public ones, and for the GM the NPC numbers
// kept under /gm/enc/combatants/<cid>/stats.
export function statsOf(c, ctx) {
  const hidden = ctx.isGm ? ctx.state?.gm?.enc?.combatants?.[c.id]?.stats : null;
  if (!hidden) return c.stats;
  return { ...(c.stats || {}), ...hidden };
}

export function cardFor(c, enc, ctx) {
  const cur = currentId(enc) === c.id;
  const conds = Array.isArray(c.conditions) ? c.conditions : [];
  return h(
    'div',
    { class: 'enc-card-body' },
    h(
      'div',
      { class: 'enc-card-head' },
      h('strong', { class: 'enc-name' }, c.name ?? c.id),
      c.side ? h('span', { class: ['badge', 'side-badge'], dataset: { side: c.side } }, words(c.side)) : null,
      c.npc ? h('span', { class: 'badge' }, 'NPC') : null,
      isMine(c, ctx) ? h('span', { class: 'badge you-badge' }, 'yours') : null,
      cur ? h('span', { class: 'badge turn-badge' }, 'turn') : null,
      c.out ? h('span', { class: 'badge' }, typeof c.out === 'string' ? words(c.out) : 'out') : null,
    ),
    statsList(statsOf(c, ctx)),
    conds.length
      ? h(
          'ul',
          { class: 'enc-conditions', attrs: { 'aria-label': 'Conditions' } },
          conds.map((x) => h('li', { class: 'chip cond' }, typeof x === 'string' ? words(x) : x?.name ? `${words(x.name)}${x.rounds ? ` (${x.rounds})` : ''}` : valueText(x))),
        )
      : null,
    c.budget ? h('div', { class: 'enc-budget' }, h('span', { class: 'muted small' }, 'Left this turn '), statsList(c.budget, 'stats budget')) : null,
  );
}

// -- the panel ---------------------------------------------------------------------------------

export class EncounterPanel {
  constructor(root) {
    this.root = root;
    this.reset();
  }

  // What the panel keeps of one campaign at one seat; a campaign switch starts from nothing.
  reset() {
    this.open = null; // {kind: 'act', action} | {kind: 'start'|'add'|'set'|'end'}
    this.error = null; // {text}
    this.note = null; // a short line after a success
    this.result = null; // {seq, text}: the outcome of the last command, shown where it was tapped
    this.lastTurn = null; // the current combatant at the last render (for "your turn")
    this.busy = false;
    this.sig = null;
    this.ctx = null;
    this.scene = null; // the scene the viewer picked (null: their own, else the first)
    this.startNew = false; // the GM's "Start another scene" form is open
    this.moves = null; // {sid, list}: the server's answer to enc.moves for the scene shown
    this.movesFor = null; // {sid, key}: what the last question was about
    this.movesGen = (this.movesGen ?? 0) + 1; // an answer to an older question is dropped
    this.movesAsking = 0;
    this.movesAgain = false;
    this.confirming = null; // the move whose "Really?" is showing
    this.scrollAgain = null; // {sel, until}: the result to bring into view once the moves came
  }

  // ctx as in the contract, without `module`/`act` (added here). Re-renders only when something
  // shown changed. With several scenes running (/enc and /scenes/<sid>, PROTOCOL.md "Scenes and
  // the clock") the panel shows one scene in full — the one picked, by default the viewer's own —
  // and the others folded; the scene shown is handed to the hooks as if it were the only one
  // (ctx.state.enc and ctx.state.gm.enc are that scene's halves), and every enc.* command the
  // panel sends names it.
  render(ctx) {
    const full = ctx.state || {};
    const scenes = scenesOf(full);
    const sid = this.pickScene(scenes, ctx);
    const shown = scenes.find((x) => x.sid === sid) || null;
    const state = shown && shown.sid !== 'enc' ? sceneView(full, shown) : full;
    const enc = shown ? shown.pub : null;
    const hid = shown && shown.sid !== 'enc' ? shown.hid : state.gm?.enc;
    this.wantMoves(ctx.send, sid, [enc, hid, state.chars, state.gm?.npcs, full.private, ctx.seat, ctx.live]); // a seat's private part too (what it knows, its sheets: cot's Alter)
    const sig = [enc, hid, full.scenes, full.gm?.scenes, full.clock, sid, this.startNew, state.chars, state.gm?.npcs, state.log, state.gm?.log, ctx.describe, ctx.seat, ctx.isGm, ctx.live, this.open, this.error, this.note, this.result, this.busy, this.moves, this.movesAsking, this.confirming];
    if (this.sig && sig.length === this.sig.length && sig.every((x, i) => x === this.sig[i])) return;
    this.sig = sig;
    this.given = ctx; // what app.js passed: rerender() starts from it, never from a scene's view
    this.ctx = {
      ...ctx,
      state,
      module: enc ? moduleEntry(ctx.describe, enc.module) : null,
      act: (action, { actor, params } = {}) => this.act(action, actor, params),
      send: (op, args) => ctx.send(op, scoped(op, args, scenes, sid)),
      full,
      scenes,
      scene: sid,
      moves: this.moves && this.moves.sid === sid ? this.moves.list : [],
      run: (op, args) => this.run(op, args, null, []),
      rerender: () => this.rerender(),
    };
    const keep = this.capture();
    const parts = [...this.build(enc, this.ctx), ...this.otherScenes(this.ctx)];
    this.root.replaceChildren(...parts.filter((x) => x !== null && x !== undefined));
    this.restore(keep);
    this.yourTurn(enc, this.ctx);
  }

  // The scene shown in full: the one the viewer picked while it runs; else, for a player, the
  // first scene one of their characters is in; else the first scene.
  pickScene(scenes, ctx) {
    if (this.scene && scenes.some((x) => x.sid === this.scene)) return this.scene;
    const mine = scenes.find((x) => combatantsOf(x.pub).some((c) => isMine(c, ctx)));
    return (mine || scenes[0])?.sid ?? null;
  }

  // The campaign's time, which scene plays next (for everyone: /clock is public), and the scenes
  // not shown, folded: name, stage, round and time of each, who is in it, and a button to show it
  // (for the GM: to act in it). The GM may start another.
  otherScenes(ctx) {
    const out = [];
    const clock = ctx.full.clock;
    const others = ctx.scenes.filter((x) => x.sid !== ctx.scene);
    if (clock && Number.isFinite(clock.elapsed_s) && (ctx.scenes.length || clock.elapsed_s > 0)) {
      out.push(h('p', { class: 'enc-clock muted small', dataset: { key: 'campaign-clock' } }, `The job is ${timeWords(clock.elapsed_s)} in.`));
    }
    const nextWords = ctx.scenes.length > 1 ? nextSceneWords(ctx.scenes, clock?.next, ctx.scene) : null;
    if (nextWords) out.push(h('p', { class: 'enc-next small', dataset: { key: 'next-scene' } }, nextWords));
    if (others.length) {
      out.push(h('h3', { class: 'enc-scenes-title' }, others.length === 1 ? 'Another scene' : `${others.length} other scenes`));
      const list = others.map((x) => {
        const people = combatantsOf(x.pub).map((c) => c.name ?? c.id);
        const next = clock?.next === x.sid && ctx.isGm ? ' · plays next' : '';
        return h(
          'details',
          { class: 'enc-scene folded', dataset: { scene: x.sid } },
          h('summary', {}, `${foldedTitle(x.pub.name ?? 'Scene', sceneClockWords(clock, x.sid))}${next}`),
          h('p', { class: 'small' }, people.length ? people.join(', ') : 'Nobody in it yet.'),
          h(
            'button',
            { type: 'button', dataset: { key: `show-scene-${x.sid}` }, onclick: () => ((this.scene = x.sid), (this.open = null), (this.result = null), this.rerender()) },
            ctx.isGm ? 'Run this scene' : 'Show this scene',
          ),
        );
      });
      out.push(h('div', { class: 'enc-scenes' }, list));
    }
    // cot: a Drop whose target chose to Flee (000:117, 000:126) turns into a chase with the same people
    const shown = ctx.scenes.find((x) => x.sid === ctx.scene);
    const fled = ctx.isGm && ctx.system === 'cot' && shown && combatantsOf(shown.pub).find((c) => c.drop_choice === 'flee' && !c.out);
    if (fled && shown.pub.module !== 'cot.chase') {
      out.push(
        h(
          'button',
          { type: 'button', class: 'primary', dataset: { key: 'chase-from-flee' }, disabled: this.busy, onclick: () => this.run('enc.start', { module: 'cot.chase', from: ctx.scene }, null, []) },
          `${fled.name ?? 'They'} flees: start a chase with everyone here`,
        ),
      );
    }
    if (ctx.isGm && ctx.scenes.length) {
      if (this.startNew) {
        out.push(...this.gmStart(ctx, true));
        out.push(h('button', { type: 'button', class: 'link-button', dataset: { key: 'start-scene-cancel' }, onclick: () => ((this.startNew = false), (this.open = null), this.rerender()) }, 'Cancel'));
      } else {
        out.push(h('button', { type: 'button', dataset: { key: 'start-scene' }, onclick: () => ((this.startNew = true), (this.open = null), this.rerender()) }, 'Start another scene'));
      }
    }
    return out;
  }

  // A short vibration when the turn passes to one of the viewer's combatants (phones that can).
  yourTurn(enc, ctx) {
    const cur = enc ? currentId(enc) : null;
    if (cur === this.lastTurn) return;
    this.lastTurn = cur;
    const c = cur ? enc.combatants?.[cur] : null;
    // Browsers refuse (and complain) before the person tapped the page once.
    if (c && isMine({ ...c, id: cur }, ctx) && typeof navigator.vibrate === 'function' && navigator.userActivation?.hasBeenActive) {
      try {
        navigator.vibrate([120, 60, 120]);
      } catch {
        /* not allowed before a tap: fine */
      }
    }
  }

  rerender() {
    this.sig = null;
    if (this.given) this.render(this.given);
  }

  // Keeps what a person typed and where the focus was across a rebuild.
  capture() {
    const values = {};
    const form = this.root.querySelector('form.enc-form');
    if (form) {
      for (const el of form.elements) {
        if (!el.name) continue;
        values[el.name] = el.type === 'checkbox' ? el.checked : el.value;
      }
    }
    const a = document.activeElement;
    const focus = a && this.root.contains(a) ? a.dataset?.key || (a.name ? `name:${a.name}` : null) : null;
    return { form: form?.dataset.key ?? null, values, focus };
  }

  restore({ form: formKey, values, focus }) {
    const form = this.root.querySelector('form.enc-form');
    if (form && form.dataset.key === formKey) {
      for (const el of form.elements) {
        if (!el.name || !(el.name in values)) continue;
        if (el.type === 'checkbox') el.checked = values[el.name];
        else if (el.tagName !== 'SELECT' || Array.from(el.options).some((o) => o.value === values[el.name])) el.value = values[el.name];
      }
    }
    if (focus) {
      const el = focus.startsWith('name:') ? form?.elements.namedItem(focus.slice(5)) : this.root.querySelector(`[data-key="${CSS.escape(focus)}"]`);
      if (el && typeof el.focus === 'function') el.focus();
    }
  }

  setOpen(open) {
    this.open = open;
    this.error = null;
    this.rerender();
    const f = this.root.querySelector('form.enc-form input, form.enc-form select, form.enc-form button');
    if (f) f.focus();
  }

  async run(op, args, form, params) {
    this.busy = true;
    this.error = null;
    this.note = null;
    this.rerender();
    const reply = await this.ctx.send(op, args);
    this.busy = false;
    if (reply.ok) {
      if (op !== 'enc.add') this.open = null; // the GM usually adds several
      if (op === 'enc.start') {
        this.startNew = false;
        if (reply.result?.scene) this.scene = reply.result.scene; // show the scene just started
      }
      const text = DONE[op] ? DONE[op](args, this.ctx) : 'Done.';
      this.result = { seq: reply.seq, text, op };
      this.note = null;
    } else {
      this.error = { text: plain(reply.message || 'That did not work.'), param: paramInMessage(reply.message, params) };
    }
    this.rerender();
    if (!reply.ok && this.error.param) {
      const f = this.root.querySelector('form.enc-form');
      if (f) showFieldError(f, this.error.param, reply.message);
    }
    const sel = reply.ok ? '.result-box' : '.enc-error';
    this.root.querySelector(sel)?.scrollIntoView?.({ block: 'nearest' });
    // the moves of the new state come after the reply and may push the result away: again then
    this.scrollAgain = { sel, until: Date.now() + 3000 };
    return reply;
  }

  // A move of this seat that waits for the GM's number (/enc/waiting {attacker} or {builder},
  // grimwire G4 and a build): its
  // result box follows it, and shows the outcome the GM's answer rolled (the first entry after it
  // of the action that waited) once the wait is gone.
  followWait(enc, ctx) {
    const r = this.result;
    if (!r || r.op !== 'enc.act' || !Number.isFinite(r.seq)) return;
    const w = enc?.waiting;
    if (w && !r.waits && isMine(enc.combatants?.[w.attacker ?? w.builder], ctx)) this.result = { ...r, waits: true };
    if (w || !r.waits) return;
    const next = logOf(ctx.state)
      .map((x) => x.entry)
      .filter((x) => x.seq > r.seq && WAITED.has(x.action))
      .sort((a, b) => a.seq - b.seq)[0];
    if (next) this.result = { ...r, seq: next.seq, waits: false };
  }

  act(action, actor, params) {
    const args = { action };
    if (actor) args.actor = actor;
    if (params && Object.keys(params).length) args.params = params;
    return this.run('enc.act', args, null, []);
  }

  build(enc, ctx) {
    const hooks = panelHooks(ctx.system, enc?.module);
    this.followWait(enc, ctx);
    const out = [];
    out.push(h('h2', { id: 'enc-title' }, (ctx.scenes?.length ?? 0) > 1 ? `Encounter: ${enc?.name ?? 'scene'}` : 'Encounter'));
    const feedback = () => {
      if (this.error) return h('p', { class: 'error-box enc-error', attrs: { role: 'alert' } }, this.error.text);
      if (this.result) return resultBox(ctx.state, this.result, { onClose: () => ((this.result = null), this.rerender()) });
      if (this.note) return h('p', { class: 'enc-note muted small', attrs: { role: 'status' } }, this.note);
      return null;
    };

    if (!enc) {
      out.push(h('p', { class: 'muted enc-none' }, ctx.isGm ? 'No encounter is running.' : 'No encounter right now.'));
      out.push(feedback());
      if (ctx.isGm) out.push(...this.gmStart(ctx));
      return out;
    }
    const mod = ctx.module;
    out.push(
      h(
        'p',
        { class: 'enc-meta' },
        h('strong', { class: 'enc-module' }, mod?.name ?? enc.module ?? 'encounter'),
        enc.round > 0 && hasTurns(ctx) ? h('span', { class: 'enc-round' }, ` · round ${enc.round}`) : null,
        ctx.full?.clock?.scenes?.[ctx.scene] ? h('span', { class: 'enc-scene-clock' }, ` · ${sceneClockWords(ctx.full.clock, ctx.scene, false)}`) : null,
      ),
    );
    const banner = call(hooks.renderBanner, [enc, ctx]) ?? (hasTurns(ctx) ? turnBanner(enc, ctx) : null);
    if (banner) out.push(banner);
    out.push(call(hooks.renderOrder, [enc, ctx]) ?? orderStrip(enc, ctx));

    const cur = currentId(enc);
    const cards = combatantsOf(enc).map((c) => {
      const body = call(hooks.renderCombatant, [c, enc, ctx]) ?? cardFor(c, enc, ctx);
      return h(
        'li',
        { class: ['enc-card', c.id === cur && 'current', isMine(c, ctx) && 'mine'], dataset: { cid: c.id, side: c.side ?? '' } },
        body,
        ctx.isGm
          ? h('button', { type: 'button', class: 'link-button enc-remove', dataset: { key: `rm-${c.id}` }, disabled: this.busy, onclick: () => this.run('enc.remove', { id: c.id }, null, []) }, `Remove ${c.name ?? c.id}`)
          : null,
      );
    });
    out.push(h('ul', { class: 'enc-combatants' }, cards));

    // Module fields other than the generic ones (e.g. a chase's distance).
    const extra = call(hooks.extraFields, [enc, ctx]) ?? genericExtra(enc);
    if (extra && typeof extra === 'object' && Object.keys(extra).length) out.push(statsList(extra, 'stats enc-extra'));
    const gmExtra = {};
    for (const [k, v] of Object.entries(ctx.isGm && ctx.state?.gm?.enc && typeof ctx.state.gm.enc === 'object' ? ctx.state.gm.enc : {})) {
      if (k !== 'combatants' && !(Array.isArray(hooks.gmShown) && hooks.gmShown.includes(k))) gmExtra[k] = v;
    }
    if (Object.keys(gmExtra).length) {
      out.push(h('div', { class: 'enc-gm' }, h('span', { class: 'badge secret-badge' }, 'GM only'), statsList(gmExtra, 'stats')));
    }

    // What the viewer may do now: the server's moves for this scene (enc.moves), and only those.
    // The common ones are buttons, the rarely used ones fold under "More"; for the GM, the moves
    // of the NPC whose turn it is come first and everything else folds away. A move whose
    // arguments need nothing more runs on one tap; one that asks opens its form, filled with the
    // server's defaults; a move that cannot be undone asks "Really?" before it is sent.
    out.push(this.movesBlock(enc, ctx));
    const open = this.open?.kind === 'act' ? this.movesShown().find((m) => moveKey(m) === this.open.key) : null;
    if (open) out.push(this.moveForm(open, ctx));
    out.push(feedback());
    if (ctx.isGm) out.push(...this.gmRunning(enc, ctx));
    return out;
  }

  // -- the server's moves (PROTOCOL.md, enc.moves) ------------------------------------------------

  // Asks the server for the moves of scene sid once the scene (or the sheets, or the seat) changed
  // since the last question. One question at a time: a change while one is on its way asks again
  // when it comes back, and that answer, already stale, is dropped.
  wantMoves(send, sid, key) {
    if (!sid) {
      this.movesFor = null;
      this.moves = null;
      return;
    }
    const same = this.movesFor && this.movesFor.sid === sid && key.length === this.movesFor.key.length && key.every((x, i) => x === this.movesFor.key[i]);
    if (same) return;
    this.movesFor = { sid, key };
    if (this.movesAsking) {
      this.movesAgain = true;
      return;
    }
    this.askMoves(send);
  }

  async askMoves(send) {
    const want = this.movesFor;
    const gen = ++this.movesGen;
    this.movesAsking = gen;
    this.movesAgain = false;
    const reply = await send('enc.moves', { scene: want.sid });
    if (this.movesAsking === gen) this.movesAsking = 0;
    if (gen !== this.movesGen) return; // a campaign switch (reset) since
    if (this.movesAgain) {
      this.askMoves(send);
      return;
    }
    const list = reply.ok ? reply.result?.moves?.[want.sid] : null;
    this.moves = { sid: want.sid, list: Array.isArray(list) ? list : [] };
    this.rerender();
    if (this.scrollAgain && Date.now() < this.scrollAgain.until) this.root.querySelector(this.scrollAgain.sel)?.scrollIntoView?.({ block: 'nearest' });
    this.scrollAgain = null;
  }

  // The moves of the scene shown (none until the first answer).
  movesShown() {
    return this.moves && this.moves.sid === this.ctx?.scene ? this.moves.list : [];
  }

  movesBlock(enc, ctx) {
    const own = panelHooks(ctx.system, enc?.module).ownMoves || [];
    const moves = this.movesShown().filter((m) => !own.includes(m.action));
    const fresh = Boolean(this.moves && this.moves.sid === ctx.scene && !this.movesAsking);
    const box = h('div', { class: 'enc-moves', dataset: { moves: fresh ? 'fresh' : 'asking', count: String(moves.length) } });
    if (!moves.length) {
      if (!ctx.isGm && fresh) {
        const mine = combatantsOf(enc).some((c) => isMine(c, ctx));
        box.append(h('p', { class: 'muted small enc-wait' }, mine ? 'Wait for your turn.' : 'You are watching this encounter.'));
      }
      return box;
    }
    // An action several of the viewer's combatants may take names who takes it.
    const actors = new Set(moves.filter((m) => m.actor).map((m) => m.actor));
    const takers = new Set(turnTakers(enc).map((c) => c.id));
    const npc = (id) => Boolean(enc.combatants?.[id]?.npc);
    const main = (m) => !m.rare && (!ctx.isGm || !m.actor || (takers.has(m.actor) && npc(m.actor)));
    const button = (m) => {
      const key = moveKey(m);
      const direct = oneTapArgs(m, ctx);
      const isOpen = this.open?.kind === 'act' && this.open.key === key;
      const really = this.confirming === key;
      const label = `${m.label || keyLabel(m.action)}${actors.size > 1 && m.actor ? ` (${m.actor_name ?? enc.combatants?.[m.actor]?.name ?? 'someone'})` : ''}`;
      return h(
        'button',
        {
          type: 'button',
          class: ['enc-action', isOpen && 'active', direct && 'one-tap', really && 'danger'],
          dataset: { key: `act-${key}`, action: m.action, actor: m.actor ?? '' },
          disabled: this.busy,
          attrs: direct ? {} : { 'aria-expanded': String(isOpen) },
          onclick: () => {
            if (!direct) return this.setOpen(isOpen ? null : { kind: 'act', key });
            if (m.confirm && !really) {
              this.confirming = key;
              return this.rerender();
            }
            this.confirming = null;
            return this.run('enc.act', direct, null, []);
          },
        },
        really ? `Really: ${label}?` : label,
      );
    };
    // A one-tap move of the GM's own with optional questions (a reaction rolled, or the GM's own
    // pick of it) keeps its tap and gets a second button that opens its form.
    const buttons = (m) => {
      const b = button(m);
      if (!oneTapArgs(m, ctx) || m.actor || !shownParams(m, ctx).some((p) => !p.required)) return b;
      const key = moveKey(m);
      const isOpen = this.open?.kind === 'act' && this.open.key === key;
      const label = m.label || keyLabel(m.action);
      const opts = h(
        'button',
        {
          type: 'button',
          class: ['enc-action', 'enc-options', isOpen && 'active'],
          dataset: { key: `act-${key}-options`, options: m.action, actor: m.actor ?? '' },
          disabled: this.busy,
          attrs: { 'aria-expanded': String(isOpen), 'aria-label': `${label}: more options` },
          onclick: () => this.setOpen(isOpen ? null : { kind: 'act', key }),
        },
        'More options',
      );
      return [b, opts];
    };
    const common = moves.filter(main);
    const more = moves.filter((m) => !main(m));
    box.append(h('div', { class: 'enc-actions', attrs: { role: 'group', 'aria-label': 'Actions' } }, (common.length ? common : more).map(buttons)));
    if (common.length && more.length) {
      const moreOpen = this.open?.kind === 'act' && more.some((m) => moveKey(m) === this.open.key);
      const d = h('details', { class: 'enc-more', open: moreOpen || this.moreOpen }, h('summary', {}, `More (${more.length})`), h('div', { class: 'enc-actions' }, more.map(buttons)));
      d.addEventListener('toggle', () => (this.moreOpen = d.open));
      box.append(d);
    }
    return box;
  }

  // The form of a move that asks: one field per parameter the viewer may give, a pick for each
  // with choices (never free text), everything filled with the arguments the server found.
  moveForm(m, ctx) {
    const key = moveKey(m);
    const params = shownParams(m, ctx);
    // up front: what must be given, and every real choice (what made the form open)
    const primary = params.filter((p) => p.required || p.name === 'target' || p.secret || several(p));
    const extra = params.filter((p) => !primary.includes(p));
    const field = (p) => moveField(m, p);
    const really = this.confirming === key;
    const label = m.label || keyLabel(m.action);
    const form = h(
      'form',
      { class: 'enc-form stack', dataset: { key: `act-${m.action}`, action: m.action, actor: m.actor ?? '' }, noValidate: true },
      h('h3', {}, m.actor_name ? `${label}: ${m.actor_name}` : label),
      primary.map(field),
      extra.length ? h('details', { class: 'more-options' }, h('summary', {}, 'More options'), extra.map(field)) : null,
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'submit', class: really ? 'danger' : 'primary', dataset: { key: 'act-submit' }, disabled: this.busy }, really ? `Really: ${label}?` : label),
        h('button', { type: 'button', dataset: { key: 'act-cancel' }, onclick: () => ((this.confirming = null), this.setOpen(null)) }, 'Cancel'),
      ),
    );
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const { params: values, error } = readMove(form, params);
      if (error) {
        showFieldError(form, error.name, error.message);
        return;
      }
      if (m.confirm && !really) {
        this.confirming = key;
        this.rerender();
        return;
      }
      this.confirming = null;
      const args = { action: m.action };
      if (m.actor) args.actor = m.actor;
      if (Object.keys(values).length) args.params = values;
      this.run('enc.act', args, form, params);
    });
    return form;
  }
  gmStart(ctx, another = false) {
    const mods = Array.isArray(ctx.describe?.modules) ? ctx.describe.modules : [];
    if (ctx.system === 'generic' || !ctx.system) return [h('p', { class: 'muted small' }, 'This campaign plays with free dice only: create one with a rule system (Campaign) to run encounters.')];
    if (!ctx.describe) return [h('p', { class: 'muted small' }, 'Loading the rule system…')];
    if (!mods.length) return [h('p', { class: 'muted small' }, 'This rule system has no encounter modules.')];
    const sel = this.open?.kind === 'start' ? this.open.module : mods[0].id;
    const mod = mods.find((m) => m.id === sel) || mods[0];
    const options = Array.isArray(mod.options) ? mod.options : [];
    const form = h(
      'form',
      { class: 'enc-form stack', dataset: { key: `start-${mod.id}` }, noValidate: true },
      h('h3', {}, another ? 'Start another scene' : 'Start an encounter'),
      h(
        'div',
        { class: 'field' },
        h('label', { htmlFor: 'enc-module' }, 'Kind of encounter'),
        h(
          'select',
          {
            id: 'enc-module',
            dataset: { key: 'enc-module' },
            onchange: (ev) => {
              this.open = { kind: 'start', module: ev.target.value };
              this.rerender();
            },
          },
          mods.map((m) => h('option', { value: m.id, selected: m.id === mod.id }, m.name || keyLabel(m.id.split('.').pop()))),
        ),
      ),
      paramFields(options, { idPrefix: 'opt' }),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', dataset: { key: 'start-submit' }, disabled: this.busy }, 'Start')),
    );
    const own = call(panelHooks(ctx.system, mod.id).renderStart, [ctx]);
    if (own) return [h('div', { class: 'enc-form stack' }, form.querySelector('h3'), form.querySelector('.field')), own];
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const { params: values, error } = readParams(form, options);
      if (error) {
        showFieldError(form, error.name, error.message);
        return;
      }
      const args = { module: mod.id };
      if (Object.keys(values).length) args.options = values;
      this.run('enc.start', args, form, options);
    });
    return [form];
  }

  gmRunning(enc, ctx) {
    const state = ctx.state || {};
    // a character is in one scene at a time: offer only those in none
    const inEnc = new Set((ctx.scenes ?? [{ pub: enc }]).flatMap((x) => combatantsOf(x.pub)).map((c) => c.char).filter(Boolean));
    const chars = Object.entries(state.chars && typeof state.chars === 'object' ? state.chars : {}).filter(([id]) => !inEnc.has(id));
    const npcs = Object.entries(state.gm?.npcs && typeof state.gm.npcs === 'object' ? state.gm.npcs : {});
    const tools = h(
      'div',
      { class: 'actions enc-gm-tools' },
      h('button', { type: 'button', dataset: { key: 'gm-add' }, onclick: () => this.setOpen(this.open?.kind === 'add' ? null : { kind: 'add' }) }, 'Add combatant'),
      h('button', { type: 'button', dataset: { key: 'gm-set' }, onclick: () => this.setOpen(this.open?.kind === 'set' ? null : { kind: 'set' }) }, 'Change a number'),
      this.open?.kind === 'end'
        ? h('button', { type: 'button', class: 'danger', dataset: { key: 'gm-end-yes' }, disabled: this.busy, onclick: () => this.run('enc.end', {}, null, []) }, 'Really end it')
        : h('button', { type: 'button', class: 'danger', dataset: { key: 'gm-end' }, onclick: () => this.setOpen({ kind: 'end' }) }, 'End encounter'),
    );
    const out = [tools];
    if (this.open?.kind === 'add') {
      const pc = h(
        'form',
        { class: 'enc-form stack', dataset: { key: 'add' }, noValidate: true },
        h('h3', {}, 'Add a character'),
        chars.length
          ? h(
              'div',
              { class: 'field' },
              h('label', { htmlFor: 'enc-add-char' }, 'Player character'),
              h('select', { id: 'enc-add-char', name: 'char' }, chars.map(([id, c]) => h('option', { value: id }, `${c?.name ?? id}`))),
              h('button', { type: 'button', dataset: { key: 'add-char' }, disabled: this.busy, onclick: (ev) => this.run('enc.add', { char: ev.target.form.elements.namedItem('char').value }, null, []) }, 'Add PC'),
            )
          : h('p', { class: 'muted small' }, 'Every player character is already in.'),
        h('h3', {}, 'Add an NPC'),
        npcs.length
          ? h(
              'div',
              { class: 'field' },
              h('label', { htmlFor: 'enc-add-npcsheet' }, 'From a prepared NPC'),
              h('select', { id: 'enc-add-npcsheet', name: 'npcsheet' }, h('option', { value: '' }, '— none (name only) —'), npcs.map(([id, n]) => h('option', { value: id }, `${n?.name ?? id}`))),
            )
          : null,
        h('div', { class: 'field' }, h('label', { htmlFor: 'enc-add-name' }, 'Name'), h('input', { id: 'enc-add-name', name: 'name', type: 'text', maxLength: 40, autocomplete: 'off' })),
        h(
          'div',
          { class: 'field' },
          h('label', { htmlFor: 'enc-add-side' }, 'Side'),
          h('select', { id: 'enc-add-side', name: 'side' }, ['foes', 'party', 'allies', 'neutral'].map((s) => h('option', { value: s }, s))),
        ),
        h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', dataset: { key: 'add-npc' }, disabled: this.busy }, 'Add NPC')),
      );
      pc.addEventListener('submit', (ev) => {
        ev.preventDefault();
        const f = pc.elements;
        const from = f.namedItem('npcsheet')?.value || '';
        if (from) {
          this.run('enc.add', { char: from, side: f.namedItem('side').value }, pc, []);
          return;
        }
        const name = f.namedItem('name').value.trim();
        if (!name) {
          showFieldError(pc, null);
          f.namedItem('name').focus();
          this.error = { text: 'An NPC needs a name.' };
          this.rerender();
          return;
        }
        this.run('enc.add', { npc: { name }, side: f.namedItem('side').value }, pc, []);
      });
      out.push(pc);
    }
    if (this.open?.kind === 'set') {
      const fields = editableNumbers(enc, ctx);
      const sel = fields.find((f) => f.path === this.open.path) || fields[0];
      const form = h(
        'form',
        { class: 'enc-form stack', dataset: { key: 'set' }, noValidate: true },
        h('h3', {}, 'Change a number'),
        fields.length
          ? [
              h(
                'div',
                { class: 'field' },
                h('label', { htmlFor: 'enc-set-path' }, 'What'),
                h(
                  'select',
                  {
                    id: 'enc-set-path',
                    name: 'path',
                    onchange: (ev) => {
                      this.open = { kind: 'set', path: ev.target.value };
                      this.rerender();
                    },
                  },
                  fields.map((f) => h('option', { value: f.path, selected: f === sel }, `${f.label} (now ${f.value})`)),
                ),
              ),
              h(
                'div',
                { class: 'field' },
                h('label', { htmlFor: 'enc-set-value' }, 'New value'),
                h('input', { id: 'enc-set-value', name: 'value', type: 'number', inputMode: 'numeric', step: 1, value: String(sel.value), dataset: { key: `set-value-${sel.path}` } }),
              ),
              h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', dataset: { key: 'set-submit' }, disabled: this.busy }, 'Change')),
            ]
          : h('p', { class: 'muted small' }, 'Nothing here has a number to change.'),
      );
      form.addEventListener('submit', (ev) => {
        ev.preventDefault();
        const path = form.elements.namedItem('path')?.value;
        const raw = String(form.elements.namedItem('value')?.value ?? '').trim();
        if (!path || !/^-?\d+$/.test(raw)) {
          this.error = { text: 'Type a whole number.' };
          this.rerender();
          return;
        }
        this.run('enc.set', { path, value: Number(raw) }, form, []);
      });
      out.push(form);
    }
    return out;
  }
}

// The numbers the GM may change by picking them (enc.set): the round, and each combatant's public
// and GM-only numeric stats ({current|value, max} tracks by their current value).
// Whether the module declares path editable (describe.modules[].editable: the server's enc.set
// table; a "stats/<key>" entry stands for that stat of every combatant, "*" for a combatant id).
function declaredEditable(ctx, path) {
  const list = Array.isArray(ctx.module?.editable) ? ctx.module.editable : null;
  if (!list) return true; // an older server: it answers for itself
  return list.some((f) => {
    if (f.path.startsWith('stats/')) return new RegExp(`^(/gm)?/enc/combatants/[^/]+/${f.path}$`).test(path);
    return new RegExp(`^${f.path.replace(/\*/g, '[^/]+')}$`).test(path);
  });
}

function editableNumbers(enc, ctx) {
  const out = [];
  if (Number.isFinite(enc.round)) out.push({ path: '/enc/round', label: 'Round', value: enc.round });
  const hidden = ctx.isGm ? ctx.state?.gm?.enc?.combatants || {} : {};
  for (const c of combatantsOf(enc)) {
    const add = (base, stats) => {
      for (const [k, v] of Object.entries(stats && typeof stats === 'object' ? stats : {})) {
        if (Number.isFinite(v)) out.push({ path: `${base}/${k}`, label: `${c.name ?? c.id}: ${words(k)}`, value: v });
        else if (v && typeof v === 'object') {
          for (const sub of ['current', 'value', 'damage']) {
            if (Number.isFinite(v[sub])) {
              out.push({ path: `${base}/${k}/${sub}`, label: `${c.name ?? c.id}: ${words(k)}${sub === 'damage' ? ' damage' : ''}`, value: v[sub] });
              break;
            }
          }
        }
      }
    };
    add(`/enc/combatants/${c.id}/stats`, c.stats);
    add(`/gm/enc/combatants/${c.id}/stats`, hidden[c.id]?.stats);
  }
  return out.filter((f) => declaredEditable(ctx, f.path));
}

// Whether the running module has turns at all: a module without `turn` actions (between the
// scenes) has no rounds and nobody's turn to announce. Unknown until describe loads: yes.
function hasTurns(ctx) {
  const acts = ctx.module?.actions;
  return !Array.isArray(acts) || acts.some((a) => who(a) === 'turn');
}

// "Round 2 · Vera's turn" or "Your turn, Vera!": who acts now, in large type (a panel's banner
// hook may add to it).
export function turnBanner(enc, ctx) {
  const cur = currentId(enc);
  const c = cur ? enc.combatants?.[cur] : null;
  const takers = turnTakers(enc);
  if (!c && takers.length) {
    const mine = takers.some((x) => isMine(x, ctx));
    const names = takers.map((x) => x.name ?? x.id).join(' or ');
    return h('p', { class: ['turn-banner', mine && 'mine'], attrs: { role: 'status' } }, mine ? `Your side’s turn: ${names}` : `Up now: ${names}`);
  }
  if (!c) return h('p', { class: 'turn-banner idle', attrs: { role: 'status' } }, ctx.isGm ? 'Nobody has the turn yet: begin the round.' : 'Waiting for the GM to begin.');
  const mine = isMine({ ...c, id: cur }, ctx);
  return h('p', { class: ['turn-banner', mine && 'mine'], attrs: { role: 'status' } }, mine ? `Your turn, ${c.name ?? cur}!` : `${c.name ?? cur}’s turn`);
}

function call(fn, args) {
  if (typeof fn !== 'function') return undefined;
  try {
    const v = fn(...args);
    return v === null ? undefined : v;
  } catch (e) {
    console.warn('tabled: encounter panel hook failed', e);
    return undefined;
  }
}

// ---- scenes and the clock (PROTOCOL.md "Scenes and the clock") ----

// Every running scene: the first (/enc, id "enc") first, then /scenes in order; hid is its GM half.
export function scenesOf(state) {
  const out = [];
  if (state.enc && typeof state.enc === 'object') out.push({ sid: 'enc', pub: state.enc, hid: state.gm?.enc });
  for (const [sid, pub] of Object.entries(state.scenes && typeof state.scenes === 'object' ? state.scenes : {})) {
    if (pub && typeof pub === 'object') out.push({ sid, pub, hid: state.gm?.scenes?.[sid] });
  }
  return out;
}

// The state as the panel and the system hooks see it for one scene: that scene at /enc (and its
// GM half at /gm/enc), the rest of the campaign as it is.
function sceneView(state, scene) {
  const view = { ...state, enc: scene.pub };
  if (state.gm) view.gm = { ...state.gm, enc: scene.hid };
  return view;
}

// The args of an enc.* command for the scene shown: enc.start opens a scene beside the running
// ones; every other op names the scene unless it is the first (old servers need no `scene`).
function scoped(op, args, scenes, sid) {
  if (!op.startsWith('enc.')) return args;
  if (op === 'enc.start') return scenes.length ? { ...args, scene: 'new' } : args;
  return sid && sid !== 'enc' ? { ...args, scene: sid } : args;
}

// An in-world time in words a person reads: "12 minutes", "1 day 2 hours", "8 seconds".
export function timeWords(t) {
  if (!Number.isFinite(t) || t <= 0) return 'no time';
  const units = [
    [86400, 'day', 'days'],
    [3600, 'hour', 'hours'],
    [60, 'minute', 'minutes'],
    [1, 'second', 'seconds'],
  ];
  const parts = [];
  for (const [size, one, many] of units) {
    const k = Math.floor(t / size);
    if (!k) {
      if (parts.length) break;
      continue;
    }
    t -= k * size;
    parts.push(`${k} ${k === 1 ? one : many}`);
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}

// "Heist, round 2, 10 minutes in" for a scene of the clock (withRound false: without the round).
function sceneClockWords(clock, sid, withRound = true) {
  const c = clock?.scenes?.[sid];
  if (!c) return 'not started';
  const round = withRound && c.round ? `, round ${c.round}` : '';
  // a between scene has no rounds, but its rests and travel take time (spent_s)
  return `${c.label ?? 'Round'}${round}, ${c.round || c.spent_s ? `${timeWords(c.elapsed_s)} in` : 'not begun'}`;
}

// Which scene the GM plays next to keep the scenes in step (/clock/next), in words: "Next: the
// Chase", or "Next: this scene, the Chase" when it is the one shown. null when the clock names no
// running scene.
function nextSceneWords(scenes, next, shownSid) {
  const x = scenes.find((y) => y.sid === next);
  if (!x) return null;
  const name = `the ${x.pub.name ?? 'scene'}`;
  return x.sid === shownSid ? `Next: this scene, ${name}` : `Next: ${name}`;
}

// "Chase · Action, round 3, 3 minutes in"; a scene named after its stage says it once.
function foldedTitle(name, clockWords) {
  return clockWords.startsWith(`${name},`) ? clockWords : `${name} · ${clockWords}`;
}

// -- moves (enc.moves: PROTOCOL.md) ----------------------------------------------------------------

// One move: an action and who takes it.
export const moveKey = (m) => (m.actor ? `${m.action}-${m.actor}` : m.action);

// The parameters a viewer may give: a secret one (a GRIMWIRE target number) is the GM's only.
const shownParams = (m, ctx) => (Array.isArray(m.params) ? m.params : []).filter((p) => p.name !== 'actor' && (ctx.isGm || !p.secret));

const choicesOf = (p) => (Array.isArray(p.choices) ? p.choices : []);
const given = (m, p) => (m.args && typeof m.args === 'object' && p.name in m.args ? m.args[p.name] : p.default);

// Whether parameter p offers a real choice: two picks or more.
const several = (p) => Boolean(p.pick) && choicesOf(p).filter((c) => c.value !== null && c.value !== undefined).length > 1;

// The enc.act args of a move that asks nothing, or null when it needs its form: a move asks when
// a required parameter is not settled by the server's args (missing, an open number, two picks or
// more: the target), or when a combatant's move offers a real choice (the weapon, who is next).
// The GM's own moves run on one tap with the defaults (rolling a reaction; the GM's pick of it
// waits in the form no one needs), and an optional open number is never a reason for a form.
function oneTapArgs(m, ctx) {
  const asks = shownParams(m, ctx).some((p) => {
    if (!p.required) return Boolean(m.actor) && several(p);
    return !m.args || !(p.name in m.args) || !p.pick || several(p);
  });
  if (asks) return null;
  const args = { action: m.action };
  if (m.actor) args.actor = m.actor;
  if (m.args && Object.keys(m.args).length) args.params = { ...m.args };
  return args;
}

// One field of a move's form: a <select> of the choices (the server's default selected; a null
// choice leaves the parameter out), else a number or a text filled with the server's value.
function moveField(m, p) {
  const id = `mv-${moveKey(m)}-${p.name}`;
  const value = given(m, p);
  const choices = choicesOf(p);
  let input;
  if (p.pick && choices.length) {
    const sel = choices.some((c) => c.value !== null && String(c.value) === String(value)) ? String(value) : '';
    const seen = new Set();
    input = h(
      'select',
      { id, name: p.name, dataset: { kind: 'pick' } },
      choices
        .map((c) => ({ value: c.value === null || c.value === undefined ? '' : String(c.value), label: c.label ?? String(c.value) }))
        .filter((c) => !seen.has(c.value) && seen.add(c.value))
        .map((c) => h('option', { value: c.value, selected: c.value === sel }, c.label)),
    );
  } else if (paramType(p) === 'int' || paramType(p) === 'bool') {
    input = h('input', {
      type: 'number',
      id,
      name: p.name,
      inputMode: 'numeric',
      step: 1,
      value: Number.isFinite(value) ? String(value) : '',
      attrs: { min: Number.isFinite(p.min) ? p.min : null, max: Number.isFinite(p.max) ? p.max : null },
    });
  } else {
    input = h('input', { type: 'text', id, name: p.name, value: typeof value === 'string' ? value : '', autocomplete: 'off', spellcheck: false, maxLength: Number.isFinite(p.max) && p.max > 0 ? p.max : 200 });
  }
  if (p.required) input.required = true;
  const range = !p.pick && paramType(p) === 'int' && Number.isFinite(p.min) && Number.isFinite(p.max) ? ` (${p.min}–${p.max})` : '';
  return h(
    'div',
    { class: 'field', dataset: { param: p.name } },
    h('label', { htmlFor: id }, paramLabel(p), h('span', { class: 'muted small' }, range), p.secret ? h('span', { class: 'badge secret-badge' }, 'hidden from players') : null),
    input,
    h('p', { class: 'field-error', attrs: { role: 'alert' }, hidden: true }),
  );
}

// A move's form back into enc.act params: a pick gives its choice's own value (a number stays a
// number), an empty optional field is left out.
function readMove(form, params) {
  const out = {};
  const open = [];
  for (const p of params) {
    const el = form.elements.namedItem(p.name);
    if (!el) continue;
    if (el.tagName !== 'SELECT') {
      open.push(p);
      continue;
    }
    const c = choicesOf(p).find((x) => x.value !== null && x.value !== undefined && String(x.value) === el.value);
    if (c) out[p.name] = c.value;
    else if (p.required) return { params: out, error: { name: p.name, message: `${paramLabel(p)}: pick one.` } };
  }
  const rest = readParams(form, open.map((p) => (paramType(p) === 'bool' ? { ...p, type: 'int' } : p)));
  return { params: { ...out, ...rest.params }, error: rest.error };
}
