import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CACHE_PREFIX } from '../../src/contract/app-name';
import { openInstalled } from './lib/app';
import { clearHttpCache, freshContext } from './lib/browser';
import { auditVersionsByCache, cachedPaths, ourCacheNames } from './lib/caches';
import { holdFile, requestsSince, startHost } from './lib/hosts';
import { audit, BUILDS, cleanup, readPrecache, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { buildV3 } from './lib/third-version';
import { until, WAIT } from './lib/wait';

/** The cache of the version built into `dist`. */
const cacheOf = (dist: string) => CACHE_PREFIX + audit(dist).version;

/** Takes the update that waits, as a person does: "Reload to update"; resolves once the page has reloaded. */
async function reloadToUpdate(page: Page): Promise<void> {
  await page.getByText('A new version is ready').waitFor(WAIT);
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Reload to update' }).click()]);
}

for (const build of BUILDS) {
  const v1 = site(build.name, 'v1');
  const v2 = site(build.name, 'v2');
  const test = suite<Shared>(`sw handover (${build.name})`);
  shareChromium(test);
  test.after(cleanup);

  test("a deploy landing mid-install: the new version's audit.json is never stored as the old one's; the version that installs has its own", async ({
    browser,
  }) => {
    const held = holdFile('/audit.json');
    const host = await startHost('preview', v1, { intercept: held.intercept });
    held.hold();
    const context = await freshContext(browser);
    const page = await context.newPage();
    await page.goto(host.url);
    // Every other file asked first: the deploy lands when only audit.json is left to come.
    const others = Object.keys(readPrecache(v1)).filter((url) => url !== '/audit.json');
    await until('the install to ask for every other file, and audit.json', async () => {
      const asked = requestsSince(host, 0);
      return held.waiting.length > 0 && others.every((url) => asked.includes(url));
    });
    await host.setRoot(v2);
    held.release();
    // v1's install cannot have its own audit.json any more and fails; the page tries again and v2 installs.
    await page.getByText('Ready to work offline').waitFor({ timeout: 30_000 });
    const stored = await auditVersionsByCache(page);
    assert.equal(stored, [[cacheOf(v2), audit(v2).version]], 'each cache holds its own version’s audit');
    await context.close();
    await host.close();
  });

  test('a version activating while a newer one installs leaves the newer one’s cache whole; that one, once active, deletes the rest', async ({
    browser,
  }) => {
    const v3 = buildV3(build.preact);
    const held = holdFile('/licenses.txt');
    const host = await startHost('preview', v1, { intercept: held.intercept });
    const context = await freshContext(browser);
    const page = await openInstalled(context, host.url);
    await host.setRoot(v2);
    await page.getByRole('link', { name: 'Offline readiness' }).click();
    await page.getByRole('button', { name: 'Check for update' }).click();
    await page.getByText('A new version is ready').waitFor(WAIT);
    // v3 deployed while v2 waits: its install holds on one file (the same bytes as v1's, so not from the HTTP cache).
    await clearHttpCache(page);
    held.hold();
    await host.setRoot(v3);
    await page.evaluate(() => {
      navigator.serviceWorker.getRegistration().then((registration) => registration?.update());
    });
    await until('v3 to be installing', async () => held.waiting.length > 0);
    await reloadToUpdate(page);
    held.release();
    await until('v3 to have installed', () => page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting));
    const manifest = Object.keys(readPrecache(v3));
    assert.equal(await cachedPaths(page, cacheOf(v3)), [...manifest, '/precache.json'].sort(), 'v3’s cache holds every file');
    // v3 activates (the page's own reload would wait out the guard window after the last one).
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.postMessage({ type: 'SKIP_WAITING' }));
    await until('only v3’s cache', async () => (await ourCacheNames(page)).join() === cacheOf(v3));
    await context.close();
    await host.close();
  });

  test.run();
}
