// A page the service worker served while offline: it never saw an `offline` event, only
// `navigator.onLine === false` at load, and still reloads once when the network returns.
import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILDS, launch, preview, watchProblems } from './helpers';
import { countLoads, firstNote, logKinds, openNotes, sleep, until } from './reconnect-helpers';

for (const build of BUILDS) {
  const test = suite(`reload on reconnect, page loaded offline (${build.name})`);
  let browser: Browser;
  test.before(async () => {
    browser = await launch();
  });
  test.after(() => browser.close());

  test('a page loaded offline reloads once when online (and none in the next 5 s)', async () => {
    const server = await preview(build.dir);
    const context = await browser.newContext({ serviceWorkers: 'allow' });
    try {
      const page = await context.newPage();
      const problems = watchProblems(page);
      await openNotes(page, server.url);
      // The worker (issue #3) has precached the site once it is active.
      const active = await page.evaluate(() => Promise.race([navigator.serviceWorker.ready.then(() => true), new Promise<boolean>((r) => setTimeout(r, 10_000, false))]));
      assert.ok(active, 'the service worker is active (it has precached the site)');
      await context.setOffline(true);
      await page.reload({ timeout: 5000 });
      await firstNote(page).waitFor({ timeout: 5000 });
      assert.is(await page.evaluate(() => navigator.onLine), false, 'loaded offline, from the worker');
      await page.getByText('You are offline; everything here still works.').waitFor({ timeout: 2000 });
      const loads = countLoads(page);
      await context.setOffline(false);
      await until(() => loads.n >= 1, 5000, 'the reload');
      await firstNote(page).waitFor();
      await sleep(5000);
      assert.is(loads.n, 1);
      assert.equal((await logKinds(page)).slice(-4), ['offline', 'online', 'probe-ok', 'reload']);
      assert.equal(problems.filter((p) => !p.includes('ERR_INTERNET_DISCONNECTED')), []);
    } finally {
      await context.close();
      await server.close();
    }
  });

  test.run();
}
