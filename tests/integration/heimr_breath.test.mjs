// Heimr fatigue after a scene, through the real server (issue 25 item 8; rulebook
// 001_660a93111b0de833.txt, cited 001:LINE). Astrid Ironhand, winded already (fatigue 4, base 2),
// runs from a hunter; her fatigue never falls during the chase (001:304), and when the GM ends it
// everyone gets their breath back (001:292 "their fatigue returns to it's standard level", 001:304
// "only by standing still"): her sheet's fatigue is her base again; the hunter's, the GM's number,
// is said to the GM only. Then between the
// scenes: Gunnar, bloodied, cannot rest but catches his breath; Astrid fails a lock against the
// GM's CR and tries again for one willpower (001:113), which leaves her sheet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, sample, ok, refused, makeChar, assertNoGmBytes, settle } from './enc_lib.mjs';

const sheetOf = (s, id) => s.chars[id].sheet;

test('heimr: fatigue returns to its base when the chase ends, a breather between the scenes, a failed CR tried again for one willpower', async (t) => {
  const srv = await startServer(t, { args: ['--seed', '5'] });
  const { gm, players } = await campaignOf(srv, t, 'heimr');
  const [ann, bob] = players;
  const astrid = await makeChar(ann.client, { name: 'Astrid Ironhand', sheet: { ...sample('heimr', 'astrid_ironhand'), fatigue: 4 } });
  const lies = await makeChar(bob.client, { name: 'Liesbeth van Dam', sheet: { ...sample('heimr', 'liesbeth_van_dam'), hp: 0, fatigue: 7 } });
  const base = 2; // Astrid: 4 - stamina 2 (001:294)

  // ---- a chase on Agility until Astrid's fatigue has risen ----
  await ok(gm, 'enc.start', { module: 'heimr.chase', options: { ability: 'Agility', target_side: 'party', distance: 3 } });
  const A = (await ok(gm, 'enc.add', { char: astrid })).id;
  const G = (await ok(gm, 'enc.add', { npc: { name: 'Hunter' }, side: 'foes' })).id;
  await ok(gm, 'enc.act', { action: 'begin' });
  let s = await settle(gm, players);
  for (let i = 0; i < 6; i++) {
    if (s.enc.combatants[A].out || s.enc.combatants[G].out) break;
    const who = s.enc.order[s.enc.turn];
    await ok(who === A ? ann.client : gm, 'enc.act', { action: 'run', actor: who });
    s = await settle(gm, players);
  }
  const tired = s.enc.combatants[A].stats.fatigue;
  assert.ok(tired >= 4, `fatigue never falls in a chase (${tired})`);
  await ok(gm, 'enc.set', { path: `/gm/enc/combatants/${G}/stats/fatigue`, value: 9 });
  assert.equal(sheetOf(s, astrid).fatigue, tired, 'the chase writes it to her sheet');
  const end = await ok(gm, 'enc.end', {});
  s = await settle(gm, players);
  assert.equal(sheetOf(s, astrid).fatigue, base, 'her breath back: fatigue at its base (001:292)');
  assert.ok(end.log.some((l) => l.text === `Astrid Ironhand gets their breath back: fatigue ${base}`), JSON.stringify(end.log));
  assert.ok(gm.state.gm.log.some((l) => l.text === 'Hunter gets their breath back: fatigue 4'), 'the GM reads the NPC\'s');
  assert.ok(!ann.client.state.log.some((l) => /Hunter gets their breath back/.test(l.text)), "the hunter's fatigue is the GM's");

  // ---- between the scenes ----
  await ok(gm, 'enc.start', { module: 'heimr.between' });
  const eA = (await ok(gm, 'enc.add', { char: astrid })).id;
  const eL = (await ok(gm, 'enc.add', { char: lies })).id;
  const act = (who, action, actor, params) => ok(who, 'enc.act', { action, actor, params });
  const no = (who, action, actor, params, code, re) => refused(who, 'enc.act', { action, actor, params }, code, re);
  // Liesbeth, bloodied, cannot rest (001:164) but can catch her breath: 4 - stamina 0 = 4
  await no(bob.client, 'rest', eL, {}, 'rule', /cannot take a short rest/);
  await act(bob.client, 'breather', eL, {});
  s = await settle(gm, players);
  assert.equal(sheetOf(s, lies).fatigue, 4);
  assert.equal(sheetOf(s, lies).hp, 0);
  await no(bob.client, 'breather', eL, {}, 'rule', /not out of breath/);
  // Astrid at a lock: Brawl against CR 30 fails whatever the dice; she tries again for one
  // willpower (001:113), and again, until none is left
  const wp = sheetOf(s, astrid).willpower;
  await no(ann.client, 'reroll', eA, {}, 'rule', /no failed challenge/);
  const first = await act(ann.client, 'challenge', eA, { ability: 'Brawl', cr: 30 });
  assert.match(first.log.at(-1).text, /^Astrid Ironhand rolls Brawl: -?\d+ against 30.* — failed$/);
  for (let left = wp - 1; left >= 0; left--) {
    const again = await act(ann.client, 'reroll', eA, {});
    assert.match(again.log.at(-1).text, new RegExp(`spends one willpower \\(${left} left\\) to try again: Brawl`));
    s = await settle(gm, players);
    assert.equal(sheetOf(s, astrid).willpower, left, 'the willpower leaves her sheet');
  }
  await no(ann.client, 'reroll', eA, {}, 'rule', /no willpower left/);
  assertNoGmBytes(players);
});
