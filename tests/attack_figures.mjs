// Re-runs two attacks of issue 27 and prints figures (not part of the test suites):
//   describe: one player sends system.describe at the default rate limit for 10 s; the bytes the
//             database (with its WAL) grew.
//   seats:    one address joins with one join link as fast as it is answered for 30 s; the seats
//             made.
// TABLED_BIN picks the binary (e.g. a build of main to compare).
import fs from 'node:fs';
import { startServer, table, sleep } from './integration/lib.mjs';

const size = (srv) => ['', '-wal'].reduce((n, s) => n + (fs.existsSync(srv.db + s) ? fs.statSync(srv.db + s).size : 0), 0);

const srv = await startServer(null);
const { gm, players } = await table(srv, ['Ann']);
const ann = players[0].client;
const before = size(srv);
let acks = 0;
let limited = 0;
const t0 = Date.now();
while (Date.now() - t0 < 10000) {
  const r = await ann.cmd('system.describe', { system: 'cot' });
  if (r.t === 'ack') acks++;
  else if (r.code === 'rate_limited') limited++;
  await sleep(45); // ~20 a second: the default rate limit
}
console.log(`describe: ${acks} answered (${limited} rate-limited) in 10 s; database + WAL grew ${size(srv) - before} bytes`);
await gm.close();
await ann.close();

let seats = 0;
let refused = null;
const t1 = Date.now();
while (Date.now() - t1 < 30000) {
  const c = await srv.connect({ localAddress: '127.0.0.7' });
  const r = await c.join(srv.joinCode, `Bot ${seats}`);
  await c.close();
  if (r.joined) seats++;
  else {
    refused = r.error;
    if (r.error.code !== 'rate_limited' || !/seats/.test(r.error.message)) break;
  }
}
console.log(`seats: one address made ${seats} seats in 30 s${refused ? `; then: ${refused.code} "${refused.message}"` : ''}`);
await srv.stop();
