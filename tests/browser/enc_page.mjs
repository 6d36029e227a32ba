// Page helpers shared by the browser tests of the encounter panels (encounters.test.mjs,
// between_tenacity_fivey.test.mjs), on top of pages.mjs (re-exported: the API client, waitFor,
// doing, stateOf): the page instrumentation that also counts console warnings, clicking an action
// and filling its form, waiting for the log lines of an event in every page, the stats on a
// combatant's card, and the 360 px overflow check.
import assert from 'node:assert/strict';
import { waitFor, parsed, doing, stateOf, Api } from './pages.mjs';
import { plain } from '../../web-static/js/words.js';

export { waitFor, parsed, doing, stateOf, Api };
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Console errors that are expected: none for these pages (every system has its panel file).
export const EXPECTED_CONSOLE = /^$/;

export function instrument(page, label) {
  const rec = { label, received: [], sent: [], errors: [] };
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => rec.received.push(String(f.payload)));
    ws.on('framesent', (f) => rec.sent.push(String(f.payload)));
  });
  page.on('pageerror', (err) => rec.errors.push(String(err)));
  page.on('console', (msg) => {
    if ((msg.type() === 'error' || msg.type() === 'warning') && !EXPECTED_CONSOLE.test(msg.text())) rec.errors.push(`console ${msg.type()}: ${msg.text()}`);
  });
  return rec;
}

export async function acked(rec, op, fn) {
  const { cmd, reply } = await doing(rec, op, fn);
  assert.equal(reply.t, 'ack', `${rec.label} ${op} ${JSON.stringify(cmd.args)}: ${JSON.stringify(reply)}`);
  return { cmd, reply };
}

export const seqOf = (page) => page.evaluate(() => window.tabled.conn.seq);

// The combatant card of `name` in the page's encounter panel.
export const card = (page, name) => page.locator('#enc li.enc-card').filter({ has: page.locator('.enc-name', { hasText: name }) });

// The encounter action buttons the page shows now.
export const actionButtons = (page) => page.locator('#enc .enc-actions [data-action]').evaluateAll((els) => els.map((e) => e.dataset.action));

// Clicks the action's button, fills its form and submits it. fields: {name: value}; a <select>
// takes the option with that label, a checkbox is ticked for a truthy value. Returns the reply.
// An action with nothing to ask runs on the tap (no form); one under "More actions" is reached by
// opening it; "Who acts" is asked only when it is not obvious (else the actor is whoever has the
// turn, checked against `actor` through the log line the caller reads).
export async function act(page, rec, action, { actor, fields = {} } = {}) {
  const button = page.locator(`#enc .enc-actions [data-action="${action}"]`);
  if (await button.evaluate((el) => Boolean(el.closest('details:not([open])')))) await page.locator('#enc details.enc-more > summary').click();
  if (await button.evaluate((el) => el.classList.contains('one-tap'))) {
    assert.deepEqual(fields, {}, `${action} runs on one tap: no fields to fill`);
    const { cmd, reply } = await acked(rec, 'enc.act', () => button.click());
    assert.equal(cmd.args.action, action);
    return reply;
  }
  await button.click();
  const form = page.locator(`#enc form.enc-form[data-key="act-${action}"]`);
  await form.waitFor();
  if (actor && (await form.locator('select[name="actor"]').count())) await form.locator('select[name="actor"]').selectOption({ label: actor });
  const more = form.locator('details.more-options:not([open]) > summary');
  if (Object.keys(fields).length && (await more.count())) await more.click();
  for (const [name, v] of Object.entries(fields)) {
    const el = form.locator(`[name="${name}"]`);
    const kind = await el.evaluate((e) => (e.tagName === 'SELECT' ? 'select' : e.type));
    // A pick: by the value the server takes (a weapon's number, a skill's key) or by its label.
    if (kind === 'select') {
      const byValue = await el.evaluate((e, x) => Array.from(e.options).some((o) => o.value === x), String(v));
      await el.selectOption(byValue ? { value: String(v) } : { label: String(v) });
    }
    else if (kind === 'checkbox') await el.setChecked(Boolean(v));
    else await el.fill(String(v));
  }
  const { cmd, reply } = await acked(rec, 'enc.act', () => form.locator('button[type=submit]').click());
  assert.equal(cmd.args.action, action);
  await form.waitFor({ state: 'detached' });
  return reply;
}

// Every public log line of the event `seq` shows in both pages' logs; the GM-only lines of it
// only in the GM's. Returns the public texts.
export async function logShown(pages, seq) {
  const [gm, player] = pages;
  await waitFor('the player to reach the event', async () => (await seqOf(player)) >= seq);
  const st = await stateOf(gm);
  const pub = st.log.filter((e) => e.seq === seq && e.kind === 'enc').map((e) => e.text);
  const secret = (st.gm?.log || []).filter((e) => e.seq === seq && e.kind === 'enc').map((e) => e.text);
  assert.ok(pub.length > 0, `event ${seq} wrote a public log line`);
  for (const p of pages) {
    const entries = p.locator(`#log li.entry[data-seq="${seq}"]:not(.secret)`);
    await waitFor(`the log lines of ${seq}`, async () => (await entries.count()) >= pub.length);
    const shown = await entries.allTextContents();
    // The page shows each line in plain words (no rulebook line reference: issue 15).
    for (const text of pub) assert.ok(shown.some((s) => s.includes(plain(text))), `${plain(text)} in ${shown.join(' | ')}`);
  }
  const playerLog = await player.locator('#log').textContent();
  for (const text of secret) assert.ok(!playerLog.includes(plain(text)), `the player's log shows the GM-only line ${text}`);
  if (secret.length) assert.ok((await gm.locator(`#log li.entry.secret[data-seq="${seq}"]`).count()) > 0, 'the GM sees the GM-only lines');
  return pub;
}

// The text of a stat (data-stat) on a combatant's card.
export const statText = (page, name, stat) => card(page, name).locator(`[data-stat="${stat}"]`).first().textContent();

// Waits until both pages show `expected` for the stat and returns it.
export async function statInBoth(pages, name, stat, expected) {
  for (const p of pages) {
    await waitFor(`${name} ${stat} to show ${expected}`, async () => ((await statText(p, name, stat)) || '').includes(expected));
  }
}

export async function overflowAt360(page) {
  const old = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 900 });
  await sleep(200);
  // Open every action form in turn would be slow; the panel as it is now must fit.
  const px = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  const wide = await page.evaluate(() =>
    Array.from(document.querySelectorAll('#enc *'))
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName}.${el.className}`),
  );
  await page.setViewportSize(old);
  return { px, wide };
}

