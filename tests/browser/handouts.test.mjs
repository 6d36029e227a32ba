// Handouts in Chromium (PROTOCOL.md "Handouts"): the GM's laptop adds a handout with a picture
// and shows it to Ann; Ann's 390 px phone opens it and reads it, picture and all; the GM hides it
// and it leaves the phone. axe-core finds no serious violation in the handouts card; its controls
// are 44 px tall on the phone.
//
// Run alone: cd tests && node --test browser/handouts.test.mjs

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, atTable, doing, waitFor, axe, touchTargets, noSideways } from './pages.mjs';

const STEP = { timeout: 120000 };
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64');

describe('handouts on a phone', () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => browser?.close());

  it('the GM hands Ann a map; her phone opens it; hidden again, it is gone', STEP, async () => {
    await atTable(browser, 'heimr', 31, async ({ gm, ann }) => {
      assert.equal(await ann.page.locator('#handouts-card').isVisible(), false, 'no handout card before a handout');
      const card = gm.page.locator('#handouts-card');
      await card.scrollIntoViewIfNeeded();
      await gm.page.locator('#handout-title').fill('The sewer map');
      await gm.page.locator('#handout-text').fill('Third grate past the bridge.');
      await gm.page.locator('#handout-image').setInputFiles({ name: 'map.png', mimeType: 'image/png', buffer: PNG });
      const add = await doing(gm.rec, 'handout.add', () => gm.page.locator('.handout-add').click());
      assert.equal(add.reply.t, 'ack', add.reply.message);
      const id = add.reply.result.id;
      const item = gm.page.locator(`.handout[data-id="${id}"]`);
      await item.waitFor();
      await item.locator('.handout-to').selectOption({ label: 'Ann' });
      const shown = await doing(gm.rec, 'handout.show', () => item.locator('.handout-show').click());
      assert.equal(shown.reply.t, 'ack', shown.reply.message);

      // the phone: the handout card appears; open the handout
      const mine = ann.page.locator(`#handouts-card .handout[data-id="${shown.reply.result.key}"]`);
      await mine.waitFor();
      await mine.scrollIntoViewIfNeeded();
      await mine.locator('summary').click();
      await mine.locator('.handout-text').waitFor();
      assert.equal((await mine.locator('.handout-text').textContent()).trim(), 'Third grate past the bridge.');
      const img = mine.locator('img.handout-image');
      await img.waitFor();
      await waitFor('the picture drawn', () => img.evaluate((el) => el.complete && el.naturalWidth === 1));
      await axe(ann.page, 'handouts on the phone');
      await touchTargets(ann.page, 'handouts on the phone');
      await noSideways(ann.page, 'handouts on the phone');

      // hidden again: gone from the phone
      await doing(gm.rec, 'handout.hide', () => item.locator('.handout-hide').click());
      await waitFor('the handout gone from the phone', async () => (await mine.count()) === 0);
      await axe(gm.page, 'handouts on the laptop');
    });
  });
});
