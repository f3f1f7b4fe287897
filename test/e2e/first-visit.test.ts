// A first visit downloads each file once: the install may take what the page just loaded from
// the HTTP cache, because every file is checked against its SHA-384 anyway. A copy in the HTTP
// cache that does not match (stale, altered) is fetched again past the cache, and the right
// bytes are installed. Counted at the preview server, which sends the README's Cache-Control.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openInstalled, waitReady } from './lib/app';
import { freshContext } from './lib/browser';
import { cachedPaths, ourCacheNames } from './lib/caches';
import { holdFile, requestsSince, startHost } from './lib/hosts';
import { ROUTES } from './lib/screens';
import { audit, BUILDS, precachedFiles, readPrecache, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { until } from './lib/wait';

for (const build of BUILDS) {
  const test = suite<Shared>(`first visit (${build.name})`);
  const dir = site(build.name, 'v1');
  const precached = Object.keys(readPrecache(dir));
  shareChromium(test);

  test('every precached file crosses the network exactly once', async ({ browser }) => {
    const host = await startHost('preview', dir);
    const context = await freshContext(browser);
    try {
      await openInstalled(context, host.url);
      // A revalidation the browser makes on its own (Chromium's favicon loader sometimes does) is
      // answered 304 with no body: it is not the file crossing the network again.
      const requested = host.log.filter((request) => request.method === 'GET' && !request.revalidation).map((request) => request.url);
      const times = (url: string) => requested.filter((asked) => asked === url).length;
      const notOnce = precached.filter((url) => times(url) !== 1).map((url) => `${url}: ${times(url)}`);
      assert.equal(notOnce, [], 'each precached file requested once');
    } finally {
      await context.close();
      await host.close();
    }
  });

  test('on a host slow to answer, the page asks for the manifest and the other screens while sw.js is on its way; each crosses the network once', async ({
    browser,
  }) => {
    // The bench's slow link (150 ms before each answer, then 200 KiB/s), and sw.js held: until it
    // is released no install can ask for anything, so what arrives meanwhile the page asked for.
    const workerScript = holdFile('/sw.js');
    workerScript.hold();
    const asked: string[] = [];
    const host = await startHost('preview', dir, {
      pace: { delayMs: 150, bytesPerSecond: 200 * 1024 },
      intercept: (request, response) => {
        if (request.method === 'GET') asked.push(request.url ?? '');
        return workerScript.intercept(request, response);
      },
    });
    const context = await freshContext(browser);
    try {
      const page = await context.newPage();
      await page.goto(host.url);
      const later = precached.filter((url) => url.startsWith('/assets/later-'));
      assert.is(later.length, 1, 'one chunk loaded on use');
      const otherScreens = ROUTES.map((route) => route.path).filter((route) => route !== '/');
      const early = ['/precache.json', ...otherScreens, ...later];
      await until(
        'the page to ask for the install’s first files, and for sw.js, held',
        () => early.every((url) => asked.includes(url)) && workerScript.waiting.includes('/sw.js'),
      );
      workerScript.release();
      await waitReady(page);
      assert.ok(asked.includes('/404.html'), 'the install asked for the rest');
      for (const url of early) assert.is(asked.filter((other) => other === url).length, 1, `${url} asked once`);
    } finally {
      workerScript.release();
      await context.close();
      await host.close();
    }
  });

  test('robots.txt and the icons only the web manifest names are left to the host: never stored, asked of the host when wanted', async ({
    browser,
  }) => {
    const checked = precachedFiles(dir).map((file) => file.path);
    const leftToHost = audit(dir)
      .files.map((file) => file.path)
      .filter((file) => !['sw.js', '_headers'].includes(file) && !checked.includes(file));
    assert.equal(leftToHost, ['icons/icon-512.png', 'icons/icon-maskable-512.png', 'robots.txt']);
    const host = await startHost('preview', dir);
    const context = await freshContext(browser);
    try {
      const page = await openInstalled(context, host.url);
      const [cacheName] = await ourCacheNames(page);
      const stored = await cachedPaths(page, cacheName);
      assert.equal(stored, [...Object.keys(readPrecache(dir)), '/precache.json'].sort(), 'what the manifest lists');
      for (const file of leftToHost) assert.not.ok(stored.includes('/' + file), `${file} is not stored`);
      await host.logged();
      const from = host.log.length;
      assert.is(
        await page.evaluate(() => fetch('/robots.txt').then((response) => response.text())),
        readFileSync(path.join(dir, 'robots.txt'), 'utf8'),
      );
      await host.logged();
      assert.equal(requestsSince(host, from), ['/robots.txt'], 'the host answered it');
    } finally {
      await context.close();
      await host.close();
    }
  });

  // The worker's check, on the React build: sw.js is the same bytes in both builds (in-process too:
  // test/unit/sw-install.test.ts). What the page itself loads first, above, differs between them.
  if (build.name === 'react')
    test('a stale copy in the HTTP cache is fetched again past it, and the install keeps the right bytes', async ({ browser }) => {
      // The page fetches /licenses.txt first and gets altered bytes that the HTTP cache may keep for
      // an hour (a stale CDN edge); the install is held until that copy is in the cache.
      const altered = 'No licences here\n';
      let servedAltered: () => void = () => {};
      const alteredInCache = new Promise<void>((resolve) => (servedAltered = resolve));
      let licencesAsked = 0;
      const host = await startHost('preview', dir, {
        intercept: async (request, response) => {
          if (request.url === '/precache.json') await alteredInCache;
          if (request.url !== '/licenses.txt' || licencesAsked++ > 0) return false;
          response.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'max-age=3600' });
          response.end(altered, () => servedAltered());
          return true;
        },
      });
      const context = await freshContext(browser);
      try {
        const page = await context.newPage();
        await page.goto(host.url);
        assert.is(await page.evaluate(() => fetch('/licenses.txt').then((response) => response.text())), altered);
        await waitReady(page);
        assert.is(licencesAsked, 2, 'the install asked the server again for the copy that failed its hash');
        const cached = await page.evaluate(async () => {
          const name = (await caches.keys())[0];
          return (await (await caches.open(name)).match('/licenses.txt'))?.text();
        });
        assert.is(cached, readFileSync(path.join(dir, 'licenses.txt'), 'utf8'));
      } finally {
        await context.close();
        await host.close();
      }
    });

  test.run();
}
