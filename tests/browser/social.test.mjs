// The social panel (issue 14 §4, web-static/js/enc/social.js) in a real browser (Debian's
// headless Chromium) against the real server with seeded dice: the GM on a laptop (1366×768) and
// two players on phones (390×844).
//   - cot.social: a Social Call. The GM starts it and begins round 1 from the panel; at the
//     party's slots Ann reads the room on the Countess and sets an agenda, Bob reads the room,
//     Ann builds up — each from the panel with the form's default values (the agenda's words are
//     the one thing typed). What Ann learned shows on her phone only; the agenda shows on both
//     party phones and the GM's laptop; the Countess's true identity and Loyalties only on the
//     laptop; the emotional state on every screen.
//   - tenacity.social: the GM opens a contest from the panel; Odessa's player wins Gorrak over
//     with the defaults; the standing scale (a meter) moves on all three screens to the server's
//     value; a phone offers only that player's moves.
// Every tap gets an ack and its result is in the viewport where it was tapped; the visible text of
// every page has no rulebook line reference, snake_case word, error code or JSON path; axe-core
// finds no serious violation; nothing scrolls sideways on a phone. Screenshots:
// tests/artifacts/social-<system>-{gm-1366,ann-390,bob-390}.png and the panel alone, -<who>-panel.png.
//
// Run alone: cd tests && node --test --test-concurrency=1 browser/social.test.mjs
// Environment: TABLED_BIN (server binary), CHROMIUM (browser, default /usr/bin/chromium).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer, repoRoot } from './server.mjs';
import { Api, LAPTOP, PHONE, CHROMIUM_ARGS, waitFor, seen, instrument, tapped, stateOf, assertPlain, axe, noSideways, shot } from './pages.mjs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const STEP = { timeout: 240000 };

// A table: the server (seeded), a campaign of `system`, the players Ann and Bob with their
// characters, the GM's NPC, the GM's API connection (for the GM's moves that are not the point)
// and the three pages, connected.
async function table(browser, system, seed, { ann, bob, npc }) {
  const server = await startServer({ extraArgs: ['--seed', String(seed)] });
  const host = await Api.open(server.url);
  await host.hello(server.hostToken);
  const made = await host.ok('campaign.create', { name: `A ${system} social`, system });
  const gmApi = await Api.open(server.url);
  await gmApi.hello(made.gm_token);
  const t = { server, gmApi, ctx: [], closers: [host, gmApi], p: {}, chars: {} };
  const tokens = { gm: made.gm_token };
  for (const [who, name, sheet] of [
    ['ann', 'Ann', ann],
    ['bob', 'Bob', bob],
  ]) {
    const api = await Api.open(server.url);
    t.closers.push(api);
    const j = await api.join(made.join_code, name);
    tokens[who] = j.token;
    t.chars[who] = (await api.ok('char.create', { name: sheet.name, sheet })).id;
  }
  t.chars.npc = (await gmApi.ok('char.create', { name: npc.name, sheet: npc, npc: true })).id;
  for (const [who, viewport] of [
    ['gm', LAPTOP],
    ['ann', PHONE],
    ['bob', PHONE],
  ]) {
    const ctx = await browser.newContext(who === 'gm' ? { viewport } : { viewport, isMobile: true, hasTouch: true });
    t.ctx.push(ctx);
    const page = await ctx.newPage();
    t.p[who] = { page, rec: instrument(page, `${system}/${who}`) };
    await page.goto(`${server.url}/#token=${tokens[who]}`);
    await page.locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
  }
  return t;
}

async function close(t) {
  for (const c of t.ctx) await c.close().catch(() => {});
  for (const c of t.closers) c.close();
  await t.server.stop().catch(() => {});
  fs.rmSync(t.server.dir, { recursive: true, force: true });
}

// The GM starts `module` from the panel; the combatants are added over the API.
async function start(t, module, adds) {
  const gm = t.p.gm;
  await gm.page.locator('#enc-module').selectOption(module);
  await tapped(gm, 'enc.start', () => gm.page.locator('#enc [data-key="start-submit"]').click(), `starting ${module}`);
  const ids = {};
  for (const [key, args] of adds) ids[key] = (await t.gmApi.ok('enc.add', args)).id;
  for (const p of Object.values(t.p)) await waitFor('every combatant on every page', async () => Object.keys((await stateOf(p.page))?.enc?.combatants || {}).length === adds.length);
  return ids;
}

// Taps the action's button, fills `fields` (a select by label), submits; the result is in view.
async function move(p, action, fields = {}, what = action) {
  const button = p.page.locator(`#enc [data-action="${action}"]`).first();
  if (await button.evaluate((el) => Boolean(el.closest('details:not([open])')))) await p.page.locator('#enc details.enc-more > summary').click();
  await button.click();
  const form = p.page.locator(`#enc form.enc-form[data-key="act-${action}"]`);
  await form.waitFor();
  for (const [name, v] of Object.entries(fields)) {
    const el = form.locator(`[name="${name}"]`);
    if ((await el.evaluate((e) => e.tagName)) === 'SELECT') await el.selectOption({ label: v });
    else await el.fill(v);
  }
  return tapped(p, 'enc.act', () => form.locator('button[type=submit]').click(), what);
}

// Waits until the GM's page has seen every event made so far: the newest seq the GM's API client
// or any page knows (a tap's ack reaches its own page before the other pages get the diff), so
// what is read from the GM's state next is not a step behind.
async function gmCaughtUp(t) {
  // the GM's page counts the campaign's seq, the players' pages player seqs (protocol/PROTOCOL.md,
  // "Two counts"): the GM's page must reach the GM's newest and the players' newest
  let players = 0;
  for (const p of Object.values(t.p)) {
    const [role, seq] = await p.page.evaluate(() => [window.tabled.conn.seat?.role, window.tabled.conn.seq]);
    if (role !== 'gm') players = Math.max(players, seq ?? 0);
  }
  if (t.gmApi.seq) await seen(t.p.gm.page, t.gmApi.seq);
  await seen(t.p.gm.page, { seq: players });
}

const buttons = (p) => p.page.locator('#enc .enc-actions [data-action]').evaluateAll((els) => els.map((e) => e.dataset.action));
const panelText = (p) => p.page.locator('#enc .social-panel').innerText();

async function plainEverywhere(t, when) {
  for (const [who, p] of Object.entries(t.p)) {
    await assertPlain(p.page, `${who} ${when}`);
    assert.deepEqual(p.rec.errors, [], `${who}: page errors`);
  }
}

async function finish(t, system) {
  for (const [who, p] of Object.entries(t.p)) {
    await p.page.evaluate(() => window.scrollTo(0, 0));
    await shot(p.page, `social-${system}-${who}-${who === 'gm' ? 1366 : 390}.png`);
    await shot(p.page.locator('#enc'), `social-${system}-${who}-panel.png`);
    await axe(p.page, `${system}/${who}`);
    if (who !== 'gm') await noSideways(p.page, `${system}/${who}`);
  }
}

const COT_PC = (name, loyalty) => ({
  name,
  abilities: { muscle: 1, fingers: 1, brains: 1, it: 3 },
  skills: { size_up: 2, convince: 2, intimidate: 1 },
  loyalties: [loyalty],
});

async function cotCall(browser) {
  const t = await table(browser, 'cot', 7, {
    ann: COT_PC('Ann Vale', { kind: 'Devoted', target: 'Crew', prime: true }),
    bob: COT_PC('Bob Reyes', { kind: 'Desire', target: 'Jazz', prime: true }),
    npc: {
      name: 'The Countess',
      abilities: { muscle: 1, fingers: 1, brains: 2, it: 1 },
      skills: { size_up: 0 },
      loyalties: [
        { kind: 'Devoted', target: 'Husband', prime: true },
        { kind: 'Hatred', target: 'Smugglers', prime: false },
      ],
    },
  });
  try {
    const { gm, ann, bob } = t.p;
    const ids = await start(t, 'cot.social', [
      ['A', { char: t.chars.ann }],
      ['B', { char: t.chars.bob }],
      ['N', { char: t.chars.npc, side: 'foes' }],
    ]);
    await t.gmApi.ok('enc.act', { action: 'identity', params: { target: ids.N, identity: 'Countess Orlova' } });
    const begin = gm.page.locator('#enc .enc-actions button.one-tap').first();
    await tapped(gm, 'enc.act', () => begin.click(), 'beginning round 1');

    // The party's slot for `who` (the GM has the Countess wait at hers, and the other player's
    // character wait when the slot is wanted by `who`); a phone offers the turn moves only then.
    const slotFor = async (who) => {
      for (let i = 0; i < 12; i++) {
        await gmCaughtUp(t); // the last tap may have been a phone's, the last wait the API's
        const st = await stateOf(gm.page);
        const slot = st.enc.order[st.enc.turn];
        const me = st.enc.combatants[ids[who]];
        if (slot?.side === me.side && !(me.claimed || []).length) return;
        const other = slot?.side === 'foes' ? ids.N : who === 'A' ? ids.B : ids.A;
        await t.gmApi.ok('enc.act', { action: 'wait', actor: other });
      }
      assert.fail(`${who} never got a slot`);
    };
    const on = (p, text) => waitFor(`"${text}" on ${p.rec.label}`, async () => (await panelText(p)).includes(text));

    // Ann reads the room on the Countess: she learns who she is, and only she
    await slotFor('A');
    await waitFor("Ann's phone to offer Read Room", async () => (await buttons(ann)).includes('read_room'));
    await move(ann, 'read_room', {}, "Ann's Read Room");
    await on(ann, 'Countess Orlova');
    assert.ok(!(await bob.page.content()).includes('Countess Orlova'), "Bob's phone shows what only Ann learned");
    // her agenda: the words are typed, the rest is the form's defaults; the party and the GM see it
    await move(ann, 'agenda', { text: 'lend us the ledger' }, "Ann's agenda");
    for (const p of [ann, bob, gm]) await on(p, 'lend us the ledger');
    // Bob reads the room too
    await slotFor('B');
    await waitFor("Bob's phone to offer Read Room", async () => (await buttons(bob)).includes('read_room'));
    const bobs = await buttons(bob);
    assert.ok(!bobs.includes('build_up') && !bobs.includes('follow_through') && !bobs.includes('agenda'), `Bob has no agenda and knows nobody yet: ${bobs}`);
    await move(bob, 'read_room', {}, "Bob's Read Room");
    await on(bob, 'Countess Orlova');
    // Ann builds up (the pick's default: Convince): the emotional state is on every screen
    await slotFor('A');
    await move(ann, 'build_up', {}, "Ann's Build Up");
    await gmCaughtUp(t);
    const mood = (await stateOf(gm.page)).enc.combatants[ids.N].emotion.state;
    for (const p of [ann, bob, gm]) await on(p, mood);
    // the GM's laptop holds the truth; the phones never do
    await on(gm, 'Husband');
    for (const p of [ann, bob]) {
      const html = await p.page.content();
      assert.ok(!html.includes('Husband') && !html.includes('Smugglers'), `${p.rec.label} shows the Countess's Loyalties`);
    }
    assert.ok((await panelText(ann)).includes('Crew') && !(await panelText(ann)).includes('Jazz'), "Ann sees her own Loyalties, not Bob's");
    await plainEverywhere(t, 'in the Social Call');
    await finish(t, 'cot');
  } finally {
    await close(t);
  }
}

async function tenacityScene(browser) {
  const sheet = (n) => JSON.parse(fs.readFileSync(path.join(repoRoot, 'rules', 'tenacity', 'samples', `${n}.json`), 'utf8'));
  const t = await table(browser, 'tenacity', 12, { ann: sheet('odessa'), bob: sheet('brakka'), npc: { ...sheet('missa'), name: 'Gorrak' } });
  try {
    const { gm, ann, bob } = t.p;
    const ids = await start(t, 'tenacity.social', [
      ['O', { char: t.chars.ann }],
      ['B', { char: t.chars.bob }],
      ['G', { char: t.chars.npc, side: 'foes' }],
    ]);
    // before a contest: nothing to do on a phone
    for (const p of [ann, bob]) assert.deepEqual(await buttons(p), [], `${p.rec.label} offers a move before any contest`);
    // the GM opens Odessa's contest for Gorrak's good opinion (at the neutral 5)
    await move(gm, 'open', { target: sheet('odessa').name, target2: 'Gorrak' }, 'opening the contest');
    const meter = (p) => p.page.locator(`#enc .social-contest[data-who="${ids.O}"][data-eyes="${ids.G}"] [role="meter"]`);
    for (const p of [gm, ann, bob]) await waitFor(`the scale on ${p.rec.label}`, async () => (await meter(p).count()) && (await meter(p).getAttribute('aria-valuenow')) === '5');
    assert.deepEqual(await buttons(ann), ['sway', 'quit'], "Odessa's phone: her own moves only");
    assert.deepEqual(await buttons(bob), ['scrutiny'], "Brakka's phone: he can only work against her");
    // Odessa's player wins Gorrak over with the form as it opens
    await move(ann, 'sway', {}, "Odessa's sway");
    await gmCaughtUp(t);
    const v = String((await stateOf(gm.page)).enc.standing[ids.O][ids.G]);
    assert.notEqual(v, '5', 'the scale moved');
    for (const p of [gm, ann, bob]) await waitFor(`the scale at ${v} on ${p.rec.label}`, async () => (await meter(p).getAttribute('aria-valuenow')) === v);
    await plainEverywhere(t, 'in the social scene');
    await finish(t, 'tenacity');
  } finally {
    await close(t);
  }
}

describe('browser: the social panel on two phones and a laptop', () => {
  let browser;
  before(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close().catch(() => {});
  });
  it('cot: a Social Call, what each seat knows on its own screen', STEP, () => cotCall(browser));
  it('tenacity: the standing scale moves on every screen', STEP, () => tenacityScene(browser));
});
