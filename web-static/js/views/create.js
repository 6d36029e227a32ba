// An invitation to open a table (issue 28 item 5): the page at /c/<process>/#create=<code> (a
// link the host of a shared server handed out) says hello with the code, is told the rule
// systems, and asks for a name and a system; campaign.create then makes the campaign and its GM
// token, and the page opens it as its GM. The code may do nothing else (server/host_ops.c).

import { h, setText, show } from '../dom.js';
import { PROTOCOL } from '../conn.js';
import { wsUrl } from '../route.js';
import { plain } from '../words.js';

// Shows the form in place of the join card of screen (the join screen); onCreated({campaign,
// gm_token, left}) once the campaign exists.
export function showCreate(screen, code, { onCreated }) {
  const joinCard = screen.querySelector('.join-card');
  if (joinCard) joinCard.hidden = true;
  screen.querySelector('.create-card')?.remove();
  const message = h('p', { class: 'notice', id: 'create-message', attrs: { role: 'alert' }, hidden: true });
  const name = h('input', { id: 'create-name', type: 'text', maxLength: 80, autocomplete: 'off', placeholder: 'The Heist' });
  const system = h('select', { id: 'create-system', required: true }, h('option', { value: '', selected: true }, 'Choose…'));
  const submit = h('button', { type: 'submit', class: 'primary', id: 'create-submit', disabled: true }, 'Create my campaign');
  const form = h(
    'form',
    { class: 'stack', noValidate: true },
    h('div', { class: 'field' }, h('label', { htmlFor: 'create-name' }, 'Name of your campaign'), name),
    h('div', { class: 'field' }, h('label', { htmlFor: 'create-system' }, 'Rule system'), system),
    submit,
  );
  const card = h(
    'section',
    { class: 'card create-card' },
    h('h2', {}, 'Open your table'),
    h('p', { class: 'muted' }, 'You have been invited to run a table on this server. Name your campaign and choose its rules: you will be its GM.'),
    message,
    form,
  );
  screen.append(card);
  const say = (text) => {
    setText(message, text || '');
    show(message, Boolean(text));
  };

  const ws = new WebSocket(wsUrl(), PROTOCOL);
  const cmdId = `create-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`; // one id: a retry makes no second campaign
  ws.onopen = () => ws.send(JSON.stringify({ t: 'hello', v: 1, token: code }));
  ws.onmessage = (ev) => {
    let m;
    try {
      m = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (m.t === 'welcome' && m.seat?.role === 'creator') {
      for (const s of m.state?.systems || []) system.append(h('option', { value: s.id, title: s.summary ?? null }, s.name));
      submit.disabled = false;
      name.focus();
    } else if (m.t === 'welcome' || m.t === 'error') {
      say('This invitation does not work here. Ask the host of this server for a new one.');
    } else if (m.t === 'ack' && m.id === cmdId) {
      ws.close(1000);
      onCreated(m.result);
    } else if (m.t === 'nack' && m.id === cmdId) {
      submit.disabled = false;
      say(`Could not create the campaign: ${plain(m.message || 'refused')}`);
    }
  };
  ws.onclose = () => {
    if (submit.disabled) return;
    submit.disabled = true;
    say('The connection to the server was lost. Open the invitation link again.');
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (!name.value.trim()) return name.focus();
    if (!system.value) return system.focus();
    submit.disabled = true;
    say('');
    ws.send(JSON.stringify({ t: 'cmd', id: cmdId, op: 'campaign.create', args: { name: name.value.trim(), system: system.value } }));
  });
}
