// One app is its name and its base. Two copies of the app under two sub-paths of one origin (two
// GitHub Pages project sites of one account) each keep their own data and their own offline copy,
// on the preview server and on nginx: every key either writes carries its name and base, and what
// is typed into one is never the other's. (demo/migrations/notes-app-identity.test.ts: the demo's
// notes through an update from the last released version, whose keys carried the name alone.)
import type { BrowserContext, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { APP_NAME, appId, cachePrefixOf, storageKey } from '../../src/contract/app-name';
import { SECOND_BASE, TEST_BASE } from '../harness/test-sites.mjs';
import { countLoads, reconnectReloaded, waitReady } from './lib/app';
import { freshContext } from './lib/browser';
import { cacheNames } from './lib/caches';
import { appField, appStorage, fieldScreenUrl } from './lib/field';
import { type HostKind, startHost } from './lib/hosts';
import { audit, BUILDS, sharedOrigin, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { WAIT } from './lib/wait';

/** A new page of `context` at the field screen of the app at `url`, once its worker is installed there. */
async function openInstalledField(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(fieldScreenUrl(url));
  await waitReady(page);
  await appField(page).waitFor(WAIT);
  return page;
}

/**
 * Types `text` into the field of the app `id`, then takes the network away and back: the app logs
 * both (sessionStorage), saves what it keeps (localStorage, flushed before its reload) and reloads
 * once, the text kept.
 */
async function typeThroughReconnect(context: BrowserContext, page: Page, id: string, text: string): Promise<void> {
  await appField(page).fill(text);
  const loads = countLoads(page);
  await context.setOffline(true);
  await page.getByText('You are offline; everything here still works.').waitFor(WAIT);
  await context.setOffline(false);
  await reconnectReloaded(page, loads, 5000, storageKey('log', id));
  assert.is(await appField(page).inputValue(), text, 'the text kept through the reload');
}

/** Every key of the page's localStorage and sessionStorage. */
const storageKeys = (page: Page): Promise<string[]> => page.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)]);

for (const build of BUILDS) {
  for (const kind of ['preview', 'nginx'] as HostKind[]) {
    const test = suite<Shared>(`two apps on one origin (${build.name}, ${kind})`);
    shareChromium(test, () =>
      startHost(kind, sharedOrigin({ [TEST_BASE]: site(build.name, 'base'), [SECOND_BASE]: site(build.name, 'base2') })),
    );

    test('each keeps its own data and its own offline copy: installing and using the second changes nothing of the first', async ({
      browser,
      host,
    }) => {
      const first = appId(APP_NAME, TEST_BASE);
      const second = appId(APP_NAME, SECOND_BASE);
      const context = await freshContext(browser);
      /** Asserts every key the page sees (localStorage, and its tab's sessionStorage) carries the name and base of one of the apps. */
      const assertKeysOfTheApps = async (page: Page) => {
        const keys = await storageKeys(page);
        assert.ok(keys.length > 0, 'the app keeps something on the device: at least its log');
        assert.equal(
          keys.filter((key) => !key.startsWith(storageKey('', first)) && !key.startsWith(storageKey('', second))),
          [],
          'every key carries the name and base of the app that wrote it',
        );
      };
      const firstUrl = new URL(TEST_BASE, host.url).href;
      const firstPage = await openInstalledField(context, firstUrl);
      await typeThroughReconnect(context, firstPage, first, `only at ${TEST_BASE}`);
      await assertKeysOfTheApps(firstPage);
      // Closed (its pending saves flushed at pagehide), so the second's reconnect below reloads only the second.
      await firstPage.close();
      const secondPage = await openInstalledField(context, new URL(SECOND_BASE, host.url).href);
      // Read from the second's page: localStorage is the origin's.
      const storedByFirst = await appStorage(secondPage, first);
      assert.is(await appField(secondPage).inputValue(), '', "the other app's text is not shown here");
      await typeThroughReconnect(context, secondPage, second, `only at ${SECOND_BASE}`);
      await assertKeysOfTheApps(secondPage);
      assert.equal(
        await cacheNames(secondPage),
        [
          cachePrefixOf(first) + audit(site(build.name, 'base')).version,
          cachePrefixOf(second) + audit(site(build.name, 'base2')).version,
        ].sort(),
        'both offline copies, each under its own name',
      );
      const storedBySecond = Object.values(await appStorage(secondPage, second)).join('\n');
      assert.not.match(storedBySecond, `only at ${TEST_BASE}`, "nothing typed into the first is the second's");
      assert.equal(await appStorage(secondPage, first), storedByFirst, 'what the first stored is as it was');
      await context.close();
    });

    test.run();
  }
}
