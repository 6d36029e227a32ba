// A cot session at the table (000:237; rules/RULES.md "Social Calls", readings 17-18) in a real
// browser (Debian's headless Chromium) against the real server: the GM on a laptop (1366×768),
// two players on phones (390×844).
//   - The GM taps "Begin the session"; Ann's phone offers "Change a Loyalty" on her card; she
//     picks her second Loyalty, types what it becomes and sees the outcome where she tapped; Bob's
//     phone never receives a byte of it; the button is gone (one a session); the GM taps "Start
//     play".
//   - In a Social Call the Countess's agenda to change Ann's second Loyalty is achieved (the GM's
//     moves, over the API); only then does Ann's phone offer "Alter a Loyalty", with that
//     Loyalty as its pick, and she alters it from the panel.
// Every tap gets an ack and its result is in the viewport; the visible text has no rulebook line
// reference, snake_case word, error code or JSON path; axe-core finds no serious violation;
// nothing scrolls sideways on a phone. Screenshots: tests/artifacts/session-cot-<who>-<width>.png.
//
// Run alone: cd tests && node --test --test-concurrency=1 browser/session_cot.test.mjs
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';
import { Api, LAPTOP, PHONE, CHROMIUM_ARGS, waitFor, instrument, tapped, stateOf, assertPlain, axe, noSideways, shot } from './pages.mjs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const STEP = { timeout: 240000 };

const PC = (name, loyalties) => ({ name, abilities: { muscle: 1, fingers: 1, brains: 1, it: 1 }, skills: {}, loyalties });
// The Countess outclasses Ann in every roll (20 dice kept 10 against 1 die), so her agenda is
// achieved whatever the seed says.
const COUNTESS = {
  name: 'The Countess',
  abilities: { muscle: 1, fingers: 1, brains: 1, it: 10 },
  skills: { size_up: 10, convince: 10 },
  loyalties: [{ kind: 'Devoted', target: 'Husband', prime: true }],
};

async function table(browser) {
  const server = await startServer({ extraArgs: ['--seed', '3'] });
  const host = await Api.open(server.url);
  await host.hello(server.hostToken);
  const made = await host.ok('campaign.create', { name: 'A cot session', system: 'cot' });
  const gmApi = await Api.open(server.url);
  await gmApi.hello(made.gm_token);
  const t = { server, gmApi, ctx: [], closers: [host, gmApi], p: {}, chars: {}, n: 0 };
  const tokens = { gm: made.gm_token };
  for (const [who, name, sheet] of [
    ['ann', 'Ann', PC('Ann Vale', [{ kind: 'Devoted', target: 'Crew', prime: true }, { kind: 'Hated', target: 'Police' }])],
    ['bob', 'Bob', PC('Bob Reyes', [{ kind: 'Desire', target: 'Jazz', prime: true }])],
  ]) {
    const api = await Api.open(server.url);
    t.closers.push(api);
    const j = await api.join(made.join_code, name);
    tokens[who] = j.token;
    t.chars[who] = (await api.ok('char.create', { name: sheet.name, sheet })).id;
  }
  t.chars.npc = (await gmApi.ok('char.create', { name: COUNTESS.name, sheet: COUNTESS, npc: true })).id;
  for (const [who, viewport] of [
    ['gm', LAPTOP],
    ['ann', PHONE],
    ['bob', PHONE],
  ]) {
    const ctx = await browser.newContext(who === 'gm' ? { viewport } : { viewport, isMobile: true, hasTouch: true });
    t.ctx.push(ctx);
    const page = await ctx.newPage();
    t.p[who] = { page, rec: instrument(page, `session/${who}`) };
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

const seqOf = (p) => p.page.evaluate(() => window.tabled.conn.seq);

// The GM's move over the API; returns once every page has seen its seq (an ack can beat a page's
// diff under load).
async function gmDoes(t, op, args) {
  const id = `s-${++t.n}`;
  const reply = new Promise((r) => t.gmApi.pending.set(id, r));
  t.gmApi.ws.send(JSON.stringify({ t: 'cmd', id, op, args }));
  const m = await reply;
  assert.equal(m.t, 'ack', `${op} ${JSON.stringify(args)}: ${JSON.stringify(m)}`);
  await waitFor(`the GM's page to see seq ${m.seq}`, async () => (await seqOf(t.p.gm)) >= m.seq);
  return m.result;
}

const card = (p, id) => p.page.locator(`#chars-card .char[data-char="${id}"]`);
const encButtons = (p) => p.page.locator('#enc .enc-actions [data-action]').evaluateAll((els) => els.map((e) => e.dataset.action));

async function plainEverywhere(t, when) {
  for (const [who, p] of Object.entries(t.p)) {
    await assertPlain(p.page, `${who} ${when}`);
    assert.deepEqual(p.rec.errors, [], `${who}: page errors`);
  }
}

async function session(browser) {
  const t = await table(browser);
  try {
    const { gm, ann, bob } = t.p;
    // before a session: no "Change a Loyalty" anywhere
    assert.equal(await ann.page.locator('.loyalty-open').count(), 0, 'a phone offers a change before any session');

    // the GM begins the session from the laptop
    const begin = gm.page.locator('#session-begin');
    assert.equal((await begin.innerText()).trim(), 'Begin the session');
    const { reply } = await tapped(gm, 'session.begin', () => begin.click(), 'beginning the session');
    for (const p of [ann, bob]) await waitFor(`${p.rec.label} to see the session`, async () => (await seqOf(p)) >= (reply.entry ?? reply.seq)); // a player counts player seqs
    await waitFor("the GM's line", async () => /Session 1 is beginning/.test(await gm.page.locator('.session-bar').innerText()));

    // each phone offers it on its own character only
    await card(ann, t.chars.ann).locator('.loyalty-open').waitFor();
    assert.equal(await card(ann, t.chars.bob).locator('.loyalty-open').count(), 0, "Ann's phone offers a change of Bob's Loyalty");
    await card(bob, t.chars.bob).locator('.loyalty-open').waitFor();

    // Ann changes her second Loyalty from her phone
    await card(ann, t.chars.ann).locator('.loyalty-open').click();
    const form = card(ann, t.chars.ann).locator('form.loyalty-form');
    await form.locator('select[name="loyalty"]').selectOption({ label: '2. Hated: Police' });
    await form.locator('input[name="kind"]').fill('Desire');
    await form.locator('input[name="target"]').fill('Revenge');
    const altered = await tapped(ann, 'session.alter', () => form.locator('button[type=submit]').click(), "Ann's change of a Loyalty");
    await waitFor('the outcome in words', async () => (await card(ann, t.chars.ann).locator('.loyalty-done').innerText()).includes('Loyalty 2 is now Desire: Revenge'));
    assert.equal(await card(ann, t.chars.ann).locator('.loyalty-open').count(), 0, 'one change a session');
    await waitFor("Ann's sheet shows it", async () => (await card(ann, t.chars.ann).innerText()).includes('Revenge'));
    // Bob's phone never received a byte of it; the log there says only that a Loyalty changed
    await waitFor("Bob's page to see the change", async () => (await seqOf(bob)) >= altered.reply.seq);
    assert.ok(!bob.rec.received.some((f) => f.includes('Revenge') || f.includes('Police')), "Ann's Loyalty reached Bob's socket");
    assert.ok((await bob.page.content()).includes("One of Ann Vale's Loyalties changes"));
    await waitFor("the GM's laptop shows it", async () => (await card(gm, t.chars.ann).textContent()).includes('Revenge'));
    await plainEverywhere(t, 'at the beginning of the session');
    for (const [who, p] of Object.entries(t.p)) {
      await p.page.evaluate(() => window.scrollTo(0, 0));
      await shot(p.page, `session-cot-${who}-${who === 'gm' ? 1366 : 390}.png`);
      await axe(p.page, `session/${who}`);
      if (who !== 'gm') await noSideways(p.page, `session/${who}`);
    }

    // play starts: the phones no longer offer it
    await tapped(gm, 'session.close', () => gm.page.locator('#session-close').click(), 'starting play');
    await waitFor("Bob's button gone", async () => (await card(bob, t.chars.bob).locator('.loyalty-open').count()) === 0);

    // A Social Call: the Countess's agenda to change Ann's second Loyalty (the GM's moves; a
    // Prime is swapped, never rewritten: 000:237, issue 25)
    await gmDoes(t, 'enc.start', { module: 'cot.social' });
    const A = (await gmDoes(t, 'enc.add', { char: t.chars.ann })).id;
    const N = (await gmDoes(t, 'enc.add', { char: t.chars.npc, side: 'foes' })).id;
    await gmDoes(t, 'enc.act', { action: 'identity', params: { target: N, identity: 'Countess Orlova' } });
    await gmDoes(t, 'enc.act', { action: 'begin' });
    const countessActs = async (action, params) => {
      for (let i = 0; i < 8; i++) {
        const st = await stateOf(gm.page);
        const slot = st.enc.order[st.enc.turn];
        if (slot?.side === 'foes' && !(st.enc.combatants[N].claimed || []).length) return gmDoes(t, 'enc.act', { action, actor: N, params });
        await gmDoes(t, 'enc.act', { action: 'wait', actor: slot?.side === 'foes' ? N : A });
      }
      assert.fail('the Countess never got a slot');
    };
    await countessActs('read_room', { target: A });
    await gmDoes(t, 'enc.act', { action: 'agenda', actor: N, params: { target: A, text: 'Turn on the crew', alters: 2 } });
    await countessActs('build_up', { target: A, skill: 'convince' });
    assert.ok(!(await encButtons(ann)).includes('alter'), 'Alter offered before the agenda was achieved');
    const done = await countessActs('follow_through', { target: A, skill: 'convince' });
    assert.ok(done, 'follow through');
    assert.ok((await stateOf(gm.page)).gm.enc.known[A].agenda.achieved, 'the agenda is achieved');

    // only now does Ann's phone offer Alter, with that Loyalty as the pick; Bob (watching) has none
    await waitFor("Ann's phone to offer Alter", async () => (await encButtons(ann)).includes('alter'));
    assert.ok(!(await encButtons(bob)).includes('alter'), "Bob's phone offers Alter");
    assert.ok(!bob.rec.received.some((f) => f.includes('Turn on the crew')), "the Countess's agenda reached Bob");
    await ann.page.locator('#enc [data-action="alter"]').first().click();
    const af = ann.page.locator('#enc form.enc-form[data-key="act-alter"]');
    await af.waitFor();
    // the server's pick: only the Loyalty the achieved agenda named (no number, no Prime)
    assert.deepEqual(await af.locator('select[name="loyalty"] option').allInnerTexts(), ['Desire: Revenge']);
    if (await af.locator('details.more-options').count()) await af.locator('details.more-options > summary').click();
    await af.locator('[name="to"]').fill('Desire: The Countess');
    // the server's default is the one move that needs no words (a swap with the Prime): a new
    // Loyalty typed is no swap
    if (await af.locator('select[name="prime"]').count()) await af.locator('select[name="prime"]').selectOption({ label: 'no' });
    await tapped(ann, 'enc.act', () => af.locator('button[type=submit]').click(), "Ann's Alter");
    await waitFor('Alter gone once made', async () => !(await encButtons(ann)).includes('alter'));
    const sheet = (await stateOf(ann.page)).private[Object.keys((await stateOf(ann.page)).private)[0]].sheets[t.chars.ann];
    assert.deepEqual(sheet.loyalties[1], { kind: 'Desire', target: 'The Countess' });
    assert.ok(!bob.rec.received.some((f) => f.includes('The Countess"') && f.includes('Desire')), "Ann's new Loyalty reached Bob");
    await plainEverywhere(t, 'after the Alter');
    await ann.page.evaluate(() => window.scrollTo(0, 0));
    await shot(ann.page.locator('#enc'), 'session-cot-ann-alter-panel.png');
  } finally {
    await close(t);
  }
}

describe('browser: a cot session from two phones and a laptop', () => {
  let browser;
  before(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close().catch(() => {});
  });
  it('the GM begins the session, a player changes a Loyalty, and Alters one after an achieved agenda', STEP, () => session(browser));
});
