// enc.moves (issue 23, protocol/PROTOCOL.md "enc.moves"): what each seat may do now, per running
// scene, read on request. A player is offered moves for their own characters only and never the
// GM's; the GM's list starts with the combatant whose turn it is; every offered move sent as it is
// goes through; the op changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, settle } from './enc_lib.mjs';

const movesOf = async (client, args = {}) => (await ok(client, 'enc.moves', args)).moves;

test('enc.moves: each seat its own moves, the GM the turn first, every move goes through', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '5'] });
  const { gm, players } = await campaignOf(srv, t, 'fivey');
  const [ann, bob] = players;
  const vesperChar = await makeChar(ann.client, { name: 'Vesper', sheet: sample('fivey', 'vesper') });
  const brunChar = await makeChar(bob.client, { name: 'Brunhild', sheet: sample('fivey', 'brunhild') });

  // no scene: nothing to do, and a named scene that does not run is not_found
  assert.deepEqual(await movesOf(ann.client), {});
  await refused(ann.client, 'enc.moves', { scene: 's9' }, 'not_found');

  await ok(gm, 'enc.start', { module: 'fivey.combat' });
  const vesper = (await ok(gm, 'enc.add', { char: vesperChar })).id;
  const brun = (await ok(gm, 'enc.add', { char: brunChar })).id;
  const goblin = (await ok(gm, 'enc.add', { npc: { name: 'Goblin' } })).id;

  // before initiative the GM can roll it; the players have no GM move
  let gmMoves = (await movesOf(gm)).enc;
  assert.ok(gmMoves.some((m) => m.action === 'initiative' && m.who === 'gm' && !m.actor), JSON.stringify(gmMoves.map((m) => m.action)));
  for (const p of players) {
    const mine = (await movesOf(p.client)).enc;
    assert.ok(mine.every((m) => m.who !== 'gm'), `${p.name} is offered no GM action`);
  }
  await ok(gm, 'enc.act', { action: 'initiative' });
  const s = await settle(gm, players);
  const current = s.enc.order[s.enc.turn];

  // the GM: the current combatant's moves first
  gmMoves = (await movesOf(gm)).enc;
  assert.equal(gmMoves[0].actor, current, 'the turn first');
  // a player: only the characters their seat controls, never the goblin
  const own = { [ann.seat]: vesper, [bob.seat]: brun };
  for (const p of players) {
    const mine = (await movesOf(p.client, { scene: 'enc' })).enc;
    for (const m of mine) {
      assert.notEqual(m.who, 'gm');
      if (m.actor) assert.equal(m.actor, own[p.seat], `${p.name} moves ${m.action} for ${m.actor}`);
    }
    assert.ok(!mine.some((m) => m.actor === goblin));
    // the player whose turn it is may take a turn action; the other may not
    const turnMoves = mine.filter((m) => m.who === 'turn');
    assert.equal(turnMoves.length > 0, own[p.seat] === current, `${p.name}: turn actions only on their turn`);
  }

  // every move's parameters carry their choices and defaults; sent as it is, the move goes through
  const first = gmMoves[0];
  assert.ok(Array.isArray(first.params) && typeof first.args === 'object');
  for (const p of first.params) assert.equal(typeof p.pick, 'boolean');
  const seqBefore = gm.seq;
  await ok(gm, 'enc.act', { action: first.action, actor: first.actor, params: first.args });
  await settle(gm, players);
  assert.ok(gm.seq > seqBefore);

  // enc.moves itself changes nothing (a read-only op: the engine stores nothing for it)
  await settle(gm, players);
  const before = [gm, ann.client].map((c) => JSON.stringify(c.state));
  await movesOf(gm);
  await movesOf(ann.client);
  await settle(gm, players);
  assert.deepEqual([gm, ann.client].map((c) => JSON.stringify(c.state)), before, 'the state is as it was');
});
