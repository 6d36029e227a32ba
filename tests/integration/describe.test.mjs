// system.describe on the wire (issue 15, session 4): what the browser builds its forms from — check
// summaries, the labels of params, actions, sheet fields and editable numbers — is text a person
// reads, so it holds no rulebook line reference; the references travel in the `cite` beside it,
// as they do for refusals and log lines (protocol/err.c tb_cite_strip).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { campaignOf, ok, LINE_REF } from './enc_lib.mjs';

const SYSTEMS = ['cot', 'heimr', 'grimwire', 'tenacity', 'fivey'];

/** Every string in v that is not a cite, with the JSON path that holds it: [[path, text]]. */
function texts(v, at = '', out = []) {
  if (typeof v === 'string') out.push([at, v]);
  else if (Array.isArray(v)) v.forEach((x, i) => texts(x, `${at}/${i}`, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (k !== 'cite') texts(x, `${at}/${k}`, out);
  return out;
}

/** Every cite in v: [[path of its object, cite]]. */
function cites(v, at = '', out = []) {
  if (Array.isArray(v)) v.forEach((x, i) => cites(x, `${at}/${i}`, out));
  else if (v && typeof v === 'object') {
    if (typeof v.cite === 'string') out.push([at, v.cite]);
    for (const [k, x] of Object.entries(v)) if (k !== 'cite') cites(x, `${at}/${k}`, out);
  }
  return out;
}

test('system.describe: no rulebook line reference in any text a person reads; they are in cite', async (t) => {
  const srv = await startServer(t);
  const { gm, players } = await campaignOf(srv, t, 'cot', ['Ann']);
  const ann = players[0].client;
  for (const system of SYSTEMS) {
    for (const [who, client] of [
      ['the GM', gm],
      ['a player', ann],
    ]) {
      const d = await ok(client, 'system.describe', { system });
      assert.equal(d.system, system);
      const bad = texts(d).filter(([, s]) => LINE_REF.test(s));
      assert.deepEqual(bad, [], `${system} (asked by ${who}): texts with a line reference`);
      // The references are not lost: they moved into cite, each a list of "NNN:line" references.
      const cs = cites(d);
      assert.ok(cs.length > 0, `${system}: describe carries its rulebook references in cite`);
      for (const [at, c] of cs) assert.match(c, /^\d{3}:\d+/, `${system}${at}: cite "${c}"`);
    }
  }

  // One known case, before and after: cot's pool check said "... vs difficulty (000:9-13)".
  const cot = await ok(gm, 'system.describe', { system: 'cot' });
  const pool = cot.checks.find((c) => c.name === 'pool');
  assert.equal(pool.summary, 'skill+ability d6, keep ability highest, vs difficulty');
  assert.equal(pool.cite, '000:9-13');
});
