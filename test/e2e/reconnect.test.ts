// Reload on reconnect in real Chromium against the built site: `context.setOffline` fires the
// real online/offline events, the probe reaches the real preview server.
import type { IncomingMessage } from 'node:http';
import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILDS, launch, preview, watchProblems } from './helpers';
import { countLoads, firstNote, logKinds, openNotes, sleep, until } from './reconnect-helpers';

const isProbe = (r: { method: string; url: string }) => r.method === 'HEAD' && r.url === '/sw.js';

for (const build of BUILDS) {
  const test = suite(`reload on reconnect (${build.name})`);
  let browser: Browser;
  let down = false;
  // "Down": the server drops every connection, as a stopped origin behind a live network does.
  const host = preview(build.dir, (req: IncomingMessage) => {
    if (!down) return false;
    req.socket.destroy();
    return true;
  });
  test.before(async () => {
    browser = await launch();
  });
  test.after(async () => {
    await browser.close();
    await (await host).close();
  });

  test('offline then online gives exactly one reload, and none in the next 5 s', async () => {
    const server = await host;
    const context = await browser.newContext({ serviceWorkers: 'allow' });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await openNotes(page, server.url);
    const loads = countLoads(page);
    const probesBefore = server.log.filter(isProbe).length;
    await context.setOffline(true);
    await page.getByText('You are offline; everything here still works.').waitFor({ timeout: 2000 });
    await sleep(300);
    await context.setOffline(false);
    await until(() => loads.n >= 1, 5000, 'the reload');
    await firstNote(page).waitFor();
    await sleep(5000);
    assert.is(loads.n, 1, 'one reload');
    assert.is(server.log.filter(isProbe).length - probesBefore, 1, 'one probe of the server, over the network');
    assert.equal((await logKinds(page)).slice(-4), ['offline', 'online', 'probe-ok', 'reload'], 'the log kept across the reload');
    assert.is(await page.getByText('You are offline').count(), 0, 'no offline banner after it');
    assert.equal(problems, []);
    await context.close();
  });

  test('8 toggles 100 ms apart give one reload (and none in the next 5 s)', async () => {
    const server = await host;
    const context = await browser.newContext({ serviceWorkers: 'allow' });
    const page = await context.newPage();
    await openNotes(page, server.url);
    const loads = countLoads(page);
    for (let i = 0; i < 8; i++) {
      await context.setOffline(i % 2 === 0); // off, on, ... ending online
      await sleep(100);
    }
    assert.is(loads.n, 0, 'no reload while flapping');
    await until(() => loads.n >= 1, 5000, 'the reload');
    await sleep(5000);
    assert.is(loads.n, 1);
    console.log(`  flapping (${build.name}): 8 toggles 100 ms apart -> ${loads.n} reload(s)`);
    await context.close();
  });

  test('a server that is down when the browser says online gives no reload until it is up', async () => {
    const server = await host;
    const context = await browser.newContext({ serviceWorkers: 'allow' });
    const page = await context.newPage();
    await openNotes(page, server.url);
    const loads = countLoads(page);
    const probesBefore = server.log.filter(isProbe).length;
    await context.setOffline(true);
    down = true;
    await context.setOffline(false);
    try {
      // Probes at about 1, 2 and 4 s after `online` (backoff 1 s, 2 s, ...), all unanswered.
      await sleep(4500);
      assert.is(loads.n, 0, 'no reload while the server does not answer');
      assert.ok(server.log.filter(isProbe).length - probesBefore >= 3, 'it kept asking, with backoff');
      assert.is(await page.evaluate(() => document.querySelector('textarea') !== null), true, 'the page still works');
    } finally {
      down = false;
    }
    await until(() => loads.n >= 1, 6000, 'the reload once the server is up');
    await firstNote(page).waitFor();
    await sleep(1500);
    assert.is(loads.n, 1);
    assert.ok((await logKinds(page)).includes('probe-failed'));
    await context.close();
  });

  test.run();
}
