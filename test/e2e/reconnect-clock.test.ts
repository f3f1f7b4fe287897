// A clock moved back a month after an automatic reload, in real Chromium against the built site:
// the reload guard's stored time then lies 30 days in the future. A reconnect still gives exactly
// one reload, one guard window (10 s) later, and a bounded number of probes of the server (a wait
// computed from that time ran at once and probed without end).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GUARD_KEY } from '../../src/reload/reconnect';
import { countLoads, reconnectReloaded } from './lib/app';
import { freshContext } from './lib/browser';
import { logKinds } from './lib/connectivity-log';
import { isProbe, startHost } from './lib/hosts';
import { BUILDS, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { sleep, until } from './lib/wait';
import { openFieldWatched } from './lib/field';

const DAY_MS = 86_400_000;

/** The reload guard's window (src/reload/reconnect.ts, `guardMs`). */
const GUARD_WINDOW_MS = 10_000;

for (const build of BUILDS) {
  const test = suite<Shared>(`a clock moved back 30 days (${build.name})`);
  shareChromium(test, () => startHost('preview', site(build.name, 'v1')));

  test('a reconnect after it gives one reload, one guard window later, and at most two probes', async ({ browser, host }) => {
    const context = await freshContext(browser);
    // The page's clock is the test's: time flows as usual, and the guard window passes at once.
    await context.clock.install();
    const { page, problems } = await openFieldWatched(context, host.url);
    // The last automatic reload, as recorded before the clock went back 30 days.
    await page.evaluate(([key, at]) => sessionStorage.setItem(key, at), [GUARD_KEY, String(Date.now() + 30 * DAY_MS)]);
    const loads = countLoads(page);
    const probesBefore = host.log.filter(isProbe).length;
    await context.setOffline(true);
    await page.getByText('You are offline; everything here still works.').waitFor({ timeout: 2000 });
    await sleep(300); // pacing: a user's offline spell, not an absence proof
    await context.setOffline(false);
    // The positive signal: the probe answered, so the reload was due. Unguarded, it follows the
    // answer at once (src/reload/reconnect.ts); the log read after the reload below tells the two
    // apart: a held reload asks again once the window is over (a second probe-ok).
    await until('the probe to succeed', async () => (await logKinds(page)).at(-1) === 'probe-ok');
    assert.is(loads.n, 0, 'no reload within the guard window');
    await context.clock.fastForward(GUARD_WINDOW_MS);
    // The new document has not been offline: from its log's 'reload' on, nothing could reload it again.
    await reconnectReloaded(page, loads);
    assert.is(loads.n, 1, 'one reload, once the guard window is over');
    const probes = host.log.filter(isProbe).length - probesBefore;
    assert.ok(probes >= 1 && probes <= 2, `${probes} probes of the server`);
    const kinds = (await logKinds(page)).filter((kind) => kind !== 'fields-restored');
    assert.equal(
      kinds.slice(kinds.lastIndexOf('online')),
      ['online', 'probe-ok', 'probe-ok', 'reload'],
      'one reload decided, by the attempt after the window: the first answer was held',
    );
    assert.equal(problems, []);
    await context.close();
  });

  test.run();
}
