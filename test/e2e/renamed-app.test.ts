// Renaming the app in package.json (name "field-notes", displayName "Field Notes", or another when the app has that name) renames
// everything derived from it, in the page and in the worker alike: install progress still
// arrives (the worker broadcasts on the channel the page listens to), and the caches, storage
// keys, titles, brand and web app manifest carry the new name. Nothing keeps the old one.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appRunning, countLoads, newWatchedPage, reconnectReloaded, waitReady } from './lib/app';
import { freshContext } from './lib/browser';
import { holdFile, startHost } from './lib/hosts';
import { audit, BUILDS, readPrecache, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { cacheNames } from './lib/caches';
import { appId, cachePrefixOf, storageKey } from '../../src/contract/app-name';
import { WAIT } from './lib/wait';
import { appField, fieldScreenUrl } from './lib/field';
import { renamedApp } from '../harness/test-sites.mjs';

/** The renamed test site's name and title ("field-notes", unless that is the app's own name). */
const { name: NEW_NAME, displayName: NEW_TITLE } = renamedApp(process.cwd());
/** The renamed app's id: a new name at the same base is a new app. */
const NEW_APP = appId(NEW_NAME, '/');

for (const build of BUILDS) {
  const test = suite<Shared>(`renamed app (${build.name})`);
  const dir = site(build.name, 'renamed');
  // The licences file (only the worker asks for it on /) can be held, so the install stays under
  // way while the test looks for its progress.
  const licences = holdFile('/licenses.txt');
  shareChromium(test, () => startHost('preview', dir, { intercept: licences.intercept }));

  test('install progress, "Ready to work offline", caches and storage keys all carry the new name', async ({ browser, host }) => {
    const total = Object.keys(readPrecache(dir)).length;
    const context = await freshContext(browser);
    const { page, problems } = await newWatchedPage(context);
    licences.hold();
    await page.goto(host.url);
    // The progress banner appears only if the page hears the worker's broadcast: the channel
    // names must agree.
    await page.getByText(`Saving the app for offline use: ${total - 1} of ${total} files`).waitFor({ timeout: 15_000 });
    licences.release();
    await waitReady(page);
    assert.equal(await cacheNames(page), [cachePrefixOf(NEW_APP) + audit(dir).version]);

    await page.goto(fieldScreenUrl(host.url));
    await appRunning(page);
    await appField(page).fill('kept under the new name');
    // Whatever the app saves as it is used: its log of the network going and coming back, the
    // field typed into, kept through the reload that follows, and its stored data, flushed before it.
    const loads = countLoads(page);
    await context.setOffline(true);
    await page.getByText('You are offline; everything here still works.').waitFor(WAIT);
    await context.setOffline(false);
    await reconnectReloaded(page, loads, 5000, storageKey('log', NEW_APP));
    assert.is(await appField(page).inputValue(), 'kept under the new name');
    const keys = await page.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)]);
    assert.ok(keys.length > 0 && keys.every((key) => key.startsWith(storageKey('', NEW_APP))), keys.join(', '));
    assert.not.ok(keys.some((key) => key.startsWith(storageKey(''))));
    assert.equal(problems, []);
    await context.close();
  });

  test('the page title, the brand and the web app manifest say the display name; the manifest id has the new name', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser, { serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(new URL('/status/', host.url).href);
    assert.is(await page.title(), `Offline readiness · ${NEW_TITLE}`);
    assert.is(await page.locator('.brand').textContent(), NEW_TITLE);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.webmanifest'), 'utf8'));
    assert.equal([manifest.name, manifest.short_name], [NEW_TITLE, NEW_TITLE]);
    // The id is the name at the base: to the browser, a renamed app is another app (ui-install.test.ts asks Chromium).
    assert.is(manifest.id, `/?app=${NEW_NAME}`);
    assert.is(audit(dir).name, NEW_NAME);
    await context.close();
  });

  test.run();
}
