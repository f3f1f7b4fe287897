// Deploys, as a user meets them: a new version waits until the user takes it and then arrives with
// exactly one reload; a new version with a file missing (each host answers that its own way: on
// every host) never installs and the old one keeps working offline; the kill switch withdraws the
// worker and every cache of ours. Each test is a deploy: the host switches the folder it serves.
// The update and the kill switch run on the preview server and on Cloudflare Pages' runtime, the
// host that answers most differently (308s to pretty URLs, its own compression); python and nginx
// serve sw.js and the pages as plain files, which hosts-headers.test.ts reads on each.
// (Altered bytes and a file failing with a 500: engines-versions.test.ts scenario 5 in every engine,
// and test/unit/sw-install.test.ts.)
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appRunning, countLoads, openInstalled, openInstalledWatched } from './lib/app';
import { freshContext } from './lib/browser';
import { HOSTS, requestsSince, startHost, type Host } from './lib/hosts';
import { appScript, audit, BUILDS, copySite, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { until } from './lib/wait';
import { cacheNames } from './lib/caches';
import { FIELD_SCREEN, variant } from './lib/screens';
import { CACHE_PREFIX } from '../../src/contract/app-name';
import { appField, appStorage, fieldScreenUrl } from './lib/field';

/** A cache another app on the same origin keeps (an origin such as *.github.io is shared). */
const OTHER = 'another-app-v1';
const makeOtherCache = (page: Page) => page.evaluate((n) => caches.open(n).then(() => undefined), OTHER);

/** Opens "Offline readiness" through its link and presses "Check for update", as a user would. */
async function checkForUpdate(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Offline readiness' }).click();
  await page.getByRole('button', { name: 'Check for update' }).click();
}

/** The version of the worker controlling the page (from its GET_VERSION answer), and whether another one is on its way. */
const workerState = (page: Page) =>
  page.evaluate(async () => {
    const controller = navigator.serviceWorker.controller;
    const version = !controller
      ? ''
      : await new Promise<string>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = (e: MessageEvent<{ version: string }>) => resolve(e.data.version);
          controller.postMessage({ type: 'GET_VERSION' }, [channel.port2]);
        });
    const registration = await navigator.serviceWorker.getRegistration();
    return { version, pending: !!(registration?.installing || registration?.waiting) };
  });

/** Registrations of the page's origin. */
const registrations = (page: Page) => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length);

for (const build of BUILDS) {
  // Other versions of this build, deployed by each test in turn.
  const dist = site(build.name, 'v1');
  const next = site(build.name, 'v2');
  const kill = site(build.name, 'kill');
  // The page's side of an update (its one reload, what was typed) runs on both builds; what the
  // worker does with a deploy, and each host's part in it, on the React build (sw.js is the same
  // bytes in both).
  for (const kind of build.name === 'react' ? HOSTS : (['preview'] as const)) {
    const test = suite<Shared>(`sw update (${build.name}, ${kind})`);
    let context: BrowserContext;
    shareChromium(test, () => startHost(kind, dist));
    test.before.each(async ({ browser }) => {
      context = await freshContext(browser);
    });
    test.after.each(async ({ host }) => {
      await context.close();
      await host.setRoot(dist);
    });

    /** Whether this host runs the update and the kill switch (see the top of the file). */
    const deploysInFull = kind === 'preview' || kind === 'pages';

    if (deploysInFull)
      test('a new version waits for "Reload to update", then arrives with exactly one reload in each tab, keeping what was typed', async ({
        host,
      }) => {
        const { page, problems } = await openInstalledWatched(context, host.url);
        const old = await cacheNames(page);
        await makeOtherCache(page);
        const other = await context.newPage();
        await other.goto(new URL('/about/', host.url).href);
        await other.getByRole('heading', { name: 'What this app ships' }).waitFor();

        await host.setRoot(next);
        await checkForUpdate(page);
        for (const p of [page, other]) await p.getByText('A new version is ready.').waitFor({ timeout: 10_000 });
        // The new version waits: nothing changed under the open pages.
        assert.equal([await variant(page), await variant(other)], ['', '']);
        // Typed a moment before the click, so only the flush before the reload can save it.
        await page.getByRole('link', { name: FIELD_SCREEN.h1, exact: true }).click();
        await appField(page).fill('written just before updating');
        const loads = countLoads(page);
        const otherLoads = countLoads(other);
        await page.getByRole('button', { name: 'Reload to update' }).click();

        const newVersion = audit(next).version;
        for (const [tab, which] of [
          [page, 'the tab that asked'],
          [other, 'the other tab'],
        ] as const) {
          await until(`the new version in ${which}`, async () => (await variant(tab).catch(() => '')) === 'v2');
          // An update reloads a page only when its controller changes: with the new version in
          // control and no other worker on its way, no second reload can come.
          await until(`the new version's worker in sole control of ${which}`, async () => {
            const worker = await workerState(tab).catch(() => null);
            return worker?.version === newVersion && !worker.pending;
          });
        }
        assert.is(loads.n, 1, 'one reload in the tab that asked');
        assert.is(otherLoads.n, 1, 'one reload in the other tab');
        assert.is(await appField(page).inputValue(), 'written just before updating');
        await other.getByRole('heading', { name: 'What this app ships' }).waitFor();
        assert.equal(await cacheNames(page), [OTHER, CACHE_PREFIX + newVersion].sort(), "the old cache is gone, the other app's stays");
        assert.not.ok(old.includes(CACHE_PREFIX + newVersion));
        // And the new version works offline.
        await context.setOffline(true);
        await page.reload();
        await appField(page).waitFor();
        assert.is(await variant(page), 'v2');
        assert.equal(problems, []);
      });

    // The broken file must be one that this version changed: the install may take a file it
    // already holds from the HTTP cache, where the bytes it verified for the old version are the
    // right ones, so a broken server copy of an unchanged file never reaches it.

    /** Deploys a broken copy of the new version to `host` and checks the old one stays, whole and offline. */
    async function brokenUpdate(host: Host, breakIt: (dir: string) => void) {
      const page = await openInstalled(context, host.url);
      const old = await cacheNames(page);
      const broken = copySite(next);
      breakIt(broken);
      await host.setRoot(broken);
      await checkForUpdate(page);
      await page.getByText('An update failed to install; this version keeps working.').waitFor({ timeout: 10_000 });
      assert.equal(await cacheNames(page), old, 'nothing of the broken version is cached');
      assert.is(await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting), false);
      await context.setOffline(true);
      await page.goto(fieldScreenUrl(host.url));
      await appField(page).waitFor();
      assert.is(await variant(page), '', 'the old version serves');
      assert.ok(await page.evaluate(() => !!navigator.serviceWorker.controller));
    }

    if (build.name === 'react')
      test('a new version with a file missing never installs; the old one keeps working offline', async ({ host }) => {
        await brokenUpdate(host, (dir) => {
          // Its precompressed copies go too: nginx's gzip_static serves `file.gz` even when `file`
          // itself is gone, so a deploy missing the file has neither.
          for (const suffix of ['', '.gz', '.br']) rmSync(path.join(dir, appScript(next) + suffix), { force: suffix !== '' });
        });
      });

    if (build.name === 'react' && deploysInFull)
      test('the kill switch leaves no registration and no cache of ours, and the page works online, with no console problem', async ({
        host,
      }) => {
        const { page, problems } = await openInstalledWatched(context, fieldScreenUrl(host.url));
        await makeOtherCache(page);
        await appField(page).fill('still here after the kill switch');
        // What the app stored, its pending saves flushed by a reload (pagehide).
        await page.reload();
        await appRunning(page);
        const stored = await appStorage(page);
        const loads = countLoads(page);
        await host.logged();
        const sinceDeploy = host.log.length;
        await host.setRoot(kill);
        await checkForUpdate(page);
        // The worker reloads the pages it controlled; they come back from the network, uncontrolled.
        await until('the page to be reloaded', () => loads.n > 0);
        // The reloaded page registers the kill-switch worker again (a second GET /sw.js after the
        // update check's); from then on its registration exists until the worker withdraws it.
        await until(
          'the reloaded page to register the worker again',
          () => requestsSince(host, sinceDeploy).filter((url) => url === '/sw.js').length >= 2,
        );
        const gone = async () =>
          (await registrations(page).catch(() => 1)) === 0 && (await cacheNames(page).catch(() => [])).join() === OTHER;
        await until('no registration and no cache of ours, after the second withdrawal', gone);
        assert.is(await page.evaluate(() => navigator.serviceWorker.controller), null);
        // The withdrawal reloads the page where it was (the worker navigates to the URL its document
        // was created with; the page's own update reload, once the kill worker has activated, keeps
        // /status/): go to the field screen, then reload, so the HTTP cache cannot answer (python sends no
        // Cache-Control, and a plain navigation may be answered heuristically).
        await page.goto(fieldScreenUrl(host.url));
        await host.logged();
        const beforeReload = host.log.length;
        await page.reload();
        await appField(page).waitFor();
        await host.logged();
        assert.ok(requestsSince(host, beforeReload).includes(FIELD_SCREEN.path), 'the page came from the network');
        assert.equal(await appStorage(page), stored, 'all the app stored is kept');
        assert.equal(problems, []);
      });

    test.run();
  }
}
