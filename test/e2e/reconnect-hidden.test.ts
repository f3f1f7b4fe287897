// A hidden tab waits for the user: real tab switching (see launchWithTabs), not a faked
// document.visibilityState.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { countLoads, reconnectReloaded } from './lib/app';
import { launchWithTabs } from './lib/browser';
import { startHost } from './lib/hosts';
import { BUILDS, site } from './lib/site';
import { until } from './lib/wait';
import { logEntries } from './lib/connectivity-log';
import { openFieldScreen } from './lib/field';

/** How long the network must stay up before the app probes (startReconnect's default stableMs). */
const STABLE_MS = 1000;

for (const build of BUILDS) {
  const test = suite(`reload on reconnect, hidden tab (${build.name})`);

  test('a hidden page reloads only when shown', async () => {
    const host = await startHost('preview', site(build.name, 'v1'));
    const chromium = await launchWithTabs();
    try {
      const context = chromium.browser.contexts()[0];
      const page = context.pages()[0] ?? (await context.newPage());
      await openFieldScreen(page, host.url);
      const loads = countLoads(page);
      await context.setOffline(true);
      const other = await context.newPage(); // the user switches to another tab
      await until('the page to be hidden', () => page.evaluate(() => document.visibilityState === 'hidden'), 2000);
      // Armed before the network returns: this `online` listener runs after the app's, so its
      // timer is set after the app's stability timer, with the same delay, and fires after it
      // (a page's timers fire in order). When it has fired, the app has decided what to do.
      const decided = page.evaluate(
        (ms) => new Promise<void>((resolve) => addEventListener('online', () => setTimeout(resolve, ms), { once: true })),
        STABLE_MS,
      );
      await context.setOffline(false);
      await decided;
      assert.is(loads.n, 0, 'no reload while hidden');
      const shownAt = await page.evaluate(() => Date.now());
      await page.bringToFront(); // the user comes back
      await reconnectReloaded(page, loads, 3000);
      assert.is(loads.n, 1);
      // What the hidden page did is in its log: it probed the server, and reloaded, only once shown.
      const [probe, reload] = (await logEntries(page)).slice(-2);
      assert.equal([probe.kind, reload.kind], ['probe-ok', 'reload']);
      assert.ok(probe.at >= shownAt, `probed ${shownAt - probe.at} ms before the page was shown`);
      await other.close();
    } finally {
      await host.close();
      await chromium.close();
    }
  });

  test.run();
}
