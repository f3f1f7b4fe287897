// Part 4b, engines: offline-ready in Firefox and WebKit through the test suite's own launchers
// (test/bench/offline-ready-in-engines.ts, run by test/harness/engines.mjs, WebKit in its network
// namespace and Xvfb). First visits on loopback and on the load part's slow link, each site served
// as the load part serves it compressed (precompressed copies made alike for every site): ours and,
// with --compare, the other site in turn. Navigation -> `serviceWorker.ready` and `load` -> ready.
// Numbers only, no targets.
import path from 'node:path';
import { missingEngine, runEngineTest } from '../harness/engines.mjs';
import { bundleTests } from '../harness/test-bundle.mjs';
import { SLOW_PACE } from './load.mjs';
import { median } from './median.mjs';
import { ROOT } from './root.mjs';
import { siteVariants } from './site-variants.mjs';

/** The engines this part measures (Chromium is the load part's). */
export const OTHER_ENGINES = /** @type {const} */ (['firefox', 'webkit']);

/** The links this part visits on: loopback, and the load part's slow link. */
export const ENGINE_PROFILES = /** @type {const} */ ([
  { name: 'loopback', pace: undefined },
  { name: 'slow', pace: SLOW_PACE },
]);

/** @typedef {(typeof ENGINE_PROFILES)[number]['name']} EngineProfileName */

/** How long one engine's run may take before it is stopped. */
const ENGINE_RUN_LIMIT_MS = 420_000;

/** @typedef {{ loadMs: number, readyMs: number, late: boolean }} EngineVisit */
/** @typedef {{ readyMs: number | undefined, loadToReadyMs: number | undefined, runs: EngineVisit[] }} EngineSiteSummary */
/** @typedef {{ engine: string, profiles: Record<EngineProfileName, Record<string, EngineSiteSummary>> } | { error: string }} EngineResult */

/**
 * Runs the visits in each other engine: on each profile, `runs` first visits to each of `sites`
 * ({ label, dir }), in turn; resolves to each engine's medians per profile and site, or the reason
 * it did not run.
 * @param {{ label: string, dir: string }[]} sites
 * @param {number} runs
 * @returns {Promise<Partial<Record<(typeof OTHER_ENGINES)[number], EngineResult>>>}
 */
export async function measureEngines(sites, runs) {
  const outdir = path.join(ROOT, process.env.TEST_CACHE || '.cache', 'bench-engines');
  const [script] = await bundleTests({ root: ROOT, dir: 'bench', outdir, grep: 'offline-ready-in-engines', entries: /\.ts$/ });
  if (!script) throw new Error('bench: test/bench/offline-ready-in-engines.ts is missing');
  // Served compressed as the load part serves them: the other site as well as ours, so both
  // meet the same host whatever their own folders hold.
  const variants = await Promise.all(sites.map((site) => siteVariants(site.dir)));
  /** @type {Partial<Record<(typeof OTHER_ENGINES)[number], EngineResult>>} */
  const results = {};
  try {
    const served = sites.map((site, index) => ({ label: site.label, dir: variants[index].compressed }));
    for (const engine of OTHER_ENGINES) {
      const missing = missingEngine(engine);
      if (missing) {
        results[engine] = { error: missing };
        continue;
      }
      const { code, out } = await runEngineTest({
        engine,
        file: script,
        env: { BENCH_SITES: JSON.stringify(served), BENCH_PROFILES: JSON.stringify(ENGINE_PROFILES), BENCH_RUNS: String(runs) },
        capture: true,
        timeout: ENGINE_RUN_LIMIT_MS,
      });
      results[engine] = parseEngineOutput(code, out);
    }
  } finally {
    await Promise.all(variants.map((variant) => variant.remove()));
  }
  return results;
}

/**
 * The medians from a run's `offline-ready: <JSON>` line, or the run's last lines as its error.
 * @param {number} code
 * @param {string} out
 * @returns {EngineResult}
 */
function parseEngineOutput(code, out) {
  const line = out.split('\n').find((text) => text.startsWith('offline-ready: '));
  if (code !== 0 || !line) return { error: `exit ${code}: ${out.trim().split('\n').slice(-3).join(' | ')}` };
  /** @type {{ engine: string, visits: Record<EngineProfileName, Record<string, EngineVisit[]>> }} */
  const report = JSON.parse(line.slice('offline-ready: '.length));
  const profiles = /** @type {Record<EngineProfileName, Record<string, EngineSiteSummary>>} */ ({});
  for (const { name } of ENGINE_PROFILES) {
    profiles[name] = {};
    for (const [label, visits] of Object.entries(report.visits[name] ?? {}))
      profiles[name][label] = {
        readyMs: median(visits.map((visit) => visit.readyMs)),
        loadToReadyMs: median(visits.map((visit) => visit.readyMs - visit.loadMs)),
        runs: visits,
      };
  }
  return { engine: report.engine, profiles };
}
