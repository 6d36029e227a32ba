// What the panel tests in Chromium share (chase.test.mjs, heist.test.mjs), over pages.mjs (the
// checks the social test shares: no jargon a person would read, axe-core, nothing sideways): a
// tap's result in the viewport where it was made (also when the tap sends several commands),
// touch targets, and the table itself: a GM on a laptop opens a new campaign of a
// system from the console link, a player on a phone joins it and picks the first ready-made
// character. Only what the pages show is used.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';
import { ARTIFACTS, LAPTOP, PHONE, CHROMIUM_ARGS, waitFor, assertPlain, instrument, parsed, stateOf, axe, noSideways, shot as shotOf } from './pages.mjs';

export { ARTIFACTS, LAPTOP, PHONE, waitFor, assertPlain, instrument, parsed, stateOf, axe, noSideways };

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

export async function launch() {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

// Runs `fn` (a tap) and returns the first `op` command it made and its reply.
export async function doing(rec, op, fn, nth = 0) {
  const n = parsed(rec.sent).filter((m) => m.t === 'cmd' && m.op === op).length;
  await fn();
  const cmd = await waitFor(`a new ${op} from ${rec.label}`, () => parsed(rec.sent).filter((m) => m.t === 'cmd' && m.op === op)[n + nth]);
  const reply = await waitFor(`the reply to ${op} on ${rec.label}`, () => parsed(rec.received).find((m) => (m.t === 'ack' || m.t === 'nack') && m.id === cmd.id));
  return { cmd, reply };
}

// The tap succeeded, and its result is on screen where the person is looking: the result box
// with the log lines of the command's seq, inside the viewport. `nth`: the tap sends several
// commands of that op, the result shown is of the nth (0: the first).
export async function tapped(p, op, fn, what, nth = 0) {
  const { cmd, reply } = await doing(p.rec, op, fn, nth);
  assert.equal(reply.t, 'ack', `${p.rec.label}: ${what} (${JSON.stringify(cmd.args)}) was refused: ${reply.message}`);
  const box = p.page.locator(`.result-box[data-seq="${reply.entry ?? reply.seq}"]`);
  await box.first().waitFor({ timeout: 10000 });
  const inView = await waitFor(
    `the result of ${what} in the viewport`,
    () =>
      box.first().evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.height > 0 && r.top < window.innerHeight && r.bottom > 0;
      }),
    5000,
  ).catch(() => false);
  assert.ok(inView, `${p.rec.label}: the result of ${what} is not in the viewport`);
  return { cmd, reply };
}

// The other page received the event: its log shows a line of it (the reply's entry number:
// protocol/PROTOCOL.md, "Two counts"; a bare number is taken as one).
export async function arrived(p, reply) {
  const seq = typeof reply === 'number' ? reply : Number.isInteger(reply.entry) ? reply.entry : reply.seq;
  await p.page.locator(`#log li.entry[data-seq="${seq}"]`).first().waitFor({ timeout: 10000 });
}

// Every visible, enabled control on the phone is at least 44 px tall.
export async function touchTargets(page, where) {
  const small = await page.evaluate(() =>
    Array.from(document.querySelectorAll('button, select, input:not([type=hidden]), summary, a[href]'))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height || el.closest('[hidden]')) return false;
        if (el.type === 'checkbox' || el.type === 'radio') return false;
        if (el.tagName === 'A' && !el.closest('nav')) return false;
        return r.height < 43.5;
      })
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} "${(el.textContent || el.value || '').trim().slice(0, 20)}" ${Math.round(el.getBoundingClientRect().height)}px`),
  );
  assert.deepEqual(small, [], `${where}: touch targets under 44 px`);
}

// The whole page, and the encounter panel alone (<name>-enc.png: the part to look at).
export async function shot(page, name) {
  await shotOf(page, name);
  await shotOf(page.locator('#enc'), name.replace(/\.png$/, '-enc.png'));
}

// ---- the table -----------------------------------------------------------------------------------

// A GM (laptop) and a player "Ann" (phone) at a new campaign of `system`; the player picked the
// first ready-made character. Returns {gm, ann, pcName, contexts} (gm/ann: {page, rec}).
export async function table(browser, server, system) {
  const gctx = await browser.newContext({ viewport: LAPTOP });
  const actx = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const gm = { page: await gctx.newPage() };
  gm.rec = instrument(gm.page, `${system}/gm`);
  const ann = { page: await actx.newPage() };
  ann.rec = instrument(ann.page, `${system}/player`);

  await gm.page.goto(`${server.url}/#host=${server.hostToken}`);
  await gm.page.locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
  await gm.page.locator('#new-campaign-name').fill(`Friday ${system}`);
  await gm.page.locator('#new-campaign-system').selectOption(system);
  await gm.page.locator('form.campaign-create button[type=submit]').click();
  await waitFor(`the GM's page on the ${system} campaign`, async () => (await stateOf(gm.page))?.campaign?.system === system);
  await gm.page.locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
  const join = await waitFor('the join link', async () => gm.page.locator('#invite-link').inputValue());

  await ann.page.goto(join.replace('localhost', '127.0.0.1'));
  await ann.page.locator('#join-name').fill('Ann');
  await ann.page.locator('#join-submit').click();
  await ann.page.locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
  const pick = ann.page.locator('.samples li.sample button.primary').first();
  await pick.waitFor();
  await doing(ann.rec, 'char.create', () => pick.click());
  const mine = ann.page.locator('.char-list.mine li.char').first();
  await mine.waitFor();
  const pcName = (await mine.locator('.char-name').textContent()).trim();
  // The GM's page knows the character before the set-up lists it.
  await waitFor('the character on the GM page', async () => Object.values((await stateOf(gm.page))?.chars || {}).some((c) => c.name === pcName));
  return { gm, ann, pcName, contexts: [gctx, actx] };
}

// Runs fn({gm, ann, pcName, server}) at a table of `system` on a fresh server seeded with `seed`;
// checks that neither page logged an error; closes the pages and stops the server either way.
export async function atTable(browser, system, seed, fn) {
  const server = await startServer({ extraArgs: ['--seed', String(seed)] });
  let contexts = [];
  try {
    const t = await table(browser, server, system);
    contexts = t.contexts;
    await fn({ ...t, server });
    for (const p of [t.gm, t.ann]) assert.deepEqual(p.rec.errors, [], `${p.rec.label}: page errors`);
  } finally {
    for (const c of contexts) await c.close().catch(() => {});
    await server.stop().catch(() => {});
    fs.rmSync(server.dir, { recursive: true, force: true });
  }
}
