// The "between the scenes" panels (modules tenacity.between and fivey.between, issue 17) in a real
// browser (Debian's headless Chromium) against the real server with seeded dice: the GM on a
// laptop-sized page, the player on a phone (360 px, touch). The campaign and the player's
// character are made over the WebSocket API; then, in the pages, the GM starts the module and adds
// the character; the GM's moves (end the scene, set a task, travel a hex, a downtime round, award
// experience) and the player's (a healing item, work on the task, rest, downtime, level up) are
// taken from the panel's buttons — the common ones on one tap — and both pages show the changed
// numbers on the character's card, the sheet in the state follows, a refusal shows in plain words
// where it was tapped, nothing sticks out sideways at 360 px, no page error.
//
// Run alone: cd tests && node --test --test-concurrency=1 browser/between_tenacity_fivey.test.mjs
// Environment: TABLED_BIN (server binary), CHROMIUM (browser, default /usr/bin/chromium).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer, repoRoot } from './server.mjs';
import { waitFor, Api, instrumentAll as instrument, parsed, doing, acked, stateOf, card, actionButtons, act, logShown, statInBoth, overflowAt360 } from './pages.mjs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARTIFACTS = path.join(repoRoot, 'tests', 'artifacts');
const STEP = { timeout: 120000 };

// The server, a campaign of `system`, Ann with `sheet` (changed by `edit`), the GM's page at
// 1280 px and Ann's on a phone.
async function table(browser, { system, seed, sample, edit = (s) => s }) {
  const server = await startServer({ extraArgs: ['--seed', String(seed)] });
  const host = await Api.open(server.url);
  await host.hello(server.hostToken);
  const made = await host.ok('campaign.create', { name: `A ${system} evening`, system });
  const annApi = await Api.open(server.url);
  const joined = await annApi.join(made.join_code, 'Ann');
  const samples = await (await fetch(`${server.url}/samples/${system}`)).json();
  const sheet = edit(structuredClone(samples.samples.find((s) => s.file.replace(/\.json$/, '') === sample).sheet));
  const pc = { name: sheet.name, id: (await annApi.ok('char.create', { name: sheet.name, sheet })).id };
  for (const c of [host, annApi]) c.close();
  const ctx = {};
  const page = {};
  const rec = {};
  for (const [who, opts, token] of [
    ['gm', { viewport: { width: 1280, height: 900 } }, made.gm_token],
    ['ann', { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true }, joined.token],
  ]) {
    ctx[who] = await browser.newContext(opts);
    page[who] = await ctx[who].newPage();
    rec[who] = instrument(page[who], `${system}/${who}`);
    await page[who].goto(`${server.url}/#token=${token}`);
    await page[who].locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
  }
  return { server, ctx, page, rec, pc, samples: samples.samples, gmToken: made.gm_token, pages: [page.gm, page.ann] };
}

// The GM starts `module` from the panel and adds the player's character.
async function startWith(t, module) {
  const gm = t.page.gm;
  await gm.locator('#enc #enc-module').waitFor();
  await gm.locator('#enc-module').selectOption(module);
  await acked(t.rec.gm, 'enc.start', () => gm.locator('#enc [data-key="start-submit"]').click());
  await t.page.ann.locator('#enc .enc-module').waitFor();
  await gm.locator('#enc [data-key="gm-add"]').click();
  await gm.locator('#enc-add-char').selectOption({ label: t.pc.name });
  await acked(t.rec.gm, 'enc.add', () => gm.locator('#enc [data-key="add-char"]').click());
  await gm.locator('#enc [data-key="gm-add"]').click();
  for (const p of t.pages) await card(p, t.pc.name).waitFor();
  // no turns between the scenes: no "waiting for the GM to begin" banner, no round
  for (const p of t.pages) assert.equal(await p.locator('#enc .turn-banner, #enc .enc-round').count(), 0, 'no turn banner');
}

// The button of `action` on the page runs on one tap (no form to fill).
async function oneTap(page, action) {
  const b = page.locator(`#enc .enc-actions [data-action="${action}"]`);
  await b.waitFor({ state: 'attached' });
  return b.evaluate((el) => el.classList.contains('one-tap'));
}

async function finish(t, system) {
  await t.page.ann.screenshot({ path: path.join(ARTIFACTS, `between-${system}-player-360.png`), fullPage: true });
  await t.page.gm.screenshot({ path: path.join(ARTIFACTS, `between-${system}-gm-1280.png`), fullPage: true });
  for (const [who, p] of Object.entries(t.page)) {
    assert.deepEqual(await overflowAt360(p), { px: 0, wide: [] }, `${system}/${who}: horizontal overflow at 360 px`);
  }
  for (const who of ['gm', 'ann']) assert.deepEqual(t.rec[who].errors, [], `${system}/${who}: page errors`);
  for (const m of parsed(t.rec.ann.received)) {
    if (m.t === 'diff') for (const op of m.ops) assert.ok(!op.path.startsWith('/gm'), `the player got ${op.path}`);
  }
}

async function teardown(t) {
  for (const c of Object.values(t?.ctx || {})) await c.close().catch(() => {});
  await t?.server?.stop().catch(() => {});
  if (t?.server?.dir) fs.rmSync(t.server.dir, { recursive: true, force: true });
}

describe('browser: between the scenes, the GM on a laptop and a player on a phone', () => {
  let browser;

  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });

  after(async () => {
    await browser?.close().catch(() => {});
  });

  it('tenacity.between: a salve, the end of the scene, a refused rest, a crafting task', STEP, async () => {
    const t = await table(browser, {
      system: 'tenacity',
      seed: 2,
      sample: 'missa',
      edit: (s) => ({ ...s, stress: { current: 5, max: 10 } }),
    });
    try {
      await startWith(t, 'tenacity.between');
      const [gm, ann] = [t.page.gm, t.page.ann];
      await statInBoth(t.pages, 'Missa', 'stress', '5/10');
      // the player's moves are on her phone; the GM's are not
      const mine = await actionButtons(ann);
      // (the server's moves: no work before the GM sets a task, no short rest while she has
      // 10acity left)
      for (const a of ['heal_item', 'pilot']) assert.ok(mine.includes(a), `the player can ${a}: ${mine}`);
      for (const a of ['scene_end', 'task', 'advance', 'work', 'rest']) assert.ok(!mine.includes(a), `the player cannot ${a}: ${mine}`);

      const salve = await act(ann, t.rec.ann, 'heal_item', { fields: { stress: 2, what: 'a salve' } });
      await logShown(t.pages, salve);
      await statInBoth(t.pages, 'Missa', 'stress', '3/10');
      assert.equal((await stateOf(gm)).chars[t.pc.id].sheet.stress.current, 3, 'the salve is on the sheet');

      assert.ok(await oneTap(gm, 'scene_end'), 'ending the scene is one tap');
      const end = await act(gm, t.rec.gm, 'scene_end');
      await logShown(t.pages, end);
      await statInBoth(t.pages, 'Missa', 'stress', '0/10');

      // a rest she may not take is not offered (the server's check: she still has 10acity left)
      assert.ok(!(await actionButtons(ann)).includes('rest'), 'no short rest while she has 10acity left');

      await act(gm, t.rec.gm, 'task', { fields: { task: 'lockpicks', kind: 'craft', need: 3, skill: 'Crafting', challenge_dice: 1 } });
      for (const p of t.pages) await p.locator('#enc .between-line', { hasText: 'lockpicks: 0 of 3 impact' }).waitFor();
      const work = await act(ann, t.rec.ann, 'work', { fields: { task: 'lockpicks' } });
      await logShown(t.pages, work);
      const total = (await stateOf(gm)).enc.tasks.lockpicks.total;
      for (const p of t.pages) await p.locator('#enc .between-line', { hasText: `lockpicks: ${total} of 3 impact` }).waitFor();

      // an NPC tends Missa: the skill she tends with is on her GM-only sheet (/gm/enc/care), so
      // the GM's line names it and Ann's names none (no "(undefined)")
      const gmApi = await Api.open(t.server.url);
      await gmApi.hello(t.gmToken);
      const sheet = { ...structuredClone(t.samples.find((s) => s.file.replace(/\.json$/, '') === 'odessa').sheet), name: 'Sister Vey' };
      sheet.attributes[3].skills[3].rank = 2; // Medicine 2: an impact die to heal with
      const vey = (await gmApi.ok('char.create', { name: 'Sister Vey', sheet, npc: true })).id;
      const eV = (await gmApi.ok('enc.add', { char: vey })).id;
      const missa = Object.entries((await stateOf(gm)).enc.combatants).find(([, c]) => c.name === t.pc.name)[0];
      await gmApi.ok('enc.set', { path: `/enc/combatants/${missa}/stats/wounds/current`, value: 1 });
      await gmApi.ok('enc.act', { action: 'tend', actor: eV, params: { target: missa, skill: 'Medicine' } });
      gmApi.close();
      await gm.locator('#enc .between-line', { hasText: `Sister Vey tends ${t.pc.name} (Medicine)` }).waitFor();
      await ann.locator('#enc .between-line', { hasText: `Sister Vey tends ${t.pc.name}` }).waitFor();
      const annLines = await ann.locator('#enc .between-line').allTextContents();
      assert.ok(!annLines.some((l) => /Medicine|undefined|\(/.test(l)), `Ann's lines name no skill: ${annLines}`);
      assert.equal(await gm.locator('#enc .enc-gm').count(), 0, 'the care is in the line, not in the GM-only list');
      await finish(t, 'tenacity');
    } finally {
      await teardown(t);
    }
  });

  it('fivey.between: a hex, a night\'s rest, downtime, an award and a level-up', STEP, async () => {
    const t = await table(browser, {
      system: 'fivey',
      seed: 2,
      sample: 'brunhild',
      edit: (s) => ({ ...s, hp: { max: 9, damage: 3 } }),
    });
    try {
      await startWith(t, 'fivey.between');
      const [gm, ann] = [t.page.gm, t.page.ann];
      await statInBoth(t.pages, 'Brunhild', 'HP', '6/9');
      assert.ok(await oneTap(gm, 'travel'), 'a hex is one tap');
      const hex = await act(gm, t.rec.gm, 'travel');
      await logShown(t.pages, hex);
      for (const p of t.pages) await p.locator('#enc .between-line', { hasText: '4 of 12 travel hours used' }).waitFor();

      const rest = await act(ann, t.rec.ann, 'rest', { fields: { action: 'recover' } });
      await logShown(t.pages, rest);
      const hp = (await stateOf(gm)).chars[t.pc.id].sheet.hp;
      assert.ok(hp.damage < 3, 'the rest healed Brunhild on her sheet');
      await statInBoth(t.pages, 'Brunhild', 'HP', `${9 - hp.damage}/9`);
      await statInBoth(t.pages, 'Brunhild', 'Rest', 'taken tonight');

      assert.ok(await oneTap(gm, 'tennite'), 'a downtime round is one tap');
      await act(gm, t.rec.gm, 'tennite');
      const dt = await act(ann, t.rec.ann, 'downtime', { fields: { lifestyle: 'modest', activity: 'carouse', stat: 'str' } });
      await logShown(t.pages, dt);
      const sheet = (await stateOf(gm)).chars[t.pc.id].sheet;
      assert.equal(sheet.crowns, 0);
      assert.ok(sheet.xp > 100);
      await statInBoth(t.pages, 'Brunhild', 'Crowns', '0');

      await act(gm, t.rec.gm, 'award', { fields: { target: 'Brunhild Oakenshield', xp: 300 - sheet.xp } });
      await statInBoth(t.pages, 'Brunhild', 'XP', '300');
      const up = await act(ann, t.rec.ann, 'level_up', { fields: { stat: 'str' } });
      await logShown(t.pages, up);
      await statInBoth(t.pages, 'Brunhild', 'Level', '2');
      const after = (await stateOf(gm)).chars[t.pc.id].sheet;
      // 9 + 4 hit points, +1 for Battle-Hardened (004:337, issue 25)
      assert.deepEqual([after.level, after.hp.max, after.stats.str], [2, 14, 4]);
      await finish(t, 'fivey');
    } finally {
      await teardown(t);
    }
  });
});
