// Between the scenes in a real browser (issue 17; Debian's headless Chromium against the real
// server): the GM at 1280 px and a player on a phone (360 px). heimr.between: the GM starts it
// and adds Astrid from the panel, awards XP; the player trains an ability from the sheet's picks
// and takes a short rest with one tap. grimwire.between: the player's short rest is one tap, the
// GM's "Next day" is one tap and both pages show the new day. Both pages show the log lines and
// the sheet's new numbers on the card; no round, no "whose turn" banner; no page error; nothing
// sticks out sideways at 360 px. Screenshots: tests/artifacts/enc-<module>-*.png.
//
// Run alone: cd tests && node --test --test-concurrency=1 browser/between_heimr_grimwire.test.mjs
// Environment: TABLED_BIN (server binary), CHROMIUM (browser, default /usr/bin/chromium).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { launchBrowser, ARTIFACTS, STEP, waitFor, acked, stateOf, card, actionButtons, act, logShown, statInBoth, tableByApi as table, finish, teardown } from './pages.mjs';

// The GM starts `module` from the panel and adds the player's character.
async function startBetween(t, module) {
  const gm = t.page.gm;
  await gm.locator('#enc #enc-module').waitFor();
  await gm.locator('#enc-module').selectOption(module);
  await acked(t.rec.gm, 'enc.start', () => gm.locator('#enc [data-key="start-submit"]').click());
  await gm.locator('#enc [data-key="gm-add"]').click();
  await gm.locator('#enc-add-char').selectOption({ label: t.pc.name });
  await acked(t.rec.gm, 'enc.add', () => gm.locator('#enc [data-key="add-char"]').click());
  await gm.locator('#enc [data-key="gm-add"]').click();
  for (const p of t.pages) await card(p, t.pc.name).waitFor();
  assert.equal(await card(t.page.ann, t.pc.name).locator('.you-badge').count(), 1);
}

// No round and no turn banner on either page: between the scenes has no turns.
async function noTurns(t) {
  for (const p of t.pages) {
    assert.equal(await p.locator('#enc .enc-round').count(), 0);
    const text = await p.locator('#enc').textContent();
    assert.ok(!/Waiting for the GM to begin|Nobody has the turn/.test(text), text);
  }
}

describe('browser: between the scenes, GM and a player on a phone', () => {
  let browser;

  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchBrowser(chromium);
  });

  after(async () => {
    await browser?.close().catch(() => {});
  });

  it('heimr.between: the GM awards XP, the player trains and rests', STEP, async () => {
    const t = await table(browser, { system: 'heimr', seed: 3, sample: 'astrid_ironhand', npc: {} });
    try {
      await startBetween(t, 'heimr.between');
      const [gm, ann] = [t.page.gm, t.page.ann];
      await noTurns(t);
      assert.ok(!(await actionButtons(ann)).includes('award'), 'the player has no GM button');
      await statInBoth(t.pages, 'Astrid Ironhand', 'xp', '4');
      const award = await act(gm, t.rec.gm, 'award', { fields: { xp: 10 } });
      const [line] = await logShown(t.pages, award);
      assert.match(line, /^The GM awards 10 XP: 10 XP each for the 1 character present/);
      await statInBoth(t.pages, 'Astrid Ironhand', 'xp', '14');
      // Brawl's first level of potential: 5 XP (001:221); the ability is picked from the sheet
      const trained = await act(ann, t.rec.ann, 'train', { fields: { ability: 'Brawl', kind: 'potential' } });
      await logShown(t.pages, trained);
      await statInBoth(t.pages, 'Astrid Ironhand', 'xp', '9');
      const st = await stateOf(gm);
      assert.equal(st.chars[t.pc.id].sheet.abilities.find((a) => a.name === 'Brawl').trained_potential, 1);
      // a rest with one tap (the player's only character)
      const rest = await act(ann, t.rec.ann, 'rest');
      const [rl] = await logShown(t.pages, rest);
      assert.match(rl, /^Astrid Ironhand takes a short rest/);
      await statInBoth(t.pages, 'Astrid Ironhand', 'hp', '6 of 6');
      await finish(t, 'heimr-between');
    } finally {
      await teardown(t);
    }
  });

  it('grimwire.between: a short rest with one tap, the next day with one tap', STEP, async () => {
    const t = await table(browser, { system: 'grimwire', seed: 3, sample: 'cyrus', npc: {} });
    try {
      await startBetween(t, 'grimwire.between');
      const [gm, ann] = [t.page.gm, t.page.ann];
      await noTurns(t);
      for (const p of t.pages) await p.locator('#enc .between-banner', { hasText: 'Day 1' }).waitFor();
      await statInBoth(t.pages, 'Cyrus', 'condition', '14 of 16');
      const rest = await act(ann, t.rec.ann, 'short_rest');
      const [line] = await logShown(t.pages, rest);
      assert.match(line, /^Cyrus takes a short rest \(30 minutes\): Condition 14 → 16, Focus 6 → 8/);
      await statInBoth(t.pages, 'Cyrus', 'condition', '16 of 16');
      await statInBoth(t.pages, 'Cyrus', 'rests', '1 short');
      assert.ok(!(await actionButtons(ann)).includes('next_day'), 'the player has no GM button');
      const day = await act(gm, t.rec.gm, 'next_day');
      await logShown(t.pages, day);
      for (const p of t.pages) await p.locator('#enc .between-banner', { hasText: 'Day 2' }).waitFor();
      await statInBoth(t.pages, 'Cyrus', 'rests', 'not yet');
      await waitFor('the sheet', async () => (await stateOf(ann)).chars[t.pc.id].sheet.condition.current === 16);
      await finish(t, 'grimwire-between');
    } finally {
      await teardown(t);
    }
  });
});
