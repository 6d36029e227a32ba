// The page can be installed on a phone (a web app manifest with icons, served under a policy
// that allows it): Chromium's own installability check (DevTools Page.getInstallabilityErrors)
// finds nothing missing, and the manifest parses without errors.
//
// Run alone: cd tests && node --test browser/install.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';
import { CHROMIUM_ARGS, PHONE } from './pages.mjs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

test('Chromium finds the page installable', { timeout: 120000 }, async () => {
  const server = await startServer();
  // a profile on disk: an incognito context is never installable
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tabled-profile-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = ctx.pages()[0] || (await ctx.newPage());
    const errors = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${server.url}/#host=${server.hostToken}`);
    await page.locator('#conn-status[data-status="connected"]').waitFor({ timeout: 20000 });
    const cdp = await ctx.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    assert.deepEqual(manifest.errors, [], 'the manifest parses');
    assert.match(manifest.url, /\/manifest\.webmanifest$/);
    let install;
    for (let i = 0; i < 50; i++) {
      install = await cdp.send('Page.getInstallabilityErrors');
      if (install.installabilityErrors.length === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.deepEqual(install.installabilityErrors, [], 'nothing stands in the way of installing');
    assert.deepEqual(errors.filter((e) => /manifest|Content Security Policy/i.test(e)), [], 'no policy refused the manifest or an icon');
  } finally {
    await ctx.close();
    await server.stop();
    fs.rmSync(profile, { recursive: true, force: true });
    fs.rmSync(server.dir, { recursive: true, force: true });
  }
});
