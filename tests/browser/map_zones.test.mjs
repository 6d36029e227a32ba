// Zones on the scene map in Chromium (PROTOCOL.md "The scene map", issue 30 items 1 and 3;
// rules/RULES.md cot heist reading 8). A City of Thieves heist: the GM's laptop (1366×768) adds
// zones with the "Add a zone" form — the Loading yard picked from the heist's places with the
// form's defaults, a tunnel hidden from the players, the street typed by hand. Ann's 390 px phone
// draws the street only: not one byte of the hidden tunnel or of the yard the crew has not found
// reaches its socket or its page. The GM reveals the yard in the heist: it appears on the phone.
// The GM taps the tunnel on the map and shows it: on the phone; takes the street off the map:
// gone. The zones' names stay readable on the phone; axe finds no serious violation, controls are
// 44 px, nothing scrolls sideways at 390 or 360 px.
//
// Run alone: cd tests && node --test --test-concurrency=1 browser/map_zones.test.mjs

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, atTable, acked, waitFor, axe, touchTargets, noSideways, stateOf, sleep, shot } from './pages.mjs';

const STEP = { timeout: 180000 };

const zoneNames = (card) => card.locator('.map-zones .map-zone-name').allTextContents();

describe('zones on the scene map, laptop and phone', () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => browser?.close());

  it('GM draws zones; the phone sees a shown one, a bound one once its heist zone is revealed, a hidden one only once shown', STEP, async () => {
    await atTable(browser, 'cot', 31, async ({ gm, ann, pcName }) => {
      const cid = Object.values((await stateOf(gm.page)).chars).find((c) => c.name === pcName).id;
      await gm.page.evaluate((cid) => {
        const c = window.tabled.conn;
        c.send('enc.start', { module: 'cot.heist' });
        c.send('enc.add', { char: cid });
        c.send('enc.act', { action: 'zone', params: { id: 'yard', name: 'Loading yard', edge: 1 } });
        c.send('enc.act', { action: 'zone', params: { id: 'cellar', name: 'ZZ-Cellar', tags: 'hidden', rating: 40 } });
        c.send('map.set', { size: 40, cols: 10, rows: 8 });
      }, cid);
      await waitFor('the map and the Spot', async () => {
        const s = await stateOf(gm.page);
        return s?.gm?.maps?.enc && Object.keys(s.gm.enc?.spot?.zones || {}).length === 2 && Object.keys(s.enc?.combatants || {}).length === 1;
      });
      const fighter = Object.keys((await stateOf(gm.page)).enc.combatants)[0];
      await gm.page.evaluate((fighter) => {
        const c = window.tabled.conn;
        c.send('map.token', { cid: fighter, x: 9, y: 4 });
        c.send('map.show', {});
      }, fighter);

      // ---- the GM's form: the yard is a pick of the heist's places; the defaults succeed ----
      const card = gm.page.locator('#map-card');
      await card.scrollIntoViewIfNeeded();
      await card.locator('.map-zone-setup summary').click();
      const pick = gm.page.locator('#map-zone-heist');
      await waitFor('the heist places offered', async () => (await pick.locator('option').allTextContents()).includes('Loading yard'));
      assert.equal(await gm.page.locator('#map-zone-name').isVisible(), false, 'a pick of the heist needs no typed name');
      await pick.selectOption('yard');
      const yard = await acked(gm.rec, 'map.zone', () => gm.page.locator('.map-add-zone').click());
      assert.deepEqual(yard.cmd.args, { scene: 'enc', name: 'Loading yard', x: 0, y: 0, w: 2, h: 2, hidden: false, heist: 'yard' });
      assert.equal(yard.reply.result.seen, false, 'not on the table before the crew knows the yard');
      // a hidden tunnel, typed
      await pick.selectOption('');
      await gm.page.locator('#map-zone-name').fill('ZZ-Hidden-tunnel');
      await gm.page.locator('#map-zone-x').fill('5');
      await gm.page.locator('#map-zone-hidden').check();
      const tunnel = await acked(gm.rec, 'map.zone', () => gm.page.locator('.map-add-zone').click());
      assert.deepEqual([tunnel.cmd.args.x, tunnel.cmd.args.hidden, tunnel.cmd.args.heist], [4, true, '']);
      await gm.page.locator('#map-zone-hidden').uncheck();
      await gm.page.locator('#map-zone-name').fill('Street');
      await gm.page.locator('#map-zone-x').fill('1');
      await gm.page.locator('#map-zone-y').fill('8');
      await gm.page.locator('#map-zone-w').fill('10');
      await gm.page.locator('#map-zone-h').fill('5'); // more than the map has: trimmed to what fits
      const street = await acked(gm.rec, 'map.zone', () => gm.page.locator('.map-add-zone').click());
      assert.deepEqual([street.cmd.args.y, street.cmd.args.w, street.cmd.args.h], [7, 10, 1]);
      await waitFor('three zones on the GM page', async () => (await zoneNames(card)).length === 3);
      assert.equal(await card.locator('.map-zone.map-zone-hidden').count(), 2, 'the yard and the tunnel faint on the GM page');

      // ---- the phone: the street alone ----
      const phone = ann.page.locator('#map-card');
      await phone.waitFor();
      await phone.scrollIntoViewIfNeeded();
      await waitFor('the street on the phone', async () => (await zoneNames(phone)).join() === 'Street');
      const heard = (s) => ann.rec.received.some((f) => f.includes(s));
      for (const s of ['ZZ-', 'Loading yard']) assert.equal(heard(s), false, `${s} never reached the phone`);
      assert.equal(await ann.page.locator('text=ZZ-Hidden-tunnel').count(), 0);
      const font = await phone.locator('.map-zone-name').first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      assert.ok(font >= 12, `a zone's name is readable on the phone: ${font}px`);
      await axe(ann.page, 'zones on the phone');
      await touchTargets(ann.page, 'zones on the phone');
      await noSideways(ann.page, 'zones on the phone');

      // ---- the crew learns of the yard: its zone appears on the phone ----
      await gm.page.evaluate(() => window.tabled.conn.send('enc.act', { action: 'reveal', params: { zone: 'yard' } }));
      await waitFor('the yard on the phone', async () => (await zoneNames(phone)).includes('Loading yard'));
      assert.equal(heard('ZZ-'), false);

      // ---- the GM taps the tunnel on the map and shows it ----
      const zone = card.locator('.map-zone', { hasText: 'ZZ-Hidden-tunnel' });
      await zone.scrollIntoViewIfNeeded();
      const box = await zone.boundingBox();
      await gm.page.mouse.click(box.x + box.width / 2, box.y + box.height - 4);
      await card.locator('.map-zone-card .map-info-name', { hasText: 'ZZ-Hidden-tunnel' }).waitFor();
      await acked(gm.rec, 'map.zone', () => card.locator('.map-zone-show').click());
      await waitFor('the tunnel on the phone', async () => (await zoneNames(phone)).includes('ZZ-Hidden-tunnel'));
      // tap it on the phone: its card
      const pz = phone.locator('.map-zone', { hasText: 'ZZ-Hidden-tunnel' });
      await pz.scrollIntoViewIfNeeded();
      const pbox = await pz.boundingBox();
      await ann.page.mouse.click(pbox.x + pbox.width / 2, pbox.y + pbox.height - 3);
      await phone.locator('.map-zone-card .map-info-name', { hasText: 'ZZ-Hidden-tunnel' }).waitFor();
      assert.equal(await phone.locator('.map-zone-show, .map-zone-remove').count(), 0, 'a player changes no zone');

      // ---- the GM takes the street off the map, from the list ----
      await card.locator('.map-zone-pick', { hasText: 'Street' }).click();
      await acked(gm.rec, 'map.unzone', () => card.locator('.map-zone-remove').click());
      await waitFor('the street gone from the phone', async () => !(await zoneNames(phone)).includes('Street'));
      await shot(phone, 'map-zones-phone-390.png');
      await shot(card, 'map-zones-laptop-1366.png');
      await axe(gm.page, 'zones on the laptop');
      await noSideways(gm.page, 'zones on the laptop');

      await ann.page.setViewportSize({ width: 360, height: 780 });
      await sleep(200);
      await noSideways(ann.page, 'zones at 360 px');
      await axe(ann.page, 'zones at 360 px');
    });
  });
});
