// Accessibility (axe-core), CSP and console on every screen of the built site, served with
// `Content-Security-Policy: default-src 'self'`: online, offline, and with an update waiting.
import type { Browser, BrowserContext } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILDS, launch, preview } from './helpers';
import { buildNewVersion, cleanup } from './deploy';
import { axeViolations, cspViolations, recordCsp, SCREENS, settle, WAIT, watchConsole, workerReady } from './ui-shared';

type Listening = Awaited<ReturnType<typeof preview>>;

for (const build of BUILDS) {
  const test = suite(`ui a11y and CSP (${build.name})`);
  let browser: Browser;
  let host: Listening;
  let context: BrowserContext;
  test.before(async () => {
    browser = await launch();
    host = await preview(build.dir);
  });
  test.after(async () => {
    await host.close();
    await browser.close();
    cleanup();
  });
  test.before.each(async () => {
    context = await browser.newContext({ serviceWorkers: 'allow' });
    await recordCsp(context);
  });
  test.after.each(() => context.close());

  /** Loads each screen with a full page load and checks axe, CSP and the console there. */
  async function everyScreen(state: string, banner?: string) {
    for (const s of SCREENS) {
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.goto(new URL(s.path, host.url).href);
      await settle(page, s.h1);
      if (banner) await page.locator('.banners').getByText(banner).waitFor(WAIT);
      assert.equal(await axeViolations(page), [], `axe on ${s.path} (${state})`);
      assert.equal(await cspViolations(page), [], `CSP on ${s.path} (${state})`);
      assert.equal(problems, [], `console on ${s.path} (${state})`);
      await page.close();
    }
  }

  test('every screen has no axe violation, no CSP violation and a quiet console', async () => {
    await everyScreen('online');
  });

  test('every screen stays accessible and CSP-clean offline, served by the worker', async () => {
    const page = await context.newPage();
    await page.goto(host.url);
    await workerReady(page);
    await context.setOffline(true);
    await everyScreen('offline', 'You are offline; everything here still works.');
  });

  test('every screen stays accessible with a new version waiting', async () => {
    const next = buildNewVersion(build.name === 'preact');
    try {
      const page = await context.newPage();
      await page.goto(new URL('/status/', host.url).href);
      await workerReady(page);
      host.setRoot(next);
      await page.getByRole('button', { name: 'Check for update' }).click();
      await page.getByText('A new version is ready.').waitFor(WAIT);
      await everyScreen('update waiting', 'A new version is ready.');
    } finally {
      host.setRoot(build.dir);
    }
  });

  test.run();
}
