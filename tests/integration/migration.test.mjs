// Saved campaigns keep working (issue 11): a database written by tabled before cot's Loyalties
// moved out of the public sheet (fixtures/cot_loyalties_v1.db, made by
// fixtures/make_cot_loyalties_v1.mjs with that version's binary) opens with the Loyalties at
// /private/<seat>/sheets/<id> — the player's and the GM's, never another player's — through one
// recorded "state.upgrade" event, so the log still replays to the live state and a player who
// resumes from before it is sent only what is theirs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib.mjs';
import { sample } from './enc_lib.mjs';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const old = JSON.parse(fs.readFileSync(path.join(fixtures, 'cot_loyalties_v1.json'), 'utf8'));
const LOYALTIES = sample('cot', 'vera_lockhart').loyalties;

test('a campaign saved before issue 11: Loyalties move to the private area of their player, once', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-mig-'));
  fs.copyFileSync(path.join(fixtures, 'cot_loyalties_v1.db'), path.join(dir, 't.db'));
  const srv = await startServer(t, { dir });
  const [ann, aw] = await srv.hello(old.ann.token);
  const [bob, bw] = await srv.hello(old.bob.token);
  const [gm, gw] = await srv.hello(old.gm_token);
  t.after(() => Promise.all([ann.close(), bob.close(), gm.close()]));
  assert.equal(gw.seq, old.seq + 1, 'one upgrade event after the stored ones');
  // the owner and the GM see Vera's Loyalties where they are private now; Bob does not
  assert.deepEqual(aw.state.private[old.ann.seat].sheets[old.vera].loyalties, LOYALTIES);
  assert.deepEqual(gw.state.private[old.ann.seat].sheets[old.vera].loyalties, LOYALTIES);
  assert.deepEqual(gw.state.private[old.bob.seat].sheets[old.tommy].loyalties, sample('cot', 'big_tommy_rourke').loyalties);
  for (const w of [aw, bw, gw]) assert.equal(w.state.chars[old.vera].sheet.loyalties, undefined, 'not in the public sheet');
  assert.equal(bw.state.private?.[old.ann.seat], undefined);
  assert.ok(!bw.raw.includes('Knowledge'), "Bob's welcome holds none of Vera's Loyalties");
  assert.equal(gw.state.chars[old.vera].sheet.name, 'Vera Lockhart', 'the rest of the sheet stays');
  assert.ok(gw.state.gm.npcs[old.npc].sheet.loyalties, "an NPC's sheet is the GM's already: it stays whole");
  // Bob resuming from before the upgrade gets its diff, filtered: nothing of Vera's
  const [bob2, rw] = await srv.hello(old.bob.token, old.seq);
  t.after(() => bob2.close());
  assert.equal(rw.resume, true);
  await bob2.waitSeq(old.seq + 1);
  const diff = bob2.msgs.find((m) => m.t === 'diff' && m.seq === old.seq + 1);
  assert.ok(diff, JSON.stringify(bob2.msgs));
  assert.ok(!diff.raw.includes('Knowledge') && !diff.raw.includes(`/private/${old.ann.seat}`), diff.raw);
  assert.ok(diff.ops.some((o) => o.op === 'remove' && o.path === `/chars/${old.vera}/sheet/loyalties`));
  // the log replays to the live state, and a restart does not upgrade again
  const [zero] = srv.replay({ campaign: old.campaign, fromZero: true });
  assert.deepEqual(zero.state, gw.state);
  await srv.restart();
  const [gm2, gw2] = await srv.hello(old.gm_token);
  t.after(() => gm2.close());
  assert.equal(gw2.seq, old.seq + 1, 'the upgrade is recorded once');
  // Ann edits her sheet as a whole; the Loyalties stay private
  const [ann2] = await srv.hello(old.ann.token);
  t.after(() => ann2.close());
  const edited = [{ kind: 'Devoted', target: 'Crew', prime: true }, { kind: 'Hated', target: 'Police' }];
  const r = await ann2.cmd('char.update', { id: old.vera, sheet: { ...sample('cot', 'vera_lockhart'), loyalties: edited } });
  assert.equal(r.t, 'ack', r.raw);
  await ann2.ping();
  assert.deepEqual(ann2.state.private[old.ann.seat].sheets[old.vera].loyalties, edited);
  assert.equal(ann2.state.chars[old.vera].sheet.loyalties, undefined);
  // a campaign saved before sessions (000:237) has none, and its first session works
  assert.equal(gw2.state.session, undefined);
  const b = await gm2.cmd('session.begin', {});
  assert.deepEqual(b.result, { number: 1, open: true }, b.raw);
  // (a regular Loyalty: a Prime is swapped, never rewritten, 000:237, issue 25)
  const a = await ann2.cmd('session.alter', { char: old.vera, loyalty: 2, to: 'Desire: Gold' });
  assert.equal(a.t, 'ack', a.raw);
  await ann2.ping();
  assert.deepEqual(ann2.state.private[old.ann.seat].sheets[old.vera].loyalties, [{ kind: 'Devoted', target: 'Crew', prime: true }, { kind: 'Desire', target: 'Gold' }]);
});
