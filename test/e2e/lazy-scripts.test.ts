// What no first screen needs is a chunk the page loads on first use (src/ui/later.ts: the screens but
// `/`, the restore after the app's own reloads): a visit to `/` does not ask for it before `load`
// (a first visit asks after, beside the worker's script, for the install), it crosses the network
// once, each script checked by the SHA-384 the page names, and the worker precaches it like every
// file, so it is there offline. Proven by counting the server's requests.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appRunning, newWatchedPage, openInstalled } from './lib/app';
import { freshContext, goOffline } from './lib/browser';
import { type Host, requestsSince, startHost } from './lib/hosts';
import { ROUTES } from './lib/screens';
import { BUILDS, brokenCopy, cleanup, readPrecache, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';

/** The scripts a built page names: the one it runs, those it preloads, and those of each module loaded on use (its meta element). */
function scriptsOf(dist: string, htmlFile = 'index.html') {
  const html = readFileSync(path.join(dist, htmlFile), 'utf8');
  const attribute = (pattern: RegExp) => [...html.matchAll(pattern)].map((match) => match[1]);
  const content = attribute(/<meta name="lazy-scripts" content="([^"]*)">/g)[0] ?? '{}';
  const lazy: Record<string, [string, string][]> = JSON.parse(content.replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
  return {
    page: [...attribute(/<script type="module" src="([^"]+)"/g), ...attribute(/<link rel="modulepreload" href="([^"]+)"/g)],
    later: Object.values(lazy).flatMap((files) => files.map(([file]) => `/${file}`)),
  };
}

/** A screen other than `/`: its code is in the chunk loaded on use. */
const laterScreen = ROUTES.find((route) => route.path !== '/');

/** The scripts `host` was asked for since `from`. */
const scriptsAsked = (host: Host, from: number) => requestsSince(host, from).filter((url) => url.endsWith('.js') && url !== '/sw.js');

for (const build of BUILDS) {
  const dist = site(build.name, 'v1');
  const { page: pageScripts, later } = scriptsOf(dist);
  const test = suite<Shared>(`scripts loaded on use (${build.name})`);
  shareChromium(test, () => startHost('preview', dist));
  test.after(cleanup);

  test('the build names a chunk loaded on use, precached, and pages other than / preload it', () => {
    assert.ok(later.length > 0, 'index.html names the scripts of a module loaded on use');
    assert.ok(!later.some((file) => pageScripts.includes(file)), 'none of them is a script / loads');
    const precached = Object.keys(readPrecache(dist));
    assert.equal(
      later.filter((file) => !precached.includes(file)),
      [],
      'each is in the precache manifest',
    );
    if (!laterScreen) return;
    const other = scriptsOf(dist, `${laterScreen.path.slice(1)}index.html`);
    assert.ok(
      later.every((file) => other.page.includes(file)),
      `${laterScreen.path} preloads them`,
    );
  });

  test('until `load` a visit to / asks only for its own scripts; the chunk crosses the network once, and runs checked', async ({
    browser,
    host,
  }) => {
    if (!laterScreen) return;
    // No worker: what the pages themselves load, without the install asking for every file.
    const context = await freshContext(browser, { serviceWorkers: 'block' });
    const { page, problems } = await newWatchedPage(context);
    const from = host.log.length;
    await page.goto(host.url);
    await appRunning(page);
    const beforeLoad = await page.evaluate(() => {
      const load = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return performance
        .getEntriesByType('resource')
        .filter((entry) => entry.startTime < load.loadEventStart && new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => new URL(entry.name).pathname);
    });
    assert.equal(beforeLoad.sort(), [...pageScripts].sort(), 'until load, the first screen asked for its scripts alone');
    await page.locator(`nav a[href="${laterScreen.path}"]`).click();
    await page.getByRole('heading', { level: 1, name: laterScreen.h1 }).waitFor();
    assert.is(await page.evaluate(() => performance.getEntriesByType('navigation').length), 1, 'no page load: a client-side navigation');
    const asked = scriptsAsked(host, from);
    assert.equal(
      later.map((file) => asked.filter((url) => url === file).length),
      later.map(() => 1),
      `each script of the chunk asked once: ${JSON.stringify(asked)}`,
    );
    assert.equal(problems, []);
    await context.close();
  });

  test('a chunk whose bytes are not this version’s never runs: the screen says it could not be loaded', async ({ browser }) => {
    if (!laterScreen) return;
    const [chunk] = later;
    // Same length, one byte changed: only its hash can tell (every representation the host may send).
    const broken = brokenCopy(dist, (copy) => {
      for (const suffix of ['.gz', '.br']) rmSync(path.join(copy, chunk + suffix), { force: true });
      const file = path.join(copy, chunk);
      const bytes = readFileSync(file);
      bytes[bytes.length - 1] = bytes[bytes.length - 1] === 0x3b ? 0x20 : 0x3b;
      writeFileSync(file, bytes);
    });
    const host = await startHost('preview', broken);
    try {
      const context = await freshContext(browser, { serviceWorkers: 'block' });
      const { page, problems } = await newWatchedPage(context);
      await page.goto(new URL(laterScreen.path, host.url).href);
      await page.getByRole('alert').filter({ hasText: 'could not be loaded' }).waitFor();
      assert.ok(
        problems.some((problem) => problem.includes('integrity') && problem.includes(chunk)),
        `the engine refused the chunk by its integrity: ${JSON.stringify(problems)}`,
      );
      await context.close();
    } finally {
      await host.close();
    }
  });

  test('installed, the chunk is the worker’s: offline, the screens that need it show with no request for it', async ({ browser, host }) => {
    if (!laterScreen) return;
    const context = await freshContext(browser);
    const page = await openInstalled(context, host.url);
    await page.reload();
    await appRunning(page);
    await goOffline(context, page);
    const from = host.log.length;
    await page.locator(`nav a[href="${laterScreen.path}"]`).click();
    await page.getByRole('heading', { level: 1, name: laterScreen.h1 }).waitFor();
    assert.equal(
      requestsSince(host, from).filter((url) => later.includes(url)),
      [],
      'the chunk came from the worker',
    );
    await context.close();
  });

  test.run();
}
