// The app as a Playwright page shows it: its screens, the worker's install, the notes, the
// connectivity log, the caches, and what the browser reports about the page (console, CSP, axe).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { listScreens } from '../../../tools/screens.mjs';
import { OFFLINE_CHECK_PATH } from './browser';
import { sleep, until, WAIT } from './wait';
import { storageKey } from '../../../src/app-name';

/** A screen of the app as the tests visit it: its name (for files), path and heading. */
export interface ScreenVisit {
  name: string;
  path: string;
  h1: string;
}

/** The routes of src/ui/screens/ (tools/screens.mjs), in navigation order: the screens the built sites have. */
export const ROUTES: ScreenVisit[] = listScreens(process.cwd()).map((screen) => ({
  name: screen.name,
  path: screen.path,
  h1: screen.title,
}));

/** A path that is no route: the not-found screen. */
export const NOT_FOUND: ScreenVisit = { name: 'not-found', path: '/no-such-page', h1: 'Not found' };

/** Every screen of the app, with the heading it shows: each route, then the not-found screen. */
export const SCREENS: ScreenVisit[] = [...ROUTES, NOT_FOUND];

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

/** A new page of `context` at `url`, its console watched from before the load, once the app's worker is installed and controls it. */
export async function openInstalledWatched(context: BrowserContext, url: string): Promise<WatchedVisit> {
  const page = await context.newPage();
  const problems = watchConsole(page);
  await page.goto(url);
  await waitReady(page);
  return { page, problems };
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

/** The first note's editor: present once the app has started (and registered its listeners). */
export const firstNote = (page: Page) => page.getByRole('textbox', { name: 'Note 1', exact: true });

/** Opens the Notes screen at `url` and waits for the app to run. */
export async function openNotes(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await firstNote(page).waitFor(WAIT);
}

/** Stores `texts` as the device's notes (ids n1, n2, …), as the app saves them; the page shows them once loaded again. */
export const seedNotes = (page: Page, texts: string[]): Promise<void> =>
  page.evaluate(
    ([key, list]) =>
      localStorage.setItem(
        key,
        JSON.stringify({ v: 1, notes: list.map((text, index) => ({ id: `n${index + 1}`, text, at: 1 })), gone: {} }),
      ),
    [storageKey('notes'), texts] as const,
  );

/** The focused element's id and its selection, or null when no element with an id has the focus. */
export const caretOf = (page: Page): Promise<{ id: string; start: number | null; end: number | null } | null> =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLTextAreaElement | null;
    if (!active?.id) return null;
    return { id: active.id, start: active.selectionStart ?? null, end: active.selectionEnd ?? null };
  });

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

/** The texts of the notes saved on the device (localStorage) under `key` (this app's), or null while nothing is saved. */
export const savedNotes = (page: Page, key = storageKey('notes')): Promise<string[] | null> =>
  page.evaluate((notesKey) => {
    const saved = localStorage.getItem(notesKey);
    return saved === null ? null : (JSON.parse(saved) as { notes: { text: string }[] }).notes.map((note) => note.text);
  }, key);

/**
 * Fills this origin's real localStorage quota with keys `filler-0`, `filler-1`, … to the last few
 * characters (halving the chunk at each refusal); resolves to how many keys it wrote.
 */
export const fillLocalStorage = (page: Page): Promise<number> =>
  page.evaluate(() => {
    let chunk = 'x'.repeat(1 << 20);
    let written = 0;
    for (;;) {
      try {
        localStorage.setItem('filler-' + written, chunk);
        written++;
      } catch {
        if (chunk.length <= 8) return written;
        chunk = chunk.slice(chunk.length / 2);
      }
    }
  });

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
 * the decision to reload. A new document has not been offline, so it has no reason to reload:
 * from here on only a new `offline` could cause another reload.
 */
export async function reconnectReloaded(page: Page, loads: { readonly n: number }, ms = 5000): Promise<void> {
  await until('the reload', () => loads.n >= 1, ms);
  await firstNote(page).waitFor(WAIT);
  await until('the reloaded page to show the reload in its log', async () => (await logKinds(page)).at(-1) === 'reload');
}

/** One entry of the connectivity log: when (the page's Date.now()) and what. */
export interface LogEntry {
  at: number;
  kind: string;
  detail?: string;
}

/** The connectivity log's tail the page keeps in sessionStorage (it survives reloads), oldest first. */
export const logEntries = (page: Page): Promise<LogEntry[]> =>
  page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? '[]') as LogEntry[], storageKey('log'));

/** The kinds of the connectivity log's entries (offline, online, probe-ok, probe-failed, reload). */
export const logKinds = async (page: Page): Promise<string[]> => (await logEntries(page)).map((entry) => entry.kind);

/** Names of the page origin's caches, sorted (caches.keys() lists them in the order they were made). */
export const cacheNames = (page: Page): Promise<string[]> => page.evaluate(async () => (await caches.keys()).sort());

/** The URL paths stored in one cache, sorted. */
export const cachedPaths = (page: Page, name: string): Promise<string[]> =>
  page.evaluate(
    async (cacheName) => (await (await caches.open(cacheName)).keys()).map((request) => new URL(request.url).pathname).sort(),
    name,
  );

/** The variant the page runs: 'v2' for the `v2` test site, '' for this checkout. */
export const variant = (page: Page): Promise<string> => page.evaluate(() => document.documentElement.dataset.variant ?? '');

/**
 * Two requests go out at `load` on a first visit, before the page is controlled: Chromium's own
 * fetch of the page's icon (static/index.html's `<link rel="icon">`), and the app's prefetch of
 * /precache.json beside register() (src/offline/registration/register-worker.ts; a failure costs nothing there).
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
