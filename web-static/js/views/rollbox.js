// The roll box's dynamic parts: the secret checkbox (GM only), the list of commands still waiting
// for their ack, and the last refusal (nack) message.

import { h, setText, show } from '../dom.js';

const OP_LABEL = {
  'join.rotate': 'New join code',
  'join.close': 'Close joining',
  'system.describe': 'Loading the rule system',
  'char.create': 'Create a character',
  'char.update': 'Save a character',
  'char.delete': 'Delete a character',
  'campaign.rename': 'Rename the campaign',
  'seat.rename': 'Rename a seat',
  'seat.remove': 'Remove a seat',
  'gm.set': 'Save a note',
  'gm.unset': 'Delete a note',
  'gm.reveal': 'Reveal',
  'gm.hide': 'Hide',
  'enc.start': 'Start the encounter',
  'enc.add': 'Add to the encounter',
  'enc.remove': 'Remove from the encounter',
  'enc.set': 'Adjust the encounter',
  'enc.end': 'End the encounter',
};

export function commandLabel(cmd) {
  if (cmd.op === 'roll') return `${cmd.args?.secret ? 'Secret roll' : 'Roll'} ${cmd.args?.expr ?? ''}`;
  if (cmd.op === 'roll.check') return `${cmd.args?.secret ? 'Secret check' : 'Check'} ${cmd.args?.check ?? ''}`;
  if (cmd.op === 'enc.act') return `Encounter: ${cmd.args?.action ?? ''}`;
  return OP_LABEL[cmd.op] || cmd.op;
}

export function renderRollBox(els, { isGM, pending, live, nack }) {
  show(els.secretWrap, isGM);
  if (!isGM && els.secret.checked) els.secret.checked = false;
  const secret = isGM && els.secret.checked;
  els.form.classList.toggle('secret', secret);
  setText(els.submit, secret ? 'Roll secretly' : 'Roll');

  const items = pending.map((cmd) =>
    h(
      'li',
      { class: 'pending-item', dataset: { id: cmd.id, sent: String(cmd.sent && live) } },
      h('span', { class: 'spinner', attrs: { 'aria-hidden': 'true' } }),
      h('span', { class: 'pending-label' }, commandLabel(cmd)),
      h('span', { class: 'pending-state' }, live ? 'sending…' : 'waiting for the connection'),
    ),
  );
  const sig = JSON.stringify(items.map((li) => li.textContent));
  if (els.pending.dataset.sig !== sig) {
    els.pending.dataset.sig = sig;
    els.pending.replaceChildren(...items);
  }
  show(els.pending, items.length > 0);

  show(els.error, nack !== null);
  if (nack) {
    setText(els.errorTitle, nack.title);
    setText(els.errorText, nack.message);
  }
}
