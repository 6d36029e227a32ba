// A 10acity combat option tapped on a phone (issue 17; rules/RULES.md "Combat options"): the
// GM's laptop and Ann's phone (360 px) in Debian's headless Chromium against the real server,
// seed 1. The fight is set up over the WebSocket API (each step waited for in both pages by its
// seq); then Ann holds Missa's action from the panel with a trigger (003:81), both pages show it
// on her card, the goblin moves, and Ann's phone offers "Act on the hold": one tap, and Missa acts
// out of turn with an attack from the panel. The player's page receives no /gm byte and shows
// no GM-only line; nothing sticks out sideways at 360 px. Screenshots:
// tests/artifacts/enc-tenacity-options-gm-1280.png and enc-tenacity-options-player-360.png.
//
// Run alone: cd tests && node --test --test-concurrency=1 browser/tenacity_options.test.mjs
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import {
  launchBrowser,
  STEP,
  Api,
  waitFor,
  seqOf,
  reached,
  card,
  actionButtons,
  act,
  logShown,
  statInBoth,
  tableByApi as table,
  finish,
  teardown,
} from './pages.mjs';

// Sends op over api and returns the ack (its seq included).
function send(api, op, args) {
  const id = `opt-${++api.n}`;
  const reply = new Promise((r) => api.pending.set(id, r));
  api.ws.send(JSON.stringify({ t: 'cmd', id, op, args }));
  return reply.then((m) => {
    assert.equal(m.t, 'ack', `${op} ${JSON.stringify(args)}: ${JSON.stringify(m)}`);
    return m;
  });
}

// Waits until every page has seen the event of ack (an ack can beat a page's diff under load).
async function seen(pages, ack) {
  for (const p of pages) await waitFor(`the page to reach seq ${ack.seq}`, () => reached(p, ack));
}

// The seat token the page keeps (web-static/js/storage.js: tabled.token).
const tokenOf = (page) => page.evaluate(() => localStorage.getItem('tabled.token'));

describe('tenacity combat options on a phone', () => {
  let browser;
  before(async () => {
    browser = await launchBrowser(chromium);
  });
  after(async () => {
    await browser?.close();
  });

  it('Ann holds Missa\'s action until the goblin moves, then acts on it with one tap', STEP, async () => {
    const t = await table(browser, { system: 'tenacity', seed: 1, sample: 'missa', npc: { name: 'Goblin' } });
    const gmApi = await Api.open(t.server.url);
    const annApi = await Api.open(t.server.url);
    try {
      await gmApi.hello(await tokenOf(t.page.gm));
      await annApi.hello(await tokenOf(t.page.ann));
      const [gm, ann] = [t.page.gm, t.page.ann];
      await send(gmApi, 'enc.start', { module: 'tenacity.spotlight' });
      const missa = (await send(gmApi, 'enc.add', { char: t.pc.id })).result.id;
      const goblin = (await send(gmApi, 'enc.add', { npc: { name: 'Goblin' } })).result.id;
      await send(gmApi, 'enc.act', { action: 'initiative' });
      await seen(t.pages, await send(gmApi, 'enc.act', { action: 'spotlight', params: { target: missa } }));
      await ann.locator('#enc [data-action="hold"]').waitFor({ state: 'attached' });

      // ---- the hold, from the phone: a trigger in plain words ----
      const held = await act(ann, t.rec.ann, 'hold', { fields: { trigger: 'the goblin moves' } });
      const [line] = await logShown(t.pages, held.seq);
      assert.match(line, /^Missa holds the action until: the goblin moves/);
      await statInBoth(t.pages, 'Missa', 'waiting', 'holds the action until the goblin moves');
      assert.ok((await actionButtons(ann)).includes('release'), 'the held action waits on a button for whenever the trigger happens');

      // ---- Missa ends the turn; the goblin moves: the trigger ----
      await seen(t.pages, await send(annApi, 'enc.act', { action: 'end', actor: missa }));
      await seen(t.pages, await send(gmApi, 'enc.act', { action: 'spotlight', params: { target: goblin } }));
      await seen(t.pages, await send(gmApi, 'enc.act', { action: 'move', actor: goblin, params: { what: 'runs for the door' } }));
      await ann.locator('#enc [data-action="release"]').waitFor({ state: 'attached' });
      assert.ok(!(await actionButtons(ann)).includes('attack'), 'no attack before the held action is taken');
      const released = await act(ann, t.rec.ann, 'release');
      await logShown(t.pages, released.seq);
      await ann.locator('#enc [data-action="attack"]').waitFor({ state: 'attached' });
      for (const p of t.pages) await waitFor('the hold to leave the card', async () => (await card(p, 'Missa').locator('[data-stat="waiting"]').count()) === 0);
      const hit = await act(ann, t.rec.ann, 'attack', { fields: { target: 'Goblin', skill: 'Telekinesis' } });
      const [line2] = await logShown(t.pages, hit.seq);
      assert.match(line2, /^Missa attacks Goblin/);
      // the response is over: the spotlight stayed with the goblin
      for (const p of t.pages) await p.locator('#enc .enc-order-item.current').filter({ hasText: 'Goblin' }).waitFor();
      // ---- the goblin hides (003:73, issue 25 item 19): the GM's card shows the number to find it,
      // Ann's only that it is unseen ----
      await seen(t.pages, await send(gmApi, 'enc.act', { action: 'hide', actor: goblin }));
      const hidden = (p) => card(p, 'Goblin').locator('[data-stat="hidden"]');
      for (const p of t.pages) await hidden(p).waitFor();
      assert.match(await hidden(gm).textContent(), /\d+ to find/);
      assert.match(await hidden(ann).textContent(), /unseen/);
      assert.doesNotMatch(await hidden(ann).textContent(), /\d/);
      assert.ok(!t.rec.ann.received.some((f) => f.includes('"/gm')), 'the player got a /gm path');
      await finish(t, 'tenacity-options');
      void gm;
    } finally {
      gmApi.close();
      annApi.close();
      await teardown(t);
    }
  });
});
