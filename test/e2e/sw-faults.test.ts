// Faults outside the offline layer's happy path, each produced for real in Chromium: a download
// that stalls on a first visit (the host never answers one request), a first install that fails
// and is tried again by the page, the Cache API failing inside the running worker (also across a
// deploy), and cached entries damaged on disk followed by a worker restart. (A download slower
// than the stall limit that keeps moving: engines-versions.test.ts scenario 9, in every engine.)
// For each: what the person sees, and that nothing unverified is served.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sri } from '../../tools/sri.mjs';
import { countLoads, openInstalled, settle, statusFact, waitReady, workerStateIs } from './lib/app';
import { clearHttpCache, freshContext } from './lib/browser';
import { cachedSri, damage } from './lib/caches';
import { requestsSince, startHost } from './lib/hosts';
import { BUILDS, copySources, readPrecache, site } from './lib/site';
import { buildWithStallLimit } from './lib/builder';
import { shareChromium, type Shared } from './lib/suite';
import { until, WAIT } from './lib/wait';
import { logLines } from './lib/connectivity-log';
import { variant } from './lib/screens';
import { FIRST_RETRY_MS } from '../../src/worker-client/install-retry';

/**
 * The stall limit (package.json `stallSeconds`) of the copy the stall test installs. At the default
 * 10 s the test waited about half a minute (a response that stops, and headers that never come,
 * allowed twice the limit) for the same proof; the limits' arithmetic is test/unit/sw-stall.test.ts.
 */
const STALL_SECONDS = 2;

/** Files only the worker asks for on a first visit to `/`: what it does with them is all that happens to them. */
const LICENCES = '/licenses.txt';
const SBOM = '/sbom.cdx.json';

/** The headers the preview server would send for `file` of the test site, enough for the worker to take it. */
const typeOf = (file: string) => (file.endsWith('.json') ? 'application/json' : 'text/plain; charset=utf-8');

/**
 * An intercept that answers the first GET of each of `files` badly and never finishes it: for
 * `beforeHeaders` files nothing at all, for the others the headers and half the body. Later GETs
 * of the same file get the server's answer. `end()` closes the held connections.
 */
function stallFirstGets(dist: string, beforeHeaders: string[], midBody: string[]) {
  const held: ServerResponse[] = [];
  const seen = new Set<string>();
  return {
    end: () => {
      for (const response of held) response.destroy();
    },
    intercept: (req: IncomingMessage, res: ServerResponse): boolean => {
      const url = req.url ?? '';
      if (req.method !== 'GET' || seen.has(url) || ![...beforeHeaders, ...midBody].includes(url)) return false;
      seen.add(url);
      held.push(res);
      if (midBody.includes(url)) {
        const bytes = readFileSync(path.join(dist, url));
        res.writeHead(200, { 'Content-Type': typeOf(url), 'Content-Length': bytes.length, 'Cache-Control': 'no-cache' });
        res.write(bytes.subarray(0, bytes.length >> 1));
      }
      return true;
    },
  };
}

/** Replaces the Cache API of the worker that controls `page` with one whose every read and write rejects, as Chromium's does on a damaged profile. */
async function breakWorkerCacheStorage(page: Page): Promise<void> {
  const [worker] = page.context().serviceWorkers();
  assert.ok(worker, 'a running worker to break');
  await worker.evaluate(() => {
    const failing = () => Promise.reject(new DOMException('Unexpected internal error.', 'UnknownError'));
    CacheStorage.prototype.match = failing;
    CacheStorage.prototype.open = failing;
    Cache.prototype.match = failing;
    Cache.prototype.put = failing;
  });
}

/**
 * Watches for the next install the page's registration starts; the function returned resolves to
 * how it ended: 'installed' (it waits) or 'redundant' (it failed).
 */
async function watchNextInstall(page: Page): Promise<() => Promise<string>> {
  type Watched = { __install: Promise<string> };
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    (window as unknown as Watched).__install = new Promise<string>((resolve) => {
      registration?.addEventListener('updatefound', () => {
        const worker = registration.installing;
        worker?.addEventListener('statechange', () => {
          if (worker.state === 'installed' || worker.state === 'redundant') resolve(worker.state);
        });
      });
    });
  });
  return () => page.evaluate(() => (window as unknown as Watched).__install);
}

for (const build of BUILDS) {
  const dist = site(build.name, 'v1');
  const manifest = readPrecache(dist);
  const test = suite<Shared>(`sw faults (${build.name})`);
  shareChromium(test);

  // The worker's faults run on the React build: sw.js is the same bytes in both builds, and the
  // words the page shows for them are tested in-process (test/unit/worker-state.test.ts). What the
  // page itself does about a failed first install (its retry, in the same page) runs on both.
  test('a failed first install is tried again by the page with no reload, saying when, until it is ready', async ({ browser }) => {
    let failing = true;
    const host = await startHost('preview', dist, {
      intercept: (req, res) => {
        if (req.url !== LICENCES || !failing) return false;
        res.writeHead(503, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' }).end('busy');
        return true;
      },
    });
    const context = await freshContext(browser);
    // The page's clock is the test's, so the retry's 10 s pass at once (time flows as usual otherwise).
    await context.clock.install();
    const page = await context.newPage();
    const loads = countLoads(page);
    await page.goto(new URL('/status/', host.url).href);
    await page.getByText(/^Offline use is not ready yet: saving the app failed\. Trying again at \S+/).waitFor(WAIT);
    await workerStateIs(page, /^error: Could not save the app for offline use\. Offline use is not ready yet; trying again at /);
    assert.ok(
      (await logLines(page)).some((line) => /^install-failed: .*Trying again in 10 s\.$/.test(line)),
      'the log says when',
    );
    const loadsBefore = loads.n;
    failing = false;
    await context.clock.fastForward(FIRST_RETRY_MS);
    await page.getByText('Ready to work offline').waitFor(WAIT);
    await waitReady(page);
    assert.is(loads.n, loadsBefore, 'the same page became ready: no reload');
    assert.is(await statusFact(page, 'State'), 'ready');
    await context.close();
    await host.close();
  });

  if (build.name === 'react') {
    test('a first visit on which two downloads stall (no answer; half a body) is ready to work offline, each stalled file asked once more', async ({
      browser,
    }) => {
      const stallingDist = buildWithStallLimit(copySources(), STALL_SECONDS);
      const stallingManifest = readPrecache(stallingDist);
      const stalls = stallFirstGets(stallingDist, [LICENCES], [SBOM]);
      const host = await startHost('preview', stallingDist, { intercept: stalls.intercept });
      try {
        const context = await freshContext(browser);
        const page = await context.newPage();
        const started = Date.now();
        await page.goto(host.url);
        await page.getByText('Ready to work offline').waitFor({ timeout: 60_000 });
        const seconds = (Date.now() - started) / 1000;
        console.log(`    (${build.name}) offline-ready with two stalled downloads after ${seconds.toFixed(1)} s`);
        assert.ok(seconds >= STALL_SECONDS, 'the stalled downloads were waited on, not skipped');
        const asked = requestsSince(host, 0);
        assert.is(asked.filter((url) => url === LICENCES).length, 2, 'the stalled file asked once more, on a new request');
        assert.is(asked.filter((url) => url === SBOM).length, 2);
        assert.equal(
          await cachedSri(page, [LICENCES, SBOM]),
          [stallingManifest[LICENCES], stallingManifest[SBOM]],
          'the verified bytes were stored',
        );
        await context.close();
      } finally {
        stalls.end();
        await host.close();
      }
    });

    test('the Cache API failing in the worker: online, every page and file comes from the network, and /status says storage is failing', async ({
      browser,
    }) => {
      const host = await startHost('preview', dist);
      const context = await freshContext(browser);
      const page = await openInstalled(context, host.url);
      await breakWorkerCacheStorage(page);
      await clearHttpCache(page);
      const from = host.log.length;
      await page.goto(new URL('/about/', host.url).href);
      await settle(page, 'What this app ships');
      assert.ok(requestsSince(host, from).includes('/about/'), 'the page came from the server');
      await page.getByRole('link', { name: 'Offline readiness' }).click();
      await settle(page, 'Offline readiness');
      await workerStateIs(page, "this browser's storage is failing: working online only");
      await page
        .getByRole('status')
        .getByText(/^This browser's storage is failing: every file comes from the network/)
        .waitFor(WAIT);
      assert.ok((await logLines(page)).includes('storage-failing: working online only'), 'the log records it');
      await context.close();
      await host.close();
    });

    test('the Cache API failing, then a deploy: online, every page is the new version from the server, and the update installs once storage works again', async ({
      browser,
    }) => {
      const host = await startHost('preview', dist);
      const context = await freshContext(browser);
      const page = await openInstalled(context, host.url);
      await breakWorkerCacheStorage(page);
      // The new version's install writes through the Cache API too: with no room it fails there as well.
      const devtools = await context.newCDPSession(page);
      const origin = new URL(host.url).origin;
      await devtools.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 10_000 });
      await host.setRoot(site(build.name, 'v2'));
      await clearHttpCache(page);
      const from = host.log.length;
      await page.goto(new URL('/about/', host.url).href);
      await settle(page, 'What this app ships');
      assert.is(await variant(page), 'v2', 'the new version, as a page without the worker would get it');
      assert.ok(requestsSince(host, from).includes('/about/'), 'from the server');
      await page.getByRole('link', { name: 'Offline readiness' }).click();
      await settle(page, 'Offline readiness');
      const failed = await watchNextInstall(page);
      await page.getByRole('button', { name: 'Check for update' }).click();
      assert.is(await failed(), 'redundant', 'the update cannot install while storage fails');
      // Storage works again (room freed): the next update check installs the new version.
      await devtools.send('Storage.overrideQuotaForOrigin', { origin });
      const installed = await watchNextInstall(page);
      await page.getByRole('button', { name: 'Check for update' }).click();
      assert.is(await installed(), 'installed');
      await page.getByText('A new version is ready').waitFor(WAIT);
      await context.close();
      await host.close();
    });

    test('damaged entries (the page and the precache list) found after a worker restart are deleted, fetched again verified and named on /status', async ({
      browser,
    }) => {
      const host = await startHost('preview', dist);
      const context = await freshContext(browser);
      const page = await openInstalled(context, new URL('/status/', host.url).href);
      await settle(page, 'Offline readiness');
      const damaged = ['/about/', '/precache.json'];
      await damage(page, damaged);
      // A stopped worker starts afresh on the next event, with nothing held in memory: it must read
      // the precache list from the cache again, and finds it damaged.
      const devtools = await context.newCDPSession(page);
      await devtools.send('ServiceWorker.enable');
      await devtools.send('ServiceWorker.stopAllWorkers');
      await page.getByRole('button', { name: 'Check for update' }).click();
      await until('the damage in the log', async () => (await logLines(page)).some((line) => line.startsWith('copy-damaged: ')));
      await page.getByRole('status').getByText('Repaired 2 files.').waitFor(WAIT);
      await workerStateIs(page, 'ready');
      const expected = [manifest['/about/'], sri(readFileSync(path.join(dist, 'precache.json')))];
      assert.equal(await cachedSri(page, damaged), expected, 'the bytes the build hashed');
      // The repaired page is served from the cache: the server is not asked for it.
      const from = host.log.length;
      await page.goto(new URL('/about/', host.url).href);
      await settle(page, 'What this app ships');
      assert.not.ok(requestsSince(host, from).includes('/about/'));
      await context.close();
      await host.close();
    });
  }

  test.run();
}
