// The rule system's checks in the roll card: pick a check, fill its parameters (a form built
// from `system.describe`), roll (`roll.check`). Quick rolls from a sheet that still need a number
// (a DC, a target number) open this form prefilled, with the focus on what is missing. The GM's
// "secret" box of the roll card applies here too.

import { h, show } from '../dom.js';
import { paramFields, readParams, showFieldError, paramInMessage } from './params.js';
import { resultBox } from './result.js';
import { label, plain } from '../words.js';

export class ChecksView {
  constructor(root, { send, secretBox, announce }) {
    this.root = root;
    this.send = send;
    this.secretBox = secretBox;
    this.announce = announce;
    this.reset();
  }

  // What the box keeps of one campaign at one seat; a campaign switch starts from nothing.
  reset() {
    this.describe = null;
    this.check = null; // selected check name
    this.values = {}; // prefilled values of the open form
    this.remembered = {}; // `${check}.${param}` -> last value typed for a `need`
    this.label = null; // "Sylla: DEX 2" when opened from a sheet
    this.sig = null;
    this.busy = false;
    this.error = null;
    this.result = null; // {seq, text}: the last roll, shown under the Roll button
    this.state = null;
  }

  render({ describe, live, state, isGm }) {
    if (state !== undefined) this.state = state;
    if (isGm !== undefined) this.isGm = isGm;
    const checks = Array.isArray(describe?.checks) ? describe.checks : [];
    show(this.root, checks.length > 0);
    const sig = [describe, this.isGm, this.check, this.values, this.busy, this.error, this.result, this.result ? this.state?.log : null, this.result ? this.state?.gm?.log : null];
    if (this.sig && sig.every((x, i) => x === this.sig[i])) return;
    this.sig = sig;
    this.describe = describe;
    if (!checks.length) {
      this.root.replaceChildren();
      return;
    }
    const found = checks.find((c) => c.name === this.check) || checks[0];
    // a player is never asked for a number only the GM knows: the roll waits for it (views/asks.js)
    const cur = this.isGm ? found : { ...found, params: (found.params || []).filter((p) => !p.secret) };
    const keepFocus = document.activeElement && this.root.contains(document.activeElement) ? document.activeElement.name || document.activeElement.id : null;
    const form = h(
      'form',
      { class: 'check-form stack', noValidate: true, dataset: { check: cur.name } },
      h('h3', {}, `${describe.name || 'Rule system'} checks`),
      this.label ? h('p', { class: 'small muted check-for' }, this.label) : null,
      h(
        'div',
        { class: 'field' },
        h('label', { htmlFor: 'check-name' }, 'Check'),
        h(
          'select',
          {
            id: 'check-name',
            onchange: (ev) => {
              this.check = ev.target.value;
              this.values = {};
              this.label = null;
              this.error = null;
              this.rerender();
            },
          },
          checks.map((c) => h('option', { value: c.name, selected: c.name === cur.name }, label(c.name))),
        ),
        cur.summary ? h('p', { class: 'small muted' }, plain(cur.summary)) : null,
      ),
      h('div', { class: 'param-grid' }, paramFields(cur.params, { values: this.values, idPrefix: 'chk' })),
      this.error ? h('p', { class: 'error-box check-error', attrs: { role: 'alert' } }, this.error) : null,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'check-submit', disabled: this.busy }, cur.name === 'check' ? 'Roll the check' : `Roll ${label(cur.name).toLowerCase()}`)),
      this.result ? resultBox(this.state, this.result, { onClose: () => ((this.result = null), this.rerender()) }) : null,
    );
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.submit(form, cur);
    });
    this.root.replaceChildren(form);
    if (keepFocus) {
      const el = form.elements.namedItem(keepFocus) || form.querySelector(`#${CSS.escape(keepFocus)}`);
      el?.focus?.();
    }
  }

  rerender() {
    this.sig = null;
    this.render({ describe: this.describe, live: this.live !== false });
  }

  setLive(live) {
    this.live = live;
  }

  // Opens the form for `check` with `params` filled in and the focus on the first of `need`.
  // who: {char, label} for the log line (roll.check `char`, `label`), when opened from a sheet.
  open(check, params, need, label, who = null) {
    this.check = check;
    this.who = who;
    const values = { ...params };
    for (const n of need) {
      const r = this.remembered[`${check}.${n}`];
      if (r !== undefined && values[n] === undefined) values[n] = r;
    }
    this.values = values;
    this.label = label || null;
    this.error = null;
    this.rerender();
    const form = this.root.querySelector('form');
    const first = need.map((n) => form?.elements.namedItem(n)).find(Boolean);
    this.root.scrollIntoView({ block: 'nearest' });
    (first || form?.querySelector('button[type=submit]'))?.focus();
    if (first?.select) first.select();
  }

  async roll(check, params, secret) {
    const args = { check, params, ...(this.who && this.who.check === check ? { char: this.who.char, label: this.who.label } : {}) };
    if (!args.char) delete args.char;
    if (secret) args.secret = true;
    return this.send('roll.check', args);
  }

  async submit(form, cur) {
    const { params, error } = readParams(form, cur.params);
    if (error) {
      showFieldError(form, error.name, error.message);
      return;
    }
    for (const [k, v] of Object.entries(params)) this.remembered[`${cur.name}.${k}`] = v;
    this.busy = true;
    this.error = null;
    this.values = params;
    this.rerender();
    const reply = await this.roll(cur.name, params, this.secretBox && !this.secretBox.closest('[hidden]') && this.secretBox.checked);
    this.busy = false;
    if (reply.ok && reply.result?.asked) {
      this.label = null;
      this.result = { seq: reply.seq, ask: reply.result.asked, text: "Waiting for the GM's target number.", secret: reply.secret };
      this.rerender();
      this.announce?.("Rolled: waiting for the GM's target number");
      return;
    }
    if (reply.ok) {
      this.label = null;
      this.result = { seq: reply.seq, text: `Rolled: ${reply.result?.total}`, secret: reply.secret };
      this.rerender();
      this.root.querySelector('.result-box')?.scrollIntoView?.({ block: 'nearest' });
      const total = reply.result?.total;
      this.announce?.(`Rolled ${label(cur.name)}: ${total}${reply.result?.success === true ? ', success' : reply.result?.success === false ? ', failure' : ''}`);
      return;
    }
    const p = paramInMessage(reply.message, cur.params);
    this.error = p ? null : plain(reply.message || 'The roll was refused.');
    this.rerender();
    if (p) showFieldError(this.root.querySelector('form'), p, reply.message);
  }
}
