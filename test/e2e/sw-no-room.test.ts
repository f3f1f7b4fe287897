// A device without room for the app (a nearly full phone), produced for real in Chromium: the
// DevTools protocol's Storage.overrideQuotaForOrigin gives the origin a quota below the app's size,
// so the worker's Cache API writes fail with QuotaExceededError (navigator.storage.estimate() still
// reports the usual quota). The banner and /status say that this device has no room to keep the app
// for offline use, that it works online meanwhile and what frees room; once room is freed, the
// page's own retry installs it in the same page.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { countLoads, statusFact, waitReady, workerStateIs } from './lib/app';
import { freshContext } from './lib/browser';
import { startHost } from './lib/hosts';
import { site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { WAIT } from './lib/wait';
import { appField } from './lib/field';
import { FIELD_SCREEN } from './lib/screens';
import { FIRST_RETRY_MS } from '../../src/worker-client/install-retry';

/** The start of what the banner and /status say, before what frees room and when it tries again. */
const NO_ROOM = 'This device has no room to keep the app for offline use; it works online meanwhile.';

// On the React build: the worker tells a full device from other failures (the same sw.js in both
// builds), the words are tested in-process (test/unit/worker-state.test.ts), and the page's retry in
// the same page runs on both builds in sw-faults.test.ts.
{
  const build = { name: 'react' } as const;
  const test = suite<Shared>(`no room for the app (${build.name})`);
  shareChromium(test, () => startHost('preview', site(build.name, 'v1')));

  test('the banner and /status say so in words a person can act on; freed room, the retry installs it in the same page', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    // The page's clock is the test's, so the retry's 10 s pass at once (time flows as usual otherwise).
    await context.clock.install();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const origin = new URL(host.url).origin;
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 10_000 });
    const loads = countLoads(page);
    await page.goto(new URL('/status/', host.url).href);
    const banner = page.locator('.banners');
    await banner.getByText(NO_ROOM).waitFor(WAIT);
    const said = await banner.innerText();
    assert.match(
      said,
      /free some space \(delete files or apps you no longer need, or other sites' data in the browser's settings\): it tries again at \S+/,
    );
    await workerStateIs(page, new RegExp(`^error: ${NO_ROOM.replace(/[.;]/g, '\\$&')}`));
    // Online meanwhile: the app's screens work.
    await page.getByRole('link', { name: FIELD_SCREEN.h1, exact: true }).click();
    await appField(page).fill('typed while the app could not be kept');
    // The person frees room: the quota goes back to the browser's own.
    await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    const loadsBefore = loads.n;
    await context.clock.fastForward(FIRST_RETRY_MS);
    await page.getByText('Ready to work offline').waitFor(WAIT);
    await waitReady(page);
    assert.is(loads.n, loadsBefore, 'the same page became ready: no reload');
    await page.getByRole('link', { name: 'Offline readiness' }).click();
    assert.is(await statusFact(page, 'State'), 'ready');
    await context.close();
  });

  test.run();
}
