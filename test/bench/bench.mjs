#!/usr/bin/env node
// `npm run bench`: the numbers docs/testing.md quotes (written there, from docs/timings.json), for both builds (React, Preact), in Debian's
// Chromium against the preview server on loopback. Numbers, not pass/fail; the React column is
// compared with the project's targets. Parts (each N runs, median shown, every run in the JSON):
//   build       wall time of `node build.mjs --out <tmp>`
//   dev         dev loop: a saved source file -> the reloaded page showing the change
//   load        first visit in a fresh profile, on loopback and on a slow link (150 ms per answer,
//               200 KiB/s) with brotli/gzip copies and without: first contentful paint,
//               navigation -> navigator.serviceWorker.ready (offline-ready) and load -> ready;
//               the body bytes the server sent until then against the bytes of the distinct
//               files. --compare DIR visits another built site in turn with ours and prints ratios
//   engines     offline-ready in Firefox and WebKit (the tests' launchers), on loopback: navigation
//               and load -> serviceWorker.ready, for ours and the --compare site in turn
//   reconnect   `online` -> the reload it causes, reloads under flapping (8 toggles 100 ms apart),
//               and typing through a reconnect: keys lost and last key -> reload
//   backup      the largest backup a device makes (5 million characters): download, then restore
//               on a fresh profile, and the restore's longest task
//   lighthouse  Lighthouse 12 scores and paint metrics (React build only; about 30 s)
// What only the bench uses (Lighthouse) is its own package (test/bench/package.json and its lock),
// installed into test/bench/node_modules by the first run.
// --before REF adds the project as it was at git commit REF, built for each build and visited in
// the same rounds, to the --compare table: each row before and after.
// Usage: node test/bench/bench.mjs [--runs N] [--only build,dev,load,engines,reconnect,backup,lighthouse] [--react|--preact] [--compare DIR [--before REF]]
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { measureBackup } from './backup.mjs';
import { checkOutBefore } from './before.mjs';
import { measureBuild, timedBuild } from './build.mjs';
import { printComparison } from './compare-report.mjs';
import { measureDev } from './dev.mjs';
import { measureEngines } from './engines.mjs';
import { ensureBenchPackages, measureLighthouse } from './lighthouse.mjs';
import { measureLoad } from './load.mjs';
import { parseArgs } from './options.mjs';
import { measureReconnect } from './reconnect.mjs';
import { RESULTS_FILE, machine, printTable, tableRows, writeResults } from './report.mjs';
import { TIMINGS_DOC, TIMINGS_JSON, writeTimingsDoc } from './timings-doc.mjs';
import { ROOT } from './root.mjs';
import { CHROME_ARGS, chromePath } from '../harness/chromium.mjs';
import { BUILDS } from '../harness/test-sites.mjs';

// Children run in process groups of their own (../harness/process-group.mjs): a signal ends the bench through
// process.exit, whose exit handlers take each group down with it.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => process.exit(130));

/** @typedef {import('./report.mjs').BuildResults} BuildResults */

/**
 * Whether the demo's notes are in the project: the backup part and the typing of the reconnect
 * part measure them (its largest backup, its first note), and `npm run remove-demo` takes them away.
 */
const HAS_DEMO = existsSync(path.join(ROOT, 'src/notes/store.ts'));

/**
 * Measures the selected parts for one build; resolves to { part: result }.
 * @param {import('playwright-core').Browser} browser
 * @param {{ name: import('../harness/test-sites.mjs').BuildName, preact: boolean }} build
 * @param {import('./options.mjs').BenchOptions} options
 * @param {string} [beforeRoot] the sources of --before's commit
 * @returns {Promise<BuildResults>}
 */
async function measureOneBuild(browser, { name, preact }, options, beforeRoot) {
  const wants = (/** @type {string} */ part) => options.parts.includes(part);
  const out = mkdtempSync(path.join(os.tmpdir(), `offline-shell-bench-${name}-`));
  const beforeOut = path.join(out, '.before');
  /** @type {BuildResults} */
  const results = {};
  const progress = (/** @type {string} */ part) => console.error(`bench: ${name} build: ${part}…`);
  try {
    progress('build');
    if (wants('build')) results.build = await measureBuild(preact, out, options.runs);
    // The served parts need a build even when its time is not wanted.
    else await timedBuild(ROOT, out, preact);
    if (wants('dev')) {
      progress('dev');
      results.dev = await measureDev(browser, preact, options.runs);
    }
    if (wants('load')) {
      progress('load');
      if (beforeRoot) await timedBuild(beforeRoot, beforeOut, preact);
      results.load = await measureLoad(browser, out, options.runs, options.compare, beforeRoot ? beforeOut : undefined);
    }
    if (wants('engines')) {
      progress('engines (Firefox, WebKit)');
      const sites = [{ label: 'ours', dir: out }];
      if (options.compare) sites.push({ label: 'other', dir: path.resolve(options.compare) });
      results.engines = await measureEngines(sites, options.runs);
    }
    if (wants('reconnect')) {
      progress('reconnect');
      results.reconnect = await measureReconnect(browser, out, options.runs, { typing: HAS_DEMO });
    }
    if (wants('backup') && HAS_DEMO) {
      progress('backup');
      results.backup = await measureBackup(browser, out, options.runs);
    }
    // Lighthouse is slow and the targets are the React build's: it runs on that one only.
    if (wants('lighthouse') && name === 'react') {
      progress('lighthouse');
      // Lighthouse failing (not installed, Chromium refusing) must not cost the other parts' numbers.
      results.lighthouse = await measureLighthouse(out).catch((/** @type {Error} */ error) => ({ error: error.message }));
    }
    return results;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Measures, prints the table and writes test-output/bench.json. */
async function main() {
  const options = parseArgs(process.argv.slice(2));
  const demoParts = ['backup', 'reconnect'].filter((part) => options.parts.includes(part));
  if (!HAS_DEMO && demoParts.length)
    console.log(
      "bench: the demo is removed (npm run remove-demo), so its parts are skipped: the largest backup, and the typing through a reconnect (it types into the demo's first note)",
    );
  // Lighthouse (its own package) only for a run that measures it.
  if (options.parts.includes('lighthouse')) ensureBenchPackages();
  const before = options.before ? checkOutBefore(options.before) : undefined;
  const browser = await chromium.launch({ executablePath: chromePath(), args: CHROME_ARGS }).catch((error) => {
    before?.remove();
    throw error;
  });
  /** @type {Partial<Record<import('../harness/test-sites.mjs').BuildName, BuildResults>>} */
  const results = {};
  let startedOn;
  try {
    startedOn = machine(browser.version());
    for (const build of BUILDS.filter((b) => options.builds.includes(b.name)))
      results[build.name] = await measureOneBuild(browser, build, options, before?.root);
  } finally {
    await browser.close();
    before?.remove();
  }
  const loadAtEnd = os.loadavg().map((load) => load.toFixed(2));
  console.log(
    `offline-shell bench: Chromium ${startedOn.chromium}, ${startedOn.cores} cores (${startedOn.cpu}), Node ${startedOn.node}, ${options.runs} runs, parts: ${options.parts.join(', ')}`,
  );
  console.log(`load average (1, 5, 15 min): ${startedOn.loadAverage.join(', ')} at the start, ${loadAtEnd.join(', ')} at the end`);
  console.log(
    `fresh memory: ${startedOn.freshMemory.mebibytes} MiB touched by a new process in ${startedOn.freshMemory.milliseconds} ms (every build and browser start pays it)`,
  );
  printTable(tableRows(results, options.runs));
  printComparison(results, options.runs, before && `${options.before} (${before.commit.slice(0, 10)})`);
  for (const [build, parts] of Object.entries(results)) {
    if (parts.lighthouse?.error) console.log(`Lighthouse (${build}) did not run: ${parts.lighthouse.error}`);
    for (const [engine, result] of Object.entries(parts.engines ?? {}))
      if (result && 'error' in result) console.log(`${engine} (${build}) did not run: ${result.error}`);
  }
  writeResults({ ...startedOn, loadAverageAtEnd: loadAtEnd.map(Number), runs: options.runs }, results);
  console.log(`numbers in ${path.relative(process.cwd(), RESULTS_FILE)}`);
  // Written after bench.json: a table that cannot be written (markers gone) costs no numbers.
  if (writeTimingsDoc(ROOT, results, startedOn)) console.log(`timings written to ${TIMINGS_JSON} and the table in ${TIMINGS_DOC}`);
  else console.log(`${TIMINGS_JSON} or ${TIMINGS_DOC} is missing: no timings written there`);
}

main().catch((error) => {
  console.error(error?.message?.startsWith('bench:') ? error.message : (error?.stack ?? error));
  process.exit(1);
});
