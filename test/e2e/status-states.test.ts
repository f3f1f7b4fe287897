// Every state /status names for the worker, each reached for real in Chromium: ready; installing
// (n of m files); update waiting; repairing (k missing); offline and incomplete (k missing, will
// repair when online); error with the reason. A server that holds one file's answer until the
// test lets it go keeps the install or the repair under way long enough to be seen.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { storageKey } from '../../src/contract/app-name';
import { openInstalled, settle, statusFact, workerStateIs } from './lib/app';
import { clearHttpCache, freshContext } from './lib/browser';
import { evict } from './lib/caches';
import { holdFile, startHost } from './lib/hosts';
import { APP_NAME, BUILDS, readPrecache, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { until, WAIT } from './lib/wait';

/** A file only the worker asks for on /status (the About screen shows it): holding it holds the install or a repair. */
const HELD = '/licenses.txt';

for (const build of BUILDS) {
  const dist = site(build.name, 'v1');
  const total = Object.keys(readPrecache(dist)).length;
  const test = suite<Shared>(`status states (${build.name})`);
  shareChromium(test);

  test('installing (n of m files), then ready', async ({ browser }) => {
    const server = holdFile(HELD);
    const host = await startHost('preview', dist, { intercept: server.intercept });
    server.hold();
    const context = await freshContext(browser);
    const page = await context.newPage();
    await page.goto(new URL('/status/', host.url).href);
    await workerStateIs(page, `installing (${total - 1} of ${total} files)`);
    server.release();
    await workerStateIs(page, 'ready');
    await context.close();
    await host.close();
  });

  test('copies of unreadable stored data (any document of the app, never overwritten) each download from /status/ as they were', async ({
    browser,
  }) => {
    const host = await startHost('preview', dist);
    const context = await freshContext(browser, { acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(new URL('/status/', host.url).href);
    // What device-document.ts copies aside before replacing unreadable text: a first copy and a later one beside it.
    const copies = {
      [storageKey('fixture-data:backup')]: '{"v":1,"items":["half',
      [storageKey('fixture-data:backup-2')]: 'later damage ]}',
    };
    await page.evaluate((entries) => {
      for (const [key, text] of Object.entries(entries)) localStorage.setItem(key, text);
    }, copies);
    await page.reload();
    for (const [key, text] of Object.entries(copies)) {
      const name = `${APP_NAME}-${key.slice(storageKey('').length).replace(/\W+/g, '-')}.txt`;
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Download ${name}` }).click()]);
      assert.is(download.suggestedFilename(), name);
      assert.is(readFileSync(await download.path(), 'utf8'), text, 'the copy as it was kept');
    }
    await context.close();
    await host.close();
  });

  test('update waiting', async ({ browser }) => {
    const host = await startHost('preview', dist);
    const context = await freshContext(browser);
    const page = await openInstalled(context, new URL('/status/', host.url).href);
    await workerStateIs(page, 'ready');
    await host.setRoot(site(build.name, 'v2'));
    await page.getByRole('button', { name: 'Check for update' }).click();
    await workerStateIs(page, 'update waiting');
    await context.close();
    await host.close();
  });

  test('repairing (1 missing), then ready with "Repaired 1 file." in the live region', async ({ browser }) => {
    const server = holdFile(HELD);
    const host = await startHost('preview', dist, { intercept: server.intercept });
    const context = await freshContext(browser);
    const page = await openInstalled(context, new URL('/status/', host.url).href);
    await settle(page, 'Offline readiness');
    await evict(page, [HELD]);
    await clearHttpCache(page);
    server.hold();
    await page.getByRole('button', { name: 'Check for update' }).click();
    await workerStateIs(page, 'repairing (1 missing)');
    await page.getByRole('status').getByText('1 file missing: repairing now.').waitFor(WAIT);
    // The worker posts "repairing" before its fetch reaches the server: wait for the held request,
    // then the state must still be "repairing" (the repair really waits for the file).
    await until('the repair to ask the server for the missing file', () => server.waiting.includes(HELD));
    assert.is(await statusFact(page, 'State'), 'repairing (1 missing)', 'the repair waits for the server');
    server.release();
    await workerStateIs(page, 'ready');
    await page.getByRole('status').getByText('Repaired 1 file.').waitFor(WAIT);
    await context.close();
    await host.close();
  });

  test('offline and incomplete (1 missing, will repair when online)', async ({ browser }) => {
    const host = await startHost('preview', dist);
    const context = await freshContext(browser);
    const page = await openInstalled(context, new URL('/status/', host.url).href);
    await evict(page, [HELD]);
    await clearHttpCache(page);
    await context.setOffline(true);
    await page.reload();
    await workerStateIs(page, 'offline and incomplete (1 missing, will repair when online)');
    await page.getByRole('status').getByText('1 file missing: repairing when online.').waitFor(WAIT);
    await context.close();
    await host.close();
  });

  test('error, with the reason: a first install that failed, and a file the server sends altered', async ({ browser }) => {
    let failing = true;
    const host = await startHost('preview', dist, {
      intercept: (req, res) => {
        if (req.url !== HELD || !failing) return false;
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('not the licences');
        return true;
      },
    });
    const context = await freshContext(browser);
    const page = await context.newPage();
    await page.goto(new URL('/status/', host.url).href);
    await workerStateIs(page, /^error: Could not save the app for offline use\. Offline use is not ready yet; trying again at /);
    // Once the server is right again, the app installs; then the same file goes bad and missing.
    failing = false;
    await page.reload();
    await workerStateIs(page, 'ready');
    await evict(page, [HELD]);
    await clearHttpCache(page);
    failing = true;
    await page.getByRole('button', { name: 'Check for update' }).click();
    await workerStateIs(page, /^error: 1 file missing and not repaired \(the server's copy did not arrive intact\)/);
    await context.close();
    await host.close();
  });

  test.run();
}
