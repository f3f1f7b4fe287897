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
import { startHost } from './lib/hosts';
import { BUILDS, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { sleep } from './lib/wait';
import { openFieldWatched } from './lib/field';

const DAY_MS = 86_400_000;
const isProbe = (request: { method: string; url: string }) => request.method === 'HEAD' && request.url === '/sw.js';

for (const build of BUILDS) {
  const test = suite<Shared>(`a clock moved back 30 days (${build.name})`);
  shareChromium(test, () => startHost('preview', site(build.name, 'v1')));

  test('a reconnect after it gives one reload, one guard window later, and at most two probes', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const { page, problems } = await openFieldWatched(context, host.url);
    // The last automatic reload, as recorded before the clock went back 30 days.
    await page.evaluate(([key, at]) => sessionStorage.setItem(key, at), [GUARD_KEY, String(Date.now() + 30 * DAY_MS)]);
    const loads = countLoads(page);
    const probesBefore = host.log.filter(isProbe).length;
    await context.setOffline(true);
    await page.getByText('You are offline; everything here still works.').waitFor({ timeout: 2000 });
    await sleep(300); // pacing: a user's offline spell, not an absence proof
    const onlineAt = Date.now();
    await context.setOffline(false);
    // The new document has not been offline: from its log's 'reload' on, nothing could reload it again.
    await reconnectReloaded(page, loads, 20_000);
    const waited = Date.now() - onlineAt;
    assert.is(loads.n, 1, 'one reload');
    assert.ok(waited >= 10_000 && waited < 16_000, `the reload came one guard window after the network returned (${waited} ms)`);
    const probes = host.log.filter(isProbe).length - probesBefore;
    assert.ok(probes >= 1 && probes <= 2, `${probes} probes of the server`);
    assert.is((await logKinds(page)).filter((kind) => kind === 'reload').length, 1, 'one reload decided');
    assert.equal(problems, []);
    await context.close();
  });

  test.run();
}
