// Once installed, the worker answers from its cache: every route renders with no network, a repeat
// visit asks the server for nothing it precached, redirected pages still answer navigations, and
// Range requests get a correct 206. Each check runs on both builds and both kinds of host.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanup, freshContext, host, HOSTS, requestsSince, openInstalled, waitReady, type Host } from './deploy';
import { BUILDS, launch, preview, watchProblems } from './helpers';

/** Where each navigation should land: the screen's <h1>. `/status` and `/status/` are one route. */
const ROUTES = [
  ['/', 'Notes'],
  ['/status', 'Offline readiness'],
  ['/status/', 'Offline readiness'],
  ['/about', 'What this app ships'],
  ['/about/', 'What this app ships'],
  ['/notes/2026/a-deep-link?x=1#top', 'Not found'],
] as const;

/** Navigates and returns the <h1> the app rendered. */
async function heading(page: Page, url: string): Promise<string> {
  await page.goto(url);
  return (await page.getByRole('heading', { level: 1 }).textContent({ timeout: 5_000 })) ?? '';
}

let browser: Browser;
for (const build of BUILDS) {
  const manifest: Record<string, string> = JSON.parse(readFileSync(path.join(build.dir, 'precache.json'), 'utf8'));
  for (const kind of HOSTS) {
    const test = suite(`sw offline (${build.name}, ${kind})`);
    let site: Host;
    test.before(async () => {
      browser = await launch();
      site = await host(kind, build.dir);
    });
    test.after(async () => {
      await site.close();
      await browser.close();
    });

    test('offline, every route renders from the cache: /, /status, /status/, /about, /about/ and a deep link', async () => {
      const context = await freshContext(browser);
      const page = await context.newPage();
      const problems = watchProblems(page);
      // The first visit is to /status: python's http.server answers it with 301 to /status/.
      await page.goto(new URL('/status', site.url).href);
      await waitReady(page);
      await context.setOffline(true);
      const from = site.log.length;
      for (const [p, h1] of ROUTES) assert.is(await heading(page, new URL(p, site.url).href), h1, p);
      assert.is(await page.evaluate(() => navigator.onLine), false);
      assert.equal(site.log.slice(from), [], 'offline, the server hears nothing');
      // The offline banner is the only console-free sign of the state: no errors, no warnings.
      assert.equal(problems, []);
      await context.close();
    });

    test('online, a repeat visit is served from the cache: the server gets no request for a precached file', async () => {
      const context = await freshContext(browser);
      const page = await openInstalled(context, site.url);
      const from = site.log.length;
      for (const [p, h1] of ROUTES) assert.is(await heading(page, new URL(p, site.url).href), h1, p);
      await page.reload();
      await page.getByRole('heading', { level: 1 }).waitFor();
      // Only the browser's own update check of the worker script may reach the server (and the
      // reconnect probe, a HEAD, which this does not count).
      const asked = requestsSince(site, from);
      assert.ok(asked.length === 0 || asked.every((u) => u === '/sw.js'), `GETs that reached the server: ${asked.join(', ')}`);
      assert.ok(Object.keys(manifest).some((u) => u.startsWith('/assets/app-')), 'the manifest lists the hashed assets');
      await context.close();
    });

    test('requests under a "networkOnly" prefix (package.json) go to the server, never to the cache or the shell', async () => {
      const context = await freshContext(browser);
      const page = await openInstalled(context, site.url);
      const from = site.log.length;
      // A navigation: the host's own 404, not the app shell that other unknown paths get.
      const res = await page.goto(new URL('/.well-known/security.txt', site.url).href);
      assert.is(res?.status(), 404);
      assert.is(await page.getByRole('heading', { name: 'Not found', level: 1 }).count(), kind === 'preview server' ? 1 : 0);
      // (Python's error page has no icon, so Chromium also asks for /favicon.ico.)
      assert.is(requestsSince(site, from)[0], '/.well-known/security.txt');
      await context.setOffline(true);
      assert.is(await page.goto(new URL('/.well-known/security.txt', site.url).href).then(() => 'answered', () => 'failed'), 'failed');
      await context.close();
    });

    test('a Range request for a cached file gets 206 with exactly those bytes, offline', async () => {
      const context = await freshContext(browser);
      const page = await openInstalled(context, site.url);
      await context.setOffline(true);
      const file = readFileSync(path.join(build.dir, 'licenses.txt'));
      // The 206 carries the file's own Content-Type, as this host labels it.
      const type = (await fetch(new URL('/licenses.txt', site.url))).headers.get('content-type');
      const ask = (range: string) =>
        page.evaluate(async (r) => {
          const res = await fetch('/licenses.txt', { headers: { Range: r } });
          return { status: res.status, range: res.headers.get('content-range'), type: res.headers.get('content-type'), body: await res.text() };
        }, range);
      const mid = await ask('bytes=10-29');
      assert.equal(mid, { status: 206, range: `bytes 10-29/${file.length}`, type, body: file.subarray(10, 30).toString() });
      const tail = await ask('bytes=-16');
      assert.equal([tail.status, tail.range, tail.body], [206, `bytes ${file.length - 16}-${file.length - 1}/${file.length}`, file.subarray(-16).toString()]);
      const open = await ask(`bytes=${file.length - 5}-`);
      assert.equal([open.status, open.body], [206, file.subarray(-5).toString()]);
      // A range that cannot be served is ignored, as RFC 9110 allows: the whole file, 200.
      const beyond = await ask(`bytes=${file.length + 10}-`);
      assert.equal([beyond.status, beyond.range, beyond.body.length], [200, null, file.length]);
      await context.close();
    });

    test.run();
  }

  // A host that redirects the route's own URL (as some S3 and CDN setups do for `dir/` ->
  // `dir/index.html`) makes the precached response a redirected one, which Chromium and Safari
  // refuse to use for a navigation unless the worker copies it.
  const redirected = suite(`sw redirected pages (${build.name})`);
  redirected.before(async () => {
    browser = await launch();
  });
  redirected.after(() => browser.close());
  redirected('a page the host served through a redirect still answers a navigation offline', async () => {
    const site = await preview(build.dir, (req, res) => {
      if (req.url !== '/about/') return false;
      res.writeHead(301, { Location: '/about/index.html', 'Cache-Control': 'no-cache' }).end();
      return true;
    });
    const context = await freshContext(browser);
    const page = await openInstalled(context, site.url);
    const stored = await page.evaluate(async () => {
      const c = await caches.open((await caches.keys())[0]);
      return (await c.match('/about/'))?.redirected;
    });
    assert.is(stored, true, 'the precached /about/ came through a redirect');
    await context.setOffline(true);
    assert.is(await heading(page, new URL('/about/', site.url).href), 'What this app ships');
    assert.is(await heading(page, new URL('/about', site.url).href), 'What this app ships');
    await context.close();
    await site.close();
  });
  redirected.run();
}

process.on('exit', cleanup);
