// Idempotency (PROTOCOL.md "Resume and ordering"): a cmd re-sent with the same id by the same seat
// is applied at most once, also across restarts; the retry gets the original ack or nack, byte
// for byte. Different seats own their ids independently.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, table, closeAll } from './lib.mjs';

test('the same cmd id sent twice applies once; the second reply is byte-identical', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann']);
  const ann = players[0].client;
  t.after(() => closeAll(gm, ann));
  const seq0 = (await srv.gmView()).seq;

  const first = await ann.cmd('roll', { expr: '3d6+1' }, 'dup-1');
  assert.equal(first.t, 'ack', first.raw);
  assert.equal(first.seq, seq0 + 1);
  const second = await ann.cmd('roll', { expr: '3d6+1' }, 'dup-1');
  assert.equal(second.raw, first.raw, 'retry reply is byte-identical');
  // a retry with other args is still the same command: the original ack, nothing new runs
  const third = await ann.cmd('roll', { expr: '1d100' }, 'dup-1');
  assert.equal(third.raw, first.raw);

  await gm.ping(1);
  await ann.ping(2);
  const view = await srv.gmView();
  assert.equal(view.seq, seq0 + 1, 'one event');
  assert.equal(view.state.log.length, 1);
  assert.equal(view.state.log[0].roll.total, first.result.total);
  assert.deepEqual(gm.diffSeqs.filter((s) => s > seq0), [seq0 + 1], 'one diff reached the GM');
  assert.deepEqual(ann.diffSeqs.filter((s) => s > seq0), [seq0 + 1], 'one diff reached the sender');
  assert.equal(ann.of('ack').length, 3);

  // twice back to back, without waiting (both may land in the same loop turn / transaction)
  const [a, b] = await Promise.all([ann.cmd('roll', { expr: '2d8' }, 'dup-2'), ann.cmd('roll', { expr: '2d8' }, 'dup-2')]);
  assert.equal(a.t, 'ack', a.raw);
  assert.equal(b.raw, a.raw);
  assert.equal(a.seq, seq0 + 2);
  const v2 = await srv.gmView();
  assert.equal(v2.seq, seq0 + 2);
  assert.equal(v2.state.log.length, 2);
  // a new id runs again
  const c = await ann.cmd('roll', { expr: '2d8' }, 'dup-3');
  assert.equal(c.seq, seq0 + 3);
});

test('idempotency holds across kill -9 and restart: same ack, seq unchanged', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann']);
  const ann = players[0];
  t.after(() => closeAll(gm, ann.client));
  const ack = await ann.client.cmd('roll', { expr: '5d10kh2+3' }, 'before-crash');
  assert.equal(ack.t, 'ack', ack.raw);
  const gmAck = await gm.cmd('roll', { expr: '1d20', secret: true }, 'before-crash');
  assert.equal(gmAck.t, 'ack');
  assert.equal(gmAck.seq, ack.seq + 1, 'the GM has its own id space');
  const nack = await ann.client.cmd('roll', { expr: '5d' }, 'bad-before-crash');
  assert.equal(nack.t, 'nack');
  assert.equal(nack.code, 'bad_request', nack.raw);
  const seqBefore = (await srv.gmView()).seq;

  await srv.kill('SIGKILL');
  await srv.restart();

  const [annC] = await srv.hello(ann.token);
  t.after(() => annC.close());
  const again = await annC.cmd('roll', { expr: '5d10kh2+3' }, 'before-crash');
  assert.equal(again.raw, ack.raw, 'the stored ack, byte for byte');
  const againNack = await annC.cmd('roll', { expr: '5d' }, 'bad-before-crash');
  assert.equal(againNack.raw, nack.raw, 'the stored nack, byte for byte');
  const [gmC] = await srv.hello(srv.gmToken);
  t.after(() => gmC.close());
  const gmAgain = await gmC.cmd('roll', { expr: '1d20', secret: true }, 'before-crash');
  assert.equal(gmAgain.raw, gmAck.raw);

  const view = await srv.gmView();
  assert.equal(view.seq, seqBefore, 'seq unchanged by the retries');
  assert.equal(view.state.log.length, 1);
  assert.equal(view.state.gm.log.length, 1);
  assert.equal(srv.sqlite(`SELECT count(*) FROM events WHERE campaign='${srv.campaignId}'`), String(seqBefore));
});

test('a nack retried gets the identical nack and writes nothing', async (t) => {
  const srv = await startServer(t);
  const { gm, players } = await table(srv, ['Ann']);
  const ann = players[0].client;
  t.after(() => closeAll(gm, ann));
  const seq0 = (await srv.gmView()).seq;
  const cases = [
    ['roll', { expr: '2d6+' }, 'bad_request'],
    ['roll', { expr: '101d6' }, 'bad_request'],
    ['roll', { expr: '1d6', secret: true }, 'forbidden'],
    ['seat.rename', { seat: 'gm', name: 'Me' }, 'forbidden'],
    ['no.such.op', {}, 'not_found'],
  ];
  for (const [i, [op, args, code]] of cases.entries()) {
    const id = `nack-${i}`;
    const n1 = await ann.cmd(op, args, id);
    assert.equal(n1.t, 'nack', n1.raw);
    assert.equal(n1.code, code, n1.raw);
    assert.equal(n1.id, id);
    assert.ok(n1.message.length > 0);
    const n2 = await ann.cmd(op, args, id);
    assert.equal(n2.raw, n1.raw, `${op}: identical nack`);
  }
  // the id of a refused roll stays refused even when the retry would now be valid
  const retry = await ann.cmd('roll', { expr: '2d6' }, 'nack-0');
  assert.equal(retry.raw, ann.of('nack')[0].raw);
  assert.equal((await srv.gmView()).seq, seq0, 'nothing written');
  await gm.ping(3);
  assert.equal(gm.seq, seq0);
});

test('different seats may use the same id independently', async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann', 'Bob']);
  const [ann, bob] = players;
  t.after(() => closeAll(gm, ann.client, bob.client));
  const seq0 = (await srv.gmView()).seq;
  const a = await ann.client.cmd('roll', { expr: '1d6' }, 'same');
  const b = await bob.client.cmd('roll', { expr: '1d8' }, 'same');
  const g = await gm.cmd('roll', { expr: '1d10' }, 'same');
  for (const r of [a, b, g]) assert.equal(r.t, 'ack', r.raw);
  assert.deepEqual([a.seq, b.seq, g.seq], [seq0 + 1, seq0 + 2, seq0 + 3]);
  assert.deepEqual([a.result.expr, b.result.expr, g.result.expr], ['1d6', '1d8', '1d10']);
  // and each one's retry returns its own ack
  assert.equal((await bob.client.cmd('roll', { expr: '1d8' }, 'same')).raw, b.raw);
  assert.equal((await ann.client.cmd('roll', { expr: '1d6' }, 'same')).raw, a.raw);
  // the same seat on another connection shares the seat's ids
  const [ann2] = await srv.hello(ann.token);
  t.after(() => ann2.close());
  assert.equal((await ann2.cmd('roll', { expr: '1d6' }, 'same')).raw, a.raw);
  const view = await srv.gmView();
  assert.equal(view.seq, seq0 + 3);
  assert.deepEqual(view.state.log.map((e) => [e.seat, e.roll.expr]), [['p1', '1d6'], ['p2', '1d8'], ['gm', '1d10']]);
  // ids are per campaign as well: a seat in another campaign may use 'same'
  const [host] = await srv.hello(srv.hostToken);
  t.after(() => host.close());
  const cr = await host.cmd('campaign.create', { name: 'Other', system: 'generic' }, 'same');
  assert.equal(cr.t, 'ack', cr.raw);
  const [gmB] = await srv.hello(cr.result.gm_token);
  t.after(() => gmB.close());
  const gb = await gmB.cmd('roll', { expr: '1d4' }, 'same');
  assert.equal(gb.t, 'ack', gb.raw);
  assert.equal(gb.result.expr, '1d4');
  assert.equal(gb.seq, 2);
});

test('campaign.create retried by the host creates one campaign', async (t) => {
  const srv = await startServer(t);
  const [host] = await srv.hello(srv.hostToken);
  t.after(() => host.close());
  const first = await host.cmd('campaign.create', { name: 'Once', system: 'generic' }, 'create-1');
  assert.equal(first.t, 'ack', first.raw);
  const again = await host.cmd('campaign.create', { name: 'Once', system: 'generic' }, 'create-1');
  assert.equal(again.t, 'ack', again.raw);
  assert.equal(again.result.campaign, first.result.campaign);
  assert.equal(again.result.join_code, first.result.join_code);
  // PROTOCOL.md promises the original ack byte for byte; the server deliberately mints a new GM
  // token for a retry (it stores only token hashes). Both tokens must work.
  for (const tok of [first.result.gm_token, again.result.gm_token]) {
    const [c, w] = await srv.hello(tok);
    assert.equal(w.t, 'welcome', w.raw);
    assert.equal(w.campaign.id, first.result.campaign);
    await c.close();
  }
  const list = await host.cmd('campaign.list');
  assert.equal(list.result.campaigns.filter((c) => c.name === 'Once').length, 1, 'one campaign');
  assert.equal(list.result.campaigns.length, 2);
});

test('60 re-sent ids after a restart all get their original acks, none rate_limited', async (t) => {
  // The default rate limit (20 per second, burst 40): a resuming client re-sends its whole
  // backlog in one burst, and replays must be answered before the limiter counts them.
  const srv = await startServer(t);
  const { gm, players } = await table(srv, ['Ann']);
  const ann = players[0];
  t.after(() => closeAll(gm, ann.client));
  const ids = Array.from({ length: 60 }, (_, i) => `burst-${i}`);
  const first = [];
  for (const [half, part] of [ids.slice(0, 30), ids.slice(30)].entries()) {
    if (half) await new Promise((r) => setTimeout(r, 1600)); // let the bucket refill
    first.push(...(await Promise.all(part.map((id) => ann.client.cmd('roll', { expr: '1d6' }, id)))));
  }
  assert.deepEqual(first.map((m) => m.t), ids.map(() => 'ack'), 'the first sends were all acked');
  const seqBefore = (await srv.gmView()).seq;

  await srv.kill('SIGKILL');
  await srv.restart();

  const [annC] = await srv.hello(ann.token);
  t.after(() => annC.close());
  const again = await Promise.all(ids.map((id) => annC.cmd('roll', { expr: '1d6' }, id)));
  const limited = again.filter((m) => m.t === 'nack').map((m) => m.code);
  assert.deepEqual(limited, [], 'no re-sent id was refused');
  assert.deepEqual(again.map((m) => m.raw), first.map((m) => m.raw), 'every original ack, byte for byte');
  assert.equal((await srv.gmView()).seq, seqBefore, 'nothing ran twice');
  // the limiter still holds for new commands: a burst of 200 new ids is partly refused (200, not
  // 60: on a loaded machine the server may take longer than a second over 60, refilling the bucket)
  const freshIds = Array.from({ length: 200 }, (_, i) => `new-${i}`);
  const fresh = await Promise.all(freshIds.map((id) => annC.cmd('roll', { expr: '1d6' }, id)));
  assert.ok(fresh.some((m) => m.t === 'nack' && m.code === 'rate_limited'), 'new commands are still limited');
});

test('after a restart a re-sent id gets its ack of the two counts: a player\'s player seq, the GM\'s seq and entry', async (t) => {
  // The acks are rebuilt from the event row (storage/README.md): the player seq of a player's ack
  // and the `entry` of the GM's (protocol/PROTOCOL.md "Two counts") must come back as they went.
  const srv = await startServer(t, { args: ['--rate-limit', '0'] });
  const { gm, players } = await table(srv, ['Ann']);
  const ann = players[0];
  t.after(() => closeAll(gm, ann.client));
  const secret = [];
  for (let i = 0; i < 3; i++) secret.push(await gm.cmd('roll', { expr: '1d20', secret: true }, `gm-secret-${i}`));
  const annAck = await ann.client.cmd('roll', { expr: '2d6' }, 'ann-after-secrets');
  const gmPublic = await gm.cmd('roll', { expr: '1d8' }, 'gm-public');
  for (const a of [...secret, annAck, gmPublic]) assert.equal(a.t, 'ack', a.raw);
  const seqBefore = (await srv.gmView()).seq;
  assert.ok(annAck.seq < gmPublic.seq - 1, `the player's ack carries its player seq (${annAck.seq}), behind the campaign's (${gmPublic.seq - 1}): the GM's secrets are not counted`);
  assert.equal(typeof secret[2].entry, 'number', secret[2].raw);
  assert.equal(secret[2].entry, secret[1].entry, 'a GM-only event does not move the player seq its entry is numbered by');

  await srv.kill('SIGKILL');
  await srv.restart();

  const [annC] = await srv.hello(ann.token);
  const [gmC] = await srv.hello(srv.gmToken);
  t.after(() => closeAll(annC, gmC));
  assert.equal((await annC.cmd('roll', { expr: '2d6' }, 'ann-after-secrets')).raw, annAck.raw, "the player's ack, byte for byte");
  for (let i = 0; i < 3; i++) {
    assert.equal((await gmC.cmd('roll', { expr: '1d20', secret: true }, `gm-secret-${i}`)).raw, secret[i].raw, `the GM's ack ${i}, byte for byte`);
  }
  assert.equal((await gmC.cmd('roll', { expr: '1d8' }, 'gm-public')).raw, gmPublic.raw);
  assert.equal((await srv.gmView()).seq, seqBefore, 'nothing ran twice');
});
