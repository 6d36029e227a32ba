// The scene map (PROTOCOL.md "The scene map", issue 30): a picture or a plain grid for a running
// scene, with a token for each fighter and free markers. Everyone pans (one finger or the mouse),
// pinch-zooms (two fingers, the wheel, the + and − buttons) and taps a token for its card; a
// player drags their own token, the GM any (and keeps some hidden from the players). A drop sends
// map.move; the token stays where it was dropped until the server's diff moves it for good.
//
// Zones: named rectangles of squares the GM draws (an outline and a name, under the tokens). The
// server decides which the table sees (a hidden one, or one bound to a heist zone the crew has not
// found, is only in the GM's copy); the page draws what it is given. Tap one for its card.
//
// The picture: the GM's copy has it in the state; a player fetches it once with map.image and
// keeps it in the browser by its key (localStorage), so a reload or a token move never fetches it
// again.

import { h, show, setText } from '../dom.js';
import { pictureOf } from './handouts.js';

const CACHE = 'tabled.map.'; // + the picture's key: its data URL
const KEEP = 6; // pictures kept in the browser
const HANDLE = 44; // the smallest token on screen, in CSS pixels
const TAP = 8; // a pointer that moved less than this is a tap

// The running scenes, the first first: [[sid, scene]].
function scenesOf(state) {
  const out = [];
  if (state?.enc) out.push(['enc', state.enc]);
  for (const [sid, s] of Object.entries(state?.scenes || {})) out.push([sid, s]);
  return out;
}

function cached(key) {
  try {
    return globalThis.localStorage?.getItem(CACHE + key) || null;
  } catch {
    return null;
  }
}

function remember(key, image) {
  try {
    const ls = globalThis.localStorage;
    const mine = [];
    for (let i = 0; i < ls.length; i++) if (ls.key(i)?.startsWith(CACHE)) mine.push(ls.key(i));
    for (const k of mine.slice(0, Math.max(0, mine.length - KEEP + 1))) ls.removeItem(k);
    ls.setItem(CACHE + key, image);
  } catch {
    // a full storage: the picture is fetched again next time
  }
}

// The natural size of a picture given as a data URL.
function sizeOf(url) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve({ w: img.naturalWidth, h: img.naturalHeight });
    img.onerror = () => reject(new Error('That file is not a picture this page can read.'));
    img.src = url;
  });
}

const initials = (name) =>
  String(name || '?')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0].toUpperCase())
    .join('');

function field(id, label, input) {
  return h('div', { class: 'map-field' }, h('label', { htmlFor: id }, label), input);
}

function numberInput(id, value, min, max) {
  return h('input', { id, type: 'number', value: String(value), min: String(min), max: String(max), inputMode: 'numeric' });
}

export class MapView {
  constructor(card, { send }) {
    this.card = card;
    this.send = send;
    this.sid = null;
    this.boardSig = '';
    this.tokenSig = '';
    this.view = { scale: 1, tx: 0, ty: 0 };
    this.fitted = '';
    this.pointers = new Map();
    this.drag = null;
    this.fetching = new Set();
    this.failed = new Set();
    this.selected = null;
    this.m = null;

    this.pick = h('select', { id: 'map-scene', class: 'map-scene', onchange: () => this.rerender() });
    this.pickField = field('map-scene', 'Scene', this.pick);
    this.img = h('img', { class: 'map-picture', alt: '', draggable: false });
    this.grid = h('canvas', { class: 'map-grid', attrs: { 'aria-hidden': 'true' } });
    this.board = h('div', { class: 'map-board' }, this.img, this.grid);
    this.tokens = h('div', { class: 'map-tokens' });
    this.zoneLayer = h('div', { class: 'map-zones' });
    this.zoneSig = '';
    this.selectedZone = null;
    this.tap = null;
    this.viewport = h(
      'div',
      { class: 'map-view', attrs: { role: 'application', 'aria-label': 'The map: drag to look around, pinch or use the buttons to zoom' } },
      this.board,
      this.zoneLayer,
      this.tokens,
    );
    const zoom = (f) => () => this.zoomAt(f, this.viewport.clientWidth / 2, this.viewport.clientHeight / 2);
    this.zoomBar = h(
      'div',
      { class: 'map-zoom' },
      h('button', { type: 'button', class: 'map-zoom-in', onclick: zoom(1.25), attrs: { 'aria-label': 'Zoom in' } }, '+'),
      h('button', { type: 'button', class: 'map-zoom-out', onclick: zoom(0.8), attrs: { 'aria-label': 'Zoom out' } }, '−'),
      h('button', { type: 'button', class: 'map-fit', onclick: () => this.fit(true) }, 'Whole map'),
    );
    this.info = h('div', { class: 'map-info', attrs: { 'aria-live': 'polite' } });
    this.note = h('p', { class: 'muted small map-note' });
    this.error = h('p', { class: 'error-box map-error', attrs: { role: 'alert' }, hidden: true });
    this.gmBox = this.gmControls();
    card.replaceChildren(h('h2', { id: 'map-title' }, 'Map'), this.pickField, this.gmBox, this.error, this.note, this.viewport, this.zoomBar, this.info);
    card.setAttribute('aria-labelledby', 'map-title');

    this.viewport.addEventListener('pointerdown', (e) => this.down(e));
    this.viewport.addEventListener('pointermove', (e) => this.moveTo(e));
    this.viewport.addEventListener('pointerup', (e) => this.up(e));
    this.viewport.addEventListener('pointercancel', (e) => this.up(e, true));
    this.viewport.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        const r = this.viewport.getBoundingClientRect();
        this.zoomAt(e.deltaY < 0 ? 1.1 : 1 / 1.1, e.clientX - r.left, e.clientY - r.top);
      },
      { passive: false },
    );
    this.img.addEventListener('load', () => this.fit(false));
  }

  gmControls() {
    this.file = h('input', { id: 'map-image', type: 'file', accept: 'image/png,image/jpeg,image/webp,image/gif' });
    this.plain = h('input', { id: 'map-plain', type: 'checkbox' });
    this.size = numberInput('map-size', 50, 8, 400);
    this.cols = numberInput('map-cols', 12, 1, 100);
    this.rows = numberInput('map-rows', 10, 1, 100);
    this.ox = numberInput('map-ox', 0, 0, 399);
    this.oy = numberInput('map-oy', 0, 0, 399);
    this.save = h('button', { type: 'submit', class: 'primary map-save' }, 'Save the map');
    const setup = h(
      'details',
      { class: 'map-setup' },
      h('summary', {}, 'Set the map'),
      h(
        'form',
        { class: 'map-form', onsubmit: (ev) => { ev.preventDefault(); this.submit(); } },
        field('map-image', 'A picture of the place (optional)', this.file),
        h('label', { class: 'checkline', htmlFor: 'map-plain' }, this.plain, ' No picture: a plain grid'),
        h('div', { class: 'map-numbers' }, field('map-size', 'Square size (pixels)', this.size), field('map-cols', 'Columns', this.cols), field('map-rows', 'Rows', this.rows), field('map-ox', 'Grid starts right', this.ox), field('map-oy', 'Grid starts down', this.oy)),
        this.save,
      ),
    );
    this.showBtn = h('button', { type: 'button', class: 'map-show', onclick: () => this.run('map.show', { scene: this.sid }) }, 'Show to the table');
    this.hideBtn = h('button', { type: 'button', class: 'map-hide', onclick: () => this.run('map.hide', { scene: this.sid }) }, 'Hide from the table');
    this.placeBtn = h('button', { type: 'button', class: 'map-place', onclick: () => this.placeFighters() }, 'Place the fighters');
    this.markerLabel = h('input', { id: 'map-marker', type: 'text', maxLength: 40, autocomplete: 'off' });
    this.markerHidden = h('input', { id: 'map-marker-hidden', type: 'checkbox' });
    const marker = h(
      'form',
      { class: 'map-marker-form', onsubmit: (ev) => { ev.preventDefault(); this.addMarker(); } },
      field('map-marker', 'A marker (a door, a trap, a guard)', this.markerLabel),
      h('label', { class: 'checkline', htmlFor: 'map-marker-hidden' }, this.markerHidden, ' Hidden from the players'),
      h('button', { type: 'submit', class: 'map-add-marker' }, 'Add the marker'),
    );
    this.gmActions = h('div', { class: 'map-actions' }, this.showBtn, this.hideBtn, this.placeBtn);
    this.markerForm = marker;
    return h('div', { class: 'map-gm' }, setup, this.gmActions, marker, this.zoneControls());
  }

  // The GM's "Add a zone" form (the name a pick of the heist's zones when a heist runs) and the
  // list of the map's zones (each opens its card, as a tap on the map does).
  zoneControls() {
    this.zoneHeist = h('select', { id: 'map-zone-heist', onchange: () => this.zoneNameShown() });
    this.zoneHeistField = field('map-zone-heist', 'Which place of the heist', this.zoneHeist);
    this.zoneName = h('input', { id: 'map-zone-name', type: 'text', maxLength: 60, autocomplete: 'off' });
    this.zoneNameField = field('map-zone-name', 'Name of the zone', this.zoneName);
    this.zoneX = numberInput('map-zone-x', 1, 1, 100);
    this.zoneY = numberInput('map-zone-y', 1, 1, 100);
    this.zoneW = numberInput('map-zone-w', 2, 1, 100);
    this.zoneH = numberInput('map-zone-h', 2, 1, 100);
    this.zoneHidden = h('input', { id: 'map-zone-hidden', type: 'checkbox' });
    this.zoneSave = h('button', { type: 'submit', class: 'map-add-zone' }, 'Add the zone');
    this.zoneForm = h(
      'details',
      { class: 'map-zone-setup' },
      h('summary', {}, 'Add a zone'),
      h(
        'form',
        { class: 'map-zone-form', onsubmit: (ev) => { ev.preventDefault(); this.addZone(); } },
        this.zoneHeistField,
        this.zoneNameField,
        h('div', { class: 'map-numbers' }, field('map-zone-x', 'Left column', this.zoneX), field('map-zone-y', 'Top row', this.zoneY), field('map-zone-w', 'Columns wide', this.zoneW), field('map-zone-h', 'Rows tall', this.zoneH)),
        h('label', { class: 'checkline', htmlFor: 'map-zone-hidden' }, this.zoneHidden, ' Hidden from the players'),
        this.zoneSave,
      ),
    );
    this.zoneList = h('div', { class: 'map-zone-list map-actions', attrs: { role: 'group', 'aria-label': 'Zones on this map' } });
    return h('div', { class: 'map-zone-box' }, this.zoneForm, this.zoneList);
  }

  // The zones of the heist running in the chosen scene (the GM's plan): [[id, name]].
  heistZones() {
    const gm = this.m?.state?.gm;
    const half = this.sid === 'enc' ? gm?.enc : gm?.scenes?.[this.sid];
    return Object.entries(half?.spot?.zones || {}).map(([id, z]) => [id, z.name || id]);
  }

  zoneNameShown() {
    const picks = this.heistZones();
    show(this.zoneHeistField, picks.length > 0);
    show(this.zoneNameField, !picks.length || this.zoneHeist.value === '');
  }

  fillHeist() {
    const picks = this.heistZones();
    const sig = JSON.stringify(picks);
    const before = this.zoneHeist.dataset.sig;
    if (before !== sig) {
      // the GM's pick stays while it is still a place of the heist ("another place" too)
      const was = this.zoneHeist.value;
      const keep = before && before !== '[]' && (was === '' || picks.some(([id]) => id === was));
      this.zoneHeist.dataset.sig = sig;
      this.zoneHeist.replaceChildren(...picks.map(([id, name]) => h('option', { value: id }, name)), h('option', { value: '' }, 'Another place (type its name)'));
      this.zoneHeist.value = keep ? was : picks[0]?.[0] || '';
    }
    this.zoneNameShown();
  }

  async addZone() {
    const { map } = this.current();
    if (!map) return;
    const g = map.grid;
    const picks = this.heistZones();
    const heist = picks.length ? this.zoneHeist.value : null;
    const name = heist ? picks.find(([id]) => id === heist)?.[1] : this.zoneName.value.trim();
    if (!name) return this.fail('Give the zone a name.');
    const within = (el, lo, hi) => Math.max(lo, Math.min(hi, Math.round(Number(el.value) || lo)));
    const x = within(this.zoneX, 1, g.cols) - 1;
    const y = within(this.zoneY, 1, g.rows) - 1;
    const args = { scene: this.sid, name, x, y, w: within(this.zoneW, 1, g.cols - x), h: within(this.zoneH, 1, g.rows - y), hidden: this.zoneHidden.checked };
    // a heist runs: a pick binds the zone to that place; "another place" binds it to none
    if (heist !== null) args.heist = heist;
    this.zoneSave.disabled = true;
    const r = await this.run('map.zone', args);
    this.zoneSave.disabled = false;
    if (r.ok) this.zoneName.value = '';
  }

  // The zones this seat sees: the GM all (seen: whether the table's map has it, as the server
  // made it), a player the table's.
  zonesOf(gmMap, pub) {
    const table = pub?.zones || [];
    if (!gmMap) return table.map((z, i) => ({ ...z, id: `t${i}`, seen: true }));
    const same = (a, b) => a.name === b.name && a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
    return Object.values(gmMap.zones || {}).map((z) => ({ ...z, seen: table.some((t) => same(t, z)) }));
  }

  zoneState(z) {
    if (z.seen) return 'The players see it';
    if (z.hidden) return 'Hidden from the players';
    if (z.heist) {
      const place = this.heistZones().find(([id]) => id === z.heist)?.[1];
      return place ? `Shown once the crew learns of ${place}` : 'Shown when its heist is on and the crew knows the place';
    }
    return 'Shown when the map is';
  }

  drawZones(cur) {
    const sig = JSON.stringify([this.sid, cur.zones, this.selectedZone]);
    if (sig === this.zoneSig) return;
    this.zoneSig = sig;
    const isGm = this.m.isGm;
    this.zoneLayer.replaceChildren(
      ...cur.zones.map((z) =>
        h(
          'div',
          { class: ['map-zone', !z.seen && 'map-zone-hidden', this.selectedZone === z.id && 'map-selected'], dataset: { id: z.id, x: z.x, y: z.y, w: z.w, h: z.h } },
          h('span', { class: 'map-zone-name' }, z.name),
          isGm && !z.seen ? h('span', { class: 'visually-hidden' }, ` (${this.zoneState(z).toLowerCase()})`) : null,
        ),
      ),
    );
    if (isGm)
      this.zoneList.replaceChildren(
        ...cur.zones.map((z) =>
          h('button', { type: 'button', class: ['map-zone-pick', !z.seen && 'map-zone-pick-hidden'], dataset: { id: z.id }, onclick: () => this.pickZone(z.id) }, z.seen ? z.name : `${z.name} (not shown)`),
        ),
      );
    show(this.zoneList, isGm && cur.zones.length > 0);
  }

  pickZone(id) {
    this.selectedZone = this.selectedZone === id ? null : id;
    this.selected = null;
    this.tokenSig = '';
    this.rerender();
  }

  // A tap on the ground at (x, y) in the view: the smallest zone under it, if any.
  tapZone(at) {
    const cur = this.current();
    if (!cur.map) return;
    const g = cur.map.grid;
    const v = this.view;
    const col = Math.floor(((at.x - v.tx) / v.scale - g.x) / g.size);
    const row = Math.floor(((at.y - v.ty) / v.scale - g.y) / g.size);
    const hit = cur.zones.filter((z) => col >= z.x && col < z.x + z.w && row >= z.y && row < z.y + z.h).sort((a, b) => a.w * a.h - b.w * b.h)[0];
    if (hit || this.selectedZone) this.pickZone(hit && hit.id !== this.selectedZone ? hit.id : this.selectedZone);
  }

  drawZoneInfo(cur) {
    const z = cur.zones.find((x) => x.id === this.selectedZone);
    if (!z) {
      this.selectedZone = null;
      return false;
    }
    const bits = [h('h3', { class: 'map-info-name' }, z.name), h('p', { class: 'muted small' }, `A zone of ${z.w} by ${z.h} squares`)];
    if (this.m.isGm) {
      bits.push(h('p', { class: 'map-zone-state' }, this.zoneState(z)));
      bits.push(
        h(
          'div',
          { class: 'map-actions' },
          h('button', { type: 'button', class: 'map-zone-show', onclick: () => this.run('map.zone', { scene: this.sid, id: z.id, hidden: !z.hidden }) }, z.hidden ? 'Show to the players' : 'Hide from the players'),
          h('button', { type: 'button', class: 'map-zone-remove', onclick: () => this.run('map.unzone', { scene: this.sid, id: z.id }) }, 'Take off the map'),
        ),
      );
    }
    bits.push(h('button', { type: 'button', class: 'link-button map-info-close', onclick: () => this.pickZone(z.id) }, 'Close'));
    this.info.replaceChildren(h('div', { class: 'map-info-card map-zone-card', dataset: { zone: z.id } }, ...bits));
    return true;
  }

  fail(message) {
    setText(this.error, message || '');
    show(this.error, Boolean(message));
  }

  async run(op, args) {
    const r = await this.send(op, args);
    this.fail(r.ok ? '' : r.message);
    return r;
  }

  async submit() {
    const num = (el) => Number(el.value);
    const args = { scene: this.sid, size: num(this.size), x: num(this.ox), y: num(this.oy), cols: num(this.cols), rows: num(this.rows) };
    this.save.disabled = true;
    try {
      const mine = this.m?.state?.gm?.maps?.[this.sid];
      let w = mine?.w;
      let hgt = mine?.h;
      if (this.plain.checked) args.image = '';
      else if (this.file.files?.[0]) {
        args.image = await pictureOf(this.file.files[0]);
        ({ w, h: hgt } = await sizeOf(args.image));
      }
      if (!this.plain.checked && (args.image || mine?.image)) {
        args.w = w;
        args.h = hgt;
        // the squares that fit the picture
        args.cols = Math.max(1, Math.min(100, Math.floor((w - args.x) / args.size)));
        args.rows = Math.max(1, Math.min(100, Math.floor((hgt - args.y) / args.size)));
      }
      const r = await this.run('map.set', args);
      if (r.ok) this.file.value = '';
    } catch (e) {
      this.fail(e.message);
    } finally {
      this.save.disabled = false;
    }
  }

  async placeFighters() {
    const { scene, map, tokens } = this.current();
    if (!scene || !map) return;
    const cols = map.grid.cols;
    const placed = new Set(tokens.map((t) => t.cid).filter(Boolean));
    const taken = new Set(tokens.map((t) => `${t.x},${t.y}`));
    let i = 0;
    for (const cid of Object.keys(scene.combatants || {})) {
      if (placed.has(cid)) continue;
      while (taken.has(`${i % cols},${Math.floor(i / cols)}`)) i++;
      const x = i % cols;
      const y = Math.floor(i / cols);
      if (y >= map.grid.rows) break;
      taken.add(`${x},${y}`);
      const r = await this.run('map.token', { scene: this.sid, cid, x, y });
      if (!r.ok) break;
    }
  }

  async addMarker() {
    const label = this.markerLabel.value.trim();
    if (!label) return this.fail('Give the marker a name.');
    const r = await this.run('map.token', { scene: this.sid, label, x: 0, y: 0, hidden: this.markerHidden.checked });
    if (r.ok) this.markerLabel.value = '';
  }

  // What this seat sees of the chosen scene's map: {scene, map, tokens, image}.
  current() {
    const cur = this.seen();
    // a fighter's token whose fighter has left the scene is not drawn
    cur.tokens = cur.tokens.filter((t) => !t.cid || cur.scene?.combatants?.[t.cid]);
    return cur;
  }

  seen() {
    const { state, isGm } = this.m || {};
    const scene = scenesOf(state).find(([sid]) => sid === this.sid)?.[1];
    const gmMap = state?.gm?.maps?.[this.sid];
    const pub = state?.maps?.[this.sid];
    if (isGm) {
      if (!gmMap) return { scene, map: null, tokens: [], zones: [] };
      const shown = Object.values((pub || gmMap.kept || {}).tokens || {});
      const hidden = Object.values(gmMap.tokens || {}).map((t) => ({ ...t, hidden: true }));
      return { scene, map: gmMap, tokens: [...shown, ...hidden], zones: this.zonesOf(gmMap, pub), image: gmMap.image || null, shown: Boolean(pub) };
    }
    if (!pub) return { scene, map: null, tokens: [], zones: [] };
    return { scene, map: pub, tokens: Object.values(pub.tokens || {}), zones: this.zonesOf(null, pub), image: pub.key ? cached(pub.key) : null, shown: true };
  }

  rerender() {
    if (this.m) this.render(this.m);
  }

  render(m) {
    this.m = m;
    const { state, seat, isGm, live } = m;
    const scenes = scenesOf(state);
    // the GM: every running scene; a player: the shown maps of the scenes they have a fighter in
    // (the picture goes to no one else: PROTOCOL.md "The scene map")
    const seated = (s) => Object.values(s.combatants || {}).some((c) => c.seat === seat);
    const withMap = scenes.filter(([sid, s]) => (isGm ? true : state?.maps?.[sid] && seated(s)));
    if (!withMap.length) {
      show(this.card, false);
      return;
    }
    show(this.card, true);
    // the scene: the one picked, else (a player) the one with their own fighter in it
    const ids = withMap.map(([sid]) => sid);
    const picked = this.pick.value && ids.includes(this.pick.value) ? this.pick.value : null;
    const mineIn = withMap.find(([, s]) => seated(s))?.[0];
    this.sid = picked || (ids.includes(this.sid) ? this.sid : mineIn || ids[0]);
    const pickSig = JSON.stringify(withMap.map(([sid, s]) => [sid, s.name]));
    if (this.pick.dataset.sig !== pickSig) {
      this.pick.dataset.sig = pickSig;
      this.pick.replaceChildren(...withMap.map(([sid, s]) => h('option', { value: sid }, s.name || 'Scene')));
    }
    this.pick.value = this.sid;
    show(this.pickField, withMap.length > 1);
    show(this.gmBox, isGm);

    const cur = this.current();
    for (const b of [this.save, this.showBtn, this.hideBtn, this.placeBtn]) b.disabled = !live;
    show(this.showBtn, isGm && cur.map && !cur.shown);
    show(this.hideBtn, isGm && cur.map && cur.shown);
    show(this.placeBtn, isGm && Boolean(cur.map));
    show(this.markerForm, isGm && Boolean(cur.map));
    show(this.zoneForm, isGm && Boolean(cur.map));
    if (isGm) this.fillHeist();
    this.zoneSave.disabled = !live;
    if (isGm && cur.map && this.boardSig === '') {
      const g = cur.map.grid;
      this.size.value = g.size;
      this.cols.value = g.cols;
      this.rows.value = g.rows;
      this.ox.value = g.x;
      this.oy.value = g.y;
    }
    show(this.viewport, Boolean(cur.map));
    show(this.zoomBar, Boolean(cur.map));
    setText(
      this.note,
      !cur.map ? 'No map for this scene yet: set one below.' : isGm ? (cur.shown ? 'The table sees this map. Faint tokens are hidden from the players.' : 'Only you see this map until you show it.') : 'Drag your own token to move it; tap any token to see who it is.',
    );
    if (!cur.map) {
      this.boardSig = '';
      this.info.replaceChildren();
      return;
    }
    if (!isGm && cur.map.key && !cur.image) this.fetchImage(cur.map.key);
    this.drawBoard(cur);
    this.drawZones(cur);
    this.drawTokens(cur);
    this.drawInfo(cur);
  }

  async fetchImage(key) {
    if (this.fetching.has(key) || this.failed.has(key)) return;
    this.fetching.add(key);
    const r = await this.send('map.image', { scene: this.sid });
    this.fetching.delete(key);
    if (!r.ok) {
      this.failed.add(key);
      return;
    }
    remember(r.result.key, r.result.image);
    this.rerender();
  }

  drawBoard({ map, image }) {
    const g = map.grid;
    const sig = JSON.stringify([this.sid, map.w, map.h, g, image ? image.length : 0, map.key]);
    if (sig === this.boardSig) return;
    this.boardSig = sig;
    this.board.style.width = `${map.w}px`;
    this.board.style.height = `${map.h}px`;
    if (image) this.img.src = image;
    else this.img.removeAttribute('src');
    show(this.img, Boolean(image));
    // the view as tall as the map at its width (a wide map leaves no empty band), within reason
    const vw = this.viewport.clientWidth || 320;
    const tall = Math.max(220, Math.min(vw * (map.h / map.w), 520, (globalThis.innerHeight || 800) * 0.65));
    this.viewport.style.height = `${Math.round(tall)}px`;
    this.grid.width = map.w;
    this.grid.height = map.h;
    const c = this.grid.getContext('2d');
    if (c) {
      c.clearRect(0, 0, map.w, map.h);
      c.strokeStyle = image ? 'rgba(0,0,0,0.35)' : 'rgba(67,56,202,0.35)';
      c.lineWidth = 1;
      c.beginPath();
      for (let i = 0; i <= g.cols; i++) {
        c.moveTo(g.x + i * g.size + 0.5, g.y);
        c.lineTo(g.x + i * g.size + 0.5, g.y + g.rows * g.size);
      }
      for (let j = 0; j <= g.rows; j++) {
        c.moveTo(g.x, g.y + j * g.size + 0.5);
        c.lineTo(g.x + g.cols * g.size, g.y + j * g.size + 0.5);
      }
      c.stroke();
    }
    this.fit(false);
  }

  // Fits the whole map into the view (force: also when it was fitted before).
  fit(force) {
    const cur = this.m && this.current();
    if (!cur?.map) return;
    const vw = this.viewport.clientWidth;
    const vh = this.viewport.clientHeight;
    if (!vw || !vh) return;
    const sig = `${this.sid}:${cur.map.w}x${cur.map.h}`;
    if (!force && this.fitted === sig) return;
    this.fitted = sig;
    const scale = Math.min(vw / cur.map.w, vh / cur.map.h, 2);
    this.view = { scale, tx: (vw - cur.map.w * scale) / 2, ty: (vh - cur.map.h * scale) / 2 };
    this.place();
  }

  zoomAt(f, px, py) {
    const v = this.view;
    const scale = Math.min(6, Math.max(0.1, v.scale * f));
    const k = scale / v.scale;
    this.view = { scale, tx: px - (px - v.tx) * k, ty: py - (py - v.ty) * k };
    this.place();
  }

  // Where a square's centre is on screen.
  screenOf(t, g) {
    const v = this.view;
    return { x: v.tx + (g.x + (t.x + 0.5) * g.size) * v.scale, y: v.ty + (g.y + (t.y + 0.5) * g.size) * v.scale };
  }

  place() {
    const v = this.view;
    this.board.style.transform = `translate(${v.tx}px, ${v.ty}px) scale(${v.scale})`;
    const cur = this.m && this.current();
    if (!cur?.map) return;
    const side = Math.max(HANDLE, cur.map.grid.size * v.scale);
    for (const el of this.tokens.children) {
      if (this.drag?.el === el) continue;
      const p = this.screenOf({ x: Number(el.dataset.x), y: Number(el.dataset.y) }, cur.map.grid);
      el.style.width = `${side}px`;
      el.style.height = `${side}px`;
      el.style.left = `${p.x - side / 2}px`;
      el.style.top = `${p.y - side / 2}px`;
    }
    const g = cur.map.grid;
    for (const el of this.zoneLayer.children) {
      const d = el.dataset;
      el.style.left = `${v.tx + (g.x + Number(d.x) * g.size) * v.scale}px`;
      el.style.top = `${v.ty + (g.y + Number(d.y) * g.size) * v.scale}px`;
      el.style.width = `${Number(d.w) * g.size * v.scale}px`;
      el.style.height = `${Number(d.h) * g.size * v.scale}px`;
    }
  }

  nameOf(t, scene) {
    if (t.cid) return scene?.combatants?.[t.cid]?.name || 'Someone';
    return t.label || 'Marker';
  }

  // Whether this page may drag token t now: the GM any; a player exactly when the server's `by`
  // (the seat that may move it now, kept current by the server) is theirs. No rule is read here.
  mayDrag(t) {
    return this.m.isGm || (Boolean(t.by) && t.by === this.m.seat);
  }

  // A player's own fighter that the server does not let them move now (a turn of the fight runs
  // that is not its own): its card says so in words.
  waits(t, scene) {
    return !this.m.isGm && !this.mayDrag(t) && Boolean(t.cid) && scene?.combatants?.[t.cid]?.seat === this.m.seat;
  }

  drawTokens(cur) {
    const sig = JSON.stringify([this.sid, cur.tokens, Object.entries(cur.scene?.combatants || {}).map(([id, c]) => [id, c.name, c.seat, c.side, c.out])]);
    if (sig === this.tokenSig && !this.drag) return this.place();
    this.tokenSig = sig;
    const els = cur.tokens.map((t) => {
      const name = this.nameOf(t, cur.scene);
      const mine = !this.m.isGm && this.mayDrag(t);
      return h(
        'button',
        {
          type: 'button',
          class: ['map-token', t.cid ? 'map-fighter' : 'map-marker', t.hidden && 'map-hidden', mine && 'map-mine', this.selected === t.id && 'map-selected'],
          dataset: { id: t.id, x: t.x, y: t.y, cid: t.cid, name },
        },
        h('span', { class: 'map-token-face', attrs: { 'aria-hidden': 'true' } }, initials(name)),
        h('span', { class: 'visually-hidden' }, `${name}${mine ? ' (yours)' : this.waits(t, cur.scene) ? ' (yours, on your turn)' : ''}${t.hidden ? ' (hidden from the players)' : ''}`),
      );
    });
    if (!this.drag) this.tokens.replaceChildren(...els);
    this.place();
  }

  drawInfo(cur) {
    if (this.selectedZone && this.drawZoneInfo(cur)) return;
    const t = cur.tokens.find((x) => x.id === this.selected);
    if (!t) {
      this.info.replaceChildren();
      return;
    }
    const c = t.cid ? cur.scene?.combatants?.[t.cid] : null;
    const bits = [h('h3', { class: 'map-info-name' }, this.nameOf(t, cur.scene))];
    if (c) {
      bits.push(h('p', { class: 'map-info-side' }, c.npc ? `On the side of ${c.side}` : `${c.side === 'party' ? 'One of the party' : `On the side of ${c.side}`}`));
      if (c.out) bits.push(h('p', { class: 'map-info-out' }, `Out of the fight: ${c.out}`));
      if (this.mayDrag(t) && !this.m.isGm) bits.push(h('p', { class: 'muted small map-info-yours' }, 'Yours: drag it to move.'));
      else if (this.waits(t, cur.scene)) bits.push(h('p', { class: 'muted small map-info-yours' }, 'Yours: you move it on your turn.'));
    } else bits.push(h('p', { class: 'muted small' }, 'A marker'));
    if (t.hidden) bits.push(h('p', { class: 'muted small' }, 'Hidden from the players'));
    if (this.m.isGm) {
      bits.push(
        h(
          'div',
          { class: 'map-actions' },
          h('button', { type: 'button', class: 'map-token-show', onclick: () => this.run('map.token', { scene: this.sid, id: t.id, x: t.x, y: t.y, hidden: !t.hidden }) }, t.hidden ? 'Show to the players' : 'Hide from the players'),
          h('button', { type: 'button', class: 'map-token-remove', onclick: () => this.run('map.remove', { scene: this.sid, id: t.id }) }, 'Take off the map'),
        ),
      );
    }
    bits.push(h('button', { type: 'button', class: 'link-button map-info-close', onclick: () => { this.selected = null; this.rerender(); } }, 'Close'));
    this.info.replaceChildren(h('div', { class: 'map-info-card', dataset: { id: t.id } }, ...bits));
  }

  // ---- pointers: a token drag, a pan, a pinch ----

  down(e) {
    const el = e.target.closest?.('.map-token');
    const r = this.viewport.getBoundingClientRect();
    const at = { x: e.clientX - r.left, y: e.clientY - r.top };
    if (el && this.pointers.size === 0) {
      const t = this.current().tokens.find((x) => x.id === el.dataset.id);
      this.drag = { el, t, start: at, left: parseFloat(el.style.left), top: parseFloat(el.style.top), may: Boolean(t && this.mayDrag(t)), moved: false };
      el.setPointerCapture?.(e.pointerId);
      e.preventDefault();
      return;
    }
    this.viewport.setPointerCapture?.(e.pointerId);
    this.tap = this.pointers.size === 0 ? { id: e.pointerId, at, moved: false } : null;
    this.pointers.set(e.pointerId, at);
    this.gesture = { view: { ...this.view }, points: new Map(this.pointers) };
  }

  moveTo(e) {
    const r = this.viewport.getBoundingClientRect();
    const at = { x: e.clientX - r.left, y: e.clientY - r.top };
    if (this.drag) {
      const d = this.drag;
      if (Math.hypot(at.x - d.start.x, at.y - d.start.y) >= TAP) d.moved = true;
      if (d.may && d.moved) {
        d.el.style.left = `${d.left + at.x - d.start.x}px`;
        d.el.style.top = `${d.top + at.y - d.start.y}px`;
        d.el.classList.add('map-dragging');
      }
      return;
    }
    if (!this.pointers.has(e.pointerId)) return;
    if (this.tap?.id === e.pointerId && Math.hypot(at.x - this.tap.at.x, at.y - this.tap.at.y) >= TAP) this.tap.moved = true;
    this.pointers.set(e.pointerId, at);
    const g = this.gesture;
    const [a0, b0] = [...g.points.values()];
    const [a1, b1] = [...this.pointers.values()];
    if (this.pointers.size === 1 && g.points.size === 1) {
      this.view = { ...g.view, tx: g.view.tx + a1.x - a0.x, ty: g.view.ty + a1.y - a0.y };
    } else if (this.pointers.size >= 2 && b0 && b1) {
      const d0 = Math.hypot(b0.x - a0.x, b0.y - a0.y) || 1;
      const d1 = Math.hypot(b1.x - a1.x, b1.y - a1.y);
      const m0 = { x: (a0.x + b0.x) / 2, y: (a0.y + b0.y) / 2 };
      const m1 = { x: (a1.x + b1.x) / 2, y: (a1.y + b1.y) / 2 };
      const scale = Math.min(6, Math.max(0.1, g.view.scale * (d1 / d0)));
      const k = scale / g.view.scale;
      this.view = { scale, tx: m1.x - (m0.x - g.view.tx) * k, ty: m1.y - (m0.y - g.view.ty) * k };
    }
    this.place();
  }

  up(e, cancelled = false) {
    if (this.drag) {
      const d = this.drag;
      this.drag = null;
      d.el.classList.remove('map-dragging');
      if (cancelled) return this.rerender();
      if (!d.moved) {
        this.selected = this.selected === d.t?.id ? null : d.t?.id;
        this.selectedZone = null;
        this.tokenSig = '';
        return this.rerender();
      }
      if (!d.may || !d.t) return this.rerender();
      const cur = this.current();
      const g = cur.map.grid;
      const side = parseFloat(d.el.style.width);
      const cx = (parseFloat(d.el.style.left) + side / 2 - this.view.tx) / this.view.scale;
      const cy = (parseFloat(d.el.style.top) + side / 2 - this.view.ty) / this.view.scale;
      const x = Math.max(0, Math.min(g.cols - 1, Math.floor((cx - g.x) / g.size)));
      const y = Math.max(0, Math.min(g.rows - 1, Math.floor((cy - g.y) / g.size)));
      d.el.dataset.x = x;
      d.el.dataset.y = y;
      this.place();
      if (x !== d.t.x || y !== d.t.y) {
        this.run('map.move', { scene: this.sid, id: d.t.id, x, y }).then(() => {
          this.tokenSig = '';
          this.rerender();
        });
      }
      return;
    }
    this.pointers.delete(e.pointerId);
    this.gesture = { view: { ...this.view }, points: new Map(this.pointers) };
    const tap = this.tap;
    if (tap?.id === e.pointerId) this.tap = null;
    if (tap?.id === e.pointerId && !tap.moved && !cancelled) this.tapZone(tap.at);
  }
}
