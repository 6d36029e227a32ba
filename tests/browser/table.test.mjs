// Issue 15, "the table experience", in a real browser (Debian's headless Chromium) against the
// real server with seeded dice. For each of the five rule systems a GM on a laptop (1366×768)
// and a player on a phone (390×844) run an evening's main flows with the forms' DEFAULT values,
// only from what the pages show:
//   - the player joins from the join link and picks a ready-made character;
//   - a check from EACH of the character's sheet buttons (a button that asks for a number opens
//     the check form with the rules' default filled in; GRIMWIRE's hidden target number is the one
//     value typed, as the GM names it at the table: issue 15 item 5 is not built);
//   - the GM starts the system's fighting encounter, adds the player's character and a quick NPC
//     (a name only), begins with one tap; whoever has the turn attacks with the form as it opens
//     (the target defaults to a foe) and ends the turn; the GM ends the encounter.
// Each command succeeds (an ack) and its result (the log lines of its seq, with the dice) is
// visible in the viewport of the page where the tap was, and arrives in the other page's log.
// After each flow, the visible text of both pages (document.body.innerText) has no rulebook line
// reference, no snake_case word and no error code. axe-core finds no serious or critical
// violation on either page, and every visible control on the phone is at least 44 px tall.
// Screenshots: tests/artifacts/table-<system>-{gm-1366,player-390}.png.
//
// Run alone: cd tests && node --test --test-concurrency=1 browser/table.test.mjs
// Environment: TABLED_BIN (server binary), CHROMIUM (browser, default /usr/bin/chromium).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer, repoRoot } from './server.mjs';
import { seen, CHROMIUM, ARTIFACTS, sleep, waitFor, parsed, doing, tapped, arrived, stateOf, axe, touchTargets, shot, tableOnPages } from './pages.mjs';

const STEP = { timeout: 300000 };

// ---- what a person must never read -------------------------------------------------------------

const JARGON = [
  [/\(\d{3}:\d+/, 'a rulebook line reference'],
  [/\b[a-z]+_[a-z0-9_]+\b/, 'a snake_case word'],
  [/\b(bad_request|unauthorized|forbidden|not_found|conflict|rule|rate_limited|too_large|internal)\s*:/i, 'an error code'],
  [/\b[a-z_]+: done\./i, 'an op name'],
  [/\/(gm|enc|private)\/\w+/, 'a JSON path'],
  [/\b(null|undefined|NaN|\[object Object\])\b/, 'a programming value'],
];

async function assertPlain(page, where) {
  const text = await page.evaluate(() => document.body.innerText);
  for (const [re, what] of JARGON) {
    const m = re.exec(text);
    assert.equal(m, null, `${where}: the page shows ${what}: "${m && text.slice(Math.max(0, m.index - 60), m.index + 60).replace(/\s+/g, ' ')}"`);
  }
}

// ---- one system's evening ------------------------------------------------------------------------

const SYSTEMS = [
  // [system, the encounter module with an attack, seed, the GM's hidden numbers (grimwire only)]
  ['fivey', 'fivey.combat', 3],
  ['cot', 'cot.warfare', 3],
  ['heimr', 'heimr.combat', 3],
  ['grimwire', 'grimwire.conflict', 3],
  ['tenacity', 'tenacity.spotlight', 4],
];

async function evening(browser, system, module, seed) {
  const server = await startServer({ extraArgs: ['--seed', String(seed)] });
  const t = { server, ctx: [] };
  try {
    // The console link opens a fresh campaign of this system (made here over the host API is
    // not the point: the GM's own page creates it); the player joins from the link on a phone and
    // picks the first ready-made character (tableOnPages).
    const { gm, ann, pcName, contexts } = await tableOnPages(browser, server, system);
    t.ctx.push(...contexts);
    const mine = ann.page.locator('.char-list.mine li.char').first();
    await assertPlain(ann.page, `${system}/player with a character`);

    // A check from each sheet button, with what the form offers.
    const buttons = mine.locator('button.qc');
    const n = await buttons.count();
    assert.ok(n > 0, `${system}: the sheet has check buttons`);
    for (let i = 0; i < n; i++) {
      const b = buttons.nth(i);
      const label = (await b.textContent()).trim();
      const title = await b.getAttribute('title');
      if (system === 'grimwire') {
        // The player is never asked for the hidden target number (issue 15, item 5): the roll
        // waits, the GM is asked on their own page and answers; then both see the outcome.
        assert.equal(title, 'the GM names the target number', `${system}: ${label}`);
        const { reply } = await tapped(ann, 'roll.check', () => b.click(), `the sheet check ${label}`);
        const key = reply.result.asked;
        assert.ok(key, `${system}: the check waits for the GM`);
        const box = ann.page.locator(`.result-box[data-seq="${reply.entry ?? reply.seq}"]`).first();
        assert.match(await box.innerText(), /waiting for the GM/i);
        await ann.page.locator('#asks li.ask').first().waitFor();
        assert.equal(await ann.page.locator('#asks input').count(), 0, 'a player gets no number field');
        const ask = gm.page.locator(`#asks form.ask-form[data-ask="${key}"]`);
        await ask.waitFor();
        await ask.locator('[name="tn"]').fill('12');
        const ansd = await doing(gm.rec, 'roll.answer', () => ask.locator('button[type=submit]').click());
        assert.equal(ansd.reply.t, 'ack', ansd.reply.message);
        await arrived(ann, ansd.reply);
        await waitFor(`the outcome of ${label} where Ann tapped`, async () => (await box.locator('.entry').count()) > 0);
        await waitFor('the ask card gone', async () => !(await gm.page.locator('#asks').isVisible()));
        await shot(gm.page, `asks-${system}-gm-1366.png`);
        await shot(ann.page, `asks-${system}-player-390.png`);
        continue;
      }
      const asks = title !== 'rolls at once';
      if (!asks) {
        await tapped(ann, 'roll.check', () => b.click(), `the sheet check ${label}`);
        continue;
      }
      await b.click();
      const form = ann.page.locator('#checks form.check-form');
      await form.waitFor();
      await tapped(ann, 'roll.check', () => form.locator('#check-submit').click(), `the sheet check ${label} from its form`);
    }
    const checkIds = new Set(parsed(ann.rec.sent).filter((m) => m.op === 'roll.check').map((m) => m.id));
    const lastCheck = parsed(ann.rec.received).filter((m) => m.t === 'ack' && checkIds.has(m.id) && !m.result?.asked).pop();
    if (lastCheck) await arrived(gm, lastCheck); // (a waiting check arrived through the GM's answer)
    // The log names the character who rolled, not the player (issue 15, item 9).
    const firstWho = (await gm.page.locator('#log li.entry[data-kind="check"] .who').last().textContent()).trim();
    assert.equal(firstWho, pcName, `${system}: the GM's log names the character`);
    await assertPlain(ann.page, `${system}/player after the checks`);
    await assertPlain(gm.page, `${system}/GM after the checks`);

    // The GM starts the encounter, adds the PC and a quick NPC.
    await gm.page.locator('#enc-module').selectOption(module);
    await tapped(gm, 'enc.start', () => gm.page.locator('#enc [data-key="start-submit"]').click(), 'starting the encounter');
    await gm.page.locator('#enc [data-key="gm-add"]').click();
    await gm.page.locator('#enc-add-char').selectOption({ label: pcName });
    await doing(gm.rec, 'enc.add', () => gm.page.locator('#enc [data-key="add-char"]').click());
    await gm.page.locator('#enc-add-name').fill('Ruffian');
    await doing(gm.rec, 'enc.add', () => gm.page.locator('#enc [data-key="add-npc"]').click());
    await gm.page.locator('#enc [data-key="gm-add"]').click();
    for (const p of [gm, ann]) await p.page.locator('#enc .enc-name', { hasText: 'Ruffian' }).first().waitFor();

    if (system === 'grimwire') {
      // The GM names the number to evade the foe (rules G4); the number to hit it is asked for
      // when the player's attack needs it (issue 15, item 5: the attack waits, below).
      await gm.page.locator('#enc details.enc-more summary').click();
      await gm.page.locator('#enc [data-action="set_tn"]').click();
      const f = gm.page.locator('#enc form.enc-form[data-key="act-set_tn"]');
      await f.locator('select[name="target"]').selectOption({ label: 'Ruffian' });
      await f.locator('details.more-options summary').click().catch(() => {});
      await f.locator('[name="attack_tn"]').fill('11');
      await tapped(gm, 'enc.act', () => f.locator('button[type=submit]').click(), 'setting the target numbers');
    }

    // Begin: one tap (no form).
    const begin = gm.page.locator('#enc .enc-actions button.one-tap').first();
    const beginLabel = (await begin.textContent()).trim();
    const b = await tapped(gm, 'enc.act', () => begin.click(), `${beginLabel}`);
    await arrived(ann, b.reply);
    assert.equal(await gm.page.locator('#enc form.enc-form[data-key^="act-"]').count(), 0, `${beginLabel} opened no form`);
    // Campaign admin is out of the way while the encounter runs (issue 15, item 6): folded under
    // one summary, the roster still in sight.
    assert.equal(await gm.page.locator('#admin').evaluate((el) => el.open), false, `${system}: the campaign admin is folded during play`);
    assert.equal(await gm.page.locator('#invite-link').isVisible(), false, `${system}: the invitation is folded during play`);
    assert.ok(await gm.page.locator('#roster').isVisible(), `${system}: who is at the table stays in sight`);

    // Two turns: whoever has the turn attacks with the defaults and ends the turn.
    let attacks = 0;
    for (let turn = 0; turn < 2; turn++) {
      const st = await stateOf(gm.page);
      const c = turnOf(st.enc);
      assert.ok(c, `${system}: someone has the turn (turn ${turn})`);
      const cur = c.id;
      const p = c.npc ? gm : ann;
      await p.page.locator('#enc .turn-banner').filter({ hasText: c.npc ? `${c.name}` : 'Your' }).waitFor();
      const attack = p.page.locator('#enc .enc-actions [data-action="attack"]').first();
      if (!(await attack.count())) {
        // Knocked out by the last attack: the rules leave no attack, and the page offers none.
        assert.ok(attacks > 0, `${system}: ${c.name} is offered no attack`);
        const left = await p.page.locator('#enc [data-action]').evaluateAll((els) => els.map((e) => e.dataset.action));
        assert.ok(!left.includes('attack'), `${system}: ${left}`);
        break;
      }
      await attack.click();
      const form = p.page.locator('#enc form.enc-form[data-key="act-attack"]');
      await form.waitFor();
      const target = await form.locator('select[name="target"]').inputValue();
      assert.notEqual(target, cur, `${system}: the attack's target defaults to the attacker`);
      let a = await tapped(p, 'enc.act', () => form.locator('button[type=submit]').click(), `${c.name}'s attack`);
      attacks++;
      await arrived(p === gm ? ann : gm, a.reply);
      if (system === 'grimwire' && (await stateOf(gm.page)).enc.waiting) {
        // The player's attack waits for the hidden number: both pages say so, the GM sets it and
        // the attack is rolled; the player sees the outcome arrive.
        assert.equal(p, ann, 'only a player is never asked for the number');
        await ann.page.locator('#enc .gw-waiting').waitFor();
        await gm.page.locator('#enc .gw-waiting').waitFor();
        assert.equal(await ann.page.locator('#enc .enc-actions [data-action]').count(), 0, 'the player waits');
        const setTn = gm.page.locator('#enc [data-action="set_tn"]').first();
        if (!(await setTn.isVisible())) await gm.page.locator('#enc details.enc-more summary').click();
        await setTn.click();
        const f = gm.page.locator('#enc form.enc-form[data-key="act-set_tn"]');
        await f.locator('select[name="target"]').selectOption({ label: 'Ruffian' });
        await f.locator('[name="tn"]').fill('11');
        a = await tapped(gm, 'enc.act', () => f.locator('button[type=submit]').click(), 'the GM naming the target number');
        await arrived(ann, a.reply);
        await waitFor('the wait gone', async () => !(await stateOf(ann.page)).enc.waiting);
        await shot(gm.page, `wait-${system}-gm-1366.png`);
      }
      await assertPlain(gm.page, `${system}/GM after ${c.name}'s attack`);
      await assertPlain(ann.page, `${system}/player after ${c.name}'s attack`);
      let end = null;
      for (const name of ['end', 'end_turn', 'pass']) {
        const b = p.page.locator(`#enc [data-action="${name}"]`).first();
        if (await b.count()) {
          end = b;
          break;
        }
      }
      if (!end) break; // the attack ended the turn
      const st2 = await stateOf(gm.page);
      if (turnOf(st2.enc)?.id !== cur) continue;
      if (await end.evaluate((el) => el.closest('details') && !el.closest('details').open)) await p.page.locator('#enc details.enc-more summary').click();
      const direct = await end.evaluate((el) => el.classList.contains('one-tap'));
      let ended;
      if (direct) ended = await tapped(p, 'enc.act', () => end.click(), `${c.name} ending the turn`);
      else {
        await end.click();
        const f = p.page.locator('#enc form.enc-form').first();
        ended = await tapped(p, 'enc.act', () => f.locator('button[type=submit]').click(), `${c.name} ending the turn`);
      }
      // The next look at whose turn it is reads the GM's page: it must have seen the player's end.
      await seen((p === gm ? ann : gm).page, ended.reply, `${c.name}'s end of the turn`);
    }

    // Phone and laptop: readable, accessible, touchable.
    await shot(gm.page, `table-${system}-gm-1366.png`);
    await shot(ann.page, `table-${system}-player-390.png`);
    await axe(gm.page, `${system}/GM`);
    await axe(ann.page, `${system}/player`);
    await touchTargets(ann.page, `${system}/player`);

    // The GM ends the encounter (two taps: it asks first).
    await gm.page.locator('#enc [data-key="gm-end"]').click();
    await tapped(gm, 'enc.end', () => gm.page.locator('#enc [data-key="gm-end-yes"]').click(), 'ending the encounter');
    await ann.page.locator('#enc .enc-none').waitFor();
    await waitFor('the campaign admin unfolded after the encounter', () => gm.page.locator('#admin').evaluate((el) => el.open));
    await assertPlain(gm.page, `${system}/GM after the encounter`);
    await assertPlain(ann.page, `${system}/player after the encounter`);
    for (const p of [gm, ann]) assert.deepEqual(p.rec.errors, [], `${p.rec.label}: page errors`);
  } finally {
    for (const c of t.ctx) await c.close().catch(() => {});
    await server.stop().catch(() => {});
    fs.rmSync(server.dir, { recursive: true, force: true });
  }
}

// The combatant who acts now ({id, name, npc, ...}): whoever has the turn, or for a side's slot
// (cot) whoever took it, else the first of that side still in.
function turnOf(enc) {
  if (!enc) return null;
  const all = enc.combatants || {};
  const o = typeof enc.current === 'string' ? enc.current : Array.isArray(enc.order) ? enc.order[enc.turn] : null;
  const id = o && typeof o === 'object' ? o.id : o;
  if (id && all[id]) return { id, ...all[id] };
  if (o && typeof o === 'object' && o.side) {
    const cid = o.claimed_by || Object.keys(all).find((k) => all[k].side === o.side && !all[k].out);
    return cid ? { id: cid, ...all[cid] } : null;
  }
  return null;
}

describe('browser: an evening at the table in every rule system, with the default values', () => {
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
  const only = process.env.TABLE_SYSTEMS ? process.env.TABLE_SYSTEMS.split(',') : null;
  for (const [system, module, seed] of SYSTEMS) {
    if (only && !only.includes(system)) continue;
    it(`${system}: checks from every sheet button, an attack each side, a turn, the end`, STEP, () => evening(browser, system, module, seed));
  }
});
