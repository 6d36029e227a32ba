// Creation codes (issue 28 item 5): the operator (the host token, which never leaves the
// operator) makes an invitation for N campaigns; whoever has its code says hello with it and may
// create up to N campaigns, becoming each one's GM, and nothing else: no campaign list, no
// campaign of anyone else, no invitation of their own. Over real sockets, a real SQLite file and a
// restart; behind a router (--shard) the campaigns it makes are that process's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';

test('an invitation for 2 campaigns makes 2, each with its GM, and nothing else; revoked or used up it makes none', async (t) => {
  const srv = await startServer(t);
  const [host, hw] = await srv.hello(srv.hostToken);
  t.after(() => host.close());
  assert.equal(hw.seat.role, 'host');

  // refusals of bad arguments change nothing
  for (const args of [{ campaigns: 0 }, { campaigns: 1001 }, { campaigns: 'two' }, { note: 'x'.repeat(81) }]) {
    const r = await host.cmd('invite.create', args);
    assert.equal(r.t, 'nack', r.raw);
    assert.equal(r.code, 'bad_request', r.raw);
  }
  assert.deepEqual((await host.cmd('invite.list', {})).result.invites, []);

  const inv = await host.cmd('invite.create', { campaigns: 2, note: 'Dana, the Thursday group' });
  assert.equal(inv.t, 'ack', inv.raw);
  assert.match(inv.result.code, /^[A-Za-z0-9_-]{22}$/);
  assert.match(inv.result.invite, /^i[0-9a-z]{9}$/);
  assert.equal(inv.result.campaigns, 2);
  const code = inv.result.code;

  // the code says hello as a would-be GM, with no campaign
  const [dana, dw] = await srv.hello(code);
  t.after(() => dana.close());
  assert.equal(dw.t, 'welcome', dw.raw);
  assert.deepEqual(dw.seat, { id: 'creator', role: 'creator', name: 'New GM' });
  assert.equal(dw.campaign, null);
  // ... and may do nothing else than create
  for (const [op, args] of [['campaign.list', {}], ['campaign.open', { campaign: srv.campaignId }], ['invite.create', { campaigns: 5 }], ['invite.list', {}], ['roll', { expr: 'd20' }]]) {
    const r = await dana.cmd(op, args);
    assert.equal(r.t, 'nack', `${op}: ${r.raw}`);
    assert.equal(r.code, 'forbidden', `${op}: ${r.raw}`);
  }

  const first = await dana.cmd('campaign.create', { name: 'Thursday', system: 'cot' }, 'dana-1');
  assert.equal(first.t, 'ack', first.raw);
  assert.equal(first.result.left, 1);
  assert.match(first.result.gm_token, /^[A-Za-z0-9_-]{22}$/);
  // its GM token opens it, as its GM
  const [gm, gw] = await srv.hello(first.result.gm_token);
  t.after(() => gm.close());
  assert.equal(gw.t, 'welcome', gw.raw);
  assert.equal(gw.seat.role, 'gm');
  assert.deepEqual(gw.campaign, { id: first.result.campaign, name: 'Thursday', system: 'cot' });
  // a re-sent id gets the same campaign (a new GM token), and takes no second campaign
  const again = await dana.cmd('campaign.create', { name: 'Thursday', system: 'cot' }, 'dana-1');
  assert.equal(again.t, 'ack', again.raw);
  assert.equal(again.result.campaign, first.result.campaign);
  assert.equal(again.result.left, 1);
  assert.notEqual(again.result.gm_token, first.result.gm_token);
  assert.equal((await srv.hello(again.result.gm_token))[1].t, 'welcome');

  const second = await dana.cmd('campaign.create', { name: 'Sunday', system: 'generic' });
  assert.equal(second.t, 'ack', second.raw);
  assert.equal(second.result.left, 0);
  const before = (await host.cmd('campaign.list', {})).result.campaigns.length;
  const third = await dana.cmd('campaign.create', { name: 'One more', system: 'generic' });
  assert.equal(third.t, 'nack', third.raw);
  assert.equal(third.code, 'forbidden');
  assert.match(third.message, /every campaign it may make/);
  assert.equal((await host.cmd('campaign.list', {})).result.campaigns.length, before, 'a refused create makes nothing');

  // the operator sees it; a revoked invitation makes nothing
  const other = await host.cmd('invite.create', {});
  assert.equal(other.result.campaigns, 1, 'one campaign by default');
  assert.equal((await host.cmd('invite.revoke', { invite: other.result.invite })).t, 'ack');
  assert.equal((await host.cmd('invite.revoke', { invite: 'inothere00' })).code, 'not_found');
  const [eve] = await srv.hello(other.result.code);
  t.after(() => eve.close());
  assert.equal((await eve.cmd('campaign.create', { name: 'Nope', system: 'generic' })).code, 'forbidden');
  const list = (await host.cmd('invite.list', {})).result.invites;
  assert.deepEqual(list.map(({ invite, left, made, note }) => ({ invite, left, made, note })), [
    { invite: inv.result.invite, left: 0, made: 2, note: 'Dana, the Thursday group' },
    { invite: other.result.invite, left: 0, made: 0, note: undefined },
  ]);

  // the host token never reached a creator: not in a byte it was sent
  for (const c of [dana, eve]) assert.ok(!c.frames.some((f) => f.includes(srv.hostToken)));
  // an unknown code is an unknown token
  const [, nw] = await srv.hello('AAAAAAAAAAAAAAAAAAAAAA');
  assert.equal(nw.code, 'unauthorized');

  // what an invitation may still make survives a restart
  const three = await host.cmd('invite.create', { campaigns: 3 });
  const [fay] = await srv.hello(three.result.code);
  assert.equal((await fay.cmd('campaign.create', { name: 'Before', system: 'generic' })).result.left, 2);
  await srv.restart();
  const [fay2, fw] = await srv.hello(three.result.code);
  t.after(() => fay2.close());
  assert.equal(fw.seat.role, 'creator');
  assert.equal((await fay2.cmd('campaign.create', { name: 'After', system: 'generic' })).result.left, 1);
  const [dana2] = await srv.hello(code);
  t.after(() => dana2.close());
  assert.equal((await dana2.cmd('campaign.create', { name: 'Still no', system: 'generic' })).code, 'forbidden');
});

test('behind a router, an invitation\'s campaigns are its process\'s', async (t) => {
  const srv = await startServer(t, { args: ['--shard', 'b'] });
  const [host] = await srv.hello(srv.hostToken);
  t.after(() => host.close());
  const inv = await host.cmd('invite.create', { campaigns: 1 });
  const c = await srv.connect({ path: '/c/b/ws' });
  t.after(() => c.close());
  assert.equal((await c.hello(inv.result.code)).seat.role, 'creator');
  const r = await c.cmd('campaign.create', { name: 'Routed', system: 'generic' });
  assert.equal(r.t, 'ack', r.raw);
  assert.match(r.result.campaign, /^b-c[0-9a-z]{9}$/);
  const gm = await srv.connect({ path: `/c/${r.result.campaign}/ws` });
  t.after(() => gm.close());
  assert.equal((await gm.hello(r.result.gm_token)).campaign.id, r.result.campaign);
});
