// Debian's Chromium for the end-to-end tests, launched three ways: by Playwright (most tests, in
// Chromium's headless shell), with a real profile (what incognito contexts cannot do), and attached
// over CDP (tabs that really hide).
// Firefox and WebKit get lib/firefox.ts and lib/webkit.ts of their own.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { CHROME_ARGS, chromePath, chromiumShellPath } from '../../harness/chromium.mjs';
import { until } from './wait';

/**
 * Launches Chromium's headless shell (CHROMIUM_SHELL_PATH overrides), or the full Chromium
 * (CHROME_PATH) where the shell is missing; one per test file. The tests that need the browser's
 * own layer (a real profile, tabs that really hide) use the full Chromium below, as the engines
 * suite does.
 */
export function launchChromium(): Promise<Browser> {
  const executablePath = existsSync(chromiumShellPath()) ? chromiumShellPath() : chromePath();
  return chromium.launch({ executablePath, headless: true, args: CHROME_ARGS });
}

/** A fresh profile (no worker, no caches, no storage) with service workers allowed unless `options` say otherwise. */
export function freshContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ serviceWorkers: 'allow', ...options });
}

/**
 * Chromium with a real profile on disk, which incognito contexts (newContext) lack: Chromium only
 * finds a site installable there, and its Preferences can block site data. `prepare` may write
 * into the profile folder before launch.
 */
export async function launchWithProfile(
  prepare: (profile: string) => void = () => {},
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'chromium-profile-'));
  prepare(profile);
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromePath(), headless: true, args: CHROME_ARGS });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

/** The DevTools port Chromium wrote into its profile, once the file is complete (port and path lines). */
function devToolsPort(profile: string): number | null {
  let text: string;
  try {
    text = readFileSync(path.join(profile, 'DevToolsActivePort'), 'utf8');
  } catch {
    return null;
  }
  const [port, browserPath] = text.split('\n');
  return browserPath ? Number(port) : null;
}

/**
 * Chromium with real tabs. Playwright's own launch emulates focus on every page, so all of them
 * stay `visible`; attached over CDP with `noDefaults`, the default context's tabs share one
 * window, and opening or fronting a tab makes the others really `hidden` (visibilitychange).
 */
export async function launchWithTabs(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'chromium-tabs-'));
  // Port 0: Chromium picks a free one and writes it to DevToolsActivePort. Detached: its own
  // process group, so close() ends the renderers and helpers with it.
  const child = spawn(
    chromePath(),
    ['--headless', ...CHROME_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: 'ignore', detached: true },
  );
  const port = await until('Chromium to listen for CDP', () => devToolsPort(profile));
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`, { noDefaults: true });
  return {
    browser,
    async close() {
      await browser.close().catch(() => {});
      if (child.exitCode === null && child.pid !== undefined) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        process.kill(-child.pid, 'SIGTERM');
        await exited;
      }
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

/**
 * Empties the HTTP cache of the page's browser context (DevTools' "Clear browser cache"), so the
 * worker's next fetch of a file reaches the server instead of a copy the page loaded earlier.
 */
export async function clearHttpCache(page: Page): Promise<void> {
  const devtools = await page.context().newCDPSession(page);
  await devtools.send('Network.clearBrowserCache');
  await devtools.detach();
}

/** The network-only path goOffline() asks for to prove the network gone (its failure is expected). */
export const OFFLINE_CHECK_PATH = '/.well-known/offline-shell-check';

/**
 * Takes the context offline and resolves once a request the worker leaves to the network (a
 * `networkOnly` path, package.json) fails from `page`. Chromium applies DevTools' offline in the
 * network service apart from the page's own state, so setOffline can resolve while a worker's
 * request still gets through: a test that asserts a failure offline waits for this first.
 */
export async function goOffline(context: BrowserContext, page: Page): Promise<void> {
  await context.setOffline(true);
  await until('a network-only request from the page to fail offline', () =>
    page.evaluate(
      (checkPath) =>
        fetch(checkPath, { cache: 'no-store' }).then(
          () => false,
          () => true,
        ),
      OFFLINE_CHECK_PATH,
    ),
  );
}
