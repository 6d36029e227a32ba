// Several tabled processes behind a real nginx running deploy/nginx-tabled-shards.conf on
// loopback (issue 28): for shards.test.mjs and tests/bench/shards.mjs.
//
// The recipe is used as it is shipped; only what must differ on a test machine is replaced
// (nginx.mjs: ports, certificate, name; here: each process's port), and each replacement must
// match, so a changed recipe fails here instead of being tested in another shape. The access log
// names, for every request, its path and the process nginx sent it to.

import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, Server } from './lib.mjs';
import { loopbackSite, must, startNginxConf, wholeConf } from './nginx.mjs';

export const SHARDS_RECIPE = process.env.TABLED_SHARDS_RECIPE || path.join(repoRoot, 'deploy', 'nginx-tabled-shards.conf');
/** The processes the recipe names, and their ports there (deploy/tabled-shard.conf). */
export const RECIPE_SHARDS = [['a', 7781], ['b', 7782], ['c', 7783]];

/**
 * Starts one process per name with --shard NAME (and args), registering teardown with t.after.
 * dirs: {name: a data directory to start in (e.g. one holding an older database as t.db)}.
 */
export async function startShards(t, names = ['a', 'b', 'c'], { args = [], dirs = {}, bin } = {}) {
  const out = [];
  for (const name of names) {
    const s = new Server({ args: ['--shard', name, ...args], dir: dirs[name], bin });
    s.shard = name;
    t.after(async () => {
      await s.stop();
      const report = s.sanitizerReport();
      if (report) throw new Error(`sanitizer report on shard ${name}'s stderr:\n${report}`);
    });
    await s.start();
    out.push(s);
  }
  return out;
}

/**
 * nginx with the shards recipe in front of servers (the recipe's a, b, c in this order; with
 * fewer, the recipe's later ports point at the first ones, so its map still loads).
 * Returns startNginxConf's answer plus accessLog(): [{uri, upstream, status}].
 * bench: for tests/bench/shards.mjs — plain HTTP on the HTTPS port (its C client has no TLS),
 * the limits per address lifted (every bot comes from 127.0.0.1), and Debian's worker count and
 * connections (nginx.conf: worker_processes auto) instead of one worker.
 */
export async function startRouter(t, servers, { bench = false } = {}) {
  let logFile;
  const proxy = await startNginxConf(t, (dir, ports) => {
    let site = loopbackSite(fs.readFileSync(SHARDS_RECIPE, 'utf8'), dir, ports);
    RECIPE_SHARDS.forEach(([, port], i) => {
      site = must(site, `127.0.0.1:${port}`, `127.0.0.1:${servers[Math.min(i, servers.length - 1)].port}`);
    });
    if (bench) {
      site = must(site, `listen 127.0.0.1:${ports.httpsPort} ssl;`, `listen 127.0.0.1:${ports.httpsPort};`);
      site = must(site, /^\s*ssl_[a-z_]+ .*;\n/gm, '');
      site = must(site, /^\s*limit_(conn|req) (tabled_conn|zone=tabled_ws).*;\n/gm, '');
    }
    logFile = path.join(dir, 'route.log');
    return wholeConf(dir, site, {
      accessLog: bench ? 'off' : `${logFile} route`,
      httpExtra: "    log_format route '$request_uri $upstream_addr $status';",
      ...(bench ? { workerConnections: 8192, workerProcesses: 'auto' } : {}),
    });
  }, { scheme: bench ? 'http' : 'https' });
  proxy.accessLog = () => {
    const text = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
    return text.split('\n').filter(Boolean).map((l) => {
      const [uri, upstream, status] = l.split(' ');
      return { uri, upstream, status: Number(status) };
    });
  };
  return proxy;
}

/**
 * The operator's edit of a live move (README, "Moving a campaign"): a line of its own for
 * campaign id in the recipe's map, sending it to process `to` (a, b or c), then a reload.
 */
export function routeCampaign(proxy, id, to) {
  const conf = fs.readFileSync(proxy.conf, 'utf8');
  fs.writeFileSync(proxy.conf, must(conf, 'map $tabled_key $tabled_owner {\n', `map $tabled_key $tabled_owner {\n    ${id} tabled_${to};\n`));
  proxy.reload();
}
