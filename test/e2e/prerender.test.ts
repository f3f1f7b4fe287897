// Every route's HTML is rendered at build time from the same components the page hydrates: the
// first paint needs no JavaScript, links work before it loads, the HTML claims nothing about the
// device, and hydration finds nothing to complain about, in both builds.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appRunning, openInstalledWatched, settle, statusFact } from './lib/app';
import { freshContext } from './lib/browser';
import { startHost } from './lib/hosts';
import { BUILDS, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { HOME, ROUTES, SCREENS } from './lib/screens';
import { appField, fieldScreenUrl } from './lib/field';

/** Each route's HTML file and the <h1> it holds. */
const FILES = [...ROUTES.map((route) => [route.path.slice(1) + 'index.html', route.h1]), ['404.html', 'Not found']];

/** The navigation every page holds: a link to each route, in navigation order. */
const NAV = `<nav aria-label="Main">${ROUTES.map((route) => `<a href="${route.path}"[^>]*>${route.h1}</a>`).join('')}</nav>`;

for (const build of BUILDS) {
  const test = suite<Shared>(`prerendered routes (${build.name})`);
  const dir = site(build.name, 'v1');
  shareChromium(test, () => startHost('preview', dir));

  test("each route's HTML holds the header, navigation, its heading and its screen", () => {
    for (const [file, h1] of FILES) {
      const html = readFileSync(path.join(dir, file), 'utf8');
      assert.match(html, `<h1>${h1}</h1>`, file);
      assert.match(html, new RegExp(NAV), file);
      assert.match(html, /<main id="main" tabindex="-1">/, file);
      // Still nothing inline: the app runs under `script-src 'self'; style-src 'self'`.
      assert.not.match(html, /<script>|<script type="module">|<style|style=/, file);
    }
    assert.match(
      readFileSync(path.join(dir, 'status/index.html'), 'utf8'),
      /<h2>Network<\/h2>.*<h2>Service worker<\/h2>.*<h2>Precache check<\/h2>.*<h2>Storage<\/h2>.*<h2>Connectivity log<\/h2>/,
    );
  });

  test('what lives only on the device shows a neutral placeholder in the HTML, never a false state', () => {
    const status = readFileSync(path.join(dir, 'status/index.html'), 'utf8');
    for (const claim of [
      'offline since',
      'online since',
      'unsupported',
      'ready',
      'Nothing is cached',
      'No events yet',
      'none yet',
      'never',
    ])
      assert.not.ok(status.includes(claim), `the prerendered status claims "${claim}"`);
    assert.match(status, /<dt>Browser says<\/dt><dd>…<\/dd>/);
    assert.match(status, /<dt>State<\/dt><dd>…<\/dd>/);
  });

  test('with JavaScript off, every screen shows its heading and the links navigate', async ({ browser, host }) => {
    const context = await freshContext(browser, { javaScriptEnabled: false, serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(host.url);
    assert.is(await page.getByRole('heading', { level: 1 }).textContent(), HOME.h1);
    await page.getByRole('link', { name: 'Offline readiness' }).click();
    await page.waitForURL(new URL('/status/', host.url).href);
    assert.is(await page.getByRole('heading', { level: 1 }).textContent(), 'Offline readiness');
    await page.getByRole('link', { name: 'What this app ships' }).click();
    await page.waitForURL(new URL('/about/', host.url).href);
    assert.is(await page.getByRole('heading', { level: 1 }).textContent(), 'What this app ships');
    await context.close();
  });

  test("a first visit's hydration moves nothing on the field's screen (no layout shift), with the scripts arriving after the HTML", async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    await context.addInitScript(() => {
      const shifts: { at: number; value: number }[] = [];
      (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
      // Layout Instability API (Chromium): one entry per frame in which visible content moved.
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          shifts.push({ at: entry.startTime, value: (entry as PerformanceEntry & { value: number }).value });
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // As on a slow network: the prerendered HTML is painted before the page's code runs.
    await context.route('**/assets/*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
    });
    const page = await context.newPage();
    await page.goto(fieldScreenUrl(host.url));
    await appRunning(page);
    await appField(page).waitFor();
    // A shift made on purpose, after hydration: entries arrive in order, so once it is seen, any
    // shift the hydration caused has been seen too.
    const control = await page.evaluate(() => {
      const block = document.createElement('div');
      block.className = 'notice';
      block.textContent = 'A control paragraph that pushes the screen down.';
      const heading = document.querySelector('main h1');
      if (!heading) throw new Error('Expected an <h1> in <main>');
      heading.before(block);
      return performance.now();
    });
    const shifts = await page.waitForFunction((since) => {
      const all = (window as unknown as { __shifts: { at: number; value: number }[] }).__shifts;
      return all.some((shift) => shift.at >= since) && all;
    }, control);
    const hydration = ((await shifts.jsonValue()) as { at: number; value: number }[]).filter((shift) => shift.at < control);
    assert.equal(hydration, [], 'the screen moved while the page hydrated');
    await context.close();
  });

  test('hydration on every route (and a deep link the worker answers with 404.html, offline) logs no warning or error, then shows the device state', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    const { page, problems } = await openInstalledWatched(context, host.url);
    await appRunning(page);
    for (const screen of SCREENS) {
      await page.goto(new URL(screen.path, host.url).href);
      await settle(page, screen.h1);
    }
    assert.match((await statusFactOn(page, host.url, 'Browser says')) ?? '', /^online since /);
    await context.setOffline(true);
    await page.goto(new URL('/a-section/2026/a-deep-link?x=1', host.url).href);
    await settle(page, 'Not found');
    assert.equal(problems, []);
    await context.close();
  });

  test.run();
}

/** Opens the status screen and reads one of its facts once the page has looked. */
async function statusFactOn(page: import('playwright-core').Page, url: string, term: string): Promise<string | null> {
  await page.goto(new URL('/status/', url).href);
  await settle(page, 'Offline readiness');
  return statusFact(page, term);
}
