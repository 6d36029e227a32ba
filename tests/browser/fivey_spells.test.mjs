// A FIVEY spell cast from a phone (issue 17; module fivey.combat, js/enc/fivey.js) in Debian's
// headless Chromium against the real server (--seed 6): Ann plays Vesper on a 360 px phone. On her
// turn the panel offers Cast, its spell a pick of the two spells her sheet carries (not typed);
// one tap casts Lightning Bolt at the orc, the casts left drop on her card on both pages, and the
// log shows the cast. With no cast left, Cast is not offered. Screenshots:
// tests/artifacts/fivey-spells-{gm-1280,ann-360}.png.
//
// Run alone: cd tests && node --test --test-concurrency=1 browser/fivey_spells.test.mjs
// Environment: TABLED_BIN (server binary), CHROMIUM (browser, default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../integration/lib.mjs';
import { campaignOf, sample, ok, makeChar } from '../integration/enc_lib.mjs';
import { ARTIFACTS, waitFor, instrumentAll as instrument, act, actionButtons, reached, statText, launchBrowser } from './pages.mjs';

test('fivey spells on a phone: Cast offers the sheet\'s spells as a pick and spends a cast', { timeout: 120000 }, async (t) => {
  const srv = await startServer(t, { args: ['--seed', '6', '--rate-limit', '0'] });
  const { gm, players, gmToken } = await campaignOf(srv, t, 'fivey', ['Ann']);
  const [ann] = players;
  const vesperChar = await makeChar(ann.client, { name: 'Vesper', sheet: sample('fivey', 'vesper') });
  await ok(gm, 'enc.start', { module: 'fivey.combat' });
  const vesper = (await ok(gm, 'enc.add', { char: vesperChar })).id;
  await ok(gm, 'enc.act', { action: 'spawn', params: { name: 'Orc', monster: 'Orc', hp: 40 } });
  await ok(gm, 'enc.act', { action: 'initiative' });
  // the GM ends turns (Vesper's too, once she has acted) until hers comes
  const toVesper = async (after) => {
    if (after) await ok(gm, 'enc.act', { action: 'end' });
    for (let i = 0; i < 4; i++) {
      await gm.ping();
      if (gm.state.enc.order[gm.state.enc.turn] === vesper) return;
      await ok(gm, 'enc.act', { action: 'end' });
    }
    assert.fail('Vesper never got the turn');
  };
  await toVesper(false);

  const browser = await launchBrowser(chromium);
  t.after(() => browser.close());
  const open = async (label, token, width) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const rec = instrument(page, label);
    await page.goto(`${srv.url('/')}#token=${token}`);
    await page.locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
    return { page, rec };
  };
  const G = await open('gm', gmToken, 1280);
  const A = await open('ann', ann.token, 360);
  // the API's acks could beat a page's diff: wait until both pages have seen the GM's seq
  const caughtUp = async () => {
    await gm.ping();
    // the GM's page by the campaign's seq, Ann's by the player seq (protocol/PROTOCOL.md, "Two counts")
    const at = { seq: gm.seq, entry: gm.state.gm.player_seq };
    for (const p of [G, A]) await waitFor(`${p.rec.label} to reach seq ${gm.seq}`, () => reached(p.page, at));
  };
  await caughtUp();

  // Cast is offered on her turn; its spell is a pick of what her sheet carries
  await waitFor('Ann\'s Cast button', async () => (await actionButtons(A.page)).includes('cast'));
  assert.match((await statText(A.page, 'Vesper', 'Casts left')) || '', /2 of 2/);
  const castButton = A.page.locator('#enc .enc-actions [data-action="cast"]');
  if (await castButton.evaluate((el) => Boolean(el.closest('details:not([open])')))) await A.page.locator('#enc details.enc-more > summary').click();
  await castButton.click();
  const form = A.page.locator('#enc form.enc-form[data-key="act-cast"]');
  const spell = form.locator('[name="spell"]');
  assert.equal(await spell.evaluate((e) => e.tagName), 'SELECT', 'the spell is picked, not typed');
  assert.deepEqual(await spell.evaluate((e) => Array.from(e.options).map((o) => o.value)), ['Lightning Bolt', 'Turn Undead']);
  await form.locator('button[data-key="act-cancel"]').click();
  await form.waitFor({ state: 'detached' });
  const reply = await act(A.page, A.rec, 'cast', { fields: { spell: 'Lightning Bolt', target: 'Orc' } });
  const entry = reply.result.log.find((x) => x.action === 'cast');
  assert.match(entry.text, /^Vesper casts Lightning Bolt: \d damage — Orc (saves|fails to save) and takes \d$/);
  for (const p of [G, A]) {
    await waitFor(`${p.rec.label} to show one cast left`, async () => /1 of 2/.test((await statText(p.page, 'Vesper', 'Casts left')) || ''));
    await waitFor(`${p.rec.label}'s log to show the cast`, async () => ((await p.page.locator('#log').textContent()) || '').includes('Vesper casts Lightning Bolt'));
  }
  assert.ok(!(await actionButtons(A.page)).includes('cast'), 'no ◆ left: no Cast');
  await waitFor('the sheet to hold the spent cast', async () => (await gm.ping(), gm.state.chars[vesperChar].sheet.spell_slots.used === 1));

  // the last cast, through the API; on her next turn Cast is not offered any more
  await toVesper(true);
  await ok(ann.client, 'enc.act', { action: 'cast', actor: vesper, params: { spell: 'Turn Undead' } });
  await toVesper(true);
  await caughtUp();
  await waitFor('Ann\'s turn buttons', async () => (await actionButtons(A.page)).includes('attack'));
  assert.ok(!(await actionButtons(A.page)).includes('cast'), 'no cast left: no Cast');
  assert.match((await statText(A.page, 'Vesper', 'Casts left')) || '', /0 of 2/);

  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await G.page.screenshot({ path: path.join(ARTIFACTS, 'fivey-spells-gm-1280.png'), fullPage: true });
  await A.page.screenshot({ path: path.join(ARTIFACTS, 'fivey-spells-ann-360.png'), fullPage: true });
  const px = await A.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(px <= 0, `the phone's page sticks out ${px} px at 360 px`);
  for (const p of [G, A]) assert.deepEqual(p.rec.errors, [], `${p.rec.label}: page errors`);
});
