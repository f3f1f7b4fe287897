// The first visit: the worker registers, precaches every file with its hash checked, and takes
// control; HEAD requests (the reconnect probe) stay with the network.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { audit, cachedPaths, cacheNames, cleanup, freshContext, host, HOSTS, requestsSince, openInstalled, waitReady, type Host } from './deploy';
import { BUILDS, launch, preview, watchProblems } from './helpers';

let browser: Browser;
for (const build of BUILDS) {
  const manifest: Record<string, string> = JSON.parse(readFileSync(path.join(build.dir, 'precache.json'), 'utf8'));
  for (const kind of HOSTS) {
    const test = suite(`sw install (${build.name}, ${kind})`);
    let site: Host;
    test.before(async () => {
      browser = await launch();
      site = await host(kind, build.dir);
    });
    test.after(async () => {
      await site.close();
      await browser.close();
    });

    test('registers /sw.js with scope / after load, and controls the page once installed', async () => {
      const context = await freshContext(browser);
      const page = await context.newPage();
      const problems = watchProblems(page);
      await page.goto(site.url);
      await waitReady(page);
      const reg = await page.evaluate(async () => {
        const r = await navigator.serviceWorker.getRegistration();
        return { scope: r?.scope, script: r?.active?.scriptURL, controller: navigator.serviceWorker.controller?.scriptURL };
      });
      assert.equal(reg, { scope: site.url, script: new URL('/sw.js', site.url).href, controller: new URL('/sw.js', site.url).href });
      assert.equal(problems, []);
      await context.close();
    });

    test('precaches every file of the manifest, byte for byte as the build hashed it, in one cache named by the version', async () => {
      const context = await freshContext(browser);
      const page = await openInstalled(context, site.url);
      const name = `offline-shell-${audit(build.dir).version}`;
      assert.equal(await cacheNames(page), [name]);
      assert.equal(await cachedPaths(page, name), [...Object.keys(manifest), '/precache.json'].sort());
      // Recompute each cached file's SHA-384 in the page: what the manifest promised is what is stored.
      const hashes = await page.evaluate(async (n) => {
        const cache = await caches.open(n);
        const out: Record<string, string> = {};
        for (const req of await cache.keys()) {
          const bytes = await (await cache.match(req))!.arrayBuffer();
          const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', bytes));
          out[new URL(req.url).pathname] = 'sha384-' + btoa(String.fromCharCode(...digest));
        }
        return out;
      }, name);
      for (const [url, sri] of Object.entries(manifest)) if (sri) assert.is(hashes[url], sri, url);
      // audit.json has no hash in the manifest (it lists sw.js's); it is still this build's file.
      assert.is(manifest['/audit.json'], '');
      assert.is(hashes['/audit.json'], 'sha384-' + createHash('sha384').update(readFileSync(path.join(build.dir, 'audit.json'))).digest('base64'));
      await context.close();
    });

    test('never precaches /sw.js, and lets HEAD /sw.js (the reconnect probe) reach the server', async () => {
      const context = await freshContext(browser);
      const page = await openInstalled(context, site.url);
      const from = site.log.length;
      const status = await page.evaluate(async () => (await fetch('/sw.js', { method: 'HEAD', cache: 'no-store' })).status);
      assert.is(status, 200);
      assert.equal(requestsSince(site, from, 'HEAD'), ['/sw.js']);
      assert.not.ok(Object.keys(manifest).includes('/sw.js'));
      await context.setOffline(true);
      const offline = await page.evaluate(() => fetch('/sw.js', { method: 'HEAD', cache: 'no-store' }).then(() => 'answered', () => 'failed'));
      assert.is(offline, 'failed', 'offline, the probe must fail rather than be answered from a cache');
      await context.close();
    });
    test.run();
  }

  const progress = suite(`sw install progress (${build.name})`);
  progress.before(async () => {
    browser = await launch();
  });
  progress.after(() => browser.close());
  progress('shows "n of m files" while precaching, then "Ready to work offline"', async () => {
    // The largest icon arrives late, so the first install is slow enough to watch.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const site = await preview(build.dir, async (req) => {
      if (req.url === '/icons/icon-512.png' && req.headers['cache-control'] === 'no-cache') await held;
      return false;
    });
    const context = await freshContext(browser);
    const page = await context.newPage();
    await page.goto(site.url);
    const total = Object.keys(manifest).length;
    const status = page.getByRole('status');
    await status.getByText(new RegExp(`Saving the app for offline use: ${total - 1} of ${total} files`)).waitFor({ timeout: 10_000 });
    assert.is(await page.evaluate(() => navigator.serviceWorker.controller), null);
    release();
    await waitReady(page);
    await status.getByText('Ready to work offline.').waitFor({ timeout: 5_000 });
    // A later visit is ordinary: no banner.
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForTimeout(300);
    assert.not.match((await status.textContent()) ?? '', /offline use|Ready to work offline/);
    await context.close();
    await site.close();
  });
  progress.run();
}

process.on('exit', cleanup);
