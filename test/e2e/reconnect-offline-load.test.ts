// A page the service worker served while offline: it never saw an `offline` event, only
// `navigator.onLine === false` at load, and still reloads once when the network returns.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { countLoads, openInstalledWatched, reconnectReloaded } from './lib/app';
import { freshContext } from './lib/browser';
import { startHost } from './lib/hosts';
import { BUILDS, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { logKinds } from './lib/connectivity-log';
import { appField, fieldScreenUrl } from './lib/field';

for (const build of BUILDS) {
  const test = suite<Shared>(`reload on reconnect, page loaded offline (${build.name})`);
  shareChromium(test, () => startHost('preview', site(build.name, 'v1')));

  test('a page loaded offline reloads once when online, and no second time', async ({ browser, host }) => {
    const context = await freshContext(browser);
    try {
      // Installed: the worker has precached the site.
      const { page, problems } = await openInstalledWatched(context, fieldScreenUrl(host.url));
      await context.setOffline(true);
      await page.reload({ timeout: 5000 });
      await appField(page).waitFor({ timeout: 5000 });
      assert.is(await page.evaluate(() => navigator.onLine), false, 'loaded offline, from the worker');
      await page.getByText('You are offline; everything here still works.').waitFor({ timeout: 2000 });
      const loads = countLoads(page);
      await context.setOffline(false);
      await reconnectReloaded(page, loads);
      assert.is(loads.n, 1);
      assert.equal((await logKinds(page)).slice(-4), ['offline', 'online', 'probe-ok', 'reload']);
      assert.equal(
        problems.filter((p) => !p.includes('ERR_INTERNET_DISCONNECTED')),
        [],
      );
    } finally {
      await context.close();
    }
  });

  test.run();
}
