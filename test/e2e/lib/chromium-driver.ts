// The engine-neutral driver (driver.ts) over Debian's Chromium with playwright-core: one browser
// per test file, a fresh `newContext({ serviceWorkers: 'allow' })` per profile.
import type { BrowserContext, Page } from 'playwright-core';
import { missingEngine } from '../../harness/engines.mjs';
import { launchChromium as launchBrowser } from './browser';
import { clickableXPath, focusAtEnd, labelledXPath, scriptedTabParts, type Engine, type Profile, type Tab } from './driver';

/**
 * Launches Chromium as the other e2e files do (browser.ts: its headless shell, or the full browser
 * where the shell is missing); throws one line when Chromium is not installed. The scenarios drive
 * pages, workers, caches and the network, which the shell runs with the browser's own Blink, V8 and
 * network service; without the browser's UI layer each profile costs about half the CPU, and the
 * e2e run is CPU-bound (CHANGELOG.md). What needs that layer (a real profile, tabs that really
 * hide) is tested in the full browser (browser.ts).
 */
export async function launchChromium(): Promise<Engine> {
  const missing = missingEngine('chromium');
  if (missing) throw new Error(missing);
  const browser = await launchBrowser();
  return {
    name: 'chromium',
    version: `chromium ${browser.version()}`,
    // context.setOffline() fires online/offline in the pages at once.
    networkLagMs: 2_000,
    consoleCoverage: 'console',
    newProfile: async () => chromiumProfile(await browser.newContext({ serviceWorkers: 'allow' })),
    close: () => browser.close(),
  };
}

/** A Playwright context as a Profile. Offline here also blocks the worker's own fetches. */
function chromiumProfile(context: BrowserContext): Profile {
  return {
    async open(url) {
      const page = await context.newPage();
      const tab = chromiumTab(page);
      await tab.goto(url);
      return tab;
    },
    setOffline: (offline) => context.setOffline(offline),
    close: () => context.close(),
  };
}

/** A Playwright page as a Tab; console errors and uncaught exceptions are collected from its creation. */
function chromiumTab(page: Page): Tab {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return {
    async goto(url) {
      await page.goto(url);
    },
    // Playwright types evaluate() with its own handle-unboxing argument types; ours are plain JSON values.
    evaluate: <T, A>(fn: (arg: A) => T | Promise<T>, arg?: A) => page.evaluate(fn as (arg: unknown) => T | Promise<T>, arg),
    // innerText, not textContent: the scenarios assert the text a user sees, and textContent includes hidden text.
    text: () => page.evaluate(() => document.body.innerText),
    click: (text) => page.locator(`xpath=${clickableXPath(text)}`).click({ timeout: 10_000 }),
    async type(label, text) {
      const field = page.locator(`xpath=${labelledXPath(label)}`);
      await field.evaluate(focusAtEnd, undefined, { timeout: 10_000 });
      await page.keyboard.type(text);
    },
    ...scriptedTabParts(page, problems),
  };
}
