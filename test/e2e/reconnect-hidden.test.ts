// A hidden tab waits for the user: real tab switching (see launchWithTabs), not a faked
// document.visibilityState.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILDS, preview } from './helpers';
import { countLoads, launchWithTabs, openNotes, sleep, until } from './reconnect-helpers';

for (const build of BUILDS) {
  const test = suite(`reload on reconnect, hidden tab (${build.name})`);

  test('a hidden page reloads only when shown', async () => {
    const server = await preview(build.dir);
    const chrome = await launchWithTabs();
    try {
      const context = chrome.browser.contexts()[0];
      const page = context.pages()[0] ?? (await context.newPage());
      await openNotes(page, server.url);
      const loads = countLoads(page);
      await context.setOffline(true);
      const other = await context.newPage(); // the user switches to another tab
      await until(() => page.evaluate(() => document.visibilityState === 'hidden'), 2000, 'the page to be hidden');
      await context.setOffline(false);
      await until(() => page.evaluate(() => navigator.onLine), 2000, 'the hidden page to see the network back');
      await sleep(3000);
      assert.is(loads.n, 0, 'no reload while hidden');
      await page.bringToFront(); // the user comes back
      await until(() => loads.n >= 1, 3000, 'the reload once shown');
      await sleep(2000);
      assert.is(loads.n, 1);
      await other.close();
    } finally {
      await server.close();
      await chrome.close();
    }
  });

  test.run();
}
