// One first visit, as the load part measures it: a fresh profile, the page's own timings (first
// contentful paint, `load`, `navigator.serviceWorker.ready`) and every byte the server sent meanwhile.
import { READY_LIMIT_MS } from './page-probes.mjs';
import { within } from './waits.mjs';

/** @typedef {{ method: string | undefined, url: string | undefined, status: number, encoding: string, bytes: number }} ResponseRecord */
/** @typedef {ReturnType<typeof summarizeBytes>} VisitBytes */
/** @typedef {{ fcpMs: number, loadMs: number, readyMs: number, bytes: VisitBytes }} Visit */

/**
 * Counts the body bytes the preview server hands to each response (after Content-Encoding: the
 * bytes that cross the network). `take()` returns what was recorded since the last take().
 * @param {import('node:http').Server} server
 */
export function countResponses(server) {
  /** @type {ResponseRecord[]} */
  let responses = [];
  // Prepended: the server's own handler may answer synchronously, before a later listener ran.
  server.prependListener('request', (request, response) => {
    const record = { method: request.method, url: request.url, status: 0, encoding: '', bytes: 0 };
    responses.push(record);
    /**
     * @param {unknown} chunk a body chunk, or the callback that may stand in its place
     * @param {unknown} encoding
     */
    const count = (chunk, encoding) => {
      if (chunk && typeof chunk !== 'function')
        record.bytes += Buffer.byteLength(
          /** @type {string | Buffer} */ (chunk),
          typeof encoding === 'string' ? /** @type {BufferEncoding} */ (encoding) : undefined,
        );
    };
    // Wrapped as plain variadic functions: each forwards whatever overload it was called with.
    const write = /** @type {(...args: unknown[]) => boolean} */ (response.write.bind(response));
    const end = /** @type {(...args: unknown[]) => import('node:http').ServerResponse} */ (response.end.bind(response));
    const writeHead = /** @type {(...args: unknown[]) => import('node:http').ServerResponse} */ (response.writeHead.bind(response));
    // The preview server passes its headers to writeHead(), which getHeader() does not see.
    response.writeHead = /** @type {typeof response.writeHead} */ (
      (/** @type {unknown[]} */ ...args) => {
        const headers = /** @type {Record<string, unknown> | undefined} */ (args.find((arg) => arg && typeof arg === 'object'));
        if (headers?.['Content-Encoding']) record.encoding = String(headers['Content-Encoding']);
        return writeHead(...args);
      }
    );
    response.write = /** @type {typeof response.write} */ (
      (/** @type {unknown} */ chunk, /** @type {unknown[]} */ ...rest) => {
        count(chunk, rest[0]);
        return write(chunk, ...rest);
      }
    );
    response.end = /** @type {typeof response.end} */ (
      (/** @type {unknown} */ chunk, /** @type {unknown[]} */ ...rest) => {
        count(chunk, rest[0]);
        record.status = response.statusCode;
        record.encoding ||= String(response.getHeader('content-encoding') ?? '');
        return end(chunk, ...rest);
      }
    );
  });
  return {
    take() {
      const taken = responses;
      responses = [];
      return taken;
    },
  };
}

/**
 * Sums one visit's responses: bytes sent in all, bytes of the distinct files (each URL once, at
 * the largest body sent for it), their ratio, and the GET URLs asked more than once.
 * @param {ResponseRecord[]} responses
 */
function summarizeBytes(responses) {
  const sent = responses.reduce((total, response) => total + response.bytes, 0);
  /** @type {Map<string | undefined, number>} */
  const largest = new Map();
  /** @type {Map<string | undefined, number[]>} */
  const asked = new Map();
  for (const response of responses) {
    largest.set(response.url, Math.max(largest.get(response.url) ?? 0, response.bytes));
    if (response.method !== 'GET') continue;
    asked.set(response.url, [...(asked.get(response.url) ?? []), response.status]);
  }
  const distinct = [...largest.values()].reduce((total, bytes) => total + bytes, 0);
  const repeated = [...asked].filter(([, statuses]) => statuses.length > 1).map(([url, statuses]) => ({ url, statuses }));
  return { sentBytes: sent, distinctBytes: distinct, ratio: distinct ? sent / distinct : undefined, repeated, responses };
}

/**
 * The page's side of a first visit, in every new document: when `navigator.serviceWorker.ready`
 * resolves, it hands the time to the bench's binding. Nothing else runs in the page for the bench
 * (no polling, no observer), so the site measured pays for nothing but itself.
 */
function reportWhenReady() {
  const reporting = /** @type {Window & { __benchWorkerReady?: (readyMs: number) => void }} */ (window);
  navigator.serviceWorker?.ready.then(() => reporting.__benchWorkerReady?.(performance.now()));
}

/**
 * One first visit in a fresh profile: resolves to its first contentful paint, when the page's
 * `load` event started and when `navigator.serviceWorker.ready` resolved (ms from the navigation's
 * start, all measured by the page), and the bytes the server sent until then.
 * @param {import('playwright-core').Browser} browser
 * @param {{ url: string }} site
 * @param {ReturnType<typeof countResponses>} counter
 * @returns {Promise<Visit>}
 */
export async function firstVisit(browser, site, counter) {
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  try {
    /** @type {Promise<number>} */
    const ready = new Promise((resolve) =>
      context.exposeBinding('__benchWorkerReady', (_source, /** @type {number} */ readyMs) => resolve(readyMs)),
    );
    await context.addInitScript(reportWhenReady);
    const page = await context.newPage();
    counter.take();
    await page.goto(site.url, { timeout: READY_LIMIT_MS });
    const readyMs = await within(ready, READY_LIMIT_MS, 'navigator.serviceWorker.ready (an installed worker)');
    const bytes = summarizeBytes(counter.take());
    const { fcpMs, loadMs } = await page.evaluate(() => {
      const navigation = /** @type {PerformanceNavigationTiming | undefined} */ (performance.getEntriesByType('navigation')[0]);
      return {
        fcpMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
        loadMs: navigation?.loadEventStart,
      };
    });
    if (fcpMs === undefined)
      throw new Error('bench: the page has no first-contentful-paint entry (paint timing missing in this Chromium?)');
    if (!loadMs) throw new Error('bench: the page has no loadEventStart in its navigation timing');
    return { fcpMs, loadMs, readyMs, bytes };
  } finally {
    await context.close();
  }
}
