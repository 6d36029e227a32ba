// The systems a campaign may run come from the server (issue 23): campaign.list names them with
// their picker line, generic first, and campaign.create takes every one it names. The client
// holds no list of its own (web-static/js/views/campaign.js learns it from here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';

test('campaign.list names every system a campaign may run; campaign.create takes each', async (t) => {
  const srv = await startServer(t);
  const [host] = await srv.hello(srv.hostToken);
  t.after(() => host.close());
  const list = await host.cmd('campaign.list', {});
  assert.equal(list.t, 'ack', list.raw);
  const systems = list.result.systems;
  assert.equal(systems[0].id, 'generic');
  assert.deepEqual(systems.map((s) => s.id).slice(1).sort(), ['cot', 'fivey', 'grimwire', 'heimr', 'tenacity']);
  for (const s of systems) {
    assert.ok(s.name, `${s.id} has a name`);
    assert.ok(typeof s.summary === 'string' && s.summary.length > 10, `${s.id} has a picker line`);
    assert.doesNotMatch(s.summary, /\d{3}:\d+/, 'no rulebook line on screen');
    const made = await host.cmd('campaign.create', { name: `A ${s.name} table`, system: s.id });
    assert.equal(made.t, 'ack', made.raw);
  }
  assert.ok(!systems.some((s) => s.id === 'dice'), 'the dice pseudo-system is no campaign system');
});
