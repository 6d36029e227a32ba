// The scene map in Chromium (PROTOCOL.md "The scene map", issue 30): the GM's laptop (1366×768)
// sets a map with a picture for a fight, places the fighters' tokens, adds a marker hidden from
// the players and shows the map. Ann's 390 px phone fetches the picture once, pans, pinch-zooms,
// taps a token for its card and drags her own token two squares (one map.move). The hidden marker
// is on neither the phone's socket nor its page until the GM shows it. The card fits 360 px; its
// controls are 44 px on the phone; axe finds no serious violation.
//
// Run alone: cd tests && node --test browser/map.test.mjs

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, atTable, doing, acked, waitFor, axe, touchTargets, noSideways, stateOf, sleep, shot } from './pages.mjs';

const STEP = { timeout: 180000 };

// Where square (x, y) of the map's grid is on the page, from the board's box (its scale).
async function squareAt(page, x, y) {
  return page.evaluate(
    ([x, y]) => {
      const st = window.tabled.conn.state;
      const map = st.maps?.enc ?? st.gm.maps.enc;
      const r = document.querySelector('#map-card .map-board').getBoundingClientRect();
      const k = r.width / map.w;
      const g = map.grid;
      return { x: r.left + (g.x + (x + 0.5) * g.size) * k, y: r.top + (g.y + (y + 0.5) * g.size) * k, k };
    },
    [x, y],
  );
}

describe('the scene map on a phone and a laptop', () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => browser?.close());

  it('GM sets a map and places tokens; Ann drags hers on a 390 px phone; a hidden marker stays off the phone until shown', STEP, async () => {
    await atTable(browser, 'heimr', 30, async ({ gm, ann, pcName }) => {
      const cid = Object.values((await stateOf(gm.page)).chars).find((c) => c.name === pcName).id;
      await gm.page.evaluate((cid) => {
        const c = window.tabled.conn;
        c.send('enc.start', { module: 'heimr.combat' });
        c.send('enc.add', { char: cid });
        c.send('enc.add', { npc: { name: 'Bandit' } });
      }, cid);
      await waitFor('the fight with two fighters', async () => Object.keys((await stateOf(gm.page))?.enc?.combatants || {}).length === 2);
      assert.equal(await ann.page.locator('#map-card').isVisible(), false, 'no map on the phone before one is shown');

      // the GM: a 600×400 picture, 50 px squares
      const png = Buffer.from(
        await gm.page.evaluate(() => {
          const c = document.createElement('canvas');
          c.width = 600;
          c.height = 400;
          const g = c.getContext('2d');
          g.fillStyle = '#c8b68a';
          g.fillRect(0, 0, 600, 400);
          g.fillStyle = '#6b5a3a';
          g.fillRect(100, 100, 250, 150);
          return c.toDataURL('image/png').split(',')[1];
        }),
        'base64',
      );
      const card = gm.page.locator('#map-card');
      await card.scrollIntoViewIfNeeded();
      await card.locator('.map-setup summary').click();
      await gm.page.locator('#map-image').setInputFiles({ name: 'crypt.png', mimeType: 'image/png', buffer: png });
      await gm.page.locator('#map-size').fill('50');
      const set = await acked(gm.rec, 'map.set', () => gm.page.locator('.map-save').click());
      assert.deepEqual([set.cmd.args.w, set.cmd.args.h, set.cmd.args.cols, set.cmd.args.rows], [600, 400, 12, 8]);
      await acked(gm.rec, 'map.token', () => gm.page.locator('.map-place').click());
      await waitFor('both fighters on the map', async () => Object.keys((await stateOf(gm.page)).gm.maps.enc.kept.tokens).length === 2);
      await gm.page.locator('#map-marker').fill('ZZ-Ambush');
      await gm.page.locator('#map-marker-hidden').check();
      const hid = await acked(gm.rec, 'map.token', () => gm.page.locator('.map-add-marker').click());
      assert.equal(hid.reply.result.hidden, true);
      await acked(gm.rec, 'map.show', () => gm.page.locator('.map-show').click());
      await gm.page.locator('#map-card .map-token').nth(2).waitFor();
      assert.equal(await gm.page.locator('#map-card .map-token.map-hidden').count(), 1, 'the GM sees the hidden marker, faint');

      // the phone: the map, its picture fetched once, two tokens
      const phone = ann.page.locator('#map-card');
      await phone.waitFor();
      await phone.scrollIntoViewIfNeeded();
      const img = phone.locator('img.map-picture');
      await waitFor('the picture drawn on the phone', () => img.evaluate((el) => el.complete && el.naturalWidth === 600));
      await waitFor('two tokens on the phone', async () => (await phone.locator('.map-token').count()) === 2);
      const fetches = () => ann.rec.sent.filter((f) => f.includes('"op":"map.image"')).length;
      assert.equal(fetches(), 1, 'the picture is fetched once');
      const secret = () => ann.rec.received.some((f) => f.includes('ZZ-Ambush'));
      assert.equal(secret(), false, 'the hidden marker never reached the phone');
      assert.equal(await ann.page.locator('text=ZZ-Ambush').count(), 0);
      assert.equal(await phone.locator('[data-name*="ZZ-Ambush"]').count(), 0);
      await axe(ann.page, 'the map on the phone');
      await touchTargets(ann.page, 'the map on the phone');
      await noSideways(ann.page, 'the map on the phone');

      // tap the bandit: his card
      await phone.locator('.map-token[data-name="Bandit"]').tap();
      await phone.locator('.map-info-card .map-info-name', { hasText: 'Bandit' }).waitFor();

      // pan with one finger-drag on the ground, pinch with two (touch events through the DevTools protocol)
      const view = await phone.locator('.map-view').boundingBox();
      const before0 = await squareAt(ann.page, 0, 0);
      const cdp = await ann.page.context().newCDPSession(ann.page);
      const touch = (type, pts) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: pts.map(([x, y], id) => ({ x, y, id })) });
      const cx = view.x + view.width / 2;
      const cy = view.y + view.height - 20;
      await touch('touchStart', [[cx - 30, cy - 40], [cx + 30, cy - 40]]);
      for (let i = 1; i <= 5; i++) await touch('touchMove', [[cx - 30 - i * 12, cy - 40], [cx + 30 + i * 12, cy - 40]]);
      await touch('touchEnd', []);
      const zoomed = await squareAt(ann.page, 0, 0);
      assert.ok(zoomed.k > before0.k * 1.5, `pinched open: scale ${before0.k} -> ${zoomed.k}`);
      await phone.locator('.map-fit').tap();
      await sleep(100);
      const fitted = await squareAt(ann.page, 0, 0);
      assert.ok(Math.abs(fitted.k - before0.k) < 1e-6, 'the whole map again');

      // drag her own token two squares right and one down
      const mine = phone.locator('.map-token.map-mine');
      assert.equal(await mine.count(), 1);
      const st = await stateOf(ann.page);
      const from = st.maps.enc.tokens[await mine.getAttribute('data-id')];
      const a = await squareAt(ann.page, from.x, from.y);
      const b = await squareAt(ann.page, from.x + 2, from.y + 1);
      const box = await mine.boundingBox();
      const grab = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      const move = await doing(ann.rec, 'map.move', async () => {
        await ann.page.mouse.move(grab.x, grab.y);
        await ann.page.mouse.down();
        for (let i = 1; i <= 6; i++) await ann.page.mouse.move(grab.x + ((b.x - a.x) * i) / 6, grab.y + ((b.y - a.y) * i) / 6);
        await ann.page.mouse.up();
      });
      assert.equal(move.reply.t, 'ack', JSON.stringify(move.reply));
      assert.deepEqual([move.cmd.args.x, move.cmd.args.y], [from.x + 2, from.y + 1]);
      await waitFor('the move on the GM page', async () => (await stateOf(gm.page)).maps.enc.tokens[from.id].x === from.x + 2);
      await waitFor('the token where it was dropped', async () => (await mine.getAttribute('data-x')) === String(from.x + 2));
      assert.equal(fetches(), 1, 'a move fetches no picture');
      assert.equal(secret(), false);

      // the GM shows the marker: now it reaches the phone
      await gm.page.locator('#map-card .map-token.map-hidden').click();
      await acked(gm.rec, 'map.token', () => gm.page.locator('#map-card .map-token-show').click());
      await phone.locator('.map-token[data-name="ZZ-Ambush"]').waitFor();
      assert.equal(secret(), true);
      await shot(phone, 'map-phone-390.png');
      await shot(card, 'map-laptop-1366.png');
      await axe(gm.page, 'the map on the laptop');
      await noSideways(gm.page, 'the map on the laptop');

      // 360 px: the card fits
      await ann.page.setViewportSize({ width: 360, height: 780 });
      await sleep(200);
      await noSideways(ann.page, 'the map at 360 px');
      const wide = await ann.page.evaluate(() =>
        Array.from(document.querySelectorAll('#map-card > *')).filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1).length,
      );
      assert.equal(wide, 0, 'nothing of the map card sticks out at 360 px');
    });
  });
});
