// Reload on reconnect in real Chromium against the built site: `context.setOffline` fires the
// real online/offline events, the probe reaches the real preview server.
import type { IncomingMessage } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { countLoads, reconnectReloaded } from './lib/app';
import { freshContext } from './lib/browser';
import { HOSTS, startHost } from './lib/hosts';
import { BUILDS, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { sleep, until } from './lib/wait';
import { logKinds } from './lib/connectivity-log';
import { appField, newFieldPage, openFieldWatched } from './lib/field';

const isProbe = (r: { method: string; url: string }) => r.method === 'HEAD' && r.url === '/sw.js';

for (const build of BUILDS) {
  const test = suite<Shared>(`reload on reconnect (${build.name})`);
  // "Down": the server drops every connection, as a stopped origin behind a live network does
  // (rather than pause(): the dropped probes still reach the log, so the test can count them).
  let down = false;
  const dropWhileDown = (req: IncomingMessage) => {
    if (!down) return false;
    req.socket.destroy();
    return true;
  };
  shareChromium(test, () => startHost('preview', site(build.name, 'v1'), { intercept: dropWhileDown }));

  test('offline then online gives exactly one reload, and no second one', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const { page, problems } = await openFieldWatched(context, host.url);
    const loads = countLoads(page);
    const probesBefore = host.log.filter(isProbe).length;
    await context.setOffline(true);
    await page.getByText('You are offline; everything here still works.').waitFor({ timeout: 2000 });
    await sleep(300); // pacing: a user's offline spell, not an absence proof
    await context.setOffline(false);
    await reconnectReloaded(page, loads);
    assert.is(loads.n, 1, 'one reload');
    assert.is(host.log.filter(isProbe).length - probesBefore, 1, 'one probe of the server, over the network');
    // The reconnect's own steps: the page may go offline before its first install is done, and
    // the log then also says the install failed and when it is tried again.
    const reconnectSteps = (await logKinds(page)).filter((kind) => kind !== 'install-failed');
    assert.equal(reconnectSteps.slice(-4), ['offline', 'online', 'probe-ok', 'reload'], 'the log kept across the reload');
    assert.is(await page.getByText('You are offline').count(), 0, 'no offline banner after it');
    assert.equal(problems, []);
    await context.close();
  });

  test('8 toggles 100 ms apart give one reload, and no second one', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const page = await newFieldPage(context, host.url);
    const loads = countLoads(page);
    for (let i = 0; i < 8; i++) {
      await context.setOffline(i % 2 === 0); // off, on, ... ending online
      await sleep(100); // pacing: the flapping itself
    }
    assert.is(loads.n, 0, 'no reload while flapping');
    await reconnectReloaded(page, loads);
    assert.is(loads.n, 1);
    assert.is((await logKinds(page)).filter((kind) => kind === 'reload').length, 1, 'one reload decided');
    console.log(`  flapping (${build.name}): 8 toggles 100 ms apart -> ${loads.n} reload(s)`);
    await context.close();
  });

  test('a server that is down when the browser says online gives no reload until it is up', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const page = await newFieldPage(context, host.url);
    const loads = countLoads(page);
    const probesBefore = host.log.filter(isProbe).length;
    await context.setOffline(true);
    down = true;
    await context.setOffline(false);
    try {
      // Probes at about 1, 2 and 4 s after `online` (backoff 1 s, 2 s, ...), all unanswered: each
      // reached the server and the page logged its failure, so each reload decision was taken.
      await until('three probes to reach the server', () => host.log.filter(isProbe).length - probesBefore >= 3, 8000);
      await until(
        'the page to log three failed probes',
        async () => (await logKinds(page)).filter((kind) => kind === 'probe-failed').length >= 3,
      );
      assert.is(loads.n, 0, 'no reload while the server does not answer');
      assert.ok(host.log.filter(isProbe).length - probesBefore >= 3, 'it kept asking, with backoff');
      assert.ok(await appField(page).isVisible(), 'the page still works');
    } finally {
      down = false;
    }
    await reconnectReloaded(page, loads, 10_000);
    assert.is(loads.n, 1);
    assert.ok((await logKinds(page)).includes('probe-failed'));
    await context.close();
  });

  test.run();
}

// The same reload on the other hosts (python's http.server, nginx with deploy/nginx.conf, Cloudflare
// Pages' runtime): the probe is a HEAD of /sw.js that each must answer, past the worker, over the
// network. What each host answers is the same for both builds: on the React build (the Preact
// build's reload is the suite above, and engines.test.ts scenarios 3a-3e in every engine).
{
  const build = { name: 'react' } as const;
  for (const kind of HOSTS.filter((other) => other !== 'preview')) {
    const test = suite<Shared>(`reload on reconnect (${build.name}, ${kind})`);
    shareChromium(test, () => startHost(kind, site(build.name, 'v1')));

    test('offline then online gives exactly one reload, after one probe that reached the host', async ({ browser, host }) => {
      const context = await freshContext(browser);
      const { page, problems } = await openFieldWatched(context, host.url);
      await appField(page).fill('typed before going offline');
      const loads = countLoads(page);
      const probesBefore = host.log.filter(isProbe).length;
      await context.setOffline(true);
      await page.getByText('You are offline; everything here still works.').waitFor({ timeout: 2000 });
      await context.setOffline(false);
      await reconnectReloaded(page, loads);
      assert.is(loads.n, 1, 'one reload');
      await until("the probe in the host's log", () => host.log.filter(isProbe).length > probesBefore);
      assert.is(host.log.filter(isProbe).length - probesBefore, 1, 'one probe');
      assert.is(await appField(page).inputValue(), 'typed before going offline');
      assert.equal(problems, []);
      await context.close();
    });

    test.run();
  }
}
