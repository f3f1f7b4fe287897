// What the pages report to the bench: when they were ready to work offline, and when (in dev)
// they first showed an expected text; measured in the page, so polling adds nothing to it.
import { poll } from './waits.mjs';

/** What the page says once the first install is done. */
export const READY_TEXT = 'Ready to work offline';

/**
 * What a page tells the bench once it has shown the text it expected: when its navigation
 * started and when it was done (wall-clock ms).
 * @typedef {{ expected: string | null, startedAt: number, doneAt: number }} ShownReport
 */

/**
 * A page's window with the probes' records and the bench's binding.
 * @typedef {Window & typeof globalThis & { __benchReadyAt?: number, __benchShownAt?: number, __benchShown?: (report: ShownReport) => void, __benchEventSource?: EventSource }} ProbedWindow
 */

/** @typedef {import('playwright-core').Browser} Browser */

/** How long a first visit may take to be ready to work offline. */
export const READY_LIMIT_MS = 30_000;

/**
 * In every new document: records when the page was both showing "Ready to work offline" and
 * controlled by the worker (ms from the navigation's start) in window.__benchReadyAt, and, when
 * sessionStorage names an expected text, when the page first showed it in window.__benchShownAt;
 * once it has also fired `load`, it reports { expected, startedAt, doneAt } (wall-clock ms) to the
 * bench's binding window.__benchShown, where the dev part exposes one.
 */
function installPageProbes() {
  const probed = /** @type {ProbedWindow} */ (window);
  let expected = null;
  try {
    expected = sessionStorage.getItem('bench-expect');
  } catch {
    return; // about:blank has no storage, and nothing to measure
  }
  let reported = false;
  const reportShown = () => {
    // loadEventEnd is set once the load event's listeners have run: hence the timeout after `load`.
    const navigation = /** @type {PerformanceNavigationTiming | undefined} */ (performance.getEntriesByType('navigation')[0]);
    if (reported || probed.__benchShownAt === undefined || !navigation?.loadEventEnd || !probed.__benchShown) return;
    reported = true;
    probed.__benchShown({
      expected,
      startedAt: performance.timeOrigin,
      doneAt: performance.timeOrigin + Math.max(probed.__benchShownAt, navigation.loadEventEnd),
    });
  };
  const check = () => {
    const text = document.body?.textContent ?? '';
    if (probed.__benchReadyAt === undefined && navigator.serviceWorker?.controller && text.includes('Ready to work offline'))
      probed.__benchReadyAt = performance.now();
    if (expected && probed.__benchShownAt === undefined && text.includes(expected)) {
      probed.__benchShownAt = performance.now();
      reportShown();
    }
  };
  addEventListener('load', () => setTimeout(reportShown));
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
  navigator.serviceWorker?.addEventListener('controllerchange', check);
  // The dev page's EventSource, so the bench can wait until it is connected before saving.
  const NativeEventSource = window.EventSource;
  window.EventSource = class extends NativeEventSource {
    constructor(/** @type {ConstructorParameters<typeof EventSource>} */ ...args) {
      super(...args);
      probed.__benchEventSource = this;
    }
  };
}

/**
 * A fresh profile (no worker, no caches) with the page probes installed.
 * @param {Browser} browser
 */
export async function freshContext(browser) {
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  await context.addInitScript(installPageProbes);
  return context;
}

/**
 * A fresh profile with the app open, installed and controlled: resolves to { context, page }.
 * @param {Browser} browser
 * @param {{ url: string }} site
 */
export async function installedPage(browser, site) {
  const context = await freshContext(browser);
  const page = await context.newPage();
  await page.goto(site.url, { timeout: READY_LIMIT_MS });
  await poll(() => page.evaluate(() => /** @type {ProbedWindow} */ (window).__benchReadyAt), {
    limitMs: READY_LIMIT_MS,
    what: `"${READY_TEXT}" with the page controlled by the worker`,
  });
  return { context, page };
}
