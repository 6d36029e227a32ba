// Handouts (PROTOCOL.md "Handouts"): the GM adds one (a title, words, a picture made small enough
// to send), shows it to everyone or to one person, hides it, deletes it; a player reads every
// handout shown to them here — /handouts (everyone's) and /private/<seat>/handouts (their own).

import { h, show, setText } from '../dom.js';
import { seatsOf } from './model.js';

const MAX_IMAGE = 60000; // characters of the picture's data URL the server takes
const KINDS = /^data:image\/(png|jpeg|webp|gif);base64,/;

// The handouts this reader is shown, oldest first.
export function handoutsShown(state, seat) {
  const all = { ...(state?.handouts || {}), ...(state?.private?.[seat]?.handouts || {}) };
  return Object.values(all).sort((a, b) => Number(String(a.id).slice(1)) - Number(String(b.id).slice(1)));
}

function readDataUrl(file) {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(new Error('The picture could not be read.'));
    r.readAsDataURL(file);
  });
}

// The picture as a data URL the server takes: as it is when it is small enough, else redrawn
// smaller as a JPEG until it fits. (The scene map's picture too: views/map.js.)
export async function pictureOf(file) {
  const url = await readDataUrl(file);
  if (KINDS.test(url) && url.length <= MAX_IMAGE) return url;
  let bmp;
  try {
    bmp = await createImageBitmap(file);
  } catch {
    throw new Error('That file is not a picture this page can read.');
  }
  for (let side = 1200; side >= 48; side = Math.round(side * 0.7)) {
    const scale = Math.min(1, side / Math.max(bmp.width, bmp.height));
    const c = document.createElement('canvas');
    c.width = Math.max(1, Math.round(bmp.width * scale));
    c.height = Math.max(1, Math.round(bmp.height * scale));
    const g = c.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, c.width, c.height);
    g.drawImage(bmp, 0, 0, c.width, c.height);
    for (const q of [0.82, 0.65, 0.5]) {
      const out = c.toDataURL('image/jpeg', q);
      if (out.length <= MAX_IMAGE) return out;
    }
  }
  throw new Error('That picture is too big to hand out.');
}

function handoutBody(x) {
  return [
    x.text ? h('p', { class: 'handout-text' }, x.text) : null,
    typeof x.image === 'string' && KINDS.test(x.image) ? h('img', { class: 'handout-image', src: x.image, alt: `Picture: ${x.title}` }) : null,
  ];
}

export class HandoutsView {
  constructor(card, root, { send }) {
    this.card = card;
    this.send = send;
    this.sig = '';
    this.title = h('input', { id: 'handout-title', type: 'text', maxLength: 80, autocomplete: 'off' });
    this.text = h('textarea', { id: 'handout-text', rows: 3, maxLength: 4000 });
    this.file = h('input', { id: 'handout-image', type: 'file', accept: 'image/png,image/jpeg,image/webp,image/gif' });
    this.add = h('button', { type: 'submit', class: 'primary handout-add' }, 'Add the handout');
    this.error = h('p', { class: 'error-box handout-error', attrs: { role: 'alert' }, hidden: true });
    this.form = h(
      'form',
      { class: 'handout-form', onsubmit: (ev) => { ev.preventDefault(); this.submit(); } },
      h('label', { htmlFor: 'handout-title' }, 'Title'),
      this.title,
      h('label', { htmlFor: 'handout-text' }, 'What it says'),
      this.text,
      h('label', { htmlFor: 'handout-image' }, 'A picture (optional)'),
      this.file,
      this.add,
    );
    this.list = h('ul', { class: 'handout-list' });
    this.empty = h('p', { class: 'muted handout-empty' }, 'No handouts yet.');
    root.replaceChildren(this.form, this.error, this.empty, this.list);
  }

  fail(message) {
    setText(this.error, message);
    show(this.error, Boolean(message));
  }

  async submit() {
    const title = this.title.value.trim();
    if (!title) return this.fail('Give the handout a title.');
    const args = { title };
    if (this.text.value.trim()) args.text = this.text.value;
    this.add.disabled = true;
    try {
      if (this.file.files?.[0]) args.image = await pictureOf(this.file.files[0]);
      const r = await this.send('handout.add', args);
      if (!r.ok) return this.fail(r.message);
      this.fail('');
      this.title.value = '';
      this.text.value = '';
      this.file.value = '';
    } catch (e) {
      this.fail(e.message);
    } finally {
      this.add.disabled = false;
    }
  }

  async run(op, args) {
    const r = await this.send(op, args);
    this.fail(r.ok ? '' : r.message);
  }

  render({ state, seat, isGm, live }) {
    this.add.disabled = !live;
    show(this.form, isGm);
    const list = isGm ? Object.values(state?.gm?.handouts || {}) : handoutsShown(state, seat);
    show(this.card, isGm || list.length > 0);
    const seats = Object.entries(seatsOf(state)).filter(([id]) => id !== 'gm');
    const sig = JSON.stringify([isGm, live, list, seats.map(([id, s]) => [id, s.name])]);
    if (sig === this.sig) return;
    this.sig = sig;
    show(this.empty, list.length === 0);
    this.list.replaceChildren(...list.map((x) => (isGm ? this.gmItem(x, seats, live) : this.playerItem(x))));
  }

  playerItem(x) {
    return h('li', { class: 'handout', dataset: { id: x.id } }, h('details', {}, h('summary', { class: 'handout-title' }, x.title), handoutBody(x)));
  }

  gmItem(x, seats, live) {
    const names = Object.fromEntries(seats);
    const shownTo = x.to === 'all' ? 'Shown to everyone' : Array.isArray(x.to) ? `Shown to ${x.to.map((s) => names[s]?.name ?? 'someone').join(', ')}` : 'Not shown';
    const pick = h(
      'select',
      { class: 'handout-to', attrs: { 'aria-label': `Show ${x.title} to` } },
      h('option', { value: 'all' }, 'Everyone'),
      ...seats.map(([id, s]) => h('option', { value: id }, s.name)),
    );
    return h(
      'li',
      { class: 'handout', dataset: { id: x.id } },
      h('details', {}, h('summary', { class: 'handout-title' }, x.title, ' ', h('span', { class: 'muted small handout-shown' }, `· ${shownTo}`)), handoutBody(x)),
      h(
        'div',
        { class: 'handout-actions' },
        pick,
        h('button', { type: 'button', class: 'handout-show', disabled: !live, onclick: () => this.run('handout.show', pick.value === 'all' ? { id: x.id } : { id: x.id, to: [pick.value] }) }, 'Show'),
        x.to ? h('button', { type: 'button', class: 'handout-hide', disabled: !live, onclick: () => this.run('handout.hide', { id: x.id }) }, 'Hide again') : null,
        h('button', { type: 'button', class: 'handout-delete', disabled: !live, onclick: () => this.run('handout.delete', { id: x.id }) }, 'Delete'),
      ),
    );
  }
}
