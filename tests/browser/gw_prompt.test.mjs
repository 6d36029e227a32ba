// The GM's hidden numbers without stalls, GRIMWIRE (issue 24 item 2), in a real browser (Debian's
// headless Chromium against the real server, seeded dice): the GM on a 1366×768 laptop and a
// player on a 390 px phone.
//   - grimwire.between: the player's build, with no numbers set by the GM, is not refused: it
//     waits; the GM gets one prompt with the numbers it needs named in words, filled with the
//     server's default, in the panel and again in the turn banner (which stays in view while the
//     GM scrolls the panel); one tap rolls it, and the phone's result box shows the outcome. No
//     number reaches the phone.
//   - grimwire.conflict: the GM's turn banner repeats the waiting attack's prompt, in view when
//     the GM has scrolled down to the moves.
//
// Run alone: cd tests && node --test --test-concurrency=1 browser/gw_prompt.test.mjs
// Environment: TABLED_BIN (server binary), CHROMIUM (browser, default /usr/bin/chromium).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { launchBrowser, ARTIFACTS, STEP, LAPTOP, PHONE, waitFor, acked, stateOf, card, act, logShown, tableByApi as table, finish, teardown } from './pages.mjs';

// The GM starts `module` from the panel and adds the player's character (and the NPC, by name).
async function start(t, module, npc) {
  const gm = t.page.gm;
  await gm.setViewportSize(LAPTOP);
  await t.page.ann.setViewportSize(PHONE);
  await gm.locator('#enc #enc-module').waitFor();
  await gm.locator('#enc-module').selectOption(module);
  await acked(t.rec.gm, 'enc.start', () => gm.locator('#enc [data-key="start-submit"]').click());
  await gm.locator('#enc [data-key="gm-add"]').click();
  await gm.locator('#enc-add-char').selectOption({ label: t.pc.name });
  await acked(t.rec.gm, 'enc.add', () => gm.locator('#enc [data-key="add-char"]').click());
  if (npc) {
    await gm.locator('#enc-add-name').fill(npc);
    await acked(t.rec.gm, 'enc.add', () => gm.locator('#enc [data-key="add-npc"]').click());
  }
  await gm.locator('#enc [data-key="gm-add"]').click();
  for (const p of t.pages) await card(p, t.pc.name).waitFor();
}

// The banner's prompt stays in the viewport (below the top bar) with the GM scrolled down to the
// bottom of the panel, past where the banner sits (the add form open makes the panel long).
async function bannerInView(gm) {
  await gm.locator('#enc [data-key="gm-add"]').click();
  await gm.locator('#enc-add-name').waitFor();
  const ask = gm.locator('#enc .gw-banner.asks form.gw-banner-answer');
  const home = await ask.evaluate((el) => el.getBoundingClientRect().top + window.scrollY); // on the page, unscrolled
  await gm.evaluate(() => window.scrollBy(0, document.querySelector('#enc').getBoundingClientRect().bottom - window.innerHeight));
  await gm.waitForTimeout(200);
  const r = await ask.evaluate((el) => {
    const b = el.getBoundingClientRect();
    const top = document.querySelector('.topbar')?.getBoundingClientRect().bottom ?? 0;
    return { top: b.top, bottom: b.bottom, bar: top, h: window.innerHeight, y: window.scrollY };
  });
  // where it would be without staying in view: under the top bar, or above the viewport
  assert.ok(home - r.y < r.bar, `the GM has scrolled past the banner's place (${home}): ${JSON.stringify(r)}`);
  assert.ok(r.top >= r.bar - 1 && r.bottom <= r.h, `the banner's prompt is in view below the top bar: ${JSON.stringify(r)}`);
  await gm.locator('#enc [data-key="gm-add"]').click();
  return ask;
}

// No frame the phone received holds the GM's numbers or the GM's question.
function noSecrets(t) {
  for (const f of t.rec.ann.received.filter((x) => x.startsWith('{"t":"diff"') || x.startsWith('{"t":"welcome"'))) {
    assert.ok(!/"(cor_tn|mnd_tn|rsn_tn|needs)"|waits for your target numbers/.test(f), `a GM-only value reached the player: ${f.slice(0, 300)}`);
  }
}

describe('browser: the GM answers a waiting move in one tap (grimwire)', () => {
  let browser;

  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchBrowser(chromium);
  });

  after(async () => {
    await browser?.close().catch(() => {});
  });

  it('grimwire.between: a player\'s build waits; one prompt for the GM, in the banner too; the phone sees how it went', STEP, async () => {
    const t = await table(browser, { system: 'grimwire', seed: 3, sample: 'cyrus', npc: {} });
    try {
      await start(t, 'grimwire.between');
      const [gm, ann] = [t.page.gm, t.page.ann];
      // the GM set no numbers: the player's build is offered and waits instead of being refused
      const build = await act(ann, t.rec.ann, 'craft', { fields: { item: 'Grapple gun' } });
      await ann.locator(`.result-box[data-seq="${build.entry ?? build.seq}"]`).filter({ hasText: 'Cyrus sets to work on Grapple gun' }).waitFor();
      await ann.locator('#enc .gw-waiting').filter({ hasText: "Cyrus's work on Grapple gun waits for the GM's numbers" }).waitFor();
      assert.equal(await ann.locator('#enc form.gw-answer, #enc form.gw-banner-answer').count(), 0, 'the prompt is the GM\'s');
      const prompt = gm.locator('#enc form.gw-answer');
      await prompt.waitFor();
      // a kind new to Cyrus: Mind and Coordination, in words, filled in
      assert.equal(await prompt.locator('input').count(), 2);
      const text = await prompt.textContent();
      assert.match(text, /Cyrus builds Grapple gun: how hard is it\?/);
      assert.match(text, /Mind: to understand how it works/);
      assert.match(text, /Coordination: to put it together/);
      assert.ok(!/_tn|MND|COR/.test(text), `no parameter names or abbreviations: ${text}`);
      for (const v of await prompt.locator('input').evaluateAll((els) => els.map((e) => e.value))) assert.equal(v, '11');
      // the banner repeats it and stays in view while the GM scrolls down the panel
      const ask = await bannerInView(gm);
      assert.match(await ask.textContent(), /Waiting for you: Cyrus builds Grapple gun/);
      await finish(t, 'gw-build-wait');
      const { reply } = await acked(t.rec.gm, 'enc.act', () => ask.locator('button[type=submit]').click());
      const lines = await logShown(t.pages, reply);
      assert.match(lines.join(' '), /Cyrus builds Grapple gun: MND \d+, (understood|not understood); COR \d+/);
      // the phone's result box follows the build to its outcome
      await ann.locator('.result-box').filter({ hasText: /Cyrus builds Grapple gun: MND/ }).waitFor();
      await waitFor('the prompt to go', async () => (await gm.locator('#enc form.gw-answer, #enc form.gw-banner-answer').count()) === 0);
      assert.equal((await stateOf(gm)).enc.waiting, undefined);
      noSecrets(t);
    } finally {
      await teardown(t);
    }
  });

  it('grimwire.conflict: the GM\'s turn banner repeats a waiting attack\'s prompt', STEP, async () => {
    const t = await table(browser, { system: 'grimwire', seed: 2, sample: 'cyrus', npc: {} });
    try {
      await start(t, 'grimwire.conflict', 'Kneecap');
      const [gm, ann] = [t.page.gm, t.page.ann];
      await act(gm, t.rec.gm, 'begin');
      await ann.locator('#enc [data-action="attack"]').waitFor();
      await act(ann, t.rec.ann, 'attack', { fields: { target: 'Kneecap', weapon: 2 } });
      await gm.locator('#enc form.gw-answer').waitFor();
      const ask = await bannerInView(gm);
      assert.match(await ask.textContent(), /Waiting for you: Cyrus attacks Kneecap: how hard is Kneecap to hit\?/);
      assert.equal(await ask.locator('input').inputValue(), '11');
      assert.equal(await ann.locator('#enc .gw-banner.asks').count(), 0, 'the banner\'s prompt is the GM\'s');
      await finish(t, 'gw-attack-banner');
      const { reply } = await acked(t.rec.gm, 'enc.act', () => ask.locator('button[type=submit]').click());
      const lines = await logShown(t.pages, reply);
      assert.match(lines.join(' '), /Cyrus attacks Kneecap with .*: (a hit|a miss)/);
      await ann.locator('.result-box').filter({ hasText: /Cyrus attacks Kneecap with .*: (a hit|a miss)/ }).waitFor();
      await waitFor('the banner\'s prompt to go', async () => (await gm.locator('#enc .gw-banner.asks').count()) === 0);
    } finally {
      await teardown(t);
    }
  });
});
