// Accessibility (axe-core), CSP and console on every screen of the built site, served with
// the project's Content-Security-Policy (`default-src 'none'` and only 'self' for what the app
// loads): online, offline, and with an update waiting.
import type { BrowserContext } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { axeViolations, cspViolations, openInstalled, recordCsp, settle, newWatchedPage } from './lib/app';
import { freshContext } from './lib/browser';
import { startHost, type Host } from './lib/hosts';
import { BUILDS, site } from './lib/site';
import { shareChromium, type Shared } from './lib/suite';
import { WAIT } from './lib/wait';
import { SCREENS } from './lib/screens';

for (const build of BUILDS) {
  const test = suite<Shared>(`ui a11y and CSP (${build.name})`);
  const dist = site(build.name, 'v1');
  let context: BrowserContext;
  shareChromium(test, () => startHost('preview', dist));
  test.before.each(async ({ browser }) => {
    context = await freshContext(browser);
    await recordCsp(context);
  });
  test.after.each(() => context.close());

  /**
   * Loads each screen from `host` with a full page load, one after another in one tab, and checks
   * axe, CSP and the console there. One tab keeps one renderer, so axe's source compiles once.
   */
  async function everyScreen(host: Host, state: string, banner?: string) {
    const { page, problems } = await newWatchedPage(context);
    for (const s of SCREENS) {
      const seen = problems.length;
      await page.goto(new URL(s.path, host.url).href);
      await settle(page, s.h1);
      if (banner) await page.locator('.banners').getByText(banner).waitFor(WAIT);
      assert.equal(await axeViolations(page), [], `axe on ${s.path} (${state})`);
      assert.equal(await cspViolations(page), [], `CSP on ${s.path} (${state})`);
      assert.equal(problems.slice(seen), [], `console on ${s.path} (${state})`);
    }
    await page.close();
  }

  test('every screen has no axe violation, no CSP violation and a quiet console', async ({ host }) => {
    await everyScreen(host, 'online');
  });

  test('every screen stays accessible and CSP-clean offline, served by the worker', async ({ host }) => {
    await openInstalled(context, host.url);
    await context.setOffline(true);
    await everyScreen(host, 'offline', 'You are offline; everything here still works.');
  });

  test('every screen stays accessible with a new version waiting', async ({ host }) => {
    try {
      const page = await openInstalled(context, new URL('/status/', host.url).href);
      await host.setRoot(site(build.name, 'v2'));
      await page.getByRole('button', { name: 'Check for update' }).click();
      await page.getByText('A new version is ready.').waitFor(WAIT);
      await everyScreen(host, 'update waiting', 'A new version is ready.');
    } finally {
      await host.setRoot(dist);
    }
  });

  test.run();
}
