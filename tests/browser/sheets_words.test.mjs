// Words a person reads on the sheets and pickers (issue 24, item 4): in each of the five systems a
// player on a phone (390×844) and the GM on a laptop (1366×768) go through every screen that shows
// a character or offers a pick, and none holds a rulebook line reference, a snake_case word, a JSON
// path, an error code or a programming value (pages.mjs JARGON), nor the short forms the issue
// found: a check's numbers by their parameter letters ("c 3, p 5"), a stat's lower-case short name
// before its number ("str 2 · sta 1"), a rolled pool without its dice in words ("6k3 → 6 6 4").
// The screens:
//   - the player's first screen: the ready-made characters to pick (their describe texts);
//   - "Build your own": the sheet form blank, then started from each ready-made character (every
//     label, hint and choice of the form);
//   - the player's own card after tapping every one-tap check on it (the results in the card);
//   - the roll card's check picker, each check of the system picked in turn (its summary and its
//     parameters' labels);
//   - the log after those checks (each check's name and numbers);
//   - the GM's list of characters and NPCs (every ready-made character made an NPC, cards opened,
//     "More numbers" opened), the GM's "New NPC" form, and the encounter picker with each kind of
//     encounter's options.
// Option texts of every <select> count as shown (a pick's choices are read when it opens).
//
// Run alone: cd tests && node --test --test-concurrency=1 browser/sheets_words.test.mjs
// SHEETS_SYSTEMS=fivey,heimr picks the systems (default: every one).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startServer } from './server.mjs';
import { launch, Api, LAPTOP, PHONE, JARGON, SHORT_FORMS, instrumentAll, sleep, doing } from './pages.mjs';

const SYSTEMS = ['fivey', 'heimr', 'cot', 'grimwire', 'tenacity'];
const picked = (process.env.SHEETS_SYSTEMS || SYSTEMS.join(',')).split(',').filter((s) => SYSTEMS.includes(s));

// The text a screen shows: its visible text, every choice of its picks, every details opened.
const shown = (page, sel) =>
  page.evaluate((s) => {
    const root = document.querySelector(s);
    if (!root) return '';
    for (const d of root.querySelectorAll('details')) d.open = true;
    const options = [...root.querySelectorAll('option')].map((o) => o.textContent);
    return [root.innerText, ...options].join('\n');
  }, sel);

async function assertWords(page, sel, where) {
  const text = await shown(page, sel);
  assert.ok(text.trim().length > 0, `${where}: nothing shown`);
  for (const [re, what] of [...JARGON, ...SHORT_FORMS]) {
    const m = re.exec(text);
    assert.equal(m, null, `${where}: shows ${what}: "${m && text.slice(Math.max(0, m.index - 60), m.index + 60).replace(/\s+/g, ' ')}"`);
  }
  return text;
}

// A click that does not depend on where a sticky bar lies on a phone.
const press = (loc) => loc.evaluate((el) => el.click());

async function walkSheets(browser, system) {
  const server = await startServer({ extraArgs: ['--seed', '3'] });
  const contexts = [];
  const checked = [];
  try {
    const host = await Api.open(server.url);
    await host.hello(server.hostToken);
    const made = await host.ok('campaign.create', { name: `Sheets ${system}`, system });
    const annApi = await Api.open(server.url);
    const joined = await annApi.join(made.join_code, 'Ann');
    const gmApi = await Api.open(server.url);
    await gmApi.hello(made.gm_token);
    const samples = (await (await fetch(`${server.url}/samples/${system}`)).json()).samples;
    for (const s of samples) await gmApi.ok('char.create', { name: s.sheet.name, sheet: s.sheet, npc: true });
    for (const c of [host, annApi, gmApi]) c.close();

    const open = async (who, viewport, mobile, token) => {
      const ctx = await browser.newContext({ viewport, isMobile: mobile, hasTouch: mobile });
      contexts.push(ctx);
      const page = await ctx.newPage();
      const rec = instrumentAll(page, `${system}/${who}`);
      await page.goto(`${server.url}/#token=${token}`);
      await page.locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
      return { page, rec };
    };
    const ann = await open('phone', PHONE, true, joined.token);
    const gm = await open('gm', LAPTOP, false, made.gm_token);
    const check = async (p, sel, where) => {
      await assertWords(p.page, sel, `${system}: ${where}`);
      checked.push(where);
    };

    // ---- the player: the picker, the sheet form, the own card with every check tapped ----
    await ann.page.locator('.samples li.sample').first().waitFor();
    await check(ann, '#chars-card', 'the ready-made characters to pick');
    await press(ann.page.locator('#build-own'));
    await ann.page.locator('form.sheet-editor').waitFor();
    await check(ann, '#chars-card', 'a blank sheet to build');
    for (const s of samples) {
      await ann.page.locator('#sheet-from').selectOption(s.file);
      await check(ann, '#chars-card', `the sheet form started from ${s.sheet.name}`);
    }
    await press(ann.page.locator('form.sheet-editor button', { hasText: 'Cancel' }));
    await doing(ann.rec, 'char.create', () => press(ann.page.locator('.samples li.sample button.primary').first()));
    const mine = ann.page.locator('.char-list.mine li.char').first();
    await mine.waitFor();
    const taps = await mine.locator('button.qc').count();
    assert.ok(taps > 0, `${system}: the sheet has check buttons`);
    for (let i = 0; i < taps; i++) {
      const b = mine.locator('button.qc').nth(i);
      if ((await b.getAttribute('title')) === 'rolls at once' || (await b.getAttribute('title')) === 'the GM names the target number') {
        await doing(ann.rec, 'roll.check', () => press(b));
      } else {
        await press(b); // opens the check form with the number it asks for: rolled below
        const { reply } = await doing(ann.rec, 'roll.check', () => press(ann.page.locator('#check-submit')));
        assert.equal(reply.t, 'ack', `${system}: the sheet's check as its form opens: ${JSON.stringify(reply)}`);
      }
      await check(ann, '#chars-card', `the card after check ${i + 1}`);
    }
    // the check picker: each check of the system in turn
    const names = await ann.page.locator('#check-name option').evaluateAll((os) => os.map((o) => o.value));
    for (const n of names) {
      await ann.page.locator('#check-name').selectOption(n);
      await check(ann, '#roll-card', `the check picker on ${n}`);
    }
    await sleep(200);
    await check(ann, '#log-card', "the player's log after the checks");

    // ---- the GM: characters and NPCs, the NPC form, the encounter picker ----
    await gm.page.locator('#chars-body li.char.npc').first().waitFor();
    await check(gm, '#chars-card', 'the GM’s characters and NPCs');
    await check(gm, '#log-card', "the GM's log");
    await press(gm.page.locator('#new-npc'));
    await gm.page.locator('form.sheet-editor').waitFor();
    await check(gm, '#chars-card', 'the GM’s New NPC form');
    await press(gm.page.locator('form.sheet-editor button', { hasText: 'Cancel' }));
    const modules = await gm.page.locator('#enc-module option').evaluateAll((os) => os.map((o) => o.value));
    assert.ok(modules.length > 0, `${system}: kinds of encounter to pick`);
    for (const mod of modules) {
      await gm.page.locator('#enc-module').selectOption(mod);
      await gm.page.locator(`#enc form[data-key="start-${mod}"], #enc .enc-form`).first().waitFor();
      await check(gm, '#enc', `the encounter picker on ${mod}`);
    }
    for (const p of [ann, gm]) assert.deepEqual(p.rec.errors, [], `${p.rec.label}: page errors`);
    return checked;
  } finally {
    for (const c of contexts) await c.close().catch(() => {});
    await server.stop().catch(() => {});
    fs.rmSync(server.dir, { recursive: true, force: true });
  }
}

describe('sheets and pickers in words a person reads', () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });
  for (const system of picked) {
    it(`${system}: no line reference, snake_case, JSON path, error code or short form on the sheets and pickers`, { timeout: 300000 }, async (t) => {
      const checked = await walkSheets(browser, system);
      t.diagnostic(`${system}: ${checked.length} screens checked`);
    });
  }
});
