// Moving a token on your turn, as the server says (PROTOCOL.md "The scene map", "Moving on your
// turn"): while a Heimr fight's turn runs, the server marks each shown token with the seat that
// may move it now (`by`) and the page draws exactly that. On a 390 px phone Ann's token is not
// draggable while the bandit's turn runs (its card says she moves it on her turn; a drag sends
// nothing) and becomes draggable on her own turn, where the drag is accepted. The old page decided
// this itself (any token of hers, any time) and offered a drag the server then refused.
//
// Run alone: cd tests && node --test browser/map_turns.test.mjs

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, atTable, doing, waitFor, stateOf, sleep } from './pages.mjs';

const STEP = { timeout: 180000 };

// Where square (x, y) of the shown map is on the page.
async function squareAt(page, x, y) {
  return page.evaluate(
    ([x, y]) => {
      const map = window.tabled.conn.state.maps.enc;
      const r = document.querySelector('#map-card .map-board').getBoundingClientRect();
      const k = r.width / map.w;
      const g = map.grid;
      return { x: r.left + (g.x + (x + 0.5) * g.size) * k, y: r.top + (g.y + (y + 0.5) * g.size) * k };
    },
    [x, y],
  );
}

// Drags token el on page by (dx, dy) squares with the mouse.
async function drag(page, el, from, dx, dy) {
  const a = await squareAt(page, from.x, from.y);
  const b = await squareAt(page, from.x + dx, from.y + dy);
  const box = await el.boundingBox();
  const grab = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(grab.x, grab.y);
  await page.mouse.down();
  for (let i = 1; i <= 6; i++) await page.mouse.move(grab.x + ((b.x - a.x) * i) / 6, grab.y + ((b.y - a.y) * i) / 6);
  await page.mouse.up();
}

describe('a token moves on its turn, as the server says', () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => browser?.close());

  it("Ann's token is not hers to drag on the bandit's turn, and is on her own", STEP, async () => {
    await atTable(browser, 'heimr', 30, async ({ gm, ann, pcName }) => {
      const cid = Object.values((await stateOf(gm.page)).chars).find((c) => c.name === pcName).id;
      const send = (op, args) => gm.page.evaluate(([op, args]) => window.tabled.conn.send(op, args), [op, args]);
      await send('enc.start', { module: 'heimr.combat' });
      await send('enc.add', { char: cid });
      await send('enc.add', { npc: { name: 'Bandit' } });
      await waitFor('the fight with two fighters', async () => Object.keys((await stateOf(gm.page))?.enc?.combatants || {}).length === 2);
      const fighters = (await stateOf(gm.page)).enc.combatants;
      const A = Object.keys(fighters).find((id) => fighters[id].name === pcName);
      const B = Object.keys(fighters).find((id) => fighters[id].name === 'Bandit');
      await send('map.set', { size: 40, cols: 8, rows: 6 });
      await send('map.token', { cid: A, x: 1, y: 1 });
      await send('map.token', { cid: B, x: 5, y: 3 });
      await send('map.show', {});
      await send('enc.act', { action: 'begin' });
      await waitFor('the first turn', async () => (await stateOf(gm.page))?.enc?.turn === 0);

      // whoever won initiative, run the turns to the bandit's
      const turnOf = async (page) => {
        const e = (await stateOf(page)).enc;
        return e.order[e.turn];
      };
      if ((await turnOf(gm.page)) === A) {
        await send('enc.act', { action: 'end_turn', actor: A });
        await waitFor("the bandit's turn", async () => (await turnOf(gm.page)) === B);
      }

      // the bandit's turn: the server says nobody but the GM moves Ann's token now
      const phone = ann.page.locator('#map-card');
      await phone.waitFor();
      await phone.scrollIntoViewIfNeeded();
      const token = phone.locator(`.map-token[data-id="${A}"]`);
      await token.waitFor();
      await waitFor("the bandit's turn on the phone", async () => (await turnOf(ann.page)) === B);
      assert.equal((await stateOf(ann.page)).maps.enc.tokens[A].by, undefined, 'no seat moves it now');
      assert.equal(await phone.locator('.map-token.map-mine').count(), 0, 'not draggable on the bandit\'s turn');
      await token.tap();
      const card = phone.locator(`.map-info-card[data-id="${A}"]`);
      await card.waitFor();
      await card.locator('.map-info-yours', { hasText: 'Yours: you move it on your turn.' }).waitFor();
      assert.equal(await card.getByText('drag it to move').count(), 0);
      const moves = () => ann.rec.sent.filter((f) => f.includes('"op":"map.move"')).length;
      await drag(ann.page, token, { x: 1, y: 1 }, 2, 1);
      await sleep(300);
      assert.equal(moves(), 0, 'a drag on the bandit\'s turn sends nothing');
      assert.equal(await token.getAttribute('data-x'), '1', 'the token stays where it was');

      // the GM ends the bandit's turn: Ann's turn, the server marks her token hers, she drags it
      await send('enc.act', { action: 'end_turn', actor: B });
      await waitFor("Ann's turn on the phone", async () => (await turnOf(ann.page)) === A);
      const seat = await ann.page.evaluate(() => window.tabled.conn.seat.id);
      await waitFor('her token marked hers', async () => (await phone.locator('.map-token.map-mine').count()) === 1);
      const by = (await stateOf(ann.page)).maps.enc.tokens[A].by;
      assert.equal(by, seat);
      await card.locator('.map-info-yours', { hasText: 'Yours: drag it to move.' }).waitFor();
      const mine = phone.locator('.map-token.map-mine');
      assert.equal(await mine.getAttribute('data-id'), A);
      const move = await doing(ann.rec, 'map.move', () => drag(ann.page, mine, { x: 1, y: 1 }, 2, 1));
      assert.equal(move.reply.t, 'ack', JSON.stringify(move.reply));
      assert.deepEqual([move.cmd.args.x, move.cmd.args.y], [3, 2]);
      await waitFor('the move on the GM page', async () => (await stateOf(gm.page)).maps.enc.tokens[A].x === 3);
    });
  });
});
