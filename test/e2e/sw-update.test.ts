// Deploys, as a user meets them: a new version waits until the user takes it and then arrives with
// exactly one reload; a broken new version (a file missing, altered or failing) never installs and
// the old one keeps working offline; the kill switch withdraws the worker and every cache of ours.
// Each test is a deploy: the host switches the folder it serves.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { audit, buildKillSwitch, buildNewVersion, cacheNames, cleanup, copySite, freshContext, host, HOSTS, until, openInstalled, waitReady, type Host } from './deploy';
import { BUILDS, launch, watchProblems } from './helpers';
import { countLoads, firstNote, sleep } from './reconnect-helpers';

/** A cache another app on the same origin keeps (an origin such as *.github.io is shared). */
const OTHER = 'another-app-v1';
const makeOtherCache = (page: Page) => page.evaluate((n) => caches.open(n).then(() => undefined), OTHER);

/** The variant a page runs: 'v2' for the new version built by buildNewVersion(), '' for this one. */
const variant = (page: Page) => page.evaluate(() => document.documentElement.dataset.variant ?? '');

/** Opens "Offline readiness" through its link and presses "Check for update", as a user would. */
async function checkForUpdate(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Offline readiness' }).click();
  await page.getByRole('button', { name: 'Check for update' }).click();
}

/** Registrations of the page's origin. */
const registrations = (page: Page) => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length);

let browser: Browser;
for (const build of BUILDS) {
  // Other versions of this build, made once and deployed by each test in turn.
  let next: string;
  let kill: string;
  for (const kind of HOSTS) {
    const test = suite(`sw update (${build.name}, ${kind})`);
    let site: Host;
    let context: BrowserContext;
    // The preview server can fail one file of a deploy with a 500; python cannot.
    let failing = '';
    test.before(async () => {
      next ??= buildNewVersion(build.name === 'preact');
      kill ??= buildKillSwitch(build.name === 'preact');
      browser = await launch();
      site = await host(kind, build.dir, (req, res) => {
        if (!failing || req.url !== failing) return false;
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Internal Server Error\n');
        return true;
      });
    });
    test.after(async () => {
      await site.close();
      await browser.close();
    });
    test.before.each(async () => {
      context = await freshContext(browser);
    });
    test.after.each(async () => {
      await context.close();
      site.setRoot(build.dir);
      failing = '';
    });

    test('a new version waits for "Reload to update", then arrives with exactly one reload in each tab, keeping what was typed', async () => {
      const page = await context.newPage();
      const problems = watchProblems(page);
      await page.goto(site.url);
      await waitReady(page);
      const old = await cacheNames(page);
      await makeOtherCache(page);
      const other = await context.newPage();
      await other.goto(new URL('/about/', site.url).href);
      await other.getByRole('heading', { name: 'What this app ships' }).waitFor();

      site.setRoot(next);
      await checkForUpdate(page);
      for (const p of [page, other]) await p.getByText('A new version is ready.').waitFor({ timeout: 10_000 });
      // The new version waits: nothing changed under the open pages.
      assert.equal([await variant(page), await variant(other)], ['', '']);
      // Typed a moment before the click, so only the flush before the reload can save it.
      await page.getByRole('link', { name: 'Notes' }).click();
      await firstNote(page).fill('written just before updating');
      const loads = countLoads(page);
      const otherLoads = countLoads(other);
      await page.getByRole('button', { name: 'Reload to update' }).click();

      await until(async () => (await variant(page).catch(() => '')) === 'v2', 'the new version in the tab that asked');
      await until(async () => (await variant(other).catch(() => '')) === 'v2', 'the new version in the other tab');
      await sleep(2000);
      assert.is(loads.n, 1, 'one reload in the tab that asked');
      assert.is(otherLoads.n, 1, 'one reload in the other tab');
      assert.is(await firstNote(page).inputValue(), 'written just before updating');
      await other.getByRole('heading', { name: 'What this app ships' }).waitFor();
      assert.equal(await cacheNames(page), [OTHER, `offline-shell-${audit(next).version}`].sort(), 'the old cache is gone, the other app\'s stays');
      assert.not.ok(old.includes(`offline-shell-${audit(next).version}`));
      // And the new version works offline.
      await context.setOffline(true);
      await page.reload();
      await firstNote(page).waitFor();
      assert.is(await variant(page), 'v2');
      assert.equal(problems, []);
    });

    /** Deploys a broken copy of the new version and checks the old one stays, whole and offline. */
    async function brokenUpdate(breakIt: (dir: string) => void) {
      const page = await openInstalled(context, site.url);
      const old = await cacheNames(page);
      const broken = copySite(next);
      breakIt(broken);
      site.setRoot(broken);
      await checkForUpdate(page);
      await page.getByText('An update failed to install; this version keeps working.').waitFor({ timeout: 10_000 });
      assert.equal(await cacheNames(page), old, 'nothing of the broken version is cached');
      assert.is(await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting), false);
      await context.setOffline(true);
      await page.goto(site.url);
      await firstNote(page).waitFor();
      assert.is(await variant(page), '', 'the old version serves');
      assert.ok(await page.evaluate(() => !!navigator.serviceWorker.controller));
    }

    test('a new version with a file missing never installs; the old one keeps working offline', async () => {
      await brokenUpdate((dir) => rmSync(path.join(dir, 'icons/icon-512.png')));
    });

    test('a new version with a file whose bytes differ from its hash never installs; the old one keeps working offline', async () => {
      await brokenUpdate((dir) => {
        // Same length, one character changed: only the SHA-384 can tell.
        const file = path.join(dir, 'licenses.txt');
        const text = readFileSync(file, 'utf8');
        writeFileSync(file, text.replace('Third-party', 'Third_party'));
        assert.is.not(readFileSync(file, 'utf8'), text);
      });
    });

    if (kind === 'preview server')
      test('a new version whose server fails one file with a 500 never installs; the old one keeps working offline', async () => {
        const js = readdirSync(path.join(next, 'assets')).find((f) => f.endsWith('.js'))!;
        failing = `/assets/${js}`;
        await brokenUpdate(() => {});
      });

    test('the kill switch leaves no registration and no cache of ours, and the page works online', async () => {
      const page = await openInstalled(context, site.url);
      await makeOtherCache(page);
      await firstNote(page).fill('still here after the kill switch');
      const loads = countLoads(page);
      site.setRoot(kill);
      await checkForUpdate(page);
      // The worker reloads the pages it controlled; they come back from the network, uncontrolled.
      await until(() => loads.n > 0, 'the page to be reloaded');
      const gone = async () => (await registrations(page).catch(() => 1)) === 0 && (await cacheNames(page).catch(() => [])).join() === OTHER;
      await until(gone, 'no registration and no cache of ours');
      // The reloaded page registers the kill-switch worker again; it withdraws itself once more.
      await sleep(1500);
      assert.ok(await gone(), 'still withdrawn a moment later');
      assert.is(await page.evaluate(() => navigator.serviceWorker.controller), null);
      const from = site.log.length;
      await page.reload();
      await firstNote(page).waitFor();
      assert.ok(site.log.slice(from).some((r) => r.method === 'GET' && r.url === '/'), 'the page came from the network');
      assert.is(await firstNote(page).inputValue(), 'still here after the kill switch');
    });

    test.run();
  }
}

process.on('exit', cleanup);
