// The kill switch when the browser's storage fails, produced for real in Chromium: the host serves
// the kill switch's own sw.js with one line put first that makes every CacheStorage.delete reject,
// as Chromium's Cache API does on a damaged profile or a full disk. The bad version must be
// withdrawn anyway: the pages it controlled are reloaded from the network, with no worker left.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CACHE_PREFIX } from '../../src/contract/app-name';
import { appRunning, countLoads, openInstalled } from './lib/app';
import { freshContext } from './lib/browser';
import { ourCacheNames } from './lib/caches';
import { requestsSince, startHost } from './lib/hosts';
import { registrationOf } from './lib/registration';
import { audit, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { until } from './lib/wait';
import { appField, appStorage, fieldScreenUrl } from './lib/field';

/** Run first in the worker's global scope: every cache deletion rejects, as Chromium's Cache API does on a damaged profile. */
const FAILING_DELETE =
  "CacheStorage.prototype.delete = () => Promise.reject(new DOMException('Unexpected internal error.', 'UnknownError'));\n";

/** An intercept that, once `serve()` is called, answers /sw.js with `dist`'s worker with FAILING_DELETE put first. */
function workerWithFailingDeletes(dist: string) {
  let serving = false;
  const script = FAILING_DELETE + readFileSync(path.join(dist, 'sw.js'), 'utf8');
  return {
    serve: () => {
      serving = true;
    },
    intercept: (req: IncomingMessage, res: ServerResponse): boolean => {
      if (!serving || req.method !== 'GET' || new URL(req.url ?? '/', 'http://host').pathname !== '/sw.js') return false;
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' }).end(script);
      return true;
    },
  };
}

// On the React build: the kill switch's sw.js is the same bytes in both builds (and its failing
// deletes are tested in-process too: test/unit/sw-serve.test.ts).
{
  const build = { name: 'react' } as const;
  const dist = site(build.name, 'v1');
  const test = suite<Shared>(`sw kill switch (${build.name})`);
  shareChromium(test);

  test('the kill switch, its cache deletions failing: the page is reloaded from the network with no worker, and the registration is gone', async ({
    browser,
  }) => {
    const killSwitch = workerWithFailingDeletes(site(build.name, 'kill'));
    const host = await startHost('preview', dist, { intercept: killSwitch.intercept });
    const context = await freshContext(browser);
    const page = await openInstalled(context, fieldScreenUrl(host.url));
    await appField(page).fill('still here after the kill switch');
    // What the app stored, its pending saves flushed by a reload (pagehide).
    await page.reload();
    await appRunning(page);
    const stored = await appStorage(page);
    const loads = countLoads(page);
    const sinceDeploy = host.log.length;
    await host.setRoot(site(build.name, 'kill'));
    killSwitch.serve();
    await page.getByRole('link', { name: 'Offline readiness' }).click();
    await page.getByRole('button', { name: 'Check for update' }).click();
    await until('the page to be reloaded', () => loads.n > 0);
    // The reloaded page registers the kill switch again (the update check's GET of /sw.js, then
    // this one); from then on a registration exists until the worker withdraws it once more.
    await until(
      'the reloaded page to register the worker again',
      () => requestsSince(host, sinceDeploy).filter((url) => url === '/sw.js').length >= 2,
    );
    await until('no registration', async () => (await registrationOf(page).catch(() => undefined)) === null);
    assert.is(await page.evaluate(() => navigator.serviceWorker.controller), null, 'no worker controls the page');
    // The fault was real: the deletions failed, so the old version's cache is still there (never served: no worker).
    assert.equal(await ourCacheNames(page), [CACHE_PREFIX + audit(dist).version], 'the cache the kill switch could not delete');
    const reload = host.log.length;
    await page.reload();
    await appRunning(page);
    const shown = new URL(page.url()).pathname;
    assert.ok(requestsSince(host, reload).includes(shown), `the page came from the network: ${shown}`);
    assert.equal(await appStorage(page), stored, 'all the app stored is kept');
    await context.close();
    await host.close();
  });

  test.run();
}
