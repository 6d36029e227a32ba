// The kill -9 loop (issue 12): T tables × S seats pipeline commands; the server is killed with
// SIGKILL at a random moment (seeded), restarted, every seat resumes and re-sends what it had not
// seen acked. After every cycle: 0 acked lost, 0 duplicated, integrity_check ok, replay == live.
//
// The short run is part of deploy/test. The long one (README, "Reliability figures"):
//   TABLED_KILL_CYCLES=60 TABLED_KILL_TABLES=4 TABLED_KILL_SEATS=4 \
//     TABLED_BIN=$PWD/../build/server/tabled node --test integration/killloop.test.mjs
// TABLED_KILL_SEED changes the kill moments.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './lib.mjs';
import { rng, setUp, loadThenCrash, recover, verify, tearDown } from './chaos.mjs';

const CYCLES = Number(process.env.TABLED_KILL_CYCLES || 6);
const TABLES = Number(process.env.TABLED_KILL_TABLES || 2);
const SEATS = Number(process.env.TABLED_KILL_SEATS || 3);
const SEED = Number(process.env.TABLED_KILL_SEED || 12);

test(`kill -9 loop: ${CYCLES} cycles, ${TABLES} tables × ${SEATS} seats pipelining: nothing acked lost or duplicated`, { timeout: 60000 + CYCLES * 30000 }, async (t) => {
  const srv = await startServer(t, { args: ['--rate-limit', '0', '--snapshot-every', '25'] });
  const rand = rng(SEED);
  const tab = await setUp(srv, { tables: TABLES, seats: SEATS });
  t.after(() => tearDown(tab));
  let figures;
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const ms = 80 + Math.floor(rand() * 500);
    await loadThenCrash(tab, ms, () => srv.kill('SIGKILL'));
    await srv.restart();
    await recover(tab, rand);
    figures = await verify(srv, tab);
    assert.equal(figures.lost, 0, `cycle ${cycle}: acked commands lost: ${JSON.stringify(figures.lostIds.slice(0, 5))}`);
    assert.equal(figures.duplicated, 0, `cycle ${cycle}: commands stored twice`);
  }
  assert.ok(figures.acked > CYCLES * 10, `the load ran (${figures.acked} acked)`);
  t.diagnostic(`kill -9 cycles: ${CYCLES}; acked: ${figures.acked}; stored: ${figures.stored}; lost: ${figures.lost}; duplicated: ${figures.duplicated}`);
});
