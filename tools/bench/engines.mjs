// Part 4b, engines: offline-ready in Firefox and WebKit through the test suite's own launchers
// (test/bench/offline-ready-in-engines.ts, run by tools/engines.mjs, WebKit in its network
// namespace and Xvfb). First visits on loopback to our build and, with --compare, to the other
// site in turn: navigation -> `serviceWorker.ready` and `load` -> ready. Numbers only, no targets.
import path from 'node:path';
import { missingEngine, runEngineTest } from '../engines.mjs';
import { bundleTests } from '../test-bundle.mjs';
import { median } from './median.mjs';
import { ROOT } from './root.mjs';

/** The engines this part measures (Chromium is the load part's). */
export const OTHER_ENGINES = /** @type {const} */ (['firefox', 'webkit']);

/** How long one engine's run may take before it is stopped. */
const ENGINE_RUN_LIMIT_MS = 300_000;

/** @typedef {{ loadMs: number, readyMs: number, late: boolean }} EngineVisit */
/** @typedef {{ readyMs: number | undefined, loadToReadyMs: number | undefined, runs: EngineVisit[] }} EngineSiteSummary */
/** @typedef {{ engine: string, sites: Record<string, EngineSiteSummary> } | { error: string }} EngineResult */

/**
 * Runs the visits in each other engine: `runs` first visits to each of `sites` ({ label, dir }),
 * in turn; resolves to each engine's medians per site, or the reason it did not run.
 * @param {{ label: string, dir: string }[]} sites
 * @param {number} runs
 * @returns {Promise<Partial<Record<(typeof OTHER_ENGINES)[number], EngineResult>>>}
 */
export async function measureEngines(sites, runs) {
  const outdir = path.join(ROOT, process.env.TEST_CACHE || '.cache', 'bench-engines');
  const [script] = await bundleTests({ root: ROOT, dir: 'bench', outdir, grep: 'offline-ready-in-engines', entries: /\.ts$/ });
  if (!script) throw new Error('bench: test/bench/offline-ready-in-engines.ts is missing');
  /** @type {Partial<Record<(typeof OTHER_ENGINES)[number], EngineResult>>} */
  const results = {};
  for (const engine of OTHER_ENGINES) {
    const missing = missingEngine(engine);
    if (missing) {
      results[engine] = { error: missing };
      continue;
    }
    const { code, out } = await runEngineTest({
      engine,
      file: script,
      env: { BENCH_SITES: JSON.stringify(sites), BENCH_RUNS: String(runs) },
      capture: true,
      timeout: ENGINE_RUN_LIMIT_MS,
    });
    results[engine] = parseEngineOutput(code, out);
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
  /** @type {{ engine: string, visits: Record<string, EngineVisit[]> }} */
  const report = JSON.parse(line.slice('offline-ready: '.length));
  /** @type {Record<string, EngineSiteSummary>} */
  const sites = {};
  for (const [label, visits] of Object.entries(report.visits))
    sites[label] = {
      readyMs: median(visits.map((visit) => visit.readyMs)),
      loadToReadyMs: median(visits.map((visit) => visit.readyMs - visit.loadMs)),
      runs: visits,
    };
  return { engine: report.engine, sites };
}
