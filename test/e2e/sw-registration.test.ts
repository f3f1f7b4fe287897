// The page's side of the worker: a registration that fails leaves a working app and says why;
// updates are looked for when the network returns and every hour while a page stays open; a new
// worker that reaches the page by another origin's redirect never installs.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GUARD_KEY } from '../../src/reload/reconnect';
import { appRunning, countLoads, newWatchedPage, openInstalled, statusFact } from './lib/app';
import { freshContext } from './lib/browser';
import { requestsSince, startHost } from './lib/hosts';
import { appScript, BUILDS, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { until } from './lib/wait';
import { cacheNames } from './lib/caches';
import { FIELD_SCREEN } from './lib/screens';
import { appField } from './lib/field';

for (const build of BUILDS) {
  const test = suite<Shared>(`sw registration (${build.name})`);
  const dist = site(build.name, 'v1');
  const next = site(build.name, 'v2');
  let context: BrowserContext;
  /** How the host misbehaves in the current test, if it does. */
  let misbehave: ((req: http.IncomingMessage, res: http.ServerResponse) => boolean) | null = null;
  shareChromium(test, () => startHost('preview', dist, { intercept: (req, res) => !!misbehave?.(req, res) }));
  test.before.each(async ({ browser }) => {
    context = await freshContext(browser);
  });
  test.after.each(async ({ host }) => {
    await context.close();
    await host.setRoot(dist);
    misbehave = null;
  });

  test('a registration the browser rejects is shown as an error, and the app keeps working online', async ({ host }) => {
    misbehave = (req, res) => {
      if (req.url !== '/sw.js') return false;
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('gone\n');
      return true;
    };
    const { page, problems } = await newWatchedPage(context);
    await page.goto(new URL('/status/', host.url).href);
    await page.getByText(/^error: Offline use is unavailable: .+/).waitFor({ timeout: 10_000 });
    await page.getByRole('link', { name: FIELD_SCREEN.h1, exact: true }).click();
    await appField(page).fill('typed with no worker');
    assert.is(await appField(page).inputValue(), 'typed with no worker');
    await page.reload();
    await appRunning(page);
    await appField(page).waitFor();
    assert.equal(await cacheNames(page), []);
    // Chromium logs the failed script fetch itself; the app adds no error of its own.
    assert.equal(
      problems.filter((p) => !/fetching the script|sw\.js|ServiceWorker/i.test(p)),
      [],
    );
  });

  test('when the network returns, the page asks for a new worker and offers the new version, with no reload needed', async ({ host }) => {
    const page = await openInstalled(context, host.url);
    // Hold the reconnect reload (its guard says one just happened), so a navigation cannot be
    // what finds the new worker: only the page's own check on \`online\` can.
    await page.evaluate((key) => sessionStorage.setItem(key, String(Date.now())), GUARD_KEY);
    await context.setOffline(true);
    await page.getByText('You are offline; everything here still works.').waitFor();
    await host.setRoot(next);
    const loads = countLoads(page);
    await context.setOffline(false);
    await page.getByText('A new version is ready.').waitFor({ timeout: 8_000 });
    assert.is(loads.n, 0, 'found without a reload');
  });

  test('a page left open looks for a new version every hour', async ({ host }) => {
    await context.clock.install();
    const page = await openInstalled(context, host.url);
    /** Opens the status screen anew (a fresh render of the page's state): when the page last checked. */
    const lastCheck = async () => {
      await page.getByRole('link', { name: 'Offline readiness' }).click();
      return statusFact(page, 'Last update check');
    };
    const registered = await lastCheck();
    await page.getByRole('link', { name: FIELD_SCREEN.h1, exact: true }).click();
    await host.setRoot(next);
    await host.logged();
    const from = host.log.length;
    await context.clock.fastForward('59:00');
    // The page's clock has run 59 minutes, and a check records its time before it asks the server:
    // the status screen, rendered anew, still shows the check made when the worker registered.
    assert.is(await lastCheck(), registered, 'no check before the hour');
    assert.equal(requestsSince(host, from), [], 'no GET before the hour');
    await context.clock.fastForward('01:01');
    await until('the hourly GET /sw.js', () => requestsSince(host, from).includes('/sw.js'));
    await page.getByText('A new version is ready.').waitFor({ timeout: 10_000 });
  });

  // The worker's check, on the React build (sw.js is the same bytes in both; in-process too:
  // test/unit/sw-install.test.ts); the page's side above runs on both.
  if (build.name === 'react')
    test('a new version whose file is redirected to another origin never installs, even with the same bytes', async ({ host }) => {
      // Another origin serving the very file, with CORS allowed: integrity alone would pass it.
      // The file is the new version's script, which no cache of this browser can hold yet.
      const script = '/' + appScript(next);
      let asked = 0;
      const other = http.createServer((_request, res) => {
        asked++;
        res
          .writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/javascript' })
          .end(readFileSync(path.join(next, script)));
      });
      await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
      const elsewhere = `http://localhost:${(other.address() as { port: number }).port}${script}`;
      try {
        const page = await openInstalled(context, host.url);
        const old = await cacheNames(page);
        await host.setRoot(next);
        // A host that sends no CSP (python's, S3): with ours, \`connect-src 'self'\` already keeps
        // the worker from fetching another origin; without it only the worker's own check does.
        misbehave = (req, res) => {
          if (req.url === '/sw.js')
            res
              .writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-cache' })
              .end(readFileSync(path.join(next, 'sw.js')));
          else if (req.url === script) res.writeHead(302, { Location: elsewhere }).end();
          else return false;
          return true;
        };
        await page.getByRole('link', { name: 'Offline readiness' }).click();
        await page.getByRole('button', { name: 'Check for update' }).click();
        await page.getByText('An update failed to install; this version keeps working.').waitFor({ timeout: 10_000 });
        assert.equal(await cacheNames(page), old);
        assert.ok(asked > 0, 'the worker followed the redirect to the other origin');
      } finally {
        await new Promise((r) => other.close(r));
      }
    });

  test.run();
}
