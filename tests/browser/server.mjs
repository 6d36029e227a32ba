// Starts the real `tabled serve` for a test: a free port on 127.0.0.1, a temporary database, the
// repository's web-static/. Parses what it prints (host token, GM link, join link, port) and kills
// it at the end. Binary from $TABLED_BIN, default build/server/tabled of this repository.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
export const defaultBin = process.env.TABLED_BIN || path.join(repoRoot, 'build', 'server', 'tabled');
export const webDir = path.join(repoRoot, 'web-static');

const running = new Set();
process.on('exit', () => {
  for (const p of running) {
    try {
      p.kill('SIGKILL');
    } catch {
      /* gone */
    }
  }
});

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export function tempDir(prefix = 'tabled-browser-') {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

// Picks the link printed for 127.0.0.1 (the server prints one per address it listens on).
function pickLink(lines, label) {
  const links = lines
    .map((l) => new RegExp(`^\\s*${label}:\\s*(\\S+)`).exec(l))
    .filter(Boolean)
    .map((m) => m[1]);
  return links.find((l) => l.includes('//127.0.0.1:')) || links[0] || null;
}

/**
 * Starts the server and resolves once it printed "listening on port N" and answers /healthz.
 * Returns {port, dir, db, url, gmLink, joinLink, gmToken, joinCode, hostToken, output(), kill(signal), stop()}.
 */
export async function startServer({ port, dir, bin = defaultBin, timeoutMs = 20000, extraArgs = [] } = {}) {
  if (!fs.existsSync(bin)) throw new Error(`tabled binary not found at ${bin} (build it, or set TABLED_BIN)`);
  port = port ?? (await freePort());
  dir = dir ?? tempDir();
  const db = path.join(dir, 't.db');
  const args = ['serve', '--port', String(port), '--bind', '127.0.0.1', '--db', db, '--web', webDir, ...extraArgs];
  const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(proc);
  let out = '';
  const lines = [];
  let exited = null;
  proc.on('error', (err) => {
    exited = { error: String(err) }; // e.g. ENOENT, or ETXTBSY while the binary is being rebuilt
    running.delete(proc);
  });
  proc.on('exit', (code, signal) => {
    exited = { code, signal };
    running.delete(proc);
  });
  const onData = (chunk) => {
    out += chunk;
    const parts = out.split('\n');
    out = parts.pop();
    lines.push(...parts);
  };
  proc.stdout.setEncoding('utf8').on('data', onData);
  let errText = '';
  proc.stderr.setEncoding('utf8').on('data', (c) => {
    errText += c;
    if (errText.length > 20000) errText = errText.slice(-20000);
  });

  const output = () => [...lines, out].join('\n') + (errText ? `\n[stderr]\n${errText}` : '');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`tabled exited early (${JSON.stringify(exited)}):\n${output()}`);
    if (lines.some((l) => /listening on port \d+/.test(l)) && pickLink(lines, 'GM link') && pickLink(lines, 'join link')) break;
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`tabled did not start within ${timeoutMs} ms:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`/healthz did not answer:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }

  const gmLink = pickLink(lines, 'GM link');
  const joinLink = pickLink(lines, 'join link');
  const hostToken = (lines.map((l) => /host token:\s*(\S+)/.exec(l)).find(Boolean) || [])[1] || null;
  const kill = (signal = 'SIGKILL') =>
    new Promise((resolve) => {
      if (exited) return resolve(exited);
      proc.once('exit', (code, sig) => resolve({ code, signal: sig }));
      proc.kill(signal);
    });
  return {
    port,
    dir,
    db,
    url,
    gmLink,
    joinLink,
    gmToken: new URL(gmLink).hash.replace(/^#token=/, ''),
    joinCode: decodeURIComponent(new URL(joinLink).hash.replace(/^#join=/, '')),
    hostToken,
    proc,
    output,
    kill,
    // A clean stop (SIGTERM), or SIGKILL when it does not exit within 5 s.
    stop: async () => {
      const t = setTimeout(() => proc.kill('SIGKILL'), 5000);
      const r = await kill('SIGTERM');
      clearTimeout(t);
      return r;
    },
  };
}
