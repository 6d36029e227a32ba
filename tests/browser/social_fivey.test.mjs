// The FIVEY social encounter panel (module fivey.social; js/enc/fivey.js) in Debian's headless
// Chromium against the real server (--seed 3): the GM's laptop and two phones. The GM rolls the
// village's reaction from the panel; both phones show only that the GM judged it, and receive no
// byte of it; Ann's phone alone shows the one request, as one button, once Vesper speaks; her
// request's answer shows on every page; after the GM's reveal the phones show the disposition.
// Screenshots: tests/artifacts/fivey-social-{gm-1280,ann-360,bob-360}.png (and -panel.png: the
// encounter panel alone).
//
// Run alone: cd tests && node --test --test-concurrency=1 browser/social_fivey.test.mjs
// Environment: TABLED_BIN (server binary), CHROMIUM (browser, default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer, repoRoot, sleep } from '../integration/lib.mjs';
import { campaignOf, sample, ok, makeChar } from '../integration/enc_lib.mjs';
import { waitFor, CHROMIUM, ARTIFACTS } from './pages.mjs';

const DISPOSITIONS = ['hostile', 'uncertain', 'friendly'];

// What a phone received that could carry the disposition: every frame but the rule system's
// description (system.describe), whose action labels name the three dispositions to everyone.
const received = (rec) =>
  rec.received.filter((f) => {
    try {
      const m = JSON.parse(f);
      return !(m.t === 'ack' && m.result && Array.isArray(m.result.modules));
    } catch {
      return true;
    }
  });
const leaked = (rec, d) => received(rec).some((f) => f.includes(d));

const socialRow = (page, key) => page.locator(`#enc .fivey-social [data-social="${key}"] .value`);
const actionButtons = (page) => page.locator('#enc .enc-actions [data-action]').evaluateAll((els) => els.map((e) => e.dataset.action));
// A phone's social moves: a caster may also cast a spell at any time outside a fight (rules/RULES.md,
// FIVEY reading 14), which is no move of the conversation.
const talk = async (page) => (await actionButtons(page)).filter((a) => a !== 'cast');

test('fivey.social on a laptop and two phones: the reaction stays the GM\'s until revealed', { timeout: 120000 }, async (t) => {
  const srv = await startServer(t, { args: ['--seed', '3', '--rate-limit', '0'] });
  const { gm, players, gmToken } = await campaignOf(srv, t, 'fivey');
  const [ann, bob] = players;
  const vesperChar = await makeChar(ann.client, { name: 'Vesper', sheet: sample('fivey', 'vesper') });
  const brunChar = await makeChar(bob.client, { name: 'Brunhild', sheet: sample('fivey', 'brunhild') });
  await ok(gm, 'enc.start', { module: 'fivey.social' });
  const vesper = (await ok(gm, 'enc.add', { char: vesperChar })).id;
  await ok(gm, 'enc.add', { char: brunChar });
  await ok(gm, 'enc.add', { npc: { name: 'Commoner elder', side: 'villagers' } });

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  t.after(() => browser.close());
  const open = async (label, token, width) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const rec = { label, received: [], errors: [] };
    page.on('websocket', (ws) => ws.on('framereceived', (f) => rec.received.push(String(f.payload))));
    page.on('pageerror', (e) => rec.errors.push(String(e)));
    await page.goto(`${srv.url('/')}#token=${token}`);
    await page.locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
    await page.locator('#enc .fivey-social').waitFor();
    return { page, rec };
  };
  const G = await open('gm', gmToken, 1280);
  const A = await open('ann', ann.token, 360);
  const B = await open('bob', bob.token, 360);
  const phones = [A, B];

  // before the reaction: the GM may roll it; the phones have nothing to do
  await waitFor('the GM\'s reaction button', async () => (await actionButtons(G.page)).includes('reaction'));
  for (const p of phones) assert.deepEqual(await talk(p.page), [], `${p.rec.label} has no action yet`);

  // the reaction's own form is one tap away (issue 24): its "More options" opens it, with the GM's
  // own pick of the disposition among the three the book names; closed again, nothing was sent
  await G.page.locator('#enc .enc-actions [data-options="reaction"]').click();
  const reactionForm = G.page.locator('#enc form.enc-form[data-action="reaction"]');
  await reactionForm.waitFor();
  const picks = (await reactionForm.locator('select[name="disposition"] option').allTextContents()).join(' ');
  for (const d of ['Hostile', 'Uncertain', 'Friendly']) assert.ok(picks.includes(d), `the GM may pick ${d}: ${picks}`);
  await reactionForm.locator('[data-key="act-cancel"]').click();
  await reactionForm.waitFor({ state: 'detached' });

  // the GM rolls the reaction from the panel (one tap: no bias asked)
  await G.page.locator('#enc .enc-actions [data-action="reaction"]').click();
  const disposition = await waitFor('the GM to see the disposition', async () => {
    const text = (await socialRow(G.page, 'disposition').textContent()) || '';
    return DISPOSITIONS.find((d) => text.includes(d));
  });
  assert.match(await G.page.locator('#enc .fivey-will').textContent(), /GM only/);
  for (const p of phones) {
    await waitFor(`${p.rec.label} to see that the GM judged it`, async () => /has judged/.test((await socialRow(p.page, 'disposition').textContent()) || ''));
    assert.equal(await p.page.locator('#enc .fivey-will').count(), 0, 'no GM text on a phone');
    for (const d of DISPOSITIONS) assert.ok(!leaked(p.rec, d), `${p.rec.label} received '${d}'`);
  }

  // Vesper speaks; the request is Ann's one button, and Bob's phone has none
  await ok(gm, 'enc.act', { action: 'talker', params: { target: vesper } });
  await ok(gm, 'enc.act', { action: 'terms', params: { ask: 'help' } });
  // the phones must have seen both before they are read (the API's ack can beat a page's diff)
  for (const p of phones) await waitFor(`${p.rec.label} to see Vesper speak`, async () => (await p.page.evaluate(() => window.tabled.conn.seq)) >= gm.seq);
  await waitFor('Ann\'s request button', async () => (await talk(A.page)).join() === 'request');
  assert.match(await A.page.locator('#enc .turn-banner').textContent(), /Your move, Vesper/);
  assert.match(await B.page.locator('#enc .turn-banner').textContent(), /Vesper speaks for the party/);
  assert.deepEqual(await talk(B.page), []);
  await A.page.locator('#enc .enc-actions [data-action="request"]').click();
  const form = A.page.locator('#enc form.enc-form[data-key="act-request"]');
  await form.locator('[name="what"]').fill('Shelter for the night');
  await form.locator('button[type=submit]').click();
  for (const p of [G, ...phones]) {
    await waitFor(`${p.rec.label} to show the answer`, async () => /they (agree|refuse)/.test((await socialRow(p.page, 'answer').textContent()) || ''));
  }
  assert.deepEqual(await talk(A.page), [], 'one request: the button is gone');
  for (const p of phones) for (const d of DISPOSITIONS) assert.ok(!leaked(p.rec, d), `${p.rec.label} received '${d}' with the answer`);

  // the reveal: one tap for the GM, and the phones learn it. The buttons are the server's moves
  // (issue 24): its Reaction stays offered, as the GM's own pick of the disposition (the rules take
  // it after the roll: a correction, never a second roll), where the old client hid it.
  assert.deepEqual(await talk(G.page), ['reaction', 'reveal', 'morale']);
  await G.page.locator('#enc .enc-actions [data-action="reveal"]').click();
  for (const p of phones) {
    await waitFor(`${p.rec.label} to show the disposition`, async () => ((await socialRow(p.page, 'disposition').textContent()) || '').includes(disposition));
    assert.ok(leaked(p.rec, disposition), 'the check above can see a disposition when one arrives');
  }

  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await G.page.screenshot({ path: path.join(ARTIFACTS, 'fivey-social-gm-1280.png'), fullPage: true });
  await G.page.locator('#enc').screenshot({ path: path.join(ARTIFACTS, 'fivey-social-gm-1280-panel.png') });
  for (const p of phones) {
    await p.page.screenshot({ path: path.join(ARTIFACTS, `fivey-social-${p.rec.label}-360.png`), fullPage: true });
    await p.page.locator('#enc').screenshot({ path: path.join(ARTIFACTS, `fivey-social-${p.rec.label}-360-panel.png`) });
    const px = await p.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(px <= 0, `${p.rec.label}'s page sticks out ${px} px at 360 px`);
  }
  for (const p of [G, ...phones]) assert.deepEqual(p.rec.errors, [], `${p.rec.label}: page errors`);
});
