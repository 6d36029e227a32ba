// The GM's campaign card: this campaign's name (campaign.rename) and system, and — when this
// browser holds the host token (from the console link `tabled serve` prints) — every campaign
// of the server: switch to one (campaign.open gives a GM token for it) or create a new one
// (campaign.create with a name and a rule system).

import { h } from '../dom.js';
import { hostCall } from '../api.js';
import { routeBase } from '../route.js';
import { count, plain } from '../words.js';

// The systems a campaign may run, as the server names them: campaign.list's `systems` (the host's
// picker) and each seat's system.describe (its own campaign's). The client holds no list of its
// own; "generic" (free dice only) is no rule system.
const known = new Map([['generic', { name: 'Free dice only' }]]);

export function learnSystem(id, name, summary) {
  if (typeof id === 'string' && typeof name === 'string' && name) known.set(id, { name, summary: typeof summary === 'string' ? summary : known.get(id)?.summary });
}

export const systemName = (id) => known.get(id)?.name ?? id;

export class CampaignView {
  constructor(root, { send, hostToken, useGmToken }) {
    this.root = root;
    this.send = send;
    this.hostToken = hostToken; // () → token | null
    this.useGmToken = useGmToken; // (campaignId, token) → void
    this.list = null; // campaigns from campaign.list
    this.systems = []; // [{id, name, summary?}] from campaign.list: what campaign.create takes
    this.listError = null;
    this.renaming = false;
    this.error = null;
    this.busy = false;
    this.sig = null;
    this.m = null;
  }

  render(m) {
    this.m = m;
    const sig = [m.state?.campaign, Boolean(m.state?.enc || m.state?.scenes), m.live, this.list, this.listError, this.renaming, this.error, this.busy, this.hostToken()];
    if (this.sig && sig.every((x, i) => x === this.sig[i])) return;
    const a = document.activeElement;
    const focus = a && this.root.contains(a) ? a.id : null;
    const vals = {};
    for (const el of this.root.querySelectorAll('input[id], select[id]')) vals[el.id] = el.value;
    this.sig = sig;
    this.root.replaceChildren(...this.build(m));
    for (const [id, v] of Object.entries(vals)) {
      const el = this.root.querySelector(`#${CSS.escape(id)}`);
      if (el) el.value = v;
    }
    const chosen = this.root.querySelector('#new-campaign-system');
    const hint = this.root.querySelector('#new-campaign-system-summary');
    if (chosen && hint) hint.textContent = known.get(chosen.value)?.summary ?? '';
    if (focus) this.root.querySelector(`#${CSS.escape(focus)}`)?.focus();
  }

  rerender() {
    this.sig = null;
    if (this.m) this.render(this.m);
  }

  async refresh() {
    const token = this.hostToken();
    if (!token) return;
    const r = await hostCall(token, 'campaign.list', {});
    if (r.ok) {
      this.list = r.result.campaigns || [];
      this.systems = Array.isArray(r.result.systems) ? r.result.systems : [];
      for (const s of this.systems) learnSystem(s.id, s.name, s.summary);
      this.listError = null;
    } else {
      this.listError = plain(r.message || 'refused');
    }
    this.rerender();
  }

  build(m) {
    const camp = m.state?.campaign || {};
    const out = [];
    if (this.error) out.push(h('p', { class: 'error-box', attrs: { role: 'alert' } }, this.error));
    if (this.renaming) {
      const form = h(
        'form',
        { class: 'copy-row', noValidate: true },
        h('label', { htmlFor: 'campaign-rename', class: 'visually-hidden' }, 'Campaign name'),
        h('input', { id: 'campaign-rename', type: 'text', maxLength: 80, value: camp.name ?? '', autocomplete: 'off' }),
        h('button', { type: 'submit', class: 'primary', disabled: !m.live }, 'Save'),
      );
      form.addEventListener('submit', async (ev) => {
        ev.preventDefault();
        const name = form.querySelector('input').value.trim();
        if (!name) return;
        const r = await this.send('campaign.rename', { name });
        this.error = r.ok ? null : r.message;
        if (r.ok) this.renaming = false;
        this.rerender();
        if (r.ok) this.refresh();
      });
      out.push(form);
    } else {
      out.push(
        h(
          'p',
          { class: 'campaign-line' },
          h('strong', { id: 'campaign-current' }, camp.name ?? ''),
          h('span', { class: 'muted small' }, ` · ${systemName(camp.system)}`),
          ' ',
          h('button', { type: 'button', class: 'link-button', id: 'campaign-rename-open', onclick: () => { this.renaming = true; this.rerender(); this.root.querySelector('#campaign-rename')?.focus(); } }, 'Rename'),
        ),
      );
    }
    if (!this.hostToken()) {
      out.push(h('p', { class: 'small muted' }, 'To create or switch campaigns, open the console link that tabled serve printed (it starts with #host=).'));
      return out;
    }
    if (this.list === null && !this.listError) {
      out.push(h('p', { class: 'small muted' }, 'Loading campaigns…'));
      queueMicrotask(() => this.refresh());
    }
    if (this.listError) out.push(h('p', { class: 'error-box' }, `Campaigns: ${this.listError}`));
    if (this.list && this.list.length > 1) {
      out.push(h('h3', {}, 'Switch campaign'));
      out.push(
        h(
          'ul',
          { class: 'campaign-list' },
          this.list.map((c) =>
            h(
              'li',
              { dataset: { campaign: c.id }, class: c.id === camp.id ? 'current' : null },
              h('span', {}, c.name, h('span', { class: 'small muted' }, ` · ${systemName(c.system)} · ${count(c.seats, 'seat')}`)),
              c.id === camp.id ? h('span', { class: 'badge you-badge' }, 'open') : h('button', { type: 'button', class: 'campaign-open', disabled: this.busy, onclick: () => this.open(c.id) }, 'Open'),
            ),
          ),
        ),
      );
    }
    const form = h(
      'form',
      { class: 'stack campaign-create', noValidate: true },
      h('h3', {}, 'New campaign'),
      h('div', { class: 'field' }, h('label', { htmlFor: 'new-campaign-name' }, 'Name'), h('input', { id: 'new-campaign-name', type: 'text', maxLength: 80, autocomplete: 'off', placeholder: 'The Heist' })),
      h(
        'div',
        { class: 'field' },
        h('label', { htmlFor: 'new-campaign-system' }, 'Rule system'),
        h(
          'select',
          {
            id: 'new-campaign-system',
            required: true,
            attrs: { 'aria-describedby': 'new-campaign-system-summary' },
            onchange: (ev) => {
              const hint = this.root.querySelector('#new-campaign-system-summary');
              if (hint) hint.textContent = known.get(ev.target.value)?.summary ?? '';
            },
          },
          h('option', { value: '', selected: true }, 'Choose…'),
          this.systems.map((s) => h('option', { value: s.id, title: s.summary ?? null }, s.name)),
        ),
        h('p', { class: 'small muted', id: 'new-campaign-system-summary' }, ''),
        h('p', { class: 'field-error', id: 'new-campaign-system-error', attrs: { role: 'alert' }, hidden: true }, 'Choose the rule system the table plays.'),
      ),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'new-campaign-create', disabled: this.busy }, 'Create and open')),
    );
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const name = form.querySelector('#new-campaign-name').value.trim();
      const system = form.querySelector('#new-campaign-system').value;
      if (!name) {
        form.querySelector('#new-campaign-name').focus();
        return;
      }
      form.querySelector('#new-campaign-system-error').hidden = Boolean(system);
      if (!system) {
        form.querySelector('#new-campaign-system').focus();
        return;
      }
      this.busy = true;
      this.rerender();
      const r = await hostCall(this.hostToken(), 'campaign.create', { name, system });
      this.busy = false;
      if (!r.ok) {
        this.error = `Could not create the campaign: ${plain(r.message || 'refused')}`;
        this.rerender();
        return;
      }
      this.error = null;
      this.list = null;
      const el = this.root.querySelector('#new-campaign-name');
      if (el) el.value = '';
      this.useGmToken(r.result.campaign, r.result.gm_token);
    });
    out.push(form, this.inviteForm());
    // During an encounter the campaign admin folds away (one tap opens it).
    const fold = out.findIndex((el) => el?.tagName === 'H3');
    if (fold < 0) return out;
    const admin = h(
      'details',
      { class: 'campaign-admin', open: !(m.state?.enc || m.state?.scenes) || this.adminOpen },
      h('summary', { onclick: () => (this.adminOpen = !admin.open) }, 'Other campaigns'),
      out.slice(fold),
    );
    return [...out.slice(0, fold), admin];
  }

  // Invite a GM (issue 28 item 5): a link that lets someone open campaigns of their own on this
  // server (as many as the host says) and run them as GM, without the host's console link.
  inviteForm() {
    const form = h(
      'form',
      { class: 'stack campaign-invite', noValidate: true },
      h('h3', {}, 'Invite a GM'),
      h('p', { class: 'small muted' }, 'A link that lets someone open campaigns of their own on this server and run them. It opens none of yours.'),
      h('div', { class: 'field' }, h('label', { htmlFor: 'invite-gm-campaigns' }, 'Campaigns they may open'), h('input', { id: 'invite-gm-campaigns', type: 'number', min: 1, max: 1000, value: '1' })),
      h('div', { class: 'actions' }, h('button', { type: 'submit', id: 'invite-gm-make', disabled: this.busy }, 'Make the link')),
      // no id: render() must not put the last link back over a new one
      this.inviteLink ? h('input', { class: 'invite-gm-link', type: 'text', readOnly: true, value: this.inviteLink, attrs: { 'aria-label': 'Invitation link' } }) : null,
    );
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const campaigns = Math.min(1000, Math.max(1, Math.round(Number(form.querySelector('#invite-gm-campaigns').value) || 1)));
      this.busy = true;
      this.rerender();
      const r = await hostCall(this.hostToken(), 'invite.create', { campaigns });
      this.busy = false;
      this.error = r.ok ? null : `Could not make the invitation: ${plain(r.message || 'refused')}`;
      if (r.ok) this.inviteLink = `${globalThis.location.origin}${routeBase()}#create=${encodeURIComponent(r.result.code)}`;
      this.rerender();
    });
    return form;
  }

  async open(id) {
    this.busy = true;
    this.rerender();
    const r = await hostCall(this.hostToken(), 'campaign.open', { campaign: id });
    this.busy = false;
    if (!r.ok) {
      this.error = `Could not open the campaign: ${plain(r.message || 'refused')}`;
      this.rerender();
      return;
    }
    this.error = null;
    this.list = null;
    this.useGmToken(id, r.result.gm_token);
  }
}
