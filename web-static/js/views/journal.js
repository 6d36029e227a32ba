// The journal of the evening (PROTOCOL.md `journal.export`): the GM picks whose version — what
// the players saw, one person's, or everything — and a player gets their own; the whole campaign
// or this session; saved as a Markdown file or opened as a page to print. The server writes the
// document from that audience's own view of the table; the page only hands it on.

import { h, show, setText } from '../dom.js';
import { seatsOf } from './model.js';

export class JournalView {
  constructor(root, { send }) {
    this.send = send;
    this.sig = '';
    this.audience = h('select', { id: 'journal-audience', class: 'journal-audience' });
    this.audienceRow = h('label', { class: 'journal-field' }, 'Whose journal ', this.audience);
    this.scope = h(
      'select',
      { id: 'journal-scope', class: 'journal-scope' },
      h('option', { value: 'campaign' }, 'The whole campaign'),
      h('option', { value: 'session' }, 'This session'),
    );
    this.save = h('button', { type: 'button', class: 'journal-save', onclick: () => this.saveMarkdown() }, 'Save as a file');
    this.print = h('button', { type: 'button', class: 'journal-print', onclick: () => this.openPrintable() }, 'Open to print');
    this.link = h('a', { class: 'journal-link', target: '_blank', rel: 'noopener', hidden: true }, 'Open the journal');
    this.error = h('p', { class: 'error-box journal-error', attrs: { role: 'alert' }, hidden: true });
    root.replaceChildren(
      h('p', { class: 'muted journal-hint' }, 'What was said and rolled, as a page to keep or print.'),
      this.audienceRow,
      h('label', { class: 'journal-field' }, 'Which part ', this.scope),
      h('div', { class: 'journal-actions' }, this.save, this.print),
      this.link,
      this.error,
    );
  }

  render({ state, seat, isGm, live }) {
    this.save.disabled = this.print.disabled = !live || !state;
    show(this.audienceRow, isGm);
    this.isGm = isGm;
    const hasSession = Number(state?.session?.number) > 0;
    this.scope.options[1].disabled = !hasSession;
    if (!hasSession) this.scope.value = 'campaign';
    if (!isGm) return;
    const options = [
      ['players', 'What the players saw'],
      ...Object.entries(seatsOf(state))
        .filter(([id]) => id !== 'gm' && id !== seat)
        .map(([id, s]) => [id, `What ${s.name} saw`]),
      ['gm', 'Everything (yours)'],
    ];
    const sig = JSON.stringify(options);
    if (sig === this.sig) return;
    this.sig = sig;
    const keep = this.audience.value || 'players';
    this.audience.replaceChildren(...options.map(([v, t]) => h('option', { value: v }, t)));
    this.audience.value = options.some(([v]) => v === keep) ? keep : 'players';
  }

  async fetch(format) {
    const args = { format, scope: this.scope.value };
    if (this.isGm) args.audience = this.audience.value;
    show(this.error, false);
    const r = await this.send('journal.export', args);
    if (!r.ok) {
      setText(this.error, r.message);
      show(this.error, true);
      return null;
    }
    return r.result;
  }

  async saveMarkdown() {
    const r = await this.fetch('md');
    if (!r) return;
    const a = h('a', { href: URL.createObjectURL(new Blob([r.text], { type: 'text/markdown' })), download: r.filename });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }

  // Opens the page in a new tab to print from (the tab is opened on the tap itself, so a phone's
  // popup blocker lets it through; if it is blocked anyway, a link to tap stays here).
  async openPrintable() {
    const tab = window.open('', '_blank');
    const r = await this.fetch('html');
    if (!r) {
      tab?.close();
      return;
    }
    if (this.link.href) URL.revokeObjectURL(this.link.href);
    this.link.href = URL.createObjectURL(new Blob([r.text], { type: 'text/html' }));
    show(this.link, true);
    if (tab) tab.location.href = this.link.href;
  }
}
