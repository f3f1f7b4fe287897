// A build for a sub-path (`npm run build -- --base /my-app/`, as a GitHub Pages project site is
// served), on the most minimal host, next to another site's page at `/`: it installs under
// /my-app/, works offline there, reloads once on reconnect, and never asks for a URL outside it.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { countLoads, headingAt, newWatchedPage, openInstalled, reconnectReloaded, settle } from './lib/app';
import { freshContext } from './lib/browser';
import { startHost } from './lib/hosts';
import { APP_NAME, BUILDS, site, temp } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { until } from './lib/wait';
import { cacheNames, cachedPaths } from './lib/caches';
import { ROUTES } from './lib/screens';
import { appId, cachePrefixOf, storageKey } from '../../src/contract/app-name';
import { appField, fieldScreenUrl, openFieldScreen } from './lib/field';

const BASE = '/my-app/';
const OTHER_SITE = 'Another site at the root of this origin';

/** A web root holding another site's page at `/` and the built app at /my-app/. */
function sharedRoot(dist: string): string {
  const root = path.join(temp(), 'www');
  mkdirSync(root);
  writeFileSync(path.join(root, 'index.html'), `<!doctype html><title>${OTHER_SITE}</title><h1>${OTHER_SITE}</h1>\n`);
  symlinkSync(dist, path.join(root, BASE.slice(1, -1)));
  return root;
}

for (const build of BUILDS) {
  const test = suite<Shared>(`sub-path deploy under ${BASE} (${build.name}, python)`);
  shareChromium(test, () => startHost('python', sharedRoot(site(build.name, 'base'))));

  test('installs with the worker at /my-app/sw.js (scope /my-app/), caches only /my-app/ URLs, and every screen works offline there', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    const { page, problems } = await newWatchedPage(context);
    const app = new URL(BASE, host.url).href;
    await page.goto(new URL('status/', app).href);
    await settle(page, 'Offline readiness');
    await page.getByText('Ready to work offline').waitFor({ timeout: 15_000 });
    const worker = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return { scope: registration?.scope, script: navigator.serviceWorker.controller?.scriptURL };
    });
    assert.equal(worker, { scope: app, script: new URL('sw.js', app).href });
    const [cache] = (await cacheNames(page)).filter((name) => name.startsWith(cachePrefixOf(appId(APP_NAME, BASE))));
    const cached = await cachedPaths(page, cache);
    assert.ok(cached.includes(`${BASE}status/`) && cached.includes(`${BASE}404.html`), cached.join(', '));
    assert.ok(
      cached.every((urlPath) => urlPath.startsWith(BASE)),
      cached.join(', '),
    );

    await context.setOffline(true);
    // Each route relative to the base, with and without its trailing slash, and a path that is no route.
    const visits = ROUTES.flatMap((route) =>
      route.path === '/'
        ? [['', route.h1]]
        : [
            [route.path.slice(1, -1), route.h1],
            [route.path.slice(1), route.h1],
          ],
    );
    for (const [urlPath, h1] of [...visits, ['a-section/deep-link', 'Not found']]) {
      assert.is(await headingAt(page, new URL(urlPath, app).href), h1, urlPath);
    }
    // The links stay under the base: client-side navigation, then the files /about shows.
    await page.getByRole('link', { name: 'What this app ships' }).click();
    await settle(page, 'What this app ships');
    assert.is(new URL(page.url()).pathname, `${BASE}about/`);
    assert.is(await page.getByText('Could not load').count(), 0, 'audit.json and licenses.txt came from the cache, under the base');
    assert.is(await page.getByRole('link', { name: 'Software bill of materials' }).getAttribute('href'), `${BASE}sbom.cdx.json`);
    assert.equal(problems, []);

    // Every request the app made was under its base.
    const ours = [...host.log];
    assert.ok(ours.length > 10, `${ours.length} requests`);
    assert.equal(
      ours.filter((request) => !request.url.startsWith(BASE)),
      [],
      'no request outside the base',
    );

    // package.json's "networkOnly" (["/.well-known/"]) is relative to the base: offline, where an
    // unknown path under the base got the cached not-found page above, /my-app/.well-known/ is the
    // network's to answer, and fails.
    assert.is(
      await page.goto(new URL('.well-known/security.txt', app).href).then(
        () => 'answered',
        () => 'failed',
      ),
      'failed',
    );

    // Outside the base the worker answers nothing: offline, the other site's page fails.
    assert.is(
      await page.goto(host.url).then(
        () => 'answered',
        () => 'failed',
      ),
      'failed',
    );
    await context.setOffline(false);
    assert.is(await headingAt(page, host.url), OTHER_SITE);
    assert.is(await page.evaluate(() => navigator.serviceWorker.controller), null, 'the page at / is not ours');
    await context.close();
  });

  test('reloads once on reconnect, after a probe of /my-app/sw.js, keeping what was typed', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const page = await openInstalled(context, fieldScreenUrl(new URL(BASE, host.url).href));
    await openFieldScreen(page, new URL(BASE, host.url).href);
    await appField(page).fill('typed under a sub-path');
    const loads = countLoads(page);
    await host.logged();
    const from = host.log.length;
    await context.setOffline(true);
    await page.getByText('You are offline; everything here still works.').waitFor({ timeout: 2000 });
    await context.setOffline(false);
    await reconnectReloaded(page, loads, 5000, storageKey('log', appId(APP_NAME, BASE)));
    assert.is(loads.n, 1, 'one reload');
    await until("the probe in the host's log", () => host.log.slice(from).some((request) => request.method === 'HEAD'));
    assert.equal(
      host.log
        .slice(from)
        .filter((request) => request.method === 'HEAD')
        .map((request) => request.url),
      [`${BASE}sw.js`],
    );
    assert.is(await appField(page).inputValue(), 'typed under a sub-path');
    await context.close();
  });

  test.run();
}
