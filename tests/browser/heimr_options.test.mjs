// heimr.combat's guarding and grabs in a real browser (issue 17; Debian's headless Chromium against
// the real server): the GM at 1280 px, Ann on a phone (360 px) with Astrid Ironhand. The GM starts
// the fight with a bandit (foes) and Hilde (a quick NPC of the party). On Astrid's turn the phone
// offers "Guard an ally" with Hilde already picked (the one ally: the default succeeds) and no
// "Break free" or "Let go" (nobody holds or is held); one submit and both pages show "guards
// Hilde". Then Astrid grabs the bandit from the attack form (brawl, bind) and lets go with one tap.
// No page error; nothing sticks out sideways at 360 px. Screenshots:
// tests/artifacts/enc-heimr-options-*.png.
//
// Run alone: cd tests && node --test --test-concurrency=1 browser/heimr_options.test.mjs
// Environment: TABLED_BIN (server binary), CHROMIUM (browser, default /usr/bin/chromium).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { launchBrowser, ARTIFACTS, STEP, waitFor, acked, stateOf, card, actionButtons, act, logShown, tableByApi as table, finish, teardown } from './pages.mjs';

const BANDIT = {
  attributes: { str: 1, dex: -2, sta: 3, int: 0, soc: 0, emp: 0 },
  hp: 2,
  hp_max: 2,
  willpower: 1,
  willpower_max: 1,
  fatigue: 1,
  abilities: [{ name: 'Axe fighting', attributes: ['str'], base_consistency: 1, trained_consistency: 1 }],
};

// The chip of a combatant's card (data-marker) as each page shows it.
const chipIn = (page, name, marker) => card(page, name).locator(`.enc-card-head [data-marker="${marker}"]`);

describe('browser: heimr guarding and grabs on a phone', () => {
  let browser;

  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchBrowser(chromium);
  });

  after(async () => {
    await browser?.close().catch(() => {});
  });

  it('Astrid guards Hilde with one submit, grabs the bandit and lets go with one tap', STEP, async () => {
    const t = await table(browser, { system: 'heimr', seed: 3, sample: 'astrid_ironhand', npc: { name: 'Bandit', sheet: BANDIT } });
    try {
      const [gm, ann] = [t.page.gm, t.page.ann];
      await gm.locator('#enc #enc-module').waitFor();
      await gm.locator('#enc-module').selectOption('heimr.combat');
      await acked(t.rec.gm, 'enc.start', () => gm.locator('#enc [data-key="start-submit"]').click());
      await gm.locator('#enc [data-key="gm-add"]').click();
      await gm.locator('#enc-add-char').selectOption({ label: t.pc.name });
      await acked(t.rec.gm, 'enc.add', () => gm.locator('#enc [data-key="add-char"]').click());
      await gm.locator('#enc-add-npcsheet').selectOption(t.npcChar);
      await acked(t.rec.gm, 'enc.add', () => gm.locator('#enc [data-key="add-npc"]').click());
      await gm.locator('#enc-add-npcsheet').selectOption('');
      await gm.locator('#enc-add-name').fill('Hilde');
      await gm.locator('#enc-add-side').selectOption('party');
      const hilde = await acked(t.rec.gm, 'enc.add', () => gm.locator('#enc [data-key="add-npc"]').click());
      assert.equal(hilde.cmd.args.side, 'party');
      await gm.locator('#enc [data-key="gm-add"]').click();
      for (const p of t.pages) for (const n of [t.pc.name, 'Bandit', 'Hilde']) await card(p, n).waitFor();

      const begun = await act(gm, t.rec.gm, 'begin');
      await logShown(t.pages, begun);
      // the GM ends the NPCs' turns until it is Astrid's
      for (;;) {
        const st = await stateOf(gm);
        const cur = st.enc.combatants[st.enc.order[st.enc.turn]];
        if (cur.name === t.pc.name) break;
        const ended = await act(gm, t.rec.gm, 'end_turn', { actor: cur.name });
        await logShown(t.pages, ended);
      }

      // ---- on the phone: guard Hilde, the one ally, picked already ----
      await ann.locator('#enc [data-action="guard"]').waitFor({ state: 'attached' });
      let buttons = await actionButtons(ann);
      for (const no of ['break_free', 'release', 'stand_down', 'begin', 'effect']) assert.ok(!buttons.includes(no), `the phone offers ${no}: ${buttons}`);
      const guard = await act(ann, t.rec.ann, 'guard');
      assert.equal(guard.result?.action ?? 'guard', 'guard');
      const [line] = await logShown(t.pages, guard);
      assert.match(line, /^Astrid Ironhand guards Hilde: the next attack on Hilde meets Astrid Ironhand first/);
      for (const p of t.pages) await chipIn(p, t.pc.name, 'guarding').filter({ hasText: 'guards Hilde' }).waitFor();
      await waitFor('the guard button to go (once a turn)', async () => !(await actionButtons(ann)).includes('guard'));
      assert.ok((await actionButtons(ann)).includes('stand_down'), 'standing down is offered while guarding');

      // ---- the grab: a brawl attack with bind (P 30 cannot miss), then "Let go" in one tap ----
      const grab = await act(ann, t.rec.ann, 'attack', { fields: { target: 'Bandit', brawl: true, bind: true, c: 3, p: 30 } });
      const lines = await logShown(t.pages, grab);
      assert.ok(lines.some((l) => /Astrid Ironhand grabs Bandit by the /.test(l)), lines.join(' | '));
      for (const p of t.pages) {
        await chipIn(p, t.pc.name, 'holding').filter({ hasText: 'holds Bandit' }).waitFor();
        await chipIn(p, 'Bandit', 'held').filter({ hasText: 'held by Astrid Ironhand' }).waitFor();
      }
      buttons = await actionButtons(ann);
      assert.ok(buttons.includes('release'), `Let go is offered: ${buttons}`);
      const letGo = await act(ann, t.rec.ann, 'release');
      const [gone] = await logShown(t.pages, letGo);
      assert.equal(gone, 'Astrid Ironhand no longer holds Bandit: they let go');
      for (const p of t.pages) await waitFor('the grab chips to go', async () => (await chipIn(p, 'Bandit', 'held').count()) === 0);
      const st = await stateOf(gm);
      assert.equal(st.enc.combatants[st.enc.order[st.enc.turn]].name, t.pc.name, 'letting go took no turn');
      await finish(t, 'heimr-options');
    } finally {
      await teardown(t);
    }
  });
});
