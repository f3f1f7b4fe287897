// What /status and /about show, checked against the built site and its audit.json on disk.
import type { BrowserContext } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { audit as auditOf, BUILDS, precachedFiles, site } from './lib/site';
import { openInstalled, settle, statusFact } from './lib/app';
import { freshContext } from './lib/browser';
import { requestsSince, startHost } from './lib/hosts';
import { shareChromium, type Shared } from './lib/suite';
import { sleep, until, WAIT } from './lib/wait';
import { logKinds } from './lib/connectivity-log';
import { CACHE_PREFIX } from '../../src/contract/app-name';
import { HOME } from './lib/screens';

for (const build of BUILDS) {
  const test = suite<Shared>(`ui screens (${build.name})`);
  const dist = site(build.name, 'v1');
  const audit = auditOf(dist);
  const precached = precachedFiles(dist);
  let context: BrowserContext;
  shareChromium(test, () => startHost('preview', dist));
  test.after.each(() => context.close());

  test('/about lists every shipped file with raw, gzip, brotli and SRI hash, and the totals', async ({ browser, host }) => {
    context = await freshContext(browser, { serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(new URL('/about/', host.url).href);
    await settle(page, 'What this app ships');
    // The files table only: the composition's table below it has rows of its own.
    const files = page.getByRole('region', { name: 'Files' });
    const rows = await files.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    const n = (x: number) => x.toLocaleString('en-US');
    assert.equal(
      rows,
      audit.files.map((f) => [f.path, n(f.bytes), n(f.gzip), n(f.brotli), f.sha384]),
    );
    const sum = (k: 'bytes' | 'gzip' | 'brotli') => n(audit.files.reduce((t, f) => t + f[k], 0));
    const total = await files.locator('tfoot tr').evaluate((tr) => [...tr.children].map((c) => c.textContent));
    assert.equal(total, [`${audit.files.length} files`, sum('bytes'), sum('gzip'), sum('brotli'), '']);
    const intro = await page.locator('main p').first().textContent();
    assert.ok(intro?.includes(`Version ${audit.version}, ${build.name} build`), intro ?? '');
  });

  test('/about shows the licence of the bundled framework, extracted at build time', async ({ browser, host }) => {
    context = await freshContext(browser, { serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(new URL('/about/', host.url).href);
    await settle(page, 'What this app ships');
    const text = (await page.locator('pre').textContent()) ?? '';
    assert.ok(
      audit.files.some((f) => f.path === 'licenses.txt'),
      'licenses.txt is a shipped, audited file',
    );
    if (build.name === 'react') {
      for (const pkg of ['react', 'react-dom', 'scheduler']) assert.match(text, new RegExp(`== ${pkg} \\d+\\.\\d+\\.\\d+ \\(MIT\\) ==`));
      assert.match(text, /Copyright \(c\) Meta Platforms, Inc\. and affiliates\./);
      assert.match(text, /@license React/, "React's own legal comments, as esbuild extracted them");
    } else {
      assert.match(text, /== preact \d+\.\d+\.\d+ \(MIT\) ==/);
      assert.match(text, /Copyright \(c\) 2015-present Jason Miller/);
      assert.not.match(text, /== react/, 'only what the bundle contains');
    }
    assert.match(text, /Permission is hereby granted, free of charge/);
  });

  test('/status says nothing is cached when no worker has run', async ({ browser, host }) => {
    context = await freshContext(browser, { serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(new URL('/status/', host.url).href);
    await settle(page, 'Offline readiness');
    await page.getByText('Nothing is cached on this device yet.').waitFor(WAIT);
    assert.is(await statusFact(page, 'Browser says').then((t) => t?.split(' since ')[0]), 'online');
    assert.is(
      await page
        .getByRole('heading', { level: 2 })
        .allTextContents()
        .then((h) => h.join(', ')),
      'Network, Service worker, Precache check, Storage, Connectivity log',
    );
  });

  test('/status verifies every precached file by its SHA-384, and names the ones that are missing or altered', async ({
    browser,
    host,
  }) => {
    context = await freshContext(browser);
    const page = await openInstalled(context, new URL('/status/', host.url).href);
    const kb = +(precached.reduce((t, f) => t + f.bytes, 0) / 1024).toFixed(1);
    await page.getByText(`${precached.length} of ${precached.length} files verified, ${kb} KB`).waitFor(WAIT);
    assert.is(await statusFact(page, 'State'), 'ready');
    assert.is(await statusFact(page, 'Version'), audit.version);
    assert.is(await statusFact(page, 'Scope'), host.url);

    // Alter one cached file and drop another, as a bad disk or a meddling extension might.
    await page.evaluate(async (prefix) => {
      const name = (await caches.keys()).find((n) => n.startsWith(prefix));
      if (!name) throw new Error(`Expected a cache named ${prefix}…`);
      const cache = await caches.open(name);
      await cache.put('/licenses.txt', new Response('No licence\n'));
      await cache.delete('/manifest.webmanifest');
    }, CACHE_PREFIX);
    await page.getByRole('link', { name: HOME.h1, exact: true }).click();
    await page.getByRole('link', { name: 'Offline readiness', exact: true }).click();
    await page.getByText(`${precached.length - 2} of ${precached.length} files verified`).waitFor(WAIT);
    assert.equal(await page.locator('main ul li').allTextContents(), ['licenses.txt: hash mismatch', 'manifest.webmanifest: not cached']);
  });

  test('/status: "Check for update" asks the server for sw.js and shows when', async ({ browser, host }) => {
    context = await freshContext(browser);
    const page = await openInstalled(context, new URL('/status/', host.url).href);
    await host.logged();
    const before = host.log.length;
    const shown = await statusFact(page, 'Last update check');
    // Pacing, not an absence proof: the time is shown to the second, so the next check must show another.
    await sleep(1100);
    await page.getByRole('button', { name: 'Check for update' }).click();
    await until('the time of the new check on screen', async () => (await statusFact(page, 'Last update check')) !== shown);
    // The time is shown when the check starts; the request follows.
    await until('a GET of /sw.js to reach the server', () => requestsSince(host, before).some((url) => url.startsWith('/sw.js')));
    assert.match((await statusFact(page, 'Last update check')) ?? '', /\d:\d\d:\d\d/);
  });

  test('/status shows storage used and quota, and asks for persistence on a click', async ({ browser, host }) => {
    context = await freshContext(browser, { serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(new URL('/status/', host.url).href);
    await settle(page, 'Offline readiness');
    assert.match((await statusFact(page, 'Used')) ?? '', /^[\d.]+ (B|KB|MB) of [1-9][\d.]* (MB|GB)$/);
    assert.is(await statusFact(page, 'Persistent'), 'no: may be cleared when space runs low');
    await page.getByRole('button', { name: 'Keep data on this device' }).click();
    // Chromium decides by its own heuristics; either answer must be shown, not silence.
    await page.waitForFunction(
      () =>
        /^(yes|no: the browser declined)$/.test(
          [...document.querySelectorAll('dt')].find((d) => d.textContent === 'Persistent')?.nextElementSibling?.textContent ?? '',
        ),
      null,
      WAIT,
    );
  });

  test('/status shows the network going offline and back, with the log of it', async ({ browser, host }) => {
    context = await freshContext(browser, { serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(new URL('/status/', host.url).href);
    await settle(page, 'Offline readiness');
    await context.setOffline(true);
    await until('"offline since" on screen', async () => (await statusFact(page, 'Browser says'))?.startsWith('offline since'));
    await page
      .locator('.log li', { hasText: / offline$/ })
      .first()
      .waitFor(WAIT);
    await context.setOffline(false);
    await until('"online since" on screen', async () => (await statusFact(page, 'Browser says'))?.startsWith('online since'));
    await page
      .locator('.log li', { hasText: / online$/ })
      .first()
      .waitFor(WAIT);
    // Newest first. (The reconnect reload may follow a second later; the log survives it.)
    const shown = await page.locator('.log li').allTextContents();
    const changes = shown.map((item) => item.split(' ').at(-1)).filter((kind) => kind === 'online' || kind === 'offline');
    assert.equal(changes, ['online', 'offline'], `the log on screen: ${shown.join('; ')}`);
    assert.equal((await logKinds(page)).slice(0, 2), ['offline', 'online'], 'the log kept for the session, oldest first');
  });

  for (const width of [320, 1280]) {
    test(`at ${width} px the offline banner appears above <main>, covers nothing and moves nothing`, async ({ browser, host }) => {
      context = await freshContext(browser, { serviceWorkers: 'block', viewport: { width, height: 700 } });
      const page = await context.newPage();
      await page.goto(host.url);
      await settle(page, HOME.h1);
      const top = () => page.getByRole('heading', { level: 1 }).evaluate((h) => h.getBoundingClientRect().top);
      const before = await top();
      await context.setOffline(true);
      const banner = page.locator('.banners').getByText('You are offline');
      await banner.waitFor(WAIT);
      assert.is(await top(), before, 'the heading did not move');
      const [b, m] = await Promise.all([banner.boundingBox(), page.locator('main').boundingBox()]);
      assert.ok(b && m && b.y + b.height <= m.y, 'the banner ends where <main> begins');
    });
  }

  test.run();
}
