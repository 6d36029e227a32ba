// Scenes at once in the browser (issue 13): a cot campaign with a social call (the first scene)
// and a chase beside it. Ann's phone (360 px) shows her own scene, the chase, in full and the
// social call folded, with each scene's clock and the job's time in words; the GM's page picks
// the scene to run, and what it sends names that scene. Screenshots go to tests/artifacts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';
import { startServer, repoRoot } from './server.mjs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARTIFACTS = path.join(repoRoot, 'tests', 'artifacts');

/** A bare WebSocket client for the set-up that is not about the page. */
async function api(url, token) {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, 'tabled.v1');
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  const msgs = [];
  const waiters = [];
  ws.on('message', (d) => {
    msgs.push(JSON.parse(String(d)));
    waiters.splice(0).forEach((w) => w());
  });
  const next = async (pred) => {
    for (;;) {
      const i = msgs.findIndex(pred);
      if (i >= 0) return msgs.splice(i, 1)[0];
      await new Promise((r) => waiters.push(r));
    }
  };
  let n = 0;
  const tag = Math.random().toString(36).slice(2, 8); // command ids are per seat: never reuse one
  const c = {
    ws,
    async hello(tok) {
      ws.send(JSON.stringify({ t: 'hello', v: 1, token: tok }));
      return next((m) => m.t === 'welcome');
    },
    async join(code, name) {
      ws.send(JSON.stringify({ t: 'join', code, name }));
      const j = await next((m) => m.t === 'joined');
      await next((m) => m.t === 'welcome');
      return j;
    },
    async ok(op, args = {}) {
      const id = `s-${tag}-${++n}`;
      ws.send(JSON.stringify({ t: 'cmd', id, op, args }));
      const m = await next((x) => (x.t === 'ack' || x.t === 'nack') && x.id === id);
      assert.equal(m.t, 'ack', `${op} ${JSON.stringify(args)}: ${JSON.stringify(m)}`);
      return m.result;
    },
  };
  if (token) c.welcome = await c.hello(token);
  return c;
}

describe('browser: several scenes at once', () => {
  let browser;
  before(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  });
  after(async () => browser?.close().catch(() => {}));

  it('a player sees their own scene first and the other folded; the GM runs the scene they pick', { timeout: 120000 }, async () => {
    const server = await startServer({ extraArgs: ['--seed', '7'] });
    const ctxs = [];
    try {
      const host = await api(server.url, server.hostToken);
      const made = await host.ok('campaign.create', { name: 'Split crew', system: 'cot' });
      const gm = await api(server.url, made.gm_token);
      const ann = await api(server.url);
      const aj = await ann.join(made.join_code, 'Ann');
      const bob = await api(server.url);
      await bob.join(made.join_code, 'Bob');
      const samples = (await (await fetch(`${server.url}/samples/cot`)).json()).samples;
      const sheet = (f) => samples.find((s) => s.file.replace(/\.json$/, '') === f).sheet;
      const vera = (await ann.ok('char.create', { name: 'Vera Lockhart', sheet: sheet('vera_lockhart') })).id;
      const tommy = (await bob.ok('char.create', { name: 'Big Tommy Rourke', sheet: sheet('big_tommy_rourke') })).id;
      await gm.ok('enc.start', { module: 'cot.social' });
      await gm.ok('enc.add', { char: tommy });
      await gm.ok('enc.add', { npc: { name: 'The Fence' }, side: 'fence' });
      await gm.ok('enc.act', { action: 'begin' });
      await gm.ok('enc.start', { module: 'cot.chase', scene: 'new', options: { target_side: 'party', distance: 2 } });
      await gm.ok('enc.add', { scene: 's2', char: vera });
      await gm.ok('enc.add', { scene: 's2', npc: { name: 'Constable Pike' }, side: 'law' });
      for (const c of [host, gm, ann, bob]) c.ws.close();

      const open = async (token, width) => {
        const ctx = await browser.newContext({ viewport: { width, height: 900 } });
        ctxs.push(ctx);
        const page = await ctx.newPage();
        const sent = [];
        const errors = [];
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
        page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(String(f.payload))));
        await page.goto(`${server.url}/#token=${token}`);
        await page.locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
        return { page, sent, errors };
      };
      const a = await open(aj.token, 360);
      const g = await open(made.gm_token, 1280);

      // Ann's phone: the chase in full (she is in it), the social call folded, the clocks in words
      await a.page.locator('#enc-title', { hasText: 'Encounter: Chase' }).waitFor();
      const folded = a.page.locator('#enc details.enc-scene[data-scene="enc"]');
      await folded.waitFor();
      assert.equal(await folded.getAttribute('open'), null, 'the other scene is folded');
      assert.match(await folded.locator('summary').textContent(), /^Social Call, round 1, 10 minutes in$/);
      assert.match(await a.page.locator('#enc [data-key="campaign-clock"]').textContent(), /^The job is 10 minutes in\.$/);
      assert.match(await a.page.locator('#enc .enc-scene-clock').textContent(), /Action, not begun/);
      assert.equal(await a.page.locator('#enc [data-key="start-scene"]').count(), 0, 'only the GM starts scenes');
      // which scene plays next (/clock/next) shows for the player too, in words: the chase (a
      // 1-minute round that has not begun) comes before the social call's second 10-minute round
      assert.equal((await a.page.evaluate(() => window.tabled.conn.state.clock)).next, 's2');
      assert.equal(await a.page.locator('#enc [data-key="next-scene"]').textContent(), 'Next: this scene, the Chase');
      const px = await a.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(px, 0, 'nothing runs off a 360 px phone');
      await a.page.locator('#enc').screenshot({ path: path.join(ARTIFACTS, 'scenes-ann-360.png') });

      // the GM's page opens on the first scene; the GM picks the chase and begins it there
      await g.page.locator('#enc-title', { hasText: 'Encounter: Social Call' }).waitFor();
      await g.page.locator('#enc [data-key="start-scene"]').waitFor();
      assert.equal(await g.page.locator('#enc [data-key="next-scene"]').textContent(), 'Next: the Chase', 'the GM runs the social call; the chase plays next');
      await g.page.locator('#enc details.enc-scene[data-scene="s2"] summary').click();
      await g.page.locator('#enc [data-key="show-scene-s2"]').click();
      await g.page.locator('#enc-title', { hasText: 'Encounter: Chase' }).waitFor();
      const gmFolded = g.page.locator('#enc details.enc-scene[data-scene="enc"] summary');
      await gmFolded.waitFor();
      assert.match(await gmFolded.textContent(), /^Social Call, round 1, 10 minutes in/, 'the first scene is folded now');
      assert.equal(await g.page.locator('#enc [data-key="next-scene"]').textContent(), 'Next: this scene, the Chase');
      await g.page.locator('#enc [data-action="begin"]').click();
      await a.page.locator('#enc .enc-scene-clock', { hasText: 'Action, 1 minute in' }).waitFor();
      const begin = g.sent.map((x) => JSON.parse(x)).find((m) => m.t === 'cmd' && m.op === 'enc.act' && m.args.action === 'begin');
      assert.deepEqual(begin.args, { action: 'begin', scene: 's2' }, 'the command names the scene shown');
      // after a command the page re-renders on the scene picked, the other still folded
      await g.page.locator('#enc details.enc-scene[data-scene="enc"]').waitFor();
      assert.equal(await g.page.locator('#enc details.enc-scene[data-scene="s2"]').count(), 0);
      await g.page.locator('#enc').screenshot({ path: path.join(ARTIFACTS, 'scenes-gm-1280.png') });

      // a heist where Vera's Drop on a strong guard fails and he flees (000:117, 000:126): the GM's
      // page offers the chase in one tap, with the same people
      const gm2 = await api(server.url, made.gm_token);
      const ann2 = await api(server.url, aj.token);
      await gm2.ok('enc.end', { scene: 's2' });
      const harlan = (await gm2.ok('char.create', { name: 'Harlan', npc: true, sheet: { name: 'Harlan', abilities: { muscle: 5, fingers: 2, brains: 2, it: 1 }, skills: { resist: 5, athletics: 1 } } })).id;
      const heist = (await gm2.ok('enc.start', { module: 'cot.initiative', scene: 'new', options: { stage: 'heist' } })).scene;
      const V = (await gm2.ok('enc.add', { scene: heist, char: vera })).id;
      const H = (await gm2.ok('enc.add', { scene: heist, char: harlan, side: 'guards' })).id;
      await gm2.ok('enc.act', { scene: heist, action: 'begin' });
      let drop = null;
      for (let i = 0; i < 4 && !drop; i++) {
        const look = await api(server.url, made.gm_token); // a fresh look at the slots
        look.ws.close();
        const sc = look.welcome.state.scenes?.[heist];
        assert.ok(sc, `${heist}: ${JSON.stringify(look.welcome).slice(0, 300)}`);
        if (sc.order[sc.turn]?.side === 'party') drop = await ann2.ok('enc.act', { scene: heist, action: 'drop', actor: V, params: { target: H } });
        else await gm2.ok('enc.act', { scene: heist, action: 'skip' });
      }
      assert.equal(drop?.log[0].result.outcome, 'Aware', 'a bare-handed Drop on Harlan fails');
      await gm2.ok('enc.act', { scene: heist, action: 'react', actor: H, params: { choice: 'flee' } });
      await g.page.locator(`#enc details.enc-scene[data-scene="${heist}"] summary`).click();
      await g.page.locator(`#enc [data-key="show-scene-${heist}"]`).click();
      const flee = g.page.locator('#enc [data-key="chase-from-flee"]');
      await flee.waitFor();
      assert.equal(await flee.textContent(), 'Harlan flees: start a chase with everyone here');
      await flee.click();
      await g.page.locator('#enc-title', { hasText: 'Encounter: Chase' }).waitFor();
      await a.page.locator('#enc-title', { hasText: 'Encounter: Chase' }).waitFor();
      const start = g.sent.map((x) => JSON.parse(x)).find((m) => m.t === 'cmd' && m.op === 'enc.start');
      assert.deepEqual(start.args, { module: 'cot.chase', from: heist, scene: 'new' });
      for (const name of ['Vera Lockhart', 'Harlan']) await a.page.locator('#enc .enc-combatants', { hasText: name }).waitFor();
      await a.page.locator('#enc').screenshot({ path: path.join(ARTIFACTS, 'scenes-ann-chase-360.png') });
      gm2.ws.close();
      ann2.ws.close();
      assert.deepEqual([...a.errors, ...g.errors], []);
    } finally {
      for (const c of ctxs) await c.close().catch(() => {});
      await server.stop().catch(() => {});
      if (server.dir) fs.rmSync(server.dir, { recursive: true, force: true });
    }
  });
});
