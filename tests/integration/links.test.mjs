// The start-up print and `tabled links` (issue 15 item 10): with one campaign the terminal shows
// the console link and that campaign's GM and join links; with six it shows the first campaign's
// links and one summary line, not every link of every campaign; `tabled links --db` prints every
// campaign's working links (a GM token from it opens its campaign), and the file it reads is the
// owner's alone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { startServer, BIN } from './lib.mjs';

const printed = (srv) => srv.stdout.split('\n').filter(Boolean);

test('start-up: the console link, one campaign\'s links and a summary; the rest from tabled links', async (t) => {
  const srv = await startServer(t);
  const first = printed(srv);
  assert.match(first.at(-1), /^Open the console link in your browser; give the join link to your players\.$/);
  assert.ok(first.some((l) => /^console link: http:\/\/127\.0\.0\.1:\d+\/#host=\S+$/.test(l)), first.join('\n'));
  assert.equal(first.filter((l) => l.startsWith('GM link: ')).length, 1);
  assert.ok(!first.some((l) => /more campaigns/.test(l)));

  const [host] = await srv.hello(srv.hostToken);
  const names = ['Heist', 'Dungeon', 'Spaceport', 'Sewers', 'Tavern'];
  for (const name of names) assert.equal((await host.cmd('campaign.create', { name, system: 'generic' })).t, 'ack');
  host.close();
  const before = srv.stdout.length;
  await srv.restart();
  const lines = srv.stdout.slice(before).split('\n').filter(Boolean);
  // The banner: version, host token, console link, one campaign (name, GM link, join link), the
  // summary, the hint: 8 lines instead of 1 + 6 × 3.
  assert.equal(lines.filter((l) => l.startsWith('GM link: ')).length, 1, lines.join('\n'));
  assert.equal(lines.filter((l) => l.startsWith('campaign: ')).length, 1, lines.join('\n'));
  const summary = lines.find((l) => /^5 more campaigns: /.test(l));
  assert.ok(summary, lines.join('\n'));
  for (const n of names) assert.ok(summary.includes(n), `${n} in ${summary}`);
  assert.ok(summary.includes(`tabled links --db ${srv.db}`), summary);
  assert.ok(lines.length <= 9, `${lines.length} lines:\n${lines.join('\n')}`);

  // tabled links: every campaign, each GM link works.
  const out = execFileSync(BIN, ['links', '--db', srv.db], { encoding: 'utf8' });
  const camps = out.split('\n').filter((l) => l.startsWith('campaign: '));
  assert.equal(camps.length, 6, out);
  assert.equal(srv.banner.campaigns.length, 6);
  for (const c of srv.banner.campaigns) {
    assert.ok(c.gmToken && c.joinCode, JSON.stringify(c));
    const [gm, w] = await srv.hello(c.gmToken);
    assert.equal(w.t, 'welcome', w.raw);
    assert.equal(w.campaign.id, c.id);
    gm.close();
  }
  assert.equal(fs.statSync(`${srv.db}.links`).mode & 0o077, 0, 'the links file is readable by its owner only');
});

test('tabled links without a links file says what to do', () => {
  const r = spawnSync(BIN, ['links', '--db', '/nonexistent/x.db'], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /start tabled serve --db \/nonexistent\/x\.db first/);
});
