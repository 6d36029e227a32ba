// Issue 16 ("cot heists"), the heist panel (web-static/js/enc/heist.js) in Debian's headless Chromium
// against the real server with seeded dice. A GM on a laptop (1366×768) and a player on a phone
// (390×844):
//   - the GM picks Heist and starts preparing with the crew as the form opens (the player's
//     character); the board offers only what the server's moves hold (no barrier or guard before
//     a zone, and its moves are not drawn again as buttons); adds two zones with the zone form as it opens, a third one Hidden (named
//     "Smugglers cellar"), a barrier and a guard in the first zone with the forms' defaults; each
//     result shows in the GM's viewport; the GM's page lists every zone, the player's none;
//   - the GM shows the first zone with one tap: the player's page shows that zone and nothing
//     else — no other zone, no guard, and not one byte of the Hidden zone's name or the guard's
//     name reaches the phone;
//   - the player moves into the zone (the move form as it opens: the zone is a pick of the zones
//     the crew knows) and now sees the guard there, with its Aware state as the server has it;
//     the player researches with the form's picks as they open (layout by Planning).
// After each step no visible text holds a rulebook line reference, a snake_case word or an error
// code; axe-core finds no serious violation; the phone's controls are 44 px tall and nothing
// sticks out sideways. Screenshots: tests/artifacts/heist-{gm-1366,player-390}.png (and -enc.png).
//
// Run alone: cd tests && node --test --test-concurrency=1 browser/heist.test.mjs

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, atTable, tapped, arrived, stateOf, waitFor, assertPlain, axe, touchTargets, noSideways, movesReady, shotPanel as shot } from './pages.mjs';

const STEP = { timeout: 240000 };

const zonesOn = (page) => page.locator('#enc .heist-zone .heist-zone-name').allTextContents();
const bytes = (p) => p.rec.received.join('\n');

function heist(browser) {
  return atTable(browser, 'cot', 16, async ({ gm, ann, pcName }) => {

    // ---- the GM prepares the spot while the player is not looking ----
    await gm.page.locator('#enc-module').selectOption('cot.heist');
    const setup = gm.page.locator('#enc form.heist-setup');
    await setup.waitFor();
    await tapped(gm, 'enc.add', () => setup.locator('[data-key="heist-start"]').click(), 'starting the heist with the crew');
    await gm.page.locator('#enc .enc-name', { hasText: pcName }).waitFor();
    // The board's own forms follow the server's moves (issue 24): with no zone yet, neither a
    // barrier nor a guard may be prepared, and the board's moves are not drawn twice.
    await movesReady(gm.page);
    assert.deepEqual(await gm.page.locator('#enc .heist-tools button').allTextContents(), ['Add a zone'], 'before any zone, the board offers only a zone');
    assert.equal(await gm.page.locator('#enc .enc-moves [data-action="zone"], #enc .enc-moves [data-action="barrier"], #enc .enc-moves [data-action="guard"]').count(), 0, 'the board draws its own moves, once');

    const zoneForm = gm.page.locator('#enc form[data-key^="heist-zone"]');
    const addZone = async (what, fill) => {
      if (!(await zoneForm.count())) await gm.page.locator('#enc [data-key="heist-zone"]').click();
      await zoneForm.waitFor();
      if (fill) await fill(zoneForm);
      return tapped(gm, 'enc.act', () => zoneForm.locator('[data-key="heist-zone-submit"]').click(), what);
    };
    await addZone('the first zone, as the form opens');
    await addZone('a second zone, as the form opens');
    await addZone('a Hidden zone', async (f) => {
      await f.locator('[name="name"]').fill('Smugglers cellar');
      await f.locator('[name="hidden"]').check();
    });
    // The way in: the barrier form opens on outside → Zone 1; an open way instead of its lock.
    await gm.page.locator('#enc [data-key="heist-barrier"]').click();
    const barForm = gm.page.locator('#enc form[data-key^="heist-barrier"]');
    assert.equal(await barForm.locator('[name="from"]').inputValue(), 'outside');
    assert.equal(await barForm.locator('[name="to"] option:checked').textContent(), 'Zone 1');
    await barForm.locator('[name="tag"]').selectOption('none');
    await tapped(gm, 'enc.act', () => barForm.locator('[data-key="heist-barrier-submit"]').click(), 'the way in');
    // The next barrier as the form opens: Zone 1 → Zone 2, a lock.
    await waitFor('the next barrier form', async () => (await barForm.locator('[name="to"] option:checked').textContent()) === 'Zone 2');
    await tapped(gm, 'enc.act', () => barForm.locator('[data-key="heist-barrier-submit"]').click(), 'a locked door, as the form opens');
    await gm.page.locator('#enc [data-key="heist-guard"]').click();
    const guardForm = gm.page.locator('#enc form[data-key^="heist-guard"]');
    await guardForm.locator('[name="zone"]').selectOption({ label: 'Zone 1' });
    await tapped(gm, 'enc.act', () => guardForm.locator('[data-key="heist-guard-submit"]').click(), 'a guard in the first zone');

    let s = await stateOf(gm.page);
    assert.deepEqual(Object.values(s.gm.enc.spot.zones).map((z) => z.name), ['Zone 1', 'Zone 2', 'Smugglers cellar']);
    assert.deepEqual(s.gm.enc.spot.zones.z3.tags, ['hidden']);
    assert.equal(s.gm.enc.spot.zones.z1.edge, true, 'the first zone is at the edge by default');
    assert.equal(Object.values(s.gm.enc.spot.guards)[0].zone, 'z1');
    assert.deepEqual(Object.values(s.gm.enc.spot.barriers).map((b) => [b.from, b.to, b.tag]), [
      ['outside', 'z1', 'none'],
      ['z1', 'z2', 'lock'],
    ]);
    assert.deepEqual(await zonesOn(gm.page), ['Zone 1', 'Zone 2', 'Smugglers cellar'], 'the GM sees every zone');
    await assertPlain(gm.page, 'heist/GM prepared');
    await waitFor('the player page on the heist', async () => (await stateOf(ann.page))?.enc?.module === 'cot.heist');
    assert.deepEqual(await zonesOn(ann.page), [], 'the player sees no zone before any is shown');
    await ann.page.locator('#enc .heist-none').waitFor();

    // ---- the GM shows the first zone ----
    const r = await tapped(gm, 'enc.act', () => gm.page.locator('#enc [data-key="reveal-z1"]').click(), 'showing Zone 1');
    await arrived(ann, r.reply);
    await waitFor('Zone 1 on the phone', async () => (await zonesOn(ann.page)).join() === 'Zone 1');
    const text = await ann.page.evaluate(() => document.body.innerText);
    for (const secret of ['Zone 2', 'Smugglers cellar', 'Guard 1', 'Awareness']) assert.ok(!text.includes(secret), `the player's page shows ${secret}`);
    for (const secret of ['Smugglers cellar', 'Guard 1', 'Zone 2']) assert.ok(!bytes(ann).includes(secret), `the player's socket received ${secret}`);
    assert.equal(await gm.page.locator('#enc [data-key="reveal-z1"]').count(), 0, 'a shown zone offers no Show');
    await assertPlain(ann.page, 'heist/player after the reveal');

    // ---- the player enters the zone: the guard there is seen ----
    await ann.page.locator('#enc [data-action="move"]').click();
    const move = ann.page.locator('#enc form.enc-form[data-key="act-move"]');
    await move.waitFor();
    assert.deepEqual(await move.locator('select[name="zone"] option').allTextContents(), ['Zone 1'], 'the zones to pick are the ones the crew knows');
    const m = await tapped(ann, 'enc.act', () => move.locator('button[type=submit]').click(), 'moving into Zone 1');
    await arrived(gm, m.reply);
    s = await stateOf(gm.page);
    const C = Object.values(s.enc.combatants).find((c) => c.name === pcName).id;
    assert.equal(s.enc.spot.crew[C], 'z1');
    const guard = ann.page.locator('#enc .heist-guard', { hasText: 'Guard 1' });
    await guard.waitFor();
    const aware = Object.values(s.enc.spot.guards)[0].aware;
    assert.equal(await guard.locator('.heist-aware').count(), aware ? 1 : 0, `the phone shows the guard ${aware ? 'Aware' : 'not aware'}`);
    assert.match(await ann.page.locator('#enc .heist-zone[data-zone="z1"] .heist-crew-here').textContent(), new RegExp(pcName));

    // ---- research with the form's picks as they open ----
    await ann.page.locator('#enc [data-action="research"]').click();
    const research = ann.page.locator('#enc form.enc-form[data-key="act-research"]');
    await research.waitFor();
    assert.equal(await research.locator('select[name="goal"]').inputValue(), 'layout');
    assert.equal(await research.locator('select[name="method"]').inputValue(), 'planning');
    const q = await tapped(ann, 'enc.act', () => research.locator('button[type=submit]').click(), 'researching the layout');
    await arrived(gm, q.reply);
    s = await stateOf(ann.page);
    assert.ok(!('z3' in (s.enc.spot.zones || {})), 'layout research never finds the Hidden zone');
    assert.ok(!bytes(ann).includes('Smugglers cellar'), 'the Hidden zone stays the GM’s');

    for (const p of [gm, ann]) await assertPlain(p.page, `heist/${p.rec.label} at the end`);
    assert.equal(await gm.page.locator('#enc .enc-gm').count(), 0, 'the GM’s spot is drawn once, not listed again as numbers');
    await shot(gm.page, 'heist-gm-1366.png');
    await shot(ann.page, 'heist-player-390.png');
    await axe(gm.page, 'heist/GM');
    await axe(ann.page, 'heist/player');
    await touchTargets(ann.page, 'heist/player');
    await noSideways(ann.page, 'heist/player');
  });
}

describe('browser: the GM prepares a heist, the crew sees what was shown', () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close().catch(() => {});
  });
  it('cot: zones, a Hidden zone, a barrier and a guard from the forms as they open; one zone shown; the phone shows only it', STEP, () => heist(browser));
});
