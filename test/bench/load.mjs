// Parts 3 and 4, load: first visits in a fresh profile, on loopback and on a slow link with and
// without compression: first contentful paint, navigation -> `serviceWorker.ready` (offline-ready:
// the install, every precached file stored, is done), `load` -> ready (what the offline layer
// itself costs once the page has loaded), and the bytes the server sent meanwhile. With
// `--compare DIR`, another built site is visited in turn with ours, on the same server and in
// the same browser, so both meet the same machine load.
import { headersForSite } from '../harness/site-headers.mjs';
import { listen } from '../../tools/serve/server.mjs';
import { countResponses, firstVisit } from './first-visit.mjs';
import { median } from './median.mjs';
import { siteVariants } from './site-variants.mjs';

/** A link with 150 ms of latency per answer and 200 KiB/s of bandwidth. */
export const SLOW_PACE = { delayMs: 150, bytesPerSecond: 200 * 1024 };

/** @typedef {'loopback' | 'slow' | 'slowIdentity'} ProfileName */
/**
 * How the server answers in a profile: its pace, and whether it sends the precompressed copies
 * (brotli or gzip, whichever the browser accepts) or every file as it is.
 * @typedef {{ name: ProfileName, pace: import('../../tools/serve/server.mjs').Pace | undefined, compressed: boolean }} Profile
 */

/** @type {Profile[]} */
export const PROFILES = [
  { name: 'loopback', pace: undefined, compressed: true },
  { name: 'slow', pace: SLOW_PACE, compressed: true },
  { name: 'slowIdentity', pace: SLOW_PACE, compressed: false },
];

/** @typedef {import('./first-visit.mjs').Visit} Visit */
/** @typedef {ReturnType<typeof summarizeVisits>} ProfileSummary */
/** @typedef {Record<ProfileName, ProfileSummary>} SiteSummary */
/** @typedef {SiteSummary & { compared?: SiteSummary & { dir: string }, before?: SiteSummary }} LoadResults */

/**
 * Parts 3 and 4: `runs` first visits of the site in `out` on each profile; with `compareDir`, as
 * many of that site, each right after one of ours; with `beforeDir` (our site built from an
 * earlier commit), as many of it too, between the two.
 * @param {import('playwright-core').Browser} browser
 * @param {string} out
 * @param {number} runs
 * @param {string} [compareDir]
 * @param {string} [beforeDir]
 * @returns {Promise<LoadResults>}
 */
export async function measureLoad(browser, out, runs, compareDir, beforeDir) {
  const ours = await siteVariants(out);
  /** @type {import('./site-variants.mjs').SiteVariants[]} */
  const others = [];
  try {
    const before = beforeDir ? await siteVariants(beforeDir) : undefined;
    if (before) others.push(before);
    const compared = compareDir ? await siteVariants(compareDir) : undefined;
    if (compared) others.push(compared);
    /** @type {Partial<Record<ProfileName, ProfileSummary>>[]} */
    const byProfile = [ours, ...others].map(() => ({}));
    for (const profile of PROFILES) {
      const visits = await visitInTurn(browser, profile, runs, [ours, ...others]);
      visits.forEach((siteVisits, index) => {
        byProfile[index][profile.name] = summarizeVisits(siteVisits);
      });
    }
    // Every profile was measured above, for every site.
    const [oursByProfile, ...othersByProfile] = /** @type {SiteSummary[]} */ (byProfile);
    const results = /** @type {LoadResults} */ (oursByProfile);
    if (before) results.before = othersByProfile.shift();
    if (compareDir) results.compared = { dir: compareDir, .../** @type {SiteSummary} */ (othersByProfile.shift()) };
    return results;
  } finally {
    await ours.remove();
    for (const site of others) await site.remove();
  }
}

/**
 * `runs` rounds of one first visit to each site, in turn, each site on its own server with the
 * profile's pace and encoding; resolves to each site's visits, in the order of `sites`.
 * @param {import('playwright-core').Browser} browser
 * @param {Profile} profile
 * @param {number} runs
 * @param {import('./site-variants.mjs').SiteVariants[]} sites
 * @returns {Promise<Visit[][]>}
 */
async function visitInTurn(browser, profile, runs, sites) {
  // Ours with today's headers; another site (ours from --before, or the peer) with those of its own
  // build (an older release, a peer built for no Trusted Types, whose register() today's policy
  // would refuse).
  const servers = await Promise.all(
    sites.map((site, index) => {
      const root = profile.compressed ? site.compressed : site.identity;
      const security = index === 0 ? undefined : headersForSite(root);
      return listen({ root, port: 0, pace: profile.pace, securityOf: () => security });
    }),
  );
  try {
    const counters = servers.map((server) => countResponses(server.server));
    /** @type {Visit[][]} */
    const visits = servers.map(() => []);
    for (let run = 0; run < runs; run++)
      for (const [index, server] of servers.entries()) visits[index].push(await firstVisit(browser, server, counters[index]));
    return visits;
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

/**
 * Medians of a profile's visits with every run kept: FCP, navigation -> ready, load -> ready, the
 * encoding of the largest response, and the bytes (sent against distinct files, URLs asked twice).
 * @param {Visit[]} visits
 */
function summarizeVisits(visits) {
  const fcp = visits.map((visit) => visit.fcpMs);
  const ready = visits.map((visit) => visit.readyMs);
  const afterLoad = visits.map((visit) => visit.readyMs - visit.loadMs);
  // A visit's ratio is undefined only when no bytes were sent, which a visit that got ready cannot be.
  const ratios = visits.map((visit) => /** @type {number} */ (visit.bytes.ratio));
  const repeated = [...new Set(visits.flatMap((visit) => visit.bytes.repeated.map((entry) => entry.url)))];
  const largest = visits[0]?.bytes.responses.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  return {
    fcpMs: { runs: fcp, median: median(fcp) },
    readyMs: { runs: ready, median: median(ready) },
    loadToReadyMs: { runs: afterLoad, median: median(afterLoad) },
    largestResponse: largest ? { url: largest.url, bytes: largest.bytes, encoding: largest.encoding || 'identity' } : undefined,
    firstVisitBytes: { ratio: median(ratios), ratios, repeatedUrls: repeated, visits: visits.map((visit) => visit.bytes) },
  };
}
