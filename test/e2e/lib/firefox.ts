// The engine-neutral driver (driver.ts) over Debian's Firefox ESR with puppeteer-core, which speaks
// WebDriver BiDi to it. One browser per test file (launch ≈ 2.5 s), `createBrowserContext()` per
// profile: a new install, empty caches and storage.
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { engineExecutables, missingEngine } from '../../harness/engines.mjs';
import { clickableXPath, focusAtEnd, labelledXPath, scriptedTabParts, type Engine, type Profile, type Tab } from './driver';

/** Launches Firefox ESR headless (FIREFOX_PATH overrides); throws one line when it is not installed. */
export async function launchFirefox(): Promise<Engine> {
  const missing = missingEngine('firefox');
  if (missing) throw new Error(missing);
  // No prefs needed: 127.0.0.1 is a secure origin and service workers are on by default.
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: engineExecutables('firefox')[0].path,
    headless: true,
  });
  return {
    name: 'firefox',
    version: (await browser.version()).replace('/', ' '),
    // BiDi's emulation.setNetworkConditions fires online/offline in the page at once.
    networkLagMs: 2_000,
    consoleCoverage: 'console',
    newProfile: async () => firefoxProfile(await browser.createBrowserContext()),
    // Puppeteer keeps the profile in TMPDIR and removes it on close().
    close: () => browser.close(),
  };
}

/**
 * A BiDi user context as a Profile. Offline is per page in Puppeteer (`page.setOfflineMode`, which
 * persists across reloads), so the profile applies it to every tab, including tabs opened later.
 * It does NOT stop the service worker's own fetches: tests pause the host for "server unreachable".
 */
function firefoxProfile(context: BrowserContext): Profile {
  const pages: Page[] = [];
  let offline = false;
  return {
    async open(url) {
      const page = await context.newPage();
      pages.push(page);
      if (offline) await page.setOfflineMode(true);
      const tab = firefoxTab(page);
      await tab.goto(url);
      return tab;
    },
    async setOffline(next) {
      offline = next;
      for (const page of pages) if (!page.isClosed()) await page.setOfflineMode(next);
    },
    close: () => context.close(),
  };
}

/** What Firefox ESR 153 reports when a request the worker was answering is cancelled: the URL is '' when the worker was still reading its cached copy. */
const UNNAMED_CANCELLED = 'uncaught: Failed to load ‘’. A ServiceWorker intercepted the request and encountered an unexpected error.';

/**
 * The problems with each unnamed report of a cancelled request given the URL of a request Firefox
 * itself failed as cancelled (NS_BINDING_ABORTED), in order. Measured (6 runs of the offline
 * scenario): every unnamed report came with such a cancelled request of a precached file, and the
 * released worker, which answers without reading, reports the same requests with their URL. A
 * report no cancelled request explains stays as it is: a problem.
 */
function withCancelledNamed(problems: string[], cancelled: string[]): string[] {
  let next = 0;
  return problems.map((problem) => {
    if (problem !== UNNAMED_CANCELLED || next >= cancelled.length) return problem;
    return problem.replace('‘’', `‘${cancelled[next++]}’`);
  });
}

/** A Puppeteer page as a Tab; console errors and uncaught exceptions are collected from its creation. */
function firefoxTab(page: Page): Tab {
  const problems: string[] = [];
  const cancelled: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error instanceof Error ? error.message : String(error)}`));
  page.on('requestfailed', (request) => {
    if (request.failure()?.errorText === 'NS_BINDING_ABORTED') cancelled.push(request.url());
  });
  /** The element at `xpath`, waiting up to 10 s for it to be there and visible. */
  const find = async (xpath: string) => {
    const handle = await page.waitForSelector(`xpath/${xpath}`, { visible: true, timeout: 10_000 });
    if (!handle) throw new Error(`not found: ${xpath}`);
    return handle;
  };
  return {
    async goto(url) {
      await page.goto(url);
    },
    // Puppeteer types evaluate() with its own handle-unwrapping argument types; ours are plain JSON values.
    evaluate: <T, A>(fn: (arg: A) => T | Promise<T>, arg?: A) => page.evaluate(fn as (arg: unknown) => T | Promise<T>, arg) as Promise<T>,
    // innerText, not textContent: the scenarios assert the text a user sees, and textContent includes hidden text.
    text: () => page.evaluate(() => document.body.innerText),
    async click(text) {
      // A real click (BiDi input actions at the element's centre), not element.click().
      await (await find(clickableXPath(text))).click();
    },
    async type(label, text) {
      const field = await find(labelledXPath(label));
      await field.evaluate(focusAtEnd);
      await page.keyboard.type(text);
    },
    ...scriptedTabParts(page, problems),
    problems: async () => withCancelledNamed(problems, cancelled),
  };
}
