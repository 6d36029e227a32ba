// The encounter panel of every rule system in a real browser (Debian's headless Chromium) against
// the real server with seeded dice: for cot (cot.warfare), heimr (heimr.combat), grimwire
// (grimwire.conflict), tenacity (tenacity.spotlight) and fivey (fivey.combat) a GM and one player
// in two browser contexts. The campaign, the player's character (a sample) and a prepared NPC are
// made over the WebSocket API; then, in the pages, the GM starts the encounter, adds the
// combatants and begins it from the panel; the player sees no turn action while the rules give the
// turn to someone else and takes one from the panel's buttons on their turn; the GM takes an NPC
// action. Both pages show the log lines and the changed public state (HP, Cover, Condition,
// stress); the player's page shows no GM-only value (an NPC's hidden stats, the GM's log lines)
// and receives no /gm byte; no page error; nothing sticks out sideways at 360 px. Screenshots:
// tests/artifacts/enc-<system>-gm-1280.png and enc-<system>-player-360.png.
//
// Run alone: cd tests && node --test --test-concurrency=1 browser/encounters.test.mjs
// Environment: TABLED_BIN (server binary), CHROMIUM (browser, default /usr/bin/chromium).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { repoRoot } from './server.mjs';
import { plain } from '../../web-static/js/words.js';

import {
  launchBrowser,
  ARTIFACTS,
  STEP,
  waitFor,
  parsed,
  acked,
  stateOf,
  seqOf,
  reached,
  card,
  actionButtons,
  act,
  logShown,
  statText,
  statInBoth,
  tableByApi as table,
  finish,
  teardown,
} from './pages.mjs';

// ---- one system's scenario --------------------------------------------------------------------

// The GM starts `module` (with `options`: {name: value} typed into the form) from the panel and
// adds the PC and the NPC (prepared: from the NPC select; else a quick NPC by name).
async function startAndAdd(t, { module, options = {}, npc }) {
  const gm = t.page.gm;
  await gm.locator('#enc #enc-module').waitFor();
  await gm.locator('#enc-module').selectOption(module);
  for (const [k, v] of Object.entries(options)) {
    const el = gm.locator(`#enc form.enc-form [name="${k}"]`);
    if ((await el.getAttribute('type')) === 'checkbox') await el.setChecked(Boolean(v));
    else await el.fill(String(v));
  }
  const started = await acked(t.rec.gm, 'enc.start', () => gm.locator('#enc [data-key="start-submit"]').click());
  assert.equal(started.cmd.args.module, module);
  await t.page.ann.locator('#enc .enc-module').waitFor();
  await gm.locator('#enc [data-key="gm-add"]').click();
  await gm.locator('#enc-add-char').selectOption({ label: t.pc.name });
  await acked(t.rec.gm, 'enc.add', () => gm.locator('#enc [data-key="add-char"]').click());
  await card(gm, t.pc.name).waitFor();
  if (t.npcChar) await gm.locator('#enc-add-npcsheet').selectOption(t.npcChar);
  else await gm.locator('#enc-add-name').fill(npc.name);
  const added = await acked(t.rec.gm, 'enc.add', () => gm.locator('#enc [data-key="add-npc"]').click());
  assert.equal(added.cmd.args.side, 'foes');
  for (const p of t.pages) {
    await card(p, t.pc.name).waitFor();
    await card(p, npc.name).waitFor();
  }
  assert.equal(await card(t.page.ann, t.pc.name).locator('.you-badge').count(), 1, 'the player sees their own combatant marked');
  // The GM closes the add form (it stays open for adding several).
  await gm.locator('#enc [data-key="gm-add"]').click();
}

// The turn actions of the running module (who: turn), from the describe the GM's page loaded.
async function turnActions(t, system, module) {
  const d = await t.page.gm.evaluate((s) => window.tabled.ui.describe[s], system);
  return d.modules.find((m) => m.id === module).actions.filter((a) => a.who === 'turn').map((a) => a.name);
}

// The player may not take a turn action now: no such button on their page.
async function noTurnButtons(t, turn) {
  const shown = await actionButtons(t.page.ann);
  assert.deepEqual(shown.filter((a) => turn.includes(a)), [], `the player sees turn actions out of turn: ${shown}`);
}

// The values the player must not see: every stat of the NPC kept under /gm/enc, as shown on the
// GM's card (data-stat rows the player's card must not have), and the GM-only log lines.
async function assertNoGmValues(t, npcName, gmOnlyStats) {
  const ann = t.page.ann;
  const gm = t.page.gm;
  for (const stat of gmOnlyStats) {
    assert.ok((await card(gm, npcName).locator(`[data-stat="${stat}"]`).count()) > 0, `the GM sees ${npcName}'s ${stat}`);
    assert.equal(await card(ann, npcName).locator(`[data-stat="${stat}"]`).count(), 0, `the player sees ${npcName}'s ${stat}`);
  }
  const gmState = await stateOf(gm);
  const body = await ann.locator('body').textContent();
  for (const e of gmState.gm.log) assert.ok(!body.includes(plain(e.text)), `the player's page shows the GM-only line: ${e.text}`);
  assert.ok(gmState.gm.log.length > 0, 'there were GM-only lines to hide');
  assert.equal(await ann.locator('#enc .secret-badge, #log .secret-badge').count(), 0, 'no GM-only badge in the player\'s encounter panel or log');
  // No frame the player's page received carries /gm.
  for (const m of parsed(t.rec.ann.received)) {
    if (m.t === 'diff') for (const op of m.ops) assert.ok(!op.path.startsWith('/gm'), `the player got ${op.path}`);
    if (m.t === 'welcome' && m.state) assert.equal(m.state.gm, undefined, 'the player got /gm in a state');
  }
}

// ---- the scenarios ------------------------------------------------------------------------------

describe('browser: the encounter panel of every rule system, GM and player', () => {
  let browser;

  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchBrowser(chromium);
  });

  after(async () => {
    await browser?.close().catch(() => {});
  });

  it('fivey.combat: initiative, the goblin attacks Sylla, Sylla shoots the goblin', STEP, async () => {
    const npc = { name: 'Goblin' }; // a quick NPC named after an example monster (004:744-767)
    const t = await table(browser, { system: 'fivey', seed: 5, sample: 'sylla', npc });
    try {
      await startAndAdd(t, { module: 'fivey.combat', npc });
      const turn = await turnActions(t, 'fivey', 'fivey.combat');
      const [gm, ann] = [t.page.gm, t.page.ann];
      await noTurnButtons(t, turn);
      const init = await act(gm, t.rec.gm, 'initiative');
      await logShown(t.pages, init);
      // Seed 5: the opposition beats Sylla; the goblin has the turn.
      for (const p of t.pages) await p.locator('#enc .enc-order-item.current').filter({ hasText: 'Goblin' }).waitFor();
      await noTurnButtons(t, turn);
      await statInBoth(t.pages, 'Sylla', 'HP', '4/4');
      const hit = await act(gm, t.rec.gm, 'attack', { actor: 'Goblin', fields: { target: 'Sylla' } });
      const [line] = await logShown(t.pages, hit);
      assert.match(line, /^Goblin attacks Sylla/);
      const sylla = (await stateOf(gm)).enc.combatants.e1.stats.hp;
      assert.ok(sylla.damage > 0, `the seeded goblin hits: ${line}`);
      await statInBoth(t.pages, 'Sylla', 'HP', `${sylla.max - sylla.damage}/${sylla.max}`);
      await act(gm, t.rec.gm, 'end', { actor: 'Goblin' });
      // Sylla's turn: her page shows the turn actions and the ◆ left.
      await ann.locator('#enc [data-action="attack"]').waitFor();
      assert.equal(await card(ann, 'Sylla').locator('.fivey-diamonds').textContent(), '◆◆');
      const shotAt = await act(ann, t.rec.ann, 'attack', { fields: { target: 'Goblin' } });
      const [mine] = await logShown(t.pages, shotAt);
      assert.match(mine, /^Sylla attacks Goblin/);
      for (const p of t.pages) await waitFor('one ◆ left', async () => (await card(p, 'Sylla').locator('.fivey-diamonds').textContent()) === '◆◇');
      await assertNoGmValues(t, 'Goblin', ['HP', 'DC']);
      await finish(t, 'fivey');
    } finally {
      await teardown(t);
    }
  });
  it('cot.warfare: slots, Vera attacks the watchman on the party slot, the watchman strikes her Cover', STEP, async () => {
    // A watchman: Training = 3 x Muscle 2 + Resist 1 = 7 (000:196, 000:198).
    const npc = {
      name: 'Watchman Cole',
      sheet: { abilities: { muscle: 2, fingers: 1, brains: 2, it: 1 }, skills: { resist: 1, athletics: 1, lookout: 1, hand_to_hand: 1 }, notes: 'owes the crew boss money' },
    };
    const t = await table(browser, { system: 'cot', seed: 5, sample: 'vera_lockhart', npc });
    try {
      // Vera's Loyalties are Ann's and the GM's (/private, issue 11): both pages still show them
      // on her sheet, merged back from the private area
      for (const p of t.pages) await p.locator(`li.char[data-char="${t.pc.id}"] [data-field="loyalties"]`).filter({ hasText: 'Devoted' }).waitFor({ state: 'attached' });
      await startAndAdd(t, { module: 'cot.warfare', npc });
      const turn = await turnActions(t, 'cot', 'cot.warfare');
      const [gm, ann] = [t.page.gm, t.page.ann];
      // Slots are rolled on joining; a PC's Cover is public, the watchman's the GM's.
      for (const p of t.pages) await p.locator('#enc .cot-slot-list li').nth(1).waitFor();
      const cover0 = (await stateOf(gm)).enc.combatants.e1.stats.cover;
      for (const p of t.pages) assert.equal(await card(p, 'Vera Lockhart').locator('.cot-cover').textContent(), `Cover ${cover0}`);
      assert.equal(await card(ann, 'Watchman Cole').locator('.cot-cover').textContent(), 'Cover hidden');
      const npcCover = (await stateOf(gm)).gm.enc.combatants.e2.stats.cover;
      assert.match(await card(gm, 'Watchman Cole').locator('.cot-cover').textContent(), new RegExp(`^Cover ${npcCover}GM only$`));
      await noTurnButtons(t, turn);
      const begun = await act(gm, t.rec.gm, 'begin');
      await logShown(t.pages, begun);
      // Seed 5: slot 6 of the party comes first — Vera may take it.
      await ann.locator('#enc [data-action="attack"]').waitFor();
      assert.equal(await card(ann, 'Vera Lockhart').locator('.turn-badge').textContent(), 'may take this slot');
      const hit = await act(ann, t.rec.ann, 'attack', { fields: { target: 'Watchman Cole', skill: 'hand_to_hand', weapon: 'Sap' } });
      const [line] = await logShown(t.pages, hit);
      assert.match(line, /^Vera Lockhart takes slot 6 and attacks Watchman Cole/);
      for (const p of t.pages) await p.locator('#enc .cot-slot-list li').first().filter({ hasText: 'taken by Vera Lockhart' }).waitFor();
      // The guards' slot: no turn action for the player.
      await waitFor('the foes\' slot', async () => (await stateOf(ann)).enc.turn === 1);
      await noTurnButtons(t, turn);
      const struck = await act(gm, t.rec.gm, 'attack', { actor: 'Watchman Cole', fields: { target: 'Vera Lockhart', skill: 'hand_to_hand' } });
      const [line2] = await logShown(t.pages, struck);
      assert.match(line2, /^Watchman Cole takes slot 6 and attacks Vera Lockhart/);
      const vera = (await stateOf(gm)).enc.combatants.e1;
      assert.ok(vera.stats.cover < cover0, `the watchman lowers Vera's Cover: ${line2}`);
      for (const p of t.pages) await waitFor('Vera\'s new Cover', async () => (await card(p, 'Vera Lockhart').locator('.cot-cover').textContent()) === `Cover ${vera.stats.cover}`);
      if (vera.conditions.some((c) => c.name === 'wounded')) for (const p of t.pages) await card(p, 'Vera Lockhart').locator('.cot-wounded').waitFor();
      assert.equal(await card(ann, 'Watchman Cole').locator('.cot-cover').textContent(), 'Cover hidden');
      assert.ok(!(await ann.locator('body').textContent()).includes('owes the crew boss money'), "the NPC's notes stay the GM's");
      await assertNoGmValues(t, 'Watchman Cole', []);
      await finish(t, 'cot');
    } finally {
      await teardown(t);
    }
  });

  it('heimr.combat: initiative, Liesbeth shoots the bandit, the bandit cuts at her', STEP, async () => {
    const npc = { name: 'Bandit', sheet: JSON.parse(fs.readFileSync(path.join(repoRoot, 'rules', 'heimr', 'samples', 'astrid_ironhand.json'), 'utf8')) };
    const t = await table(browser, { system: 'heimr', seed: 3, sample: 'liesbeth_van_dam', npc });
    try {
      await startAndAdd(t, { module: 'heimr.combat', npc });
      const turn = await turnActions(t, 'heimr', 'heimr.combat');
      const [gm, ann] = [t.page.gm, t.page.ann];
      await noTurnButtons(t, turn);
      const begun = await act(gm, t.rec.gm, 'begin');
      await logShown(t.pages, begun);
      const order = (await stateOf(gm)).enc.order;
      if (order[0] !== 'e1') {
        await noTurnButtons(t, turn);
      }
      await statInBoth(t.pages, 'Liesbeth van Dam', 'hp', '4/4');
      let st = await stateOf(gm);
      // Whoever is first: the player on Liesbeth's turn, the GM on the bandit's.
      const playerTurn = async () => {
        await ann.locator('#enc [data-action="attack"]').waitFor();
        const shotAt = await act(ann, t.rec.ann, 'attack', { fields: { target: 'Bandit', ability: 'Archery', item: 'Bow', ranged: true } });
        const lines = await logShown(t.pages, shotAt);
        assert.ok(lines.some((l) => /^Liesbeth van Dam attacks Bandit/.test(l)), lines.join(' | '));
        for (const p of t.pages) await waitFor('the standard action used', async () => ((await statText(p, 'Liesbeth van Dam', 'budget')) || '').includes('used'));
        const ended = await act(ann, t.rec.ann, 'end_turn');
        await logShown(t.pages, ended);
      };
      const npcTurn = async () => {
        await noTurnButtons(t, turn);
        const cut = await act(gm, t.rec.gm, 'attack', { actor: 'Bandit', fields: { target: 'Liesbeth van Dam', ability: 'Swordmanship', item: 'Longsword', damage: 2 } });
        const lines = await logShown(t.pages, cut);
        const line = lines.find((l) => /^Bandit attacks Liesbeth van Dam/.test(l));
        assert.ok(line, lines.join(' | '));
        const liesbeth = (await stateOf(gm)).enc.combatants.e1.stats;
        await statInBoth(t.pages, 'Liesbeth van Dam', 'hp', `${liesbeth.hp}/4`);
        await act(gm, t.rec.gm, 'end_turn', { actor: 'Bandit' });
      };
      if (order[0] === 'e1') {
        await playerTurn();
        await npcTurn();
      } else {
        await npcTurn();
        await playerTurn();
      }
      st = await stateOf(gm);
      assert.ok(st.enc.combatants.e1.stats.hp < 4, 'the seeded bandit wounds Liesbeth');
      await assertNoGmValues(t, 'Bandit', ['hp', 'fatigue']);
      await finish(t, 'heimr');
    } finally {
      await teardown(t);
    }
  });

  it('grimwire.conflict: the GM sets target numbers, Cyrus swings at Kneecap, Kneecap strikes back', STEP, async () => {
    const npc = { name: 'Kneecap' };
    const t = await table(browser, { system: 'grimwire', seed: 2, sample: 'cyrus', npc });
    try {
      await startAndAdd(t, { module: 'grimwire.conflict', npc });
      const turn = await turnActions(t, 'grimwire', 'grimwire.conflict');
      const [gm, ann] = [t.page.gm, t.page.ann];
      await noTurnButtons(t, turn);
      const begun = await act(gm, t.rec.gm, 'begin');
      await logShown(t.pages, begun);
      // The GM's hidden target numbers (002:29-55): GM only, never in a player's frame.
      await act(gm, t.rec.gm, 'set_tn', { fields: { target: 'Kneecap', tn: 11, attack_tn: 17 } });
      await card(gm, 'Kneecap').locator('.gw-tn').filter({ hasText: 'tn 11 · attack tn 17' }).waitFor();
      const order = (await stateOf(gm)).enc.order;
      assert.deepEqual(order, ['e1', 'e2'], 'seed 2: Cyrus first');
      await ann.locator('#enc [data-action="attack"]').waitFor();
      assert.equal(await ann.locator('#enc form.enc-form').count(), 0);
      const swing = await act(ann, t.rec.ann, 'attack', { fields: { target: 'Kneecap', weapon: 2 } });
      const [line] = await logShown(t.pages, swing);
      assert.match(line, /^Cyrus attacks Kneecap/);
      for (const p of t.pages) await card(p, 'Cyrus').locator('.gw-budget[data-kind="action"].spent').waitFor();
      await act(ann, t.rec.ann, 'end_turn');
      await waitFor('Kneecap\'s turn', async () => (await stateOf(ann)).enc.turn === 1);
      await noTurnButtons(t, turn);
      await statInBoth(t.pages, 'Cyrus', 'Condition', '14/16');
      const strike = await act(gm, t.rec.gm, 'attack', { actor: 'Kneecap', fields: { target: 'Cyrus', weapon: '', damage: '1d6+2' } });
      const [line2] = await logShown(t.pages, strike);
      assert.match(line2, /Kneecap.*Cyrus/);
      const cond = (await stateOf(gm)).enc.combatants.e1.stats.condition;
      assert.ok(cond.current < 14, `the seeded strike hurts Cyrus: ${line2}`);
      await statInBoth(t.pages, 'Cyrus', 'Condition', `${cond.current}/16`);
      await assertNoGmValues(t, 'Kneecap', ['Condition']);
      assert.equal(await card(ann, 'Kneecap').locator('.gw-tn').count(), 0);
      for (const f of t.rec.ann.received.filter((x) => x.startsWith('{"t":"diff"') || x.startsWith('{"t":"welcome"'))) {
        assert.ok(!/"attack_tn":17|"tn":11/.test(f), `a target number reached the player: ${f.slice(0, 300)}`);
      }
      assert.ok(t.rec.gm.received.some((f) => f.startsWith('{"t":"diff"') && /"attack_tn":17/.test(f)), 'the GM got the target number (the check above is real)');
      // Round 2 (issue 17): the player trips Kneecap from the phone, the form's default target
      // (the foe) as it comes (002:661); the trip is offered only on Cyrus's turn, with his action.
      assert.ok(!(await actionButtons(ann)).includes('trip'), 'no trip out of turn');
      const ended = await act(gm, t.rec.gm, 'end_turn');
      await waitFor('the player to see round 2', async () => (await reached(ann, ended)) && (await stateOf(ann)).enc.round === 2);
      assert.ok((await actionButtons(ann)).includes('trip'), 'the trip is offered on his turn');
      const trip = await act(ann, t.rec.ann, 'trip');
      const tripLines = await logShown(t.pages, trip);
      assert.match(tripLines.join(' '), /Cyrus tries to trip Kneecap/);
      const tripped = (await stateOf(gm)).enc.combatants.e2.conditions.some((c) => c.name === 'knocked_down');
      assert.equal(tripped, false, `seed 2: Kneecap keeps his feet: ${tripLines}`);
      assert.match(tripLines.join(' '), /they keep their feet/);
      for (const p of t.pages) await card(p, 'Cyrus').locator('.gw-budget[data-kind="action"].spent').waitFor();
      for (const p of t.pages) assert.equal(await card(p, 'Kneecap').locator('.chip.cond').filter({ hasText: 'knocked down' }).count(), 0);
      assert.ok(!(await actionButtons(ann)).includes('trip'), 'the action is spent: no second trip');
      await finish(t, 'grimwire');
    } finally {
      await teardown(t);
    }
  });

  // Issue 24 item 3: a player's attack on a foe whose number the GM has not set waits (RULES.md
  // G4); the GM gets one prompt with one number, filled in, and one tap rolls it; the player's
  // result box, where the attack was tapped, shows the outcome; the number stays the GM's.
  it('grimwire.conflict: a waiting attack is one prompt for the GM, and the phone sees how it went', STEP, async () => {
    const npc = { name: 'Kneecap' };
    const t = await table(browser, { system: 'grimwire', seed: 2, sample: 'cyrus', npc });
    try {
      await startAndAdd(t, { module: 'grimwire.conflict', npc });
      const [gm, ann] = [t.page.gm, t.page.ann];
      await act(gm, t.rec.gm, 'begin');
      await ann.locator('#enc [data-action="attack"]').waitFor();
      const swing = await act(ann, t.rec.ann, 'attack', { fields: { target: 'Kneecap', weapon: 2 } });
      await ann.locator(`.result-box[data-seq="${swing.seq}"]`).filter({ hasText: 'the GM names the target number' }).waitFor();
      await ann.locator('#enc .gw-waiting').filter({ hasText: "waits for the GM's target number" }).waitFor();
      assert.equal(await ann.locator('#enc form.gw-answer').count(), 0, 'the prompt is the GM\'s');
      const prompt = gm.locator('#enc form.gw-answer');
      await prompt.waitFor();
      assert.equal(await prompt.locator('input').count(), 1, 'one number');
      assert.equal(await prompt.locator('input').inputValue(), '11', 'filled in: one tap');
      const { reply } = await acked(t.rec.gm, 'enc.act', () => prompt.locator('button[type=submit]').click());
      const lines = await logShown(t.pages, reply);
      assert.match(lines.join(' '), /Cyrus attacks Kneecap with .*: (a hit|a miss)/);
      // the phone's result box follows the attack to its outcome
      await ann.locator('.result-box').filter({ hasText: /Cyrus attacks Kneecap with .*: (a hit|a miss)/ }).waitFor();
      await waitFor('the prompt to go', async () => (await gm.locator('#enc form.gw-answer').count()) === 0);
      assert.equal((await stateOf(gm)).gm.enc.combatants.e2.tn, 11, 'the number stands for Kneecap');
      for (const f of t.rec.ann.received.filter((x) => x.startsWith('{"t":"diff"') || x.startsWith('{"t":"welcome"'))) {
        assert.ok(!/"tn":11/.test(f), `the target number reached the player: ${f.slice(0, 300)}`);
      }
      await finish(t, 'grimwire-answer');
    } finally {
      await teardown(t);
    }
  });

  it('tenacity.spotlight: initiative, Missa attacks the goblin and hands it the spotlight, the goblin attacks', STEP, async () => {
    const npc = { name: 'Goblin' };
    const t = await table(browser, { system: 'tenacity', seed: 1, sample: 'missa', npc });
    try {
      await startAndAdd(t, { module: 'tenacity.spotlight', npc });
      const turn = await turnActions(t, 'tenacity', 'tenacity.spotlight');
      const [gm, ann] = [t.page.gm, t.page.ann];
      await noTurnButtons(t, turn);
      const begun = await act(gm, t.rec.gm, 'initiative');
      await logShown(t.pages, begun);
      // Seed 1: Missa rolls highest and holds the spotlight.
      for (const p of t.pages) await p.locator('#enc .enc-order-item.current').filter({ hasText: 'Missa' }).waitFor();
      await ann.locator('#enc [data-action="attack"]').waitFor();
      const hit = await act(ann, t.rec.ann, 'attack', { fields: { target: 'Goblin', skill: 'Melee Combat' } });
      const [line] = await logShown(t.pages, hit);
      assert.match(line, /^Missa attacks Goblin/);
      // Ending the turn is one tap (issue 24: the server's moves): with the goblin the only one who
      // can take the spotlight next, there is nothing to ask (the old client opened a form with a
      // select of one). The spotlight goes to the goblin, checked below.
      const ended = await act(ann, t.rec.ann, 'end');
      await logShown(t.pages, ended);
      for (const p of t.pages) await p.locator('#enc .enc-order-item.current').filter({ hasText: 'Goblin' }).waitFor();
      await noTurnButtons(t, turn);
      const stress0 = (await stateOf(gm)).enc.combatants.e1.stats.stress;
      await statInBoth(t.pages, 'Missa', 'stress', `${stress0.current}/${stress0.max}`);
      // A sheetless goblin's 2d6 rarely beat Missa's Reaction: the GM gives it +6 (she is cornered).
      // (its skill is the server's pick now, issue 24: no typed 'claws'; the default is kept)
      const back = await act(gm, t.rec.gm, 'attack', { actor: 'Goblin', fields: { target: 'Missa', bonus: 6 } });
      const [line2] = await logShown(t.pages, back);
      assert.match(line2, /^Goblin attacks Missa: a hit, \d+ stress$/);
      const stress = (await stateOf(gm)).enc.combatants.e1.stats.stress;
      assert.ok(stress.current > stress0.current, `the seeded goblin hits: ${line2}`);
      await statInBoth(t.pages, 'Missa', 'stress', `${stress.current}/${stress.max}`);
      await assertNoGmValues(t, 'Goblin', ['stress']);
      await finish(t, 'tenacity');
    } finally {
      await teardown(t);
    }
  });
});
