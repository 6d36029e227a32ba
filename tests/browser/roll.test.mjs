// The foundation's browser scenario (issue 3), against the real server in Debian's headless
// Chromium: a GM and a player join, roll, roll secretly, reload, survive a kill -9 of the server,
// and the GM rotates and closes the join code. Screenshots go to tests/artifacts/.
//
// Run alone: cd tests && node --test browser/
// Environment: TABLED_BIN (server binary), CHROMIUM (browser, default /usr/bin/chromium).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer, repoRoot } from './server.mjs';
import { sleep, waitFor, instrument, parsed, CHROMIUM, ARTIFACTS } from './pages.mjs';
import { plain } from '../../web-static/js/words.js';

const SECRET_EXPR = '7d7+77';
const PLAYER_NAME = 'Ann <b>the Bold</b>'; // must show as text, never as markup
const STEP = { timeout: 90000 };

// The id of the (last) `cmd` a page sent for this dice expression, and the ack it got.
async function ackOf(rec, expr, timeoutMs = 15000) {
  const cmd = await waitFor(`a cmd frame rolling ${expr} from ${rec.label}`, () =>
    parsed(rec.sent).filter((m) => m.t === 'cmd' && m.op === 'roll' && m.args?.expr === expr).at(-1),
  );
  const ack = await waitFor(
    `the ack of ${expr} (${cmd.id}) on ${rec.label}`,
    () => parsed(rec.received).find((m) => (m.t === 'ack' || m.t === 'nack') && m.id === cmd.id),
    timeoutMs,
  );
  assert.equal(ack.t, 'ack', `${expr} was refused: ${JSON.stringify(ack)}`);
  return { cmd, ack };
}

// What the log shows, newest first.
function readLog(page) {
  return page.$$eval('#log > li.entry', (lis) =>
    lis.map((li) => ({
      seq: Number(li.dataset.seq),
      secret: li.classList.contains('secret'),
      who: li.querySelector('.who')?.textContent ?? null,
      expr: li.querySelector('.expr')?.textContent ?? null,
      total: li.querySelector('.total')?.textContent ?? null,
      dice: Array.from(li.querySelectorAll('.die'), (d) => ({
        value: d.textContent,
        dropped: d.classList.contains('dropped'),
      })),
    })),
  );
}

async function waitConnected(page, timeout = 15000) {
  await page.locator('#conn-status[data-status="connected"]').waitFor({ timeout });
  assert.equal((await page.locator('#status-label').textContent()).trim(), 'Connected');
}

async function roll(page, expr, { secret = false } = {}) {
  const box = page.locator('#secret-wrap');
  if (await box.isVisible()) await page.locator('#roll-secret').setChecked(secret);
  else assert.equal(secret, false, 'the secret checkbox is not visible');
  await page.locator('#roll-expr').fill(expr);
  await page.locator('#roll-expr').press('Enter');
}

// Checks one roll entry on a page against the ack the server sent.
async function assertRollShown(page, ack, { who, secret = false }) {
  // (a secret entry shares its number with the next public one: protocol/PROTOCOL.md "Two counts")
  const entry = page.locator(`#log > li.entry[data-seq="${ack.entry ?? ack.seq}"]${secret ? '.secret' : ':not(.secret)'}`);
  await entry.waitFor({ timeout: 10000 });
  const r = ack.result;
  assert.equal(await entry.locator('.expr').textContent(), r.expr);
  assert.equal(await entry.locator('.who').textContent(), who);
  assert.equal((await entry.locator('.total').textContent()).trim(), String(r.total));
  const dice = await entry.locator('.die').evaluateAll((els) =>
    els.map((d) => ({
      value: Number(d.textContent),
      dropped: d.classList.contains('dropped'),
      struck: getComputedStyle(d).textDecorationLine.includes('line-through'),
    })),
  );
  assert.deepEqual(
    dice.map((d) => [d.value, !d.dropped]),
    r.dice.map((d) => [d.value, d.kept]),
    'every die, in order, with what was kept',
  );
  for (const d of dice) assert.equal(d.struck, d.dropped, 'dropped dice (and only those) are struck through');
  assert.equal(await entry.evaluate((li) => li.classList.contains('secret')), secret);
  assert.equal(await entry.locator('.secret-badge').count(), secret ? 1 : 0);
}

describe('browser: join, roll, secret roll, reload, kill -9 and resume', () => {
  let server;
  let browser;
  let gmCtx;
  let playerCtx;
  let gm;
  let player;
  let gmRec;
  let playerRec;
  let playerSeat;
  let firstRoll;
  const joinCodes = [];

  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    server = await startServer();
    joinCodes.push(server.joinCode);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    gmCtx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    playerCtx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    gm = await gmCtx.newPage();
    player = await playerCtx.newPage();
    gmRec = instrument(gm, 'GM');
    playerRec = instrument(player, 'player');
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop().catch(() => {});
    if (server?.dir) fs.rmSync(server.dir, { recursive: true, force: true });
  });

  it('the GM opens the GM link: token stored, fragment cleared, campaign and join link shown', STEP, async () => {
    await gm.goto(server.gmLink);
    await waitConnected(gm);
    assert.ok(!gm.url().includes('#'), `the fragment is cleared from the address bar: ${gm.url()}`);
    assert.equal(await gm.evaluate(() => localStorage.getItem('tabled.token')), server.gmToken);
    const hello = parsed(gmRec.sent).find((m) => m.t === 'hello');
    assert.deepEqual(hello, { t: 'hello', v: 1, token: server.gmToken });
    const welcome = parsed(gmRec.received).find((m) => m.t === 'welcome');
    assert.ok(welcome?.state, 'the first welcome carries the state');
    assert.equal(welcome.seat.role, 'gm');
    const campaign = welcome.state.campaign ?? welcome.campaign;
    assert.equal(await gm.locator('#campaign-name').textContent(), campaign.name);
    assert.equal(await gm.title(), `${campaign.name} · tabled`);
    assert.match(await gm.locator('#campaign-meta').textContent(), new RegExp(campaign.system));
    assert.equal(await gm.locator('#seat-name').textContent(), welcome.state.seats[welcome.seat.id].name);
    assert.equal(await gm.locator(`#roster li[data-seat="${welcome.seat.id}"] .role-badge`).textContent(), 'GM');
    assert.equal(await gm.locator(`#roster li[data-seat="${welcome.seat.id}"] .you-badge`).count(), 1);
    // The invite panel: the printed join link, joining open.
    assert.ok(await gm.locator('#invite').isVisible());
    assert.equal(await gm.locator('#invite-link').inputValue(), `${server.url}/#join=${server.joinCode}`);
    assert.equal(await gm.locator('#invite-state').textContent(), 'Joining is open');
    assert.ok(await gm.locator('#invite-local-hint').isVisible(), 'a 127.0.0.1 link is flagged as local-only');
    assert.ok(await gm.locator('#secret-wrap').isVisible(), 'the GM has a secret checkbox');
    assert.deepEqual(
      gmRec.sockets.map((u) => new URL(u).origin + new URL(u).pathname),
      [`ws://127.0.0.1:${server.port}/ws`],
    );
  });

  it('a player opens the join link, types a name and joins', STEP, async () => {
    await player.goto(server.joinLink);
    await player.locator('#join-name').waitFor();
    assert.ok(!player.url().includes('#'), `the fragment is cleared: ${player.url()}`);
    assert.equal(await player.locator('#join-code-field').isVisible(), false, 'the code from the link is not asked for');
    assert.equal(await player.evaluate(() => document.activeElement?.id), 'join-name', 'the name field has focus');
    await player.setViewportSize({ width: 360, height: 740 });
    await player.screenshot({ path: path.join(ARTIFACTS, 'player-join-360x740.png') });
    await player.setViewportSize({ width: 1280, height: 800 });
    await player.locator('#join-name').fill(PLAYER_NAME);
    await player.locator('#join-name').press('Enter');
    await waitConnected(player);

    const join = parsed(playerRec.sent).find((m) => m.t === 'join');
    assert.deepEqual(join, { t: 'join', code: server.joinCode, name: PLAYER_NAME });
    const joined = parsed(playerRec.received).find((m) => m.t === 'joined');
    assert.ok(joined, 'the server answered joined');
    assert.equal(await player.evaluate(() => localStorage.getItem('tabled.token')), joined.token);
    playerSeat = typeof joined.seat === 'string' ? joined.seat : joined.seat?.id;
    assert.ok(playerSeat, 'joined names the seat');
    assert.equal(await player.locator('#seat-name').textContent(), PLAYER_NAME);
    assert.equal(await player.locator('#secret-wrap').isVisible(), false, 'players have no secret checkbox');
    assert.equal(await player.locator('#invite').isVisible(), false, 'players do not see the join panel');
  });

  it('the GM sees the player in the roster, online; names are text, not markup', STEP, async () => {
    const seat = gm.locator(`#roster li[data-seat="${playerSeat}"]`);
    await seat.waitFor({ timeout: 10000 });
    await gm.locator(`#roster li[data-seat="${playerSeat}"][data-online="true"]`).waitFor({ timeout: 10000 });
    assert.equal(await seat.locator('.seat-name').textContent(), PLAYER_NAME);
    assert.equal(await seat.locator('.presence').textContent(), 'online');
    assert.equal(await gm.locator('#roster b').count(), 0, 'no markup from a name');
    // The player's own roster shows both seats online, the player marked as "you".
    await player.locator('#roster li[data-seat="gm"][data-online="true"]').waitFor({ timeout: 10000 });
    assert.equal(await player.locator(`#roster li[data-seat="${playerSeat}"] .you-badge`).count(), 1);
  });

  it('the player rolls 4d6kh3+2: both pages show 4 dice, one dropped, and the total of the ack', STEP, async () => {
    await roll(player, '4d6kh3+2');
    const { ack } = await ackOf(playerRec, '4d6kh3+2');
    firstRoll = ack;
    const r = ack.result;
    assert.equal(r.expr, '4d6kh3+2');
    assert.equal(r.dice.length, 4);
    assert.equal(r.dice.filter((d) => !d.kept).length, 1);
    const kept = r.dice.filter((d) => d.kept).map((d) => d.value);
    const dropped = r.dice.find((d) => !d.kept).value;
    assert.ok(kept.every((v) => v >= dropped), 'the lowest die is dropped');
    assert.equal(r.total, kept.reduce((a, b) => a + b, 0) + 2);
    await assertRollShown(player, ack, { who: PLAYER_NAME });
    await assertRollShown(gm, ack, { who: PLAYER_NAME });
    assert.equal(await player.locator('#roll-expr').inputValue(), '', 'the input is cleared after a roll');
    assert.equal(await player.evaluate(() => document.activeElement?.id), 'roll-expr', 'focus stays in the roll box');
    assert.equal(await player.locator('#pending li').count(), 0, 'nothing pending after the ack');
  });

  it('a refused roll shows the server message next to the roll box', STEP, async () => {
    await roll(player, 'banana');
    const cmd = await waitFor('the cmd of banana', () =>
      parsed(playerRec.sent).find((m) => m.t === 'cmd' && m.args?.expr === 'banana'),
    );
    const nack = await waitFor('the nack of banana', () =>
      parsed(playerRec.received).find((m) => m.t === 'nack' && m.id === cmd.id),
    );
    await player.locator('#roll-error').waitFor({ state: 'visible' });
    assert.equal(await player.locator('#roll-error-text').textContent(), plain(nack.message)); // in plain words (issue 15)
    assert.match(await player.locator('#roll-error-title').textContent(), /banana/);
    await player.locator('#roll-error-close').click();
    assert.equal(await player.locator('#roll-error').isVisible(), false);
  });

  it('the GM rolls in secret: the GM sees it marked secret, the player never receives it', STEP, async () => {
    await roll(gm, SECRET_EXPR, { secret: true });
    const { cmd, ack } = await ackOf(gmRec, SECRET_EXPR);
    assert.equal(cmd.args.secret, true);
    assert.equal(ack.result.secret, true);
    await assertRollShown(gm, ack, { who: await gm.locator('#seat-name').textContent(), secret: true });
    // A public roll after it: once the player shows this one, the secret one has gone by.
    await roll(gm, 'd20', { secret: false });
    const { ack: after } = await ackOf(gmRec, 'd20');
    assert.equal(after.result.secret, false);
    assert.ok(after.seq > ack.seq);
    await assertRollShown(player, after, { who: await gm.locator('#seat-name').textContent() });
    await assertRollShown(gm, after, { who: await gm.locator('#seat-name').textContent() });
    assert.equal(await player.locator('#log li.secret').count(), 0);
    assert.ok(!(await player.locator('body').textContent()).includes(SECRET_EXPR));
    const leaks = playerRec.received.filter((f) => f.includes(SECRET_EXPR));
    assert.deepEqual(leaks, [], 'no frame the player received contains the secret roll');
    assert.ok(gmRec.received.some((f) => f.includes(SECRET_EXPR)), 'the GM did receive it (the check above is real)');
  });

  it('the player reloads the page and sees the same log', STEP, async () => {
    const before = await readLog(player);
    assert.ok(before.length >= 2);
    const gmPublic = (await readLog(gm)).filter((e) => !e.secret);
    assert.deepEqual(before, gmPublic, 'the player log equals the GM log minus the secret rolls');
    const token = await player.evaluate(() => localStorage.getItem('tabled.token'));
    const hellosBefore = parsed(playerRec.sent).filter((m) => m.t === 'hello').length;
    await player.reload();
    await waitConnected(player);
    await player.locator(`#log li[data-seq="${firstRoll.entry ?? firstRoll.seq}"]`).waitFor();
    assert.deepEqual(await readLog(player), before);
    assert.equal(await player.evaluate(() => localStorage.getItem('tabled.token')), token);
    const hello = parsed(playerRec.sent).filter((m) => m.t === 'hello')[hellosBefore];
    assert.deepEqual(hello, { t: 'hello', v: 1, token }, 'after a reload the page says hello with its stored token');
    assert.equal(await player.locator('#seat-name').textContent(), PLAYER_NAME);
  });

  it('the player loses the network: offline, then back: resumes from last_seq with what it missed', STEP, async () => {
    const seqBefore = await player.evaluate(() => window.tabled.conn.seq);
    const hellosBefore = parsed(playerRec.sent).filter((m) => m.t === 'hello').length;
    let ack;
    await playerCtx.setOffline(true);
    try {
      // The socket may look open; the page checks it with a ping and gives up when no pong comes.
      // (The server cannot tell yet: it notices a silent socket only after its idle timeout.)
      await player.locator('#conn-status[data-status="offline"]').waitFor({ timeout: 25000 });
      assert.match(await player.locator('#status-label').textContent(), /Offline/);
      assert.equal(await player.locator(`#roster li[data-seat="${playerSeat}"]`).getAttribute('data-online'), 'unknown');
      await roll(gm, '1d12');
      ({ ack } = await ackOf(gmRec, '1d12'));
    } finally {
      await playerCtx.setOffline(false);
    }
    await waitConnected(player, 15000);
    const hello = parsed(playerRec.sent).filter((m) => m.t === 'hello')[hellosBefore];
    assert.equal(hello.last_seq, seqBefore, 'the page resumes after the seq it has');
    const welcomes = parsed(playerRec.received).filter((m) => m.t === 'welcome');
    assert.equal(welcomes.at(-1).resume, true, 'and the server resumed it');
    await assertRollShown(player, ack, { who: await gm.locator('#seat-name').textContent() });
    assert.deepEqual(await readLog(player), (await readLog(gm)).filter((e) => !e.secret));
    await gm.locator(`#roster li[data-seat="${playerSeat}"][data-online="true"]`).waitFor({ timeout: 10000 });
  });

  it('kill -9 and restart: both pages reconnect by themselves, keep the log, a roll queued offline is sent once', STEP, async () => {
    const gmBefore = await readLog(gm);
    const playerBefore = await readLog(player);
    const killed = await server.kill('SIGKILL');
    assert.equal(killed.signal, 'SIGKILL');
    await player.locator('#conn-status[data-status="reconnecting"], #conn-status[data-status="offline"]').waitFor({ timeout: 15000 });
    await gm.locator('#conn-status[data-status="reconnecting"], #conn-status[data-status="offline"]').waitFor({ timeout: 15000 });
    assert.match(await player.locator('#status-label').textContent(), /Reconnecting|Offline/);

    // Rolled while the server is down: it waits in the outbox, marked pending.
    await roll(player, '2d6+1d4');
    await player.locator('#pending li').first().waitFor({ timeout: 5000 });
    assert.match(await player.locator('#pending').textContent(), /2d6\+1d4/);
    assert.match(await player.locator('#pending').textContent(), /waiting for the connection/);
    await player.screenshot({ path: path.join(ARTIFACTS, 'player-reconnecting-1280x800.png') });

    await sleep(1500);
    const restarted = await startServer({ port: server.port, dir: server.dir });
    server = restarted;
    await waitConnected(gm, 30000);
    await waitConnected(player, 30000);

    const { cmd, ack } = await ackOf(playerRec, '2d6+1d4', 20000);
    const ids = new Set(parsed(playerRec.sent).filter((m) => m.t === 'cmd' && m.args?.expr === '2d6+1d4').map((m) => m.id));
    assert.deepEqual([...ids], [cmd.id], 'every send of the queued roll used the same id');
    await assertRollShown(player, ack, { who: PLAYER_NAME });
    await assertRollShown(gm, ack, { who: PLAYER_NAME });
    assert.equal((await readLog(player)).filter((e) => e.expr === '2d6+1d4').length, 1, 'applied once');
    await player.locator('#pending').waitFor({ state: 'hidden' });

    // Everything from before the kill is still there, on both pages.
    const gmAfter = await readLog(gm);
    const playerAfter = await readLog(player);
    assert.deepEqual(gmAfter.slice(1), gmBefore);
    assert.deepEqual(playerAfter.slice(1), playerBefore);

    // A new roll after the restart reaches both pages.
    await roll(player, '3d6-1');
    const { ack: fresh } = await ackOf(playerRec, '3d6-1');
    assert.ok(fresh.seq > ack.seq);
    await assertRollShown(player, fresh, { who: PLAYER_NAME });
    await assertRollShown(gm, fresh, { who: PLAYER_NAME });
    await gm.locator(`#roster li[data-seat="${playerSeat}"][data-online="true"]`).waitFor({ timeout: 10000 });
  });

  it('screenshots at 1280x800 and 360x740 (light and dark)', STEP, async () => {
    await roll(player, '2d20kl1');
    await ackOf(playerRec, '2d20kl1');
    await roll(gm, 'd20+5');
    await ackOf(gmRec, 'd20+5');
    await sleep(1000); // let the arrival animation finish
    for (const [name, page] of [
      ['gm', gm],
      ['player', player],
    ]) {
      for (const [w, hgt] of [
        [1280, 800],
        [360, 740],
      ]) {
        await page.setViewportSize({ width: w, height: hgt });
        await sleep(200);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `${name} at ${w}px has no horizontal scroll (overflow ${overflow}px)`);
        await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${w}x${hgt}.png`) });
        await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${w}x${hgt}-full.png`), fullPage: true });
        await page.emulateMedia({ colorScheme: 'dark' });
        await sleep(100);
        await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${w}x${hgt}-dark.png`) });
        await page.emulateMedia({ colorScheme: 'light' });
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('the GM rotates the join code, then closes joining; a closed code is refused with a clear message', STEP, async () => {
    await gm.locator('#invite-rotate').click();
    const rotate = await waitFor('join.rotate cmd', () => parsed(gmRec.sent).find((m) => m.t === 'cmd' && m.op === 'join.rotate'));
    const rotated = await waitFor('join.rotate ack', () => parsed(gmRec.received).find((m) => m.t === 'ack' && m.id === rotate.id));
    const code = rotated.result.join_code;
    assert.ok(code && code !== server.joinCode, 'a new code');
    joinCodes.push(code);
    await waitFor('the new link on the GM page', async () => (await gm.locator('#invite-link').inputValue()) === `${server.url}/#join=${code}`);
    assert.equal(await gm.locator('#invite-code').textContent(), code);

    await gm.locator('#invite-close').click();
    const close = await waitFor('join.close cmd', () => parsed(gmRec.sent).find((m) => m.t === 'cmd' && m.op === 'join.close'));
    await waitFor('join.close ack', () => parsed(gmRec.received).find((m) => m.t === 'ack' && m.id === close.id));
    await waitFor('"Joining is closed"', async () => (await gm.locator('#invite-state').textContent()) === 'Joining is closed');
    assert.equal(await gm.locator('#invite-link-row').isVisible(), false);

    const ctx = await browser.newContext({ viewport: { width: 360, height: 740 } });
    try {
      const late = await ctx.newPage();
      await late.goto(`${server.url}/#join=${code}`);
      await late.locator('#join-name').fill('Latecomer');
      await late.locator('#join-submit').click();
      await late.locator('#join-message').waitFor({ state: 'visible', timeout: 10000 });
      assert.match(await late.locator('#join-message').textContent(), /not valid, or joining is closed/);
      assert.equal(await late.evaluate(() => localStorage.getItem('tabled.token')), null);
      await late.screenshot({ path: path.join(ARTIFACTS, 'join-closed-360x740.png') });
    } finally {
      await ctx.close();
    }
    // The player saw none of the codes: /gm/join is the GM's only.
    for (const c of joinCodes) {
      const leaks = playerRec.received.filter((f) => f.includes(c));
      assert.deepEqual(leaks, [], `no frame the player received contains the join code ${c}`);
    }
  });

  it('a stored token the server does not know leads to the join form, and is forgotten', STEP, async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await ctx.newPage();
      await page.goto(`${server.url}/#token=AAAAAAAAAAAAAAAAAAAAAA`);
      await page.locator('#join-message').waitFor({ state: 'visible', timeout: 10000 });
      assert.match(await page.locator('#join-message').textContent(), /no longer valid/);
      assert.ok(await page.locator('#join-code-field').isVisible(), 'the code is asked for');
      assert.equal(await page.evaluate(() => localStorage.getItem('tabled.token')), null);
    } finally {
      await ctx.close();
    }
  });

  it('no request left the server origin, and no page error happened', STEP, async () => {
    for (const rec of [gmRec, playerRec]) {
      const foreign = rec.requests.filter((u) => !u.startsWith(`${server.url}/`) && !u.startsWith('data:'));
      assert.deepEqual(foreign, [], `${rec.label}: requests to other origins`);
      for (const u of rec.sockets) assert.equal(new URL(u).host, `127.0.0.1:${server.port}`);
      const errors = rec.errors.filter((e) => !/WebSocket connection to .* failed|ERR_CONNECTION_REFUSED/.test(e));
      assert.deepEqual(errors, [], `${rec.label}: page errors`);
    }
  });
});
