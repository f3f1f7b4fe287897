// The page bundle and V8's code cache in Chromium. Chromium compiles a JavaScript response a
// worker stores from the network as a classic script, for a code cache beside it (35-47 ms for
// this bundle); the worker stores a new response of the verified bytes, which it does not compile,
// and the bundle's first statement (`export {};`) would end such a compile at once anyway. Repeat
// visits still compile the bundle from a code cache: the module cache Chromium keeps beside the
// cached file once a controlled page has run it.
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { waitReady } from './lib/app';
import { freshContext } from './lib/browser';
import { startHost } from './lib/hosts';
import { appScript, BUILDS, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';

/** A trace event as Chromium writes it; only the fields read here. */
interface TraceEvent {
  name: string;
  args?: { url?: { string?: string }; data?: { url?: string; consumedCacheSize?: number; cacheRejected?: boolean } };
}

/** The trace events of every Chromium process while `act` runs. */
async function traced(browser: Browser, page: Page, act: () => Promise<void>): Promise<TraceEvent[]> {
  await browser.startTracing(page, { categories: ['CacheStorage', 'v8', 'devtools.timeline'] });
  try {
    await act();
  } catch (error) {
    await browser.stopTracing();
    throw error;
  }
  const trace = await browser.stopTracing();
  return (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
}

for (const build of BUILDS) {
  const dist = site(build.name, 'v1');
  const test = suite<Shared>(`code cache (${build.name})`);
  shareChromium(test, () => startHost('preview', dist));

  test('the install stores the page bundle without compiling it as a classic script', async ({ browser, host }) => {
    const bundle = new URL(appScript(dist), host.url).href;
    const context = await freshContext(browser);
    const page = await context.newPage();
    const events = await traced(browser, page, async () => {
      await page.goto(host.url);
      await waitReady(page);
    });
    // The trace holds the bundle's compiles: the page's own, as a module.
    const pageCompiles = events.filter((event) => event.name === 'v8.compileModule' && event.args?.data?.url === bundle);
    assert.ok(pageCompiles.length > 0, 'the trace shows the page compiling the bundle');
    const tries = events.filter(
      (event) => event.name === 'Cache::CodeCacheHandleCallbackForPut::GenerateFullCodeCache' && event.args?.url?.string === bundle,
    );
    assert.ok(tries.length <= 1, 'at most one code cache attempt for the stored bundle');
    const produced = events.filter((event) => event.name === 'v8.produceCache' && event.args?.data?.url === bundle);
    assert.equal(produced, [], 'no classic-script code cache for the bundle');
    await context.close();
  });

  test('a repeat visit compiles the page bundle from a code cache', async ({ browser, host }) => {
    const bundle = new URL(appScript(dist), host.url).href;
    const context = await freshContext(browser);
    const page = await context.newPage();
    await page.goto(host.url);
    await waitReady(page);
    // The cache is written after a controlled page has run the bundle, in the background: the
    // first repeat visit compiles, one of the next visits finds the cache.
    const seen: string[] = [];
    let usedCache = false;
    for (let visit = 2; visit <= 5 && !usedCache; visit++) {
      const events = await traced(browser, page, async () => {
        await page.goto(host.url);
      });
      const compiles = events.filter((event) => event.name === 'v8.compileModule' && event.args?.data?.url === bundle);
      seen.push(`visit ${visit}: ${JSON.stringify(compiles.map((event) => event.args?.data))}`);
      usedCache = compiles.some((event) => (event.args?.data?.consumedCacheSize ?? 0) > 0 && !event.args?.data?.cacheRejected);
    }
    assert.ok(usedCache, `a repeat visit used a code cache: ${seen.join('; ')}`);
    await context.close();
  });

  test.run();
}
