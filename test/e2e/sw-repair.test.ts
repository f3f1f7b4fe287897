// Browsers evict cache entries behind the worker's back. These tests delete entries through the
// page's Cache API, as eviction would, and check that the worker puts them back verified when a
// request needs them and in its check after a navigation; that bytes failing the manifest's hash
// are neither served nor cached; and that offline, everything else still works and /status says
// what is missing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sri } from '../../tools/sri.mjs';
import { openInstalled, settle, statusFact, watchConsole, shownText } from './lib/app';
import { clearHttpCache, freshContext } from './lib/browser';
import { cachedSri, evict } from './lib/caches';
import { requestsSince, startHost } from './lib/hosts';
import { appScript, precachedFiles, readPrecache, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { until, WAIT } from './lib/wait';
import { HOME } from './lib/screens';

/** Navigates and waits until the screen with heading `h1` has loaded what it shows. */
async function show(page: Page, url: string, h1: string): Promise<void> {
  await page.goto(url);
  await settle(page, h1);
}

/** The text of the precache check's live region on /status. */
const precacheRegion = (page: Page) => page.locator('h2:has-text("Precache check") + [role="status"]');

/** The file of `dist` served under `url` (`/about/` is `about/index.html`). */
const fileOf = (dist: string, url: string): string => path.join(dist, url.endsWith('/') ? url + 'index.html' : url);

/**
 * An intercept for the preview server that answers the URLs in `altered` with the right file plus
 * a few bytes (status 200, the right type): what a compromised or broken CDN edge would send.
 */
function alteringIntercept(dist: string, altered: Set<string>) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? '';
    if (!altered.has(url)) return false;
    const type = url.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/html; charset=utf-8';
    const bytes = Buffer.concat([
      readFileSync(fileOf(dist, url)),
      Buffer.from(url.endsWith('.js') ? '\n;/* altered */\n' : '\n<!-- altered -->\n'),
    ]);
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': bytes.length, 'Cache-Control': 'no-cache' }).end(bytes);
    return true;
  };
}

// On the React build: sw.js is the same bytes in both builds, the repair in the Preact build is
// proven in every engine (engines-repair-media.test.ts scenario 8), and the words /status shows for
// it are tested in-process (test/unit/worker-state.test.ts).
{
  const dist = site('react', 'v1');
  const manifest = readPrecache(dist);
  const script = '/' + appScript(dist);
  /** Files the precache check on /status counts (src/worker-client/precache-check.ts). */
  const checked = precachedFiles(dist).length;

  const test = suite<Shared>('sw repair (react)');
  shareChromium(test);

  test('an evicted script and route page come back verified: a navigation is answered and the server asked once for each', async ({
    browser,
  }) => {
    const host = await startHost('preview', dist);
    const context = await freshContext(browser);
    const page = await openInstalled(context, host.url);
    const evicted = [script, '/about/'];
    await evict(page, evicted);
    assert.equal(await cachedSri(page, evicted), [null, null], 'both entries are gone');
    // The page loaded the script itself: without this the worker could take its verified copy
    // from the HTTP cache, and the server would not see the repair.
    await clearHttpCache(page);
    await host.logged();
    const from = host.log.length;
    await show(page, new URL('/about/', host.url).href, 'What this app ships');
    await until('both entries back in the cache', async () => (await cachedSri(page, evicted)).every(Boolean));
    assert.equal(await cachedSri(page, evicted), [manifest[script], manifest['/about/']], 'the bytes the build hashed');
    const asked = requestsSince(host, from).filter((url) => url !== '/sw.js');
    assert.equal(asked.sort(), [...evicted].sort(), 'each evicted file once, nothing that was still cached');
    // /status tells what happened, in its live region.
    await page.getByRole('link', { name: 'Offline readiness' }).click();
    await settle(page, 'Offline readiness');
    await until('the repair on /status', async () => (await shownText(precacheRegion(page))).includes('Repaired 2 files.'));
    await until('every file verified', async () =>
      (await shownText(precacheRegion(page))).includes(`${checked} of ${checked} files verified`),
    );
    await until('the state "ready"', async () => (await statusFact(page, 'State')) === 'ready');
    await context.close();
    await host.close();
  });

  test('the evicted manifest is refetched by its pinned SHA-384, also by a worker that restarted and had not read it', async ({
    browser,
  }) => {
    const host = await startHost('preview', dist);
    const context = await freshContext(browser);
    const page = await openInstalled(context, host.url);
    await evict(page, ['/precache.json', '/licenses.txt']);
    // A stopped worker starts afresh on the next event, with nothing held in memory.
    const devtools = await context.newCDPSession(page);
    await devtools.send('ServiceWorker.enable');
    await devtools.send('ServiceWorker.stopAllWorkers');
    await show(page, new URL('/about/', host.url).href, 'What this app ships');
    await until('the manifest and the file it lists back', async () =>
      (await cachedSri(page, ['/precache.json', '/licenses.txt'])).every(Boolean),
    );
    const [manifestSri, licences] = await cachedSri(page, ['/precache.json', '/licenses.txt']);
    assert.is(manifestSri, sri(readFileSync(path.join(dist, 'precache.json'))));
    assert.is(licences, manifest['/licenses.txt']);
    await context.close();
    await host.close();
  });

  test('bytes failing the hash are never served nor cached: the script is a network error, the page falls back to the shell, /status says what is missing', async ({
    browser,
  }) => {
    const altered = new Set<string>();
    const host = await startHost('preview', dist, { intercept: alteringIntercept(dist, altered) });
    const context = await freshContext(browser);
    const page = await openInstalled(context, host.url);
    await evict(page, [script, '/about/']);
    await clearHttpCache(page);
    altered.add(script);
    altered.add('/about/');
    await host.logged();
    const from = host.log.length;
    const fetched = await page.evaluate(
      (url) =>
        fetch(url).then(
          (response) => `answered ${response.status}`,
          () => 'network error',
        ),
      script,
    );
    assert.is(fetched, 'network error', 'the altered script is not served');
    assert.ok(requestsSince(host, from).includes(script), 'the server was asked and sent altered bytes');
    assert.equal(await cachedSri(page, [script]), [null], 'nor cached');
    // With a good script, the route page alone is altered: the navigation gets the cached shell,
    // whose script shows the route of the URL.
    altered.delete(script);
    const problems = watchConsole(page);
    await show(page, new URL('/about/', host.url).href, 'What this app ships');
    const html = await page.evaluate(() => document.documentElement.outerHTML);
    assert.not.match(html, 'altered', 'the altered page was not served');
    await page.getByRole('link', { name: 'Offline readiness' }).click();
    await settle(page, 'Offline readiness');
    const expected = [
      '1 file missing: could not be fetched intact, so not repaired.',
      `${checked - 1} of ${checked} files verified`,
      'about/index.html: not cached',
    ];
    await until('the missing page on /status', async () => {
      const region = await shownText(precacheRegion(page));
      return expected.every((text) => region.includes(text));
    });
    await until('the state named', async () => /^error: 1 file missing and not repaired/.test((await statusFact(page, 'State')) ?? ''));
    assert.equal(
      await cachedSri(page, [script, '/about/']),
      [manifest[script], null],
      'the good script was put back, the altered page was not',
    );
    // The only complaint is the shell's prerendered route differing from the URL's (React says so
    // on hydration; Preact patches silently).
    assert.ok(
      problems.every((problem) => /hydrat|Minified React error #418/i.test(problem)),
      problems.join('\n'),
    );
    await context.close();
    await host.close();
  });

  test('offline with entries missing, every other route works, /status names what is missing, and back online it is repaired', async ({
    browser,
  }) => {
    const host = await startHost('preview', dist);
    const context = await freshContext(browser);
    const page = await openInstalled(context, host.url);
    const evicted = ['/about/', '/licenses.txt'];
    await evict(page, evicted);
    // Offline, a verified copy in the HTTP cache would repair them at once (the page loaded both).
    await clearHttpCache(page);
    await context.setOffline(true);
    await host.logged();
    const from = host.log.length;
    await show(page, host.url, HOME.h1);
    // The missing route page: the cached shell, whose script shows the About screen (without the licences).
    await show(page, new URL('/about/', host.url).href, 'What this app ships');
    await show(page, new URL('/status/', host.url).href, 'Offline readiness');
    // Offline, the page's registration takes a moment (its update check of /sw.js must fail first):
    // the state is named once it has resolved, and the page's own hash check runs beside it.
    await until(
      'the state named',
      async () => (await statusFact(page, 'State')) === 'offline and incomplete (2 missing, will repair when online)',
    );
    const expected = [
      '2 files missing: repairing when online.',
      `${checked - 2} of ${checked} files verified`,
      'about/index.html: not cached',
      'licenses.txt: not cached',
    ];
    await until('the missing files on /status', async () => {
      const region = await shownText(precacheRegion(page));
      return expected.every((text) => region.includes(text));
    });
    // (The browser's own update check of /sw.js is not the page's network: Chromium may send it.)
    assert.equal(
      host.log.slice(from).filter((request) => request.url !== '/sw.js'),
      [],
      'offline, no file was fetched',
    );
    // Back online the page reloads once (it had been offline), and the worker repairs.
    await context.setOffline(false);
    await until(
      'the repair on /status',
      async () => (await shownText(precacheRegion(page)).catch(() => '')).includes('Repaired 2 files.'),
      15_000,
    );
    await until('the state "ready"', async () => (await statusFact(page, 'State')) === 'ready');
    assert.equal(await cachedSri(page, evicted), [manifest['/about/'], manifest['/licenses.txt']]);
    await page.getByText(`${checked} of ${checked} files verified`).waitFor(WAIT);
    await context.close();
    await host.close();
  });

  test.run();
}
