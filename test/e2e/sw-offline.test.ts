// Once installed, the worker answers from its cache: every route renders with no network, a repeat
// visit asks the server for nothing it precached, redirected pages still answer navigations, and
// Range requests get a correct 206. On each kind of host, where the host can change the outcome
// (what it answered the install, its 404 page, the type it labels a file with), on the React
// build: sw.js is the same bytes in both builds, and the Preact build's screens offline are proven
// in every engine (engines.test.ts scenario 2). With the host down instead of the browser offline,
// the worker meets a refused connection: engines.test.ts scenario 2 in Firefox and WebKit, whose
// offline modes leave the worker's own fetches alone.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { headingAt, openInstalled, openInstalledWatched, type WatchedVisit } from './lib/app';
import { freshContext, goOffline } from './lib/browser';
import { HOSTS, requestsSince, startHost } from './lib/hosts';
import { readPrecache, site } from './lib/site';
import { beforeAllTests } from './lib/hooks';
import { shareChromium, type Shared } from './lib/suite';
import { until } from './lib/wait';
import { DEEP_LINK, ROUTES as SCREEN_ROUTES } from './lib/screens';

/** Where each navigation should land: the screen's <h1>. `/status` and `/status/` are one route. */
const ROUTES: [string, string][] = [
  ...SCREEN_ROUTES.flatMap((route): [string, string][] =>
    route.path === '/'
      ? [[route.path, route.h1]]
      : [
          [route.path.slice(0, -1), route.h1],
          [route.path, route.h1],
        ],
  ),
  [DEEP_LINK.path, DEEP_LINK.h1],
];

/** The visit the offline checks share: installed, then the browser offline; no test changes it. */
interface Offline {
  offline: WatchedVisit & { context: BrowserContext };
}

const dist = site('react', 'v1');
const manifest = readPrecache(dist);
for (const kind of HOSTS) {
  const test = suite<Shared & Offline>(`sw offline (react, ${kind})`);
  shareChromium(test, () => startHost(kind, dist));
  beforeAllTests(test, async (shared) => {
    const context = await freshContext(shared.browser);
    // The first visit is to /status: python's http.server answers it with 301 to /status/.
    shared.offline = { context, ...(await openInstalledWatched(context, new URL('/status', shared.host.url).href)) };
    await goOffline(context, shared.offline.page);
  });

  test('online, a repeat visit is served from the cache: the server gets no request for a precached file', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const page = await openInstalled(context, new URL('/status', host.url).href);
    await host.logged();
    const from = host.log.length;
    // The deep link is no route of this version: online it is the host's to answer (engines-versions
    // scenario 11).
    for (const [p, h1] of ROUTES.filter(([p]) => p !== DEEP_LINK.path)) assert.is(await headingAt(page, new URL(p, host.url).href), h1, p);
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    // Only the browser's own update check of the worker script may reach the server (and the
    // reconnect probe, a HEAD, which this does not count).
    await host.logged();
    const asked = requestsSince(host, from);
    assert.ok(asked.length === 0 || asked.every((u) => u === '/sw.js'), `GETs that reached the server: ${asked.join(', ')}`);
    assert.ok(
      Object.keys(manifest).some((u) => u.startsWith('/assets/app-')),
      'the manifest lists the hashed assets',
    );
    await context.close();
  });

  test('requests under a "networkOnly" prefix (package.json) go to the server, never to the cache or the shell', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    await openInstalled(context, host.url);
    // A tab of its own: the host's error page is no page of the app's, and its console (python's
    // page has no icon, so Chromium asks for /favicon.ico and logs the 404) is not the app's.
    const page = await context.newPage();
    await host.logged();
    const from = host.log.length;
    // A navigation: the host's own 404, never the cached not-found page, offline included.
    const res = await page.goto(new URL('/.well-known/security.txt', host.url).href);
    assert.is(res?.status(), 404);
    assert.is(
      await page.getByRole('heading', { name: 'Not found', level: 1 }).count(),
      kind === 'python' ? 0 : 1,
      "the host's 404 answer: 404.html, except on python, which has its own",
    );
    // (Python's error page has no icon, so Chromium also asks for /favicon.ico.) wrangler logs a
    // request on its output after answering it: wait for the line.
    await until("the request in the host's log", () => requestsSince(host, from).length > 0);
    assert.is(requestsSince(host, from)[0], '/.well-known/security.txt');
    await goOffline(context, page);
    assert.is(
      await page.goto(new URL('/.well-known/security.txt', host.url).href).then(
        () => 'answered',
        () => 'failed',
      ),
      'failed',
    );
    await context.close();
  });

  test('offline, every route renders from the cache, with and without its trailing slash, and a deep link', async ({ offline, host }) => {
    const { page, problems } = offline;
    await host.logged();
    const from = host.log.length;
    for (const [p, h1] of ROUTES) assert.is(await headingAt(page, new URL(p, host.url).href), h1, p);
    assert.is(await page.evaluate(() => navigator.onLine), false);
    await host.logged();
    // Chromium checks the worker's script for an update a moment after a navigation, later
    // still while the worker is busy installing: a check sent just before going offline can
    // reach a loaded host after the log's mark (seen on python and nginx with the cores busy).
    // Nothing else may: no page, no precached file.
    const heard = host.log.slice(from).map((request) => `${request.method} ${request.url}`);
    assert.ok(
      heard.every((request) => request === 'GET /sw.js'),
      `offline, the server hears nothing but an earlier update check: ${heard.join(', ')}`,
    );
    // The offline banner is the only console-free sign of the state: no errors, no warnings,
    // over the whole visit so far.
    assert.equal(problems, []);
  });

  test('a Range request for a cached file gets 206 with exactly those bytes, offline', async ({ offline, host }) => {
    const { page } = offline;
    const file = readFileSync(path.join(dist, 'licenses.txt'));
    // The 206 carries the file's own Content-Type, as this host labels it.
    const type = (await fetch(new URL('/licenses.txt', host.url))).headers.get('content-type');
    const ask = (range: string) =>
      page.evaluate(async (r) => {
        const res = await fetch('/licenses.txt', { headers: { Range: r } });
        return {
          status: res.status,
          range: res.headers.get('content-range'),
          type: res.headers.get('content-type'),
          body: await res.text(),
        };
      }, range);
    const mid = await ask('bytes=10-29');
    assert.equal(mid, { status: 206, range: `bytes 10-29/${file.length}`, type, body: file.subarray(10, 30).toString() });
    const tail = await ask('bytes=-16');
    assert.equal(
      [tail.status, tail.range, tail.body],
      [206, `bytes ${file.length - 16}-${file.length - 1}/${file.length}`, file.subarray(-16).toString()],
    );
    const open = await ask(`bytes=${file.length - 5}-`);
    assert.equal([open.status, open.body], [206, file.subarray(-5).toString()]);
    // A range that cannot be served is ignored, as RFC 9110 allows: the whole file, 200.
    const beyond = await ask(`bytes=${file.length + 10}-`);
    assert.equal([beyond.status, beyond.range, beyond.body.length], [200, null, file.length]);
  });

  test.run();
}

// A host that redirects the route's own URL (as some S3 and CDN setups do for `dir/` ->
// `dir/index.html`) answers the install through a redirect; Chromium and Safari refuse a
// redirected response for a navigation, so what the worker stores and serves must not be one.
const redirected = suite<Shared>('sw redirected pages (react)');
shareChromium(redirected);
redirected('a page the host served through a redirect still answers a navigation offline', async ({ browser }) => {
  const host = await startHost('preview', dist, {
    intercept: (req, res) => {
      if (req.url !== '/about/') return false;
      res.writeHead(301, { Location: '/about/index.html', 'Cache-Control': 'no-cache' }).end();
      return true;
    },
  });
  const context = await freshContext(browser);
  const page = await openInstalled(context, host.url);
  assert.ok(requestsSince(host, 0).includes('/about/index.html'), 'the install followed the redirect');
  await context.setOffline(true);
  assert.is(await headingAt(page, new URL('/about/', host.url).href), 'What this app ships');
  assert.is(await headingAt(page, new URL('/about', host.url).href), 'What this app ships');
  await context.close();
  await host.close();
});
redirected.run();
