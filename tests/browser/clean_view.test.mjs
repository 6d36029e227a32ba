// Two things a phone at the table needs from every screen (issue 24, item 3): a result scrolled
// into view lands below the sticky top bar, on a 360 px and a 390 px phone; and a campaign switch
// starts clean — a phone that joins a second campaign, and a GM who opens a new one, see no
// result box, status line or "done" of the campaign before.
//
// Run alone: cd tests && node --test browser/clean_view.test.mjs

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, atTable, doing, stateOf, waitFor, LAPTOP } from './pages.mjs';

const PHONES = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
];

// Taps the first one-tap check that rolls at once on the phone's character card.
async function oneTap(p) {
  const qc = p.page.locator('.char .quick-checks button.qc[title="rolls at once"]').first();
  await qc.waitFor();
  const { reply } = await doing(p.rec, 'roll.check', () => qc.click());
  assert.equal(reply.t, 'ack', reply.message);
  const box = p.page.locator('.char .result-box').first();
  await box.waitFor();
  return box;
}

// The element's top is below the sticky bar's bottom and inside the viewport.
async function belowTheBar(page, locator) {
  await page.waitForTimeout(400); // a smooth scroll settles
  return locator.evaluate((el) => {
    const bar = document.querySelector('.topbar').getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return { top: r.top, bar: bar.bottom, inside: r.top >= bar.bottom - 1 && r.top < window.innerHeight };
  });
}

describe('results in view and clean campaign switches', () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => browser?.close());

  for (const size of PHONES) {
    it(`a one-tap result lands below the top bar on a ${size.width} px phone`, { timeout: 120000 }, async () => {
      await atTable(browser, 'heimr', 7, async ({ ann }) => {
        await ann.page.setViewportSize(size);
        // scroll so that the result will appear right under the bar (where a phone's finger
        // left the page after tapping the last check of the card), then tap that last check
        const qc = ann.page.locator('.char .quick-checks button.qc[title="rolls at once"]').last();
        await qc.evaluate((el) => {
          const checks = el.closest('.quick-checks');
          window.scrollTo(0, checks.getBoundingClientRect().bottom + window.scrollY - 30);
        });
        const { reply } = await doing(ann.rec, 'roll.check', () => qc.evaluate((el) => el.click()));
        assert.equal(reply.t, 'ack', reply.message);
        const box = ann.page.locator('.char .result-box').first();
        await box.waitFor();
        const at = await belowTheBar(ann.page, box);
        assert.ok(at.inside, `the result's top (${at.top}) is under the bar (bottom ${at.bar})`);
      });
    });
  }

  it('a phone joining a second campaign and a GM opening a new one start clean', { timeout: 180000 }, async () => {
    await atTable(browser, 'heimr', 8, async ({ gm, ann }) => {
      await oneTap(ann);
      // the GM begins a session in the first campaign: a status line on the console
      const begin = gm.page.getByRole('button', { name: /Begin the session|Begin session/ }).first();
      if (await begin.count()) {
        await doing(gm.rec, 'session.begin', () => begin.click());
        await gm.page.getByText(/Session 1 (has begun|begins)/).first().waitFor();
      }
      // a second campaign, from the console
      await gm.page.locator('#new-campaign-name').fill('Second table');
      await gm.page.locator('#new-campaign-system').selectOption('heimr');
      await gm.page.locator('form.campaign-create button[type=submit]').click();
      await waitFor("the GM's page on the second campaign", async () => (await stateOf(gm.page))?.campaign?.name === 'Second table');
      await gm.page.locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
      assert.equal(await gm.page.locator('.result-box:visible').count(), 0, 'no result box of the first campaign on the console');
      const lines = await gm.page.getByText(/Session 1 (has begun|begins)/).evaluateAll((els) => els.map((e) => e.outerHTML.slice(0, 300)));
      assert.deepEqual(lines, [], 'no session line of the first campaign');
      assert.equal(await gm.page.getByText(/: done\./).count(), 0);

      // the phone joins the second campaign by its link
      const join = await waitFor('the new join link', async () => {
        const v = await gm.page.locator('#invite-link').inputValue();
        return v && !v.includes(ann.joinedCode) ? v : null;
      });
      await ann.page.goto(join.replace('localhost', '127.0.0.1'));
      await ann.page.locator('#join-name').fill('Ann');
      await ann.page.locator('#join-submit').click();
      await waitFor("the phone on the second campaign", async () => (await stateOf(ann.page))?.campaign?.name === 'Second table');
      await ann.page.locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
      assert.equal(await ann.page.locator('.result-box:visible').count(), 0, "no result box of the first campaign's character");
      assert.equal(await ann.page.getByText(/: done\./).count(), 0);
    });
  });
});
