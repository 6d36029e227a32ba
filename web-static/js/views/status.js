// The connection status in the header: connected / connecting / reconnecting (with the time of
// the next attempt and a "Retry now" button) / offline.

import { setText, show } from '../dom.js';
import { Status } from '../conn.js';

const LABEL = {
  [Status.IDLE]: 'Not connected',
  [Status.CONNECTING]: 'Connecting…',
  [Status.CONNECTED]: 'Connected',
  [Status.RECONNECTING]: 'Reconnecting',
  [Status.OFFLINE]: 'Offline',
};

export function renderStatus(els, conn, now = Date.now()) {
  const { box, label, detail, retry } = els;
  const st = conn.status;
  if (box.dataset.status !== st) box.dataset.status = st;
  let text = LABEL[st] || st;
  let extra = '';
  if (st === Status.RECONNECTING || st === Status.OFFLINE) {
    if (conn.nextAttemptAt) {
      const s = Math.max(0, Math.ceil((conn.nextAttemptAt - now) / 1000));
      extra = s > 0 ? `next try in ${s} s` : 'trying now…';
    } else {
      extra = 'trying now…';
    }
    if (st === Status.OFFLINE) extra = `no network · ${extra}`;
    else if (conn.lastClose?.reason === 'moved') extra = `the table is moving to another server · ${extra}`;
  }
  setText(label, text);
  setText(detail, extra);
  show(detail, extra !== '');
  show(retry, (st === Status.RECONNECTING || st === Status.OFFLINE) && conn.nextAttemptAt !== null);
}
