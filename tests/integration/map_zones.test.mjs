// Zones on the scene map (PROTOCOL.md "The scene map", issue 30 items 1 and 3): the GM draws named
// rectangles of squares on a cot heist's map, keeps some hidden and binds others to the heist's
// zones (rules/RULES.md, cot heist reading 8). Checked on the bytes each socket received: a hidden
// zone's name never reaches a player until shown; a bound zone appears on the table's map in the
// very diff that reveals its heist zone, never before, and goes when the heist ends; refusals
// store nothing; zones outlive kill -9 and replay rebuilds them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, ok, refused, makeChar, settle } from './enc_lib.mjs';

const ADA = {
  name: 'Ada Quill',
  abilities: { muscle: 1, fingers: 2, brains: 3, it: 2 },
  skills: { planning: 3, lookout: 1 },
  reputation: 2,
  foresight: 3,
};

/** A heist with a prepared Spot and a plain 10×8 map shown to the table. */
async function heist(t) {
  const srv = await startServer(t, { args: ['--seed', '30', '--rate-limit', '0'] });
  const made = await campaignOf(srv, t, 'cot', ['Ann', 'Bob']);
  const { gm, players } = made;
  const ada = await makeChar(players[0].client, { name: 'Ada Quill', sheet: ADA });
  await ok(gm, 'enc.start', { module: 'cot.heist' });
  const A = (await ok(gm, 'enc.add', { char: ada })).id;
  await ok(gm, 'enc.act', { action: 'zone', params: { id: 'yard', name: 'Loading yard', edge: 1 } });
  await ok(gm, 'enc.act', { action: 'zone', params: { id: 'cellar', name: 'ZZ-Smugglers-cellar', tags: 'hidden', rating: 40 } });
  await ok(gm, 'map.set', { size: 40, cols: 10, rows: 8 });
  await ok(gm, 'map.show', {});
  return { srv, ...made, A };
}

const bytesOf = (p) => p.client.frames.join('\n');
const zonesOf = (p) => p.client.state.maps?.enc?.zones;

test('zones: hidden ones stay the GM\'s, a bound one appears exactly when its heist zone is revealed, refusals store nothing', async (t) => {
  const { gm, players } = await heist(t);
  const [ann, bob] = players;

  const street = await ok(gm, 'map.zone', { name: 'Street', x: 0, y: 7, w: 10, h: 1 });
  assert.deepEqual(street, { scene: 'enc', id: 'z1', hidden: false, seen: true });
  const tunnel = await ok(gm, 'map.zone', { name: 'ZZ-Secret-tunnel', x: 2, y: 5, w: 2, h: 2, hidden: true });
  assert.deepEqual(tunnel, { scene: 'enc', id: 'z2', hidden: true, seen: false });
  // named like a zone of the Spot: bound to it; an explicit link binds whatever the name
  const yard = await ok(gm, 'map.zone', { name: 'loading yard', x: 0, y: 0, w: 5, h: 3 });
  assert.deepEqual(yard, { scene: 'enc', id: 'z3', hidden: false, seen: false, heist: 'yard' });
  const cellar = await ok(gm, 'map.zone', { name: 'ZZ-Cellar-drawn', heist: 'cellar', x: 6, y: 4, w: 3, h: 2 });
  assert.equal(cellar.heist, 'cellar');
  await settle(gm, players);
  assert.deepEqual(Object.keys(gm.state.gm.maps.enc.zones).sort(), ['z1', 'z2', 'z3', 'z4']);
  assert.deepEqual(gm.state.gm.maps.enc.zones.z3, { id: 'z3', name: 'loading yard', x: 0, y: 0, w: 5, h: 3, hidden: false, heist: 'yard' });
  for (const p of players) {
    assert.deepEqual(zonesOf(p), [{ name: 'Street', x: 0, y: 7, w: 10, h: 1 }], `${p.name} sees the street alone`);
    for (const secret of ['ZZ-', 'loading yard', '"z2"', '"z3"', '"z4"']) assert.ok(!bytesOf(p).includes(secret), `${p.name} never received ${secret}`);
  }

  // refusals: a player draws nothing, a bad zone stores nothing
  for (const [op, args] of [['map.zone', { name: 'Mine', x: 0, y: 0, w: 1, h: 1 }], ['map.unzone', { id: 'z1' }]])
    await refused(ann.client, op, args, 'forbidden');
  for (const [args, code] of [
    [{ name: 'Too wide', x: 8, y: 0, w: 3, h: 1 }, 'bad_request'],
    [{ name: 'Too low', x: 0, y: 7, w: 1, h: 2 }, 'bad_request'],
    [{ name: 'No size', x: 0, y: 0 }, 'bad_request'],
    [{ x: 0, y: 0, w: 1, h: 1 }, 'bad_request'],
    [{ name: 'Nowhere', heist: 'attic', x: 0, y: 0, w: 1, h: 1 }, 'not_found'],
    [{ id: 'z99', hidden: false }, 'not_found'],
    [{ id: 'z1', x: 9, w: 2 }, 'bad_request'],
    [{ scene: 's9', name: 'Elsewhere', x: 0, y: 0, w: 1, h: 1 }, 'not_found'],
  ])
    await refused(gm, 'map.zone', args, code);
  await refused(gm, 'map.unzone', { id: 'z99' }, 'not_found');

  // the crew learns of the yard: its zone is on the table's map in that same diff
  const marks = players.map((p) => p.client.frames.length);
  await ok(gm, 'enc.act', { action: 'reveal', params: { zone: 'yard' } });
  await settle(gm, players);
  for (const [i, p] of players.entries()) {
    assert.deepEqual(zonesOf(p), [
      { name: 'loading yard', x: 0, y: 0, w: 5, h: 3 },
      { name: 'Street', x: 0, y: 7, w: 10, h: 1 },
    ]);
    const diffs = p.client.frames.slice(marks[i]).filter((f) => f.startsWith('{"t":"diff"'));
    assert.equal(diffs.length, 1, 'the reveal and the zone are one diff');
    assert.ok(diffs[0].includes('/enc/spot/zones') && diffs[0].includes('/maps/enc'), diffs[0]);
    assert.ok(!bytesOf(p).includes('ZZ-'), 'the cellar and the tunnel are still the GM\'s');
  }

  // the GM shows the tunnel and hides the street; a zone hidden while bound stays off when revealed
  await ok(gm, 'map.zone', { id: 'z2', hidden: false });
  await ok(gm, 'map.zone', { id: 'z1', hidden: true });
  await ok(gm, 'map.zone', { id: 'z4', hidden: true });
  await ok(gm, 'enc.act', { action: 'reveal', params: { zone: 'cellar' } });
  await settle(gm, players);
  assert.deepEqual(zonesOf(ann).map((z) => z.name), ['loading yard', 'ZZ-Secret-tunnel']);
  assert.ok(!bytesOf(ann).includes('ZZ-Cellar-drawn'), 'hidden by the GM: the reveal does not show it');
  await ok(gm, 'map.zone', { id: 'z4', hidden: false });
  await settle(gm, players);
  assert.deepEqual(zonesOf(bob).map((z) => z.name), ['loading yard', 'ZZ-Cellar-drawn', 'ZZ-Secret-tunnel']);
  // moved, renamed, unbound, removed
  await ok(gm, 'map.zone', { id: 'z3', name: 'The yard', x: 1 , heist: '' });
  assert.equal(gm.state.gm.maps.enc.zones.z3.heist, undefined);
  await ok(gm, 'map.unzone', { id: 'z2' });
  await settle(gm, players);
  assert.deepEqual(zonesOf(ann).map((z) => [z.name, z.x]), [['The yard', 1], ['ZZ-Cellar-drawn', 6]]);

  // the map hidden: no zone on the table; shown again: as they were
  await ok(gm, 'map.hide', {});
  await settle(gm, players);
  assert.equal(ann.client.state.maps?.enc, undefined);
  await ok(gm, 'map.show', {});
  await settle(gm, players);
  assert.deepEqual(zonesOf(ann).map((z) => z.name), ['The yard', 'ZZ-Cellar-drawn']);

  // the heist ends: a bound zone goes with it, a free one stays
  await ok(gm, 'enc.end', {});
  await settle(gm, players);
  assert.deepEqual(zonesOf(ann).map((z) => z.name), ['The yard']);
  assert.ok(gm.state.gm.maps.enc.zones.z4, 'the GM keeps the bound zone for the next heist');
});

test('a hidden zone changes no byte a player receives; zones outlive kill -9; replay rebuilds them', async (t) => {
  const { srv, gm, players, campaignId, gmToken } = await heist(t);
  const [ann] = players;
  await ok(gm, 'map.zone', { name: 'Street', x: 0, y: 7, w: 10, h: 1 });
  await settle(gm, players);
  const quiet = ann.client.frames.length;
  await ok(gm, 'map.zone', { name: 'ZZ-Hidden', x: 1, y: 1, w: 1, h: 1, hidden: true });
  await ok(gm, 'map.zone', { name: 'ZZ-Cellar', heist: 'cellar', x: 3, y: 3, w: 2, h: 2 });
  await ok(gm, 'enc.act', { action: 'zone', params: { id: 'attic', name: 'Attic' } });
  await settle(gm, players);
  assert.equal(ann.client.frames.length, quiet + 1, 'nothing but the pong of the settle');
  const replica = { state: structuredClone(ann.client.state), seq: ann.client.seq };
  const shown = await gm.cmd('map.zone', { id: 'z2', hidden: false }, 'zone-1');
  assert.equal(shown.t, 'ack', shown.raw);
  await srv.kill('SIGKILL');
  await srv.restart();
  const [again, w] = await srv.resume(players[0].token, replica);
  t.after(() => again.close());
  assert.equal(w.resume, true);
  await again.ping();
  assert.deepEqual(again.state.maps.enc.zones.map((z) => z.name), ['ZZ-Hidden', 'Street']);
  const view = await srv.gmView(gmToken);
  const rebuilt = srv.replay({ campaign: campaignId, fromZero: true }).find((r) => r.campaign === campaignId);
  assert.deepEqual(rebuilt.state.maps, view.state.maps);
  assert.deepEqual(rebuilt.state.gm.maps, view.state.gm.maps);
  assert.equal(view.state.gm.maps.enc.zones.z3.heist, 'cellar');
});
