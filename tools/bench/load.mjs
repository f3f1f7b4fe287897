// Parts 3 and 4, load: first visits in a fresh profile on loopback and on a slow link, their
// first contentful paint, their "Ready to work offline", and the bytes the server sent meanwhile.
import { listen } from '../serve/server.mjs';
import { median } from './median.mjs';
import { READY_TEXT, READY_LIMIT_MS, freshContext } from './page-probes.mjs';
import { poll } from './waits.mjs';

/** The slow profile: a link with 150 ms of latency per answer and 200 KiB/s of bandwidth. */
const SLOW_PACE = { delayMs: 150, bytesPerSecond: 200 * 1024 };
/** @type {{ name: 'loopback' | 'slow', pace: import('../serve/server.mjs').Pace | undefined }[]} */
const PROFILES = [
  { name: 'loopback', pace: undefined },
  { name: 'slow', pace: SLOW_PACE },
];

/** @typedef {import('./page-probes.mjs').ProbedWindow} ProbedWindow */
/** @typedef {{ method: string | undefined, url: string | undefined, status: number, encoding: string, bytes: number }} ResponseRecord */
/** @typedef {ReturnType<typeof summarizeBytes>} VisitBytes */
/** @typedef {{ fcpMs: number, readyMs: number, bytes: VisitBytes }} Visit */

/**
 * Counts the body bytes the preview server hands to each response (after Content-Encoding: the
 * bytes that cross the network). `take()` returns what was recorded since the last take().
 * @param {import('node:http').Server} server
 */
function countResponses(server) {
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
        record.encoding = String(response.getHeader('content-encoding') ?? '');
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
 * One first visit in a fresh profile: resolves to FCP and offline-ready (ms from the navigation's
 * start, both measured by the page) and the bytes the server sent until offline-ready.
 * @param {import('playwright-core').Browser} browser
 * @param {{ url: string }} site
 * @param {ReturnType<typeof countResponses>} counter
 * @returns {Promise<Visit>}
 */
async function firstVisitTimings(browser, site, counter) {
  const context = await freshContext(browser);
  try {
    const page = await context.newPage();
    counter.take();
    await page.goto(site.url, { timeout: READY_LIMIT_MS });
    const readyMs = await poll(() => page.evaluate(() => /** @type {ProbedWindow} */ (window).__benchReadyAt), {
      limitMs: READY_LIMIT_MS,
      what: `"${READY_TEXT}" with the page controlled by the worker`,
    });
    const bytes = summarizeBytes(counter.take());
    const fcpMs = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime);
    if (fcpMs === undefined)
      throw new Error('bench: the page has no first-contentful-paint entry (paint timing missing in this Chromium?)');
    return { fcpMs, readyMs, bytes };
  } finally {
    await context.close();
  }
}

/**
 * Part 3 and 4: `runs` first visits on each profile (loopback, slow) of the site in `out`.
 * @param {import('playwright-core').Browser} browser
 * @param {string} out
 * @param {number} runs
 */
export async function measureLoad(browser, out, runs) {
  /** @type {Partial<Record<'loopback' | 'slow', ReturnType<typeof summarizeVisits>>>} */
  const results = {};
  for (const profile of PROFILES) {
    const site = await listen({ root: out, port: 0, pace: profile.pace });
    const counter = countResponses(site.server);
    try {
      const visits = [];
      for (let i = 0; i < runs; i++) visits.push(await firstVisitTimings(browser, site, counter));
      results[profile.name] = summarizeVisits(visits);
    } finally {
      await site.close();
    }
  }
  // Every profile was measured above.
  return /** @type {Record<'loopback' | 'slow', ReturnType<typeof summarizeVisits>>} */ (results);
}

/**
 * Medians of a profile's visits, every run kept, and every URL any run asked more than once.
 * @param {Visit[]} visits
 */
function summarizeVisits(visits) {
  const fcp = visits.map((visit) => visit.fcpMs);
  const ready = visits.map((visit) => visit.readyMs);
  // A visit's ratio is undefined only when no bytes were sent, which a visit that got ready cannot be.
  const ratios = visits.map((visit) => /** @type {number} */ (visit.bytes.ratio));
  const repeated = [...new Set(visits.flatMap((visit) => visit.bytes.repeated.map((entry) => entry.url)))];
  return {
    fcpMs: { runs: fcp, median: median(fcp) },
    readyMs: { runs: ready, median: median(ready) },
    firstVisitBytes: { ratio: median(ratios), ratios, repeatedUrls: repeated, visits: visits.map((visit) => visit.bytes) },
  };
}
