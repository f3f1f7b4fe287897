// Every state /status names for the worker, each reached for real in Chromium: ready; installing
// (n of m files); update waiting; repairing (k missing); offline and incomplete (k missing, will
// repair when online); error with the reason. A server that holds one file's answer until the
// test lets it go keeps the install or the repair under way long enough to be seen.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openInstalled, settle, statusFact, workerStateIs } from './lib/app';
import { clearHttpCache, freshContext } from './lib/browser';
import { evict } from './lib/caches';
import { holdFile, startHost } from './lib/hosts';
import { BUILDS, readPrecache, site } from './lib/site';
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
