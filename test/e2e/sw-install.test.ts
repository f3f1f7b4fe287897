// The first visit: the worker registers, precaches every file with its hash checked, and takes
// control; HEAD requests (the reconnect probe) stay with the network.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openInstalled, openInstalledWatched, statusFact, waitReady, type WatchedVisit } from './lib/app';
import { freshContext, goOffline } from './lib/browser';
import { holdFile, HOSTS, requestsSince, startHost } from './lib/hosts';
import { audit, BUILDS, readPrecache, site } from './lib/site';
import { beforeAllTests } from './lib/hooks';
import { shareChromium, type Shared } from './lib/suite';
import { until, WAIT } from './lib/wait';
import { cachedPaths, cacheNames } from './lib/caches';
import { CACHE_PREFIX } from '../../src/contract/app-name';

// What the worker stores and lets through, on each host, on the React build: sw.js is the same bytes
// in both builds, and the Preact build's registration and stored files are proven in every engine
// (engines.test.ts scenarios 1 and 2). The banner's count, the page's, runs on both builds below.
{
  const dist = site('react', 'v1');
  const manifest = readPrecache(dist);
  for (const kind of HOSTS) {
    // The tests read one first visit, what a person's first visit leaves behind, and change nothing of it.
    const test = suite<Shared & WatchedVisit>(`sw install (react, ${kind})`);
    shareChromium(test, () => startHost(kind, dist));
    beforeAllTests(test, async (shared) => {
      Object.assign(shared, await openInstalledWatched(await freshContext(shared.browser), shared.host.url));
    });

    test('registers /sw.js with scope / after load, and controls the page once installed', async ({ page, problems, host }) => {
      const reg = await page.evaluate(async () => {
        const r = await navigator.serviceWorker.getRegistration();
        return { scope: r?.scope, script: r?.active?.scriptURL, controller: navigator.serviceWorker.controller?.scriptURL };
      });
      assert.equal(reg, { scope: host.url, script: new URL('/sw.js', host.url).href, controller: new URL('/sw.js', host.url).href });
      assert.equal(problems, []);
    });

    test('precaches every file of the manifest, byte for byte as the build hashed it, in one cache named by the version', async ({
      page,
      host,
    }) => {
      const name = CACHE_PREFIX + audit(dist).version;
      assert.equal(await cacheNames(page), [name]);
      assert.equal(await cachedPaths(page, name), [...Object.keys(manifest), '/precache.json'].sort());
      // Recompute each cached file's SHA-384 in the page: what the manifest promised is what is stored.
      const hashes = await page.evaluate(async (n) => {
        const cache = await caches.open(n);
        const out: Record<string, string> = {};
        for (const req of await cache.keys()) {
          const response = await cache.match(req);
          if (!response) throw new Error(`Expected a cached response for ${req.url}`);
          const bytes = await response.arrayBuffer();
          const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', bytes));
          out[new URL(req.url).pathname] = 'sha384-' + btoa(String.fromCharCode(...digest));
        }
        return out;
      }, name);
      for (const [url, sri] of Object.entries(manifest)) if (sri) assert.is(hashes[url], sri, url);
      if (kind === 'pages') {
        // Pages answers /404.html with a 308 to /404: the install followed it, verified what it led
        // to (the hashes above) and stored a plain copy, which any engine takes for a navigation.
        await host.logged();
        assert.ok(requestsSince(host, 0).includes('/404'), 'the install followed the redirect');
        const redirected = await page.evaluate(async (n) => (await (await caches.open(n)).match('/404.html'))?.redirected, name);
        assert.is(redirected, false, 'the stored copy has no record of the redirect');
      }
      // audit.json has no hash in the manifest (it lists sw.js's); it is still this build's file.
      assert.is(manifest['/audit.json'], '');
      assert.is(
        hashes['/audit.json'],
        'sha384-' +
          createHash('sha384')
            .update(readFileSync(path.join(dist, 'audit.json')))
            .digest('base64'),
      );
    });

    test('never precaches /sw.js, and lets HEAD /sw.js (the reconnect probe) reach the server', async ({ page, host }) => {
      await host.logged();
      const from = host.log.length;
      const status = await page.evaluate(async () => (await fetch('/sw.js', { method: 'HEAD', cache: 'no-store' })).status);
      assert.is(status, 200);
      await until("the HEAD in the host's log", () => requestsSince(host, from, 'HEAD').length > 0);
      assert.equal(requestsSince(host, from, 'HEAD'), ['/sw.js']);
      assert.not.ok(Object.keys(manifest).includes('/sw.js'));
    });
    test.run();
  }

  // Offline, on the host whose answers a cache may keep (python sends Last-Modified and no
  // Cache-Control, so a plain request could be answered by heuristic freshness): a visit of its own.
  const probe = suite<Shared>('sw install: the reconnect probe offline (react, python)');
  shareChromium(probe, () => startHost('python', dist));
  probe('offline, HEAD /sw.js (the reconnect probe) fails rather than being answered from a cache', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const page = await openInstalled(context, host.url);
    // Online first: the probe is answered, so the cache could hold an answer.
    assert.is(await page.evaluate(async () => (await fetch('/sw.js', { method: 'HEAD', cache: 'no-store' })).status), 200);
    await goOffline(context, page);
    await host.logged();
    const offlineFrom = host.log.length;
    const offline = await page.evaluate(() =>
      fetch('/sw.js', { method: 'HEAD', cache: 'no-store' }).then(
        () => 'answered',
        () => 'failed',
      ),
    );
    await host.logged();
    const heard = JSON.stringify(requestsSince(host, offlineFrom, 'HEAD'));
    assert.is(offline, 'failed', `offline, the probe must fail rather than be answered from a cache (the host heard ${heard})`);
    await context.close();
  });
  probe.run();
}

for (const build of BUILDS) {
  const dist = site(build.name, 'v1');
  const manifest = readPrecache(dist);
  const progress = suite<Shared>(`sw install progress (${build.name})`);
  shareChromium(progress);
  progress('shows "n of m files" while precaching, then "Ready to work offline"', async ({ browser }) => {
    // The not-found page arrives late, so the first install is slow enough to watch. Only the
    // install asks for it: the page asks for the other screens, not for it.
    const notFoundPage = holdFile('/404.html');
    notFoundPage.hold();
    const host = await startHost('preview', dist, { intercept: notFoundPage.intercept });
    const context = await freshContext(browser);
    const page = await context.newPage();
    await page.goto(host.url);
    const total = Object.keys(manifest).length;
    const status = page.getByRole('status');
    await status.getByText(new RegExp(`Saving the app for offline use: ${total - 1} of ${total} files`)).waitFor({ timeout: 10_000 });
    assert.is(await page.evaluate(() => navigator.serviceWorker.controller), null);
    notFoundPage.release();
    await waitReady(page);
    await status.getByText('Ready to work offline.').waitFor({ timeout: 5_000 });
    // A later visit is ordinary: no banner, once the page knows its worker is ready (the banner
    // and the status screen show the same state).
    await page.reload();
    await page.getByRole('link', { name: 'Offline readiness' }).click();
    await page.getByRole('heading', { level: 1, name: 'Offline readiness' }).waitFor(WAIT);
    await until('the status screen to show the worker ready', async () => (await statusFact(page, 'State')) === 'ready');
    assert.not.match((await page.locator('.banners').textContent()) ?? '', /offline use|Ready to work offline/);
    await context.close();
    await host.close();
  });
  progress.run();
}
