// Table talk in Chromium (PROTOCOL.md `chat.send`): a player on a 390 px phone whispers the GM,
// rolls /gmroll 1d20 (the GM's laptop shows the number, the phone only that it rolled — and the
// number never reaches the phone's socket), and rolls [[1d6]] inside a message to everyone; the
// GM deletes a message. axe-core finds no serious violation in the talk box; its controls are
// 44 px tall on the phone.
//
// Run alone: cd tests && node --test browser/chat.test.mjs

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, atTable, doing, stateOf, waitFor, axe, touchTargets, noSideways } from './pages.mjs';

const STEP = { timeout: 120000 };

async function say(p, text, to) {
  if (to) await p.page.locator('#chat-to').selectOption({ label: to });
  await p.page.locator('#chat-text').fill(text);
  const { reply } = await doing(p.rec, 'chat.send', () => p.page.locator('#chat-send').click());
  assert.equal(reply.t, 'ack', `${text}: ${reply.message}`);
  return reply;
}

const msgLine = (p, id) => p.page.locator(`#chat-list li.chat-msg[data-id="${id}"]`);

describe('table talk on a phone', () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => browser?.close());

  it('whisper the GM, /gmroll 1d20, [[1d6]] in a message, the GM deletes one', STEP, async () => {
    await atTable(browser, 'heimr', 29, async ({ gm, ann }) => {
      await ann.page.locator('#chat-card').scrollIntoViewIfNeeded();
      // a whisper to the GM
      const w = await say(ann, 'meet me behind the inn', 'The GM only');
      await msgLine(gm, w.result.id).waitFor();
      assert.match(await msgLine(gm, w.result.id).textContent(), /Ann to the GM: meet me behind the inn/);
      assert.match(await msgLine(ann, w.result.id).textContent(), /You to the GM/);

      // a roll only the GM reads
      const g = await say(ann, '/gmroll 1d20');
      await msgLine(gm, g.result.id).locator('.chat-roll strong').waitFor();
      const total = (await msgLine(gm, g.result.id).locator('.chat-roll strong').textContent()).trim();
      assert.match(total, /^\d+$/);
      await msgLine(ann, g.result.id).waitFor();
      assert.match(await msgLine(ann, g.result.id).textContent(), /rolled 1d20 for the GM/);
      const annCopy = (await stateOf(ann.page)).private?.[Object.keys((await stateOf(ann.page)).private || {})[0]]?.chat?.find((m) => m.id === g.result.id);
      assert.ok(annCopy?.hidden, "the phone's copy is the hidden one");
      const gmCopy = (await stateOf(gm.page)).gm.chat.find((m) => m.id === g.result.id);
      const diceJson = JSON.stringify(gmCopy.rolls[0].dice);
      assert.ok(!ann.rec.received.some((f) => f.includes(diceJson)), "the GM's roll never reached the phone's socket");

      // an inline roll to everyone
      await ann.page.locator('#chat-to').selectOption({ label: 'Everyone' });
      const i = await say(ann, 'I swing for [[1d6]]');
      for (const p of [ann, gm]) {
        const chip = msgLine(p, i.result.id).locator('.chat-roll strong');
        await chip.waitFor();
        assert.equal(Number(await chip.textContent()), i.result.rolls[0].total);
      }
      const inView = await msgLine(ann, i.result.id).evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight;
      });
      assert.ok(inView, 'the message just sent is on the phone screen');

      // the GM deletes the whisper: gone from both pages
      await msgLine(gm, w.result.id).locator('.chat-delete').click();
      await waitFor('the whisper gone from the phone', async () => (await msgLine(ann, w.result.id).count()) === 0);

      // a refusal says why, beside the box
      await ann.page.locator('#chat-text').fill('/shout hello');
      await ann.page.locator('#chat-send').click();
      await ann.page.locator('#chat-error:not([hidden])').waitFor();
      assert.match(await ann.page.locator('#chat-error-text').textContent(), /try \/roll, \/gmroll or \/w/);

      await axe(ann.page, 'talk on the phone');
      await axe(gm.page, 'talk on the laptop');
      await touchTargets(ann.page, 'talk on the phone');
      await noSideways(ann.page, 'talk on the phone');
    });
  });
});
