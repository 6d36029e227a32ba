// The journal of the evening in Chromium (PROTOCOL.md `journal.export`): a player on a 390 px
// phone saves their journal as a Markdown file and opens it as a page to print; their whisper to
// the GM is in it, the GM's secret roll is not; the GM's laptop picks "What the players saw",
// which holds neither. axe-core finds no serious violation in the journal box; its controls are
// 44 px tall on the phone.
//
// Run alone: cd tests && node --test browser/journal.test.mjs

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { launch, atTable, doing, axe, touchTargets, noSideways } from './pages.mjs';

const STEP = { timeout: 120000 };

describe('the journal on a phone', () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => browser?.close());

  it("a player saves and opens their journal; the GM's secrets are not in it", STEP, async () => {
    await atTable(browser, 'heimr', 29, async ({ gm, ann, server }) => {
      // a whisper to the GM (Ann's own) and a secret roll (the GM's)
      await ann.page.locator('#chat-to').selectOption({ label: 'The GM only' });
      await ann.page.locator('#chat-text').fill('ZZ-WHISPER meet me behind the inn');
      const w = await doing(ann.rec, 'chat.send', () => ann.page.locator('#chat-send').click());
      assert.equal(w.reply.t, 'ack');
      await gm.page.locator('#chat-text').fill('/w Ann ZZ-FROM-GM the duke lies');
      await doing(gm.rec, 'chat.send', () => gm.page.locator('#chat-send').click());
      await gm.page.locator('#roll-secret').check();
      await gm.page.locator('#roll-expr').fill('1d20+4242');
      const s = await doing(gm.rec, 'roll', () => gm.page.locator('#roll-submit').click());
      assert.equal(s.reply.t, 'ack');
      await gm.page.locator('#roll-secret').uncheck();

      // the phone: open the journal box in the log, save it as a file
      const box = ann.page.locator('#journal-box');
      await box.scrollIntoViewIfNeeded();
      await box.locator('summary').click();
      assert.equal(await ann.page.locator('#journal-audience').isVisible(), false, 'a player picks no audience');
      const [download] = await Promise.all([ann.page.waitForEvent('download'), ann.page.locator('.journal-save').click()]);
      assert.match(download.suggestedFilename(), /\.md$/);
      const file = `${server.dir}/journal.md`;
      await download.saveAs(file);
      const md = fs.readFileSync(file, 'utf8');
      assert.match(md, /ZZ-WHISPER meet me behind the inn/);
      assert.match(md, /ZZ-FROM-GM/);
      assert.doesNotMatch(md, /4242/);

      // open it as a page to print: a new tab with the standalone page
      const [tab] = await Promise.all([ann.page.context().waitForEvent('page'), ann.page.locator('.journal-print').click()]);
      await tab.waitForURL(/^blob:/);
      await tab.locator('h1').waitFor();
      const text = await tab.locator('body').textContent();
      assert.match(text, /ZZ-WHISPER/);
      assert.doesNotMatch(text, /4242/);
      assert.equal(await tab.locator('script').count(), 0);
      await tab.close();

      // the GM: what the players saw holds neither the whisper nor the secret roll
      const gbox = gm.page.locator('#journal-box');
      await gbox.scrollIntoViewIfNeeded();
      await gbox.locator('summary').click();
      await gm.page.locator('#journal-audience').selectOption('players');
      const [gdl] = await Promise.all([gm.page.waitForEvent('download'), gm.page.locator('.journal-save').click()]);
      const gfile = `${server.dir}/players.md`;
      await gdl.saveAs(gfile);
      const pmd = fs.readFileSync(gfile, 'utf8');
      assert.match(pmd, /as the players saw it/);
      assert.doesNotMatch(pmd, /ZZ-WHISPER|ZZ-FROM-GM|4242/);

      await axe(ann.page, 'the journal on the phone');
      await touchTargets(ann.page, 'the journal on the phone');
      await noSideways(ann.page, 'the journal on the phone');
    });
  });
});
