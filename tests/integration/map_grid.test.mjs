// A map.set that would leave something off the grid is refused (PROTOCOL.md `map.set`): a shown
// token, a hidden one, a marker or a zone standing outside the new columns and rows — the refusal
// names it in words, nothing is stored, and a grid they all fit on is accepted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar } from './enc_lib.mjs';

test('map.set does not shrink the grid from under a token or a zone', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '5'] });
  const { gm, players } = await campaignOf(srv, t, 'heimr');
  const [ann] = players.map((p) => p.client);
  const astrid = await makeChar(ann, { name: 'Astrid Ironhand', sheet: sample('heimr', 'astrid_ironhand') });
  await ok(gm, 'enc.start', { module: 'heimr.combat' });
  const A = (await ok(gm, 'enc.add', { char: astrid })).id;
  await ok(gm, 'map.set', { size: 40, cols: 10, rows: 8 });
  await ok(gm, 'map.token', { cid: A, x: 6, y: 2 });
  await ok(gm, 'map.token', { label: 'Crate', x: 1, y: 7, hidden: true });
  await ok(gm, 'map.zone', { name: 'Yard', x: 0, y: 0, w: 9, h: 3 });
  await ok(gm, 'map.show', {});

  await refused(gm, 'map.set', { size: 40, cols: 6, rows: 8 }, 'bad_request', /^Astrid Ironhand's token stands outside the new grid: move it first$/);
  await refused(gm, 'map.set', { size: 40, cols: 10, rows: 7 }, 'bad_request', /^the marker Crate stands outside the new grid/);
  await refused(gm, 'map.set', { size: 40, cols: 8, rows: 8 }, 'bad_request', /^the zone Yard reaches outside the new grid/);
  assert.deepEqual(ann.state.maps.enc.grid, { size: 40, x: 0, y: 0, cols: 10, rows: 8 });

  // a fighter who has left the fight leaves a token with no name to give: its square is named
  const gunnar = await makeChar(players[1].client, { name: 'Old Gunnar', sheet: sample('heimr', 'old_gunnar') });
  const G = (await ok(gm, 'enc.add', { char: gunnar })).id;
  await ok(gm, 'map.token', { cid: G, x: 8, y: 1 });
  await ok(gm, 'enc.remove', { id: G });
  await ann.ping();
  assert.ok(ann.state.maps.enc.tokens[G], 'the token stays on the map after its fighter left');
  await refused(gm, 'map.set', { size: 40, cols: 8, rows: 8 }, 'bad_request', /^the token on 8,1 stands outside the new grid: move it first$/);
  await ok(gm, 'map.move', { id: G, x: 7, y: 1 });

  // a grid everything fits on (the zone's right edge is column 9: 9 columns suffice)
  const r = await ok(gm, 'map.set', { size: 32, cols: 9, rows: 8 });
  assert.equal(r.grid.cols, 9);
  await ann.ping();
  assert.equal(ann.state.maps.enc.grid.cols, 9);
});
