// The app as a Playwright page in Chromium shows it: waiting for its screens and the worker's
// install, reloads, and what the browser reports about the page (console, CSP,
// axe). The readers of the app's state that every engine shares are lib/screens.ts, notes.ts,
// caches.ts and connectivity-log.ts; the app's text field is field.ts (a Playwright Page runs them as a Tab does).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { OFFLINE_CHECK_PATH } from './browser';
import { LOG_KEY, logKinds } from './connectivity-log';
import { sleep, until, WAIT } from './wait';

/** Waits until the screen has its heading and has finished loading what it shows (audit, caches, storage). */
export async function settle(page: Page, h1: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: h1 }).waitFor(WAIT);
  await page.waitForFunction(() => !document.querySelector('main')?.textContent?.includes('…'), null, WAIT);
}

/** Waits until the first install is done: the banner says so and an activated worker controls the page. */
export async function waitReady(page: Page): Promise<void> {
  await page.getByText('Ready to work offline').waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, WAIT);
}

/** Waits until the screens answer input (`<html data-running>`, set once the app has hydrated). */
export const appRunning = (page: Page): Promise<unknown> =>
  page.waitForFunction(() => document.documentElement.dataset.running !== undefined, null, WAIT);

/** A new page of `context` at `url`, once the app's worker is installed and controls it. */
export async function openInstalled(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await waitReady(page);
  return page;
}

/** A first visit: its page, once the app's worker is installed and controls it, and what its console reported (watchConsole()). */
export interface WatchedVisit {
  page: Page;
  problems: string[];
}

/**
 * A new page of `context`, its console watched (watchConsole()) from before anything loads in it,
 * and every `securitypolicyviolation` of its documents (a Trusted Types refusal included) reported
 * on that console, so a refusal is a problem even where the engine would not log it.
 */
export async function newWatchedPage(context: BrowserContext): Promise<WatchedVisit> {
  const page = await context.newPage();
  // An init script runs through the DevTools protocol, outside the page's CSP and Trusted Types.
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`securitypolicyviolation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sample})`),
    ),
  );
  return { page, problems: watchConsole(page) };
}

/** A new page of `context` at `url`, its console watched from before the load, once the app's worker is installed and controls it. */
export async function openInstalledWatched(context: BrowserContext, url: string): Promise<WatchedVisit> {
  const visit = await newWatchedPage(context);
  await visit.page.goto(url);
  await waitReady(visit.page);
  return visit;
}

/** Navigates to `url` and returns the <h1> the page shows (waiting up to 5 s for one). */
export async function headingAt(page: Page, url: string): Promise<string> {
  await page.goto(url);
  return (await page.getByRole('heading', { level: 1 }).textContent({ timeout: 5_000 })) ?? '';
}

/** The value next to a term on the Offline readiness screen (`<dt>term</dt><dd>value</dd>`). */
export const statusFact = (page: Page, term: string): Promise<string | null> =>
  page.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]').textContent();

/** Waits until /status names the worker's state `expected` (a string, or a pattern); `ms` bounds the wait. */
export async function workerStateIs(page: Page, expected: string | RegExp, ms?: number): Promise<void> {
  await until(
    `the state "${expected}"`,
    async () => {
      const state = (await statusFact(page, 'State').catch(() => null)) ?? '';
      return typeof expected === 'string' ? state === expected : expected.test(state);
    },
    ms,
  );
}

/**
 * Presses `key` every `intervalMs` into whatever has the focus (the keyboard, as a person types:
 * no field is focused for it), for as long as `more(count)` says so, `count` being the keys
 * pressed so far; resolves to the text typed. The interval paces the typing; it proves nothing.
 */
export async function typeSteadily(
  page: Page,
  intervalMs: number,
  more: (count: number) => boolean | Promise<boolean>,
  key = 'k',
): Promise<string> {
  let typed = '';
  while (await more(typed.length)) {
    await page.keyboard.type(key);
    typed += key;
    await sleep(intervalMs);
  }
  return typed;
}

export { fillLocalStorage } from './field';

/**
 * Resolves once a timer of `ms` that the page sets now has fired. Timers of one page fire in order
 * of due time (HTML: a timer waits for those set before it with an equal or shorter delay), so
 * every timer the app had already set with a delay up to `ms` (the notes' throttled save) has run by then.
 */
export const pageTimersDone = (page: Page, ms: number): Promise<void> =>
  page.evaluate((delay) => new Promise<void>((resolve) => setTimeout(resolve, delay)), ms);

/** Counts the page's loads from now on: each reload of the document is one. */
export function countLoads(page: Page): { readonly n: number } {
  const loads = { n: 0 };
  page.on('load', () => loads.n++);
  return loads;
}

/**
 * Waits until the page has reloaded on reconnect and the new document runs, its log ending with
 * the decision to reload (then, if the person had typed into fields, the new page's restore of
 * them). A new document has not been offline, so it has no reason to reload: from here on only a
 * new `offline` could cause another reload. `logKey`: the log of an app at another base.
 */
export async function reconnectReloaded(page: Page, loads: { readonly n: number }, ms = 5000, logKey = LOG_KEY): Promise<void> {
  await until('the reload', () => loads.n >= 1, ms);
  await appRunning(page);
  await until(
    'the reloaded page to show the reload in its log',
    async () => (await logKinds(page, logKey)).filter((kind) => kind !== 'fields-restored').at(-1) === 'reload',
  );
}

/**
 * Two requests go out at `load` on a first visit, before the page is controlled: Chromium's own
 * fetch of the page's icon (static/index.html's `<link rel="icon">`), and the app's prefetch of
 * /precache.json beside register() (src/worker-client/register-worker.ts; a failure costs nothing there).
 * A test that takes the network away as soon as the page shows its notes can do so before `load`
 * on a loaded machine, and Chromium then logs the cut-off request in the page's console (seen in
 * full runs, reconnect test, Preact build: the icon once, the manifest once).
 */
const isCutOffAtLoad = (text: string, url: string): boolean =>
  text.includes('net::ERR_INTERNET_DISCONNECTED') && /^[^?#]*\/(icons\/icon-192\.png|precache\.json)$/.test(url);

/**
 * Collects the page's console errors and warnings and its uncaught errors. Left out: Playwright's
 * own stand-in for register() under `serviceWorkers: 'block'`, the 404 of a document a host
 * answered with 404.html and status 404 (the host telling the truth, not a page problem), the
 * two requests of `load` a test's offline switch can cut off (isCutOffAtLoad), and the failed
 * request goOffline() makes to prove the network gone.
 */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    if (message.text() === 'Service Worker registration blocked by Playwright') return;
    if (/status of 404/.test(message.text()) && message.location().url === page.url()) return;
    if (isCutOffAtLoad(message.text(), message.location().url)) return;
    if (message.location().url.endsWith(OFFLINE_CHECK_PATH)) return;
    problems.push(`${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

let axeSource: string | undefined;

/**
 * Runs axe-core on the whole page; returns one line per violation. The source goes in through the
 * DevTools protocol (page.evaluate), which CSP does not govern, so the app keeps its own CSP: a
 * <script> tag with inline content would be blocked by `script-src 'self'`, as it should be.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(path.join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // axe is the global the evaluated source defines; typed loosely on purpose (no @types in the page).
  const result = await page.evaluate(() =>
    (
      window as unknown as { axe: { run(): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> } }
    ).axe.run(),
  );
  return result.violations.map(
    (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
}

/** The text of `locator` as a user sees it: rendered, without what CSS hides, lines as laid out. */
// innerText, not textContent: a test asserts the text a user sees, and textContent includes hidden text.
export const shownText = (locator: Locator): Promise<string> => locator.innerText();

/** Records every `securitypolicyviolation` of every page of the context, from before any script runs. */
export async function recordCsp(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`));
  });
}

/** The CSP violations recorded in the page so far. */
export const cspViolations = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
