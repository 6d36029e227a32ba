// A character moves between campaigns as a file (issue 29): the GM saves Ann's character to a
// file from its card, and brings it back as an NPC; the new NPC has the very same sheet. A file of
// another system, or not a character at all, is refused in words.
//
// Run alone: cd tests && node --test browser/character_file.test.mjs

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, atTable, doing, stateOf, waitFor } from './pages.mjs';

describe('characters as files', () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => browser?.close());

  it('the GM saves a character to a file and brings it back as an NPC', { timeout: 120000 }, async () => {
    await atTable(browser, 'fivey', 41, async ({ gm, pcName }) => {
      const card = gm.page.locator('li.char', { hasText: pcName }).first();
      await card.locator('summary').first().click();
      const [download] = await Promise.all([gm.page.waitForEvent('download'), card.locator('button.char-export').click()]);
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-char-')), 'pc.json');
      await download.saveAs(file);
      const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
      assert.equal(saved.tabled, 'character');
      assert.equal(saved.system, 'fivey');
      assert.equal(saved.name, pcName);
      const pc = Object.values((await stateOf(gm.page)).chars).find((c) => c.name === pcName);
      assert.deepEqual(saved.sheet, pc.sheet);

      const { reply } = await doing(gm.rec, 'char.create', () => gm.page.locator('.import input[type=file]').first().setInputFiles(file));
      assert.equal(reply.t, 'ack', reply.message);
      const npc = await waitFor('the NPC', async () => (await stateOf(gm.page)).gm?.npcs?.[reply.result.id]);
      assert.deepEqual(npc.sheet, pc.sheet);
      assert.equal(npc.name, pcName);
      await gm.page.getByText(`${pcName} joined this campaign.`).waitFor();

      // another system's character, and a file that is no character
      fs.writeFileSync(file, JSON.stringify({ ...saved, system: 'heimr' }));
      await gm.page.locator('.import input[type=file]').first().setInputFiles(file);
      await gm.page.getByText(/was made for Heimr, not for this campaign's rules/).waitFor();
      fs.writeFileSync(file, '{"hello": 1}');
      await gm.page.locator('.import input[type=file]').first().setInputFiles(file);
      await gm.page.getByText('That file is not a saved character.').waitFor();
    });
  });
});
