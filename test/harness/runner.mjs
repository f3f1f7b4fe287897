#!/usr/bin/env node
// `npm test`: lint (Biome: format and rules, first because it takes a second), type check, unit
// (uvu + happy-dom), browser (@web/test-runner in Chromium), and end-to-end (uvu + playwright-core
// against built dist/ folders, and the offline guarantees of test/e2e/engines*.test.ts in Chromium,
// Firefox and WebKit). Prints `N passed, M failed` last.
// Usage: node test/harness/runner.mjs [lint|types|unit|browser|e2e ...] [--grep TEXT] [--engine chromium,firefox,webkit] [--quick]
//   (default: all suites, printed in order, types and unit running from the start beside the others;
//   --engine runs only engines*.test.ts, in those engines; --quick is the edit loop's run: lint,
//   types, unit and a smoke of the offline guarantee in Chromium on the React build: QUICK_SMOKE)
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { chromePath } from './chromium.mjs';
import { ENGINES, isEngine, runEngineTest } from './engines.mjs';
import { runInGroup } from './process-group.mjs';
import { ensureCspEvaluator, ensureObservatory, ensureTestMachine, ensureWrangler, needsPagesRuntime, testCache } from './setup.mjs';
import { bundleTests } from './test-bundle.mjs';
import { BUILDS, buildTestSites } from './test-sites.mjs';
import { runUnitGroups } from './unit-groups.mjs';
import { longestFirst, timesToOrderBy } from './run-times.mjs';
import { describeTestScreens } from './field-screen.mjs';
import { PROGRAMS } from '../../tools/typecheck.mjs';

const root = process.cwd();
const cache = testCache(root);
const args = process.argv.slice(2);
const quickAt = args.indexOf('--quick');
const quick = quickAt >= 0 && args.splice(quickAt, 1).length > 0;
const grepAt = args.indexOf('--grep');
const grep = grepAt >= 0 ? args.splice(grepAt, 2)[1] : '';
const engineAt = args.indexOf('--engine');
const enginesAsked = engineAt >= 0 ? (args.splice(engineAt, 2)[1] ?? '').split(',').filter(Boolean) : quick ? ['chromium'] : null;
// The quick run prints its smoke second: types and unit run beside it, from the start.
const wanted = args.length ? args : quick ? ['lint', 'e2e', 'types', 'unit'] : ['lint', 'types', 'unit', 'browser', 'e2e'];
const chrome = chromePath();
const totals = { passed: 0, failed: 0 };
/** When the running suite started (performance.now()), for its time on the `--` line. */
let suiteStarted = performance.now();

/**
 * Adds a suite's counts to the totals and prints them.
 * @param {string} suite
 * @param {number} passed
 * @param {number} failed
 * @param {number} [took] the suite's ms, when it ran beside others (else: since it started printing)
 */
const record = (suite, passed, failed, took = performance.now() - suiteStarted) => {
  totals.passed += passed;
  totals.failed += failed;
  console.log(`-- ${suite}: ${passed} passed, ${failed} failed (${Math.round(took / 1000)} s)\n`);
};

// Children run in process groups of their own (process-group.mjs): a signal ends this runner through
// process.exit, whose exit handlers take each group down with it.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => process.exit(130));

/**
 * Runs a command from the project's root in its own process group; resolves to { code, out }.
 * @param {string} cmd
 * @param {string[]} argv
 * @param {Parameters<typeof runInGroup>[2]} [options]
 */
const run = (cmd, argv, options = {}) => runInGroup(cmd, argv, { cwd: root, ...options });

/**
 * Reads uvu's own summary lines (Total / Passed) from its output.
 * @param {string} out
 * @param {number} code
 */
function uvuCounts(out, code) {
  const plain = stripVTControlCharacters(out);
  const total = Number(/Total:\s+(\d+)/.exec(plain)?.[1] ?? NaN);
  const passed = Number(/Passed:\s+(\d+)/.exec(plain)?.[1] ?? NaN);
  if (Number.isNaN(total)) return { passed: 0, failed: 1 }; // crashed before uvu could report
  return { passed, failed: Math.max(total - passed, code === 0 ? 0 : 1) };
}

/** Biome's launcher from its npm package, run by this Node: the pinned version, without npx. */
const BIOME = path.join('node_modules', '@biomejs', 'biome', 'bin', 'biome');

/** The whole tree through `biome check` (formatting and lint rules, as biome.json says): one test, passed or failed. */
async function lint() {
  console.log('== lint (biome check .: formatting and lint rules of biome.json)');
  const { code, out } = await run(process.execPath, [BIOME, 'check', '.'], { capture: true });
  if (code === 0) return record('lint', 1, 0);
  process.stdout.write(out);
  record('lint', 0, 1);
}

/**
 * Type-checks every program in one child (tools/typecheck.mjs --json: the files the programs share
 * parsed once, TypeScript's incremental state kept in the cache), so the compiler never blocks this
 * runner: the types are checked beside the other suites.
 * @returns {Promise<{ took: number, programs: { name: string, failed: boolean, errors: string[] }[] }>}
 */
async function checkTypes() {
  const started = performance.now();
  const names = Object.keys(PROGRAMS);
  const { code, out } = await run(process.execPath, ['tools/typecheck.mjs', '--json', '--cache', path.join(cache, 'types'), ...names], {
    capture: true,
  });
  const line = out.split('\n').find((text) => text.startsWith('[{'));
  // No result line: the checker crashed; its output says why, under every program.
  if (!line)
    return {
      took: performance.now() - started,
      programs: names.map((name) => ({ name, failed: true, errors: out.split('\n').filter(Boolean) })),
    };
  /** @type {{ name: string, errors: string[] }[]} */
  const results = JSON.parse(line);
  // It exits 1 on any error: with none listed, every program counts as failed.
  const crashed = code !== 0 && results.every(({ errors }) => errors.length === 0);
  const programs = results.map(({ name, errors }) => ({ name, failed: crashed || errors.length > 0, errors }));
  return { took: performance.now() - started, programs };
}

/** The type check, started with the run (beside the other suites). @type {ReturnType<typeof checkTypes> | undefined} */
let typesChecked;

async function types() {
  console.log(
    '== type check (tsc --noEmit: app with DOM lib, sw.ts with WebWorker lib, tests, the JavaScript of tools/, test/harness/ and test/bench/ from its JSDoc)',
  );
  typesChecked ??= checkTypes();
  let passed = 0;
  let failed = 0;
  const { took, programs } = await typesChecked;
  for (const { name, failed: programFailed, errors } of programs) {
    for (const e of errors) console.log(`  ${e}`);
    console.log(`  ${programFailed ? '✘' : '•'} ${name}: ${errors.length} errors`);
    programFailed ? failed++ : passed++;
  }
  record('type check', passed, failed, took);
}

/**
 * Runs the unit files (unit-groups.mjs: two processes at once); resolves to their output and
 * counts, for unit() to print.
 * @returns {Promise<{ out: string, passed: number, failed: number, took: number }>}
 */
async function runUnit() {
  const started = performance.now();
  const outdir = path.join(cache, 'unit');
  const files = await bundleTests({ root, dir: 'unit', outdir, grep });
  const runs = files.length ? await runUnitGroups({ root, cache, outdir, files }) : [];
  let passed = 0;
  let failed = 0;
  for (const { code, out } of runs) {
    const counts = uvuCounts(out, code);
    passed += counts.passed;
    failed += counts.failed;
  }
  return { out: runs.map(({ out }) => out).join(''), passed, failed, took: performance.now() - started };
}

/** The unit files' run, started with the run (beside the other suites). @type {ReturnType<typeof runUnit> | undefined} */
let unitRun;

async function unit() {
  console.log('== unit tests (uvu + happy-dom, test/unit/)');
  unitRun ??= runUnit();
  const { out, passed, failed, took } = await unitRun;
  process.stdout.write(out);
  record('unit', passed, failed, took);
}

/** The test sites' build, started by the first suite that needs them. @type {Promise<string> | undefined} */
let built;

/**
 * The quick run's end-to-end part: a smoke of the offline guarantee, the scenarios of
 * test/e2e/engines.test.ts that a page's user meets first: it installs (1), every screen renders
 * offline from the cache (2), and the reconnect reloads once, keeping what was typed (3a). The
 * worker's logic behind the rest runs in-process in the unit tests (sw-install, sw-serve,
 * sw-stall); the full run proves every scenario in three engines on both builds.
 */
const QUICK_SMOKE = { file: /^engines\.test\.ts$/, scenarios: '1,2,3a', builds: [BUILDS[0]], variants: /** @type {const} */ (['v1']) };

/**
 * Builds every site the e2e tests run against (the quick run: the one its smoke needs), once per
 * run (test-sites.mjs); resolves to the JSON file that lists their folders, passed to the tests as TEST_SITES.
 */
function buildSites() {
  built ??= buildTestSites(root, path.join(cache, 'sites'), quick ? { builds: QUICK_SMOKE.builds, variants: QUICK_SMOKE.variants } : {});
  return built;
}

/**
 * Whether Chromium is missing; if so, says how to install it and records the suite as failed.
 * @param {string} suite
 */
function chromeMissing(suite) {
  if (existsSync(chrome)) return false;
  console.log(
    `${suite}: Chromium not found at ${chrome}; install it with \`apt-get update && apt-get install -y chromium\` or set CHROME_PATH`,
  );
  record(suite, 0, 1);
  return true;
}

async function browser() {
  console.log('== browser tests (@web/test-runner in Chromium, test/browser/, React and Preact)');
  if (chromeMissing('browser')) return;
  const outdir = path.join(cache, 'browser');
  const react = await bundleTests({ root, dir: 'browser', outdir: path.join(outdir, 'react'), grep, platform: 'browser' });
  if (!react.length) return record('browser', 0, 0);
  await bundleTests({
    root,
    dir: 'browser',
    outdir: path.join(outdir, 'preact'),
    grep,
    platform: 'browser',
    alias: { react: 'preact/compat', 'react-dom': 'preact/compat' },
  });
  const result = path.join(cache, 'wtr-result.json');
  await fs.rm(result, { force: true });
  const { code } = await run(process.execPath, ['node_modules/@web/test-runner/dist/bin.js', '--config', 'test/browser/wtr.config.mjs'], {
    env: { WTR_FILES: path.join(outdir, '**/*.test.mjs'), WTR_RESULT: result, CHROME_PATH: chrome },
  });
  const counts = existsSync(result) ? JSON.parse(await fs.readFile(result, 'utf8')) : { passed: 0, failed: 1 };
  record('browser', counts.passed, counts.failed || (code === 0 ? 0 : 1));
}

/** Whether a bundled test file runs in every engine: test/e2e/engines.test.ts and engines-<part>.test.ts. */
const isEngineTest = (/** @type {string} */ file) => /^engines(-[\w-]+)?\.test\.mjs$/.test(path.basename(file));

/** The test file that scores the hosts with the MDN HTTP Observatory's scanner (test/e2e/observatory.test.ts, bundled). */
const OBSERVATORY_TEST = 'observatory.test.mjs';

/** The test file that asks Google's CSP Evaluator about the policies (test/e2e/csp-evaluator.test.ts, bundled). */
const CSP_EVALUATOR_TEST = 'csp-evaluator.test.mjs';

/**
 * End-to-end files run at once: two more than the cores, at most four. The files mostly wait (on
 * a browser, a timer, a network change that WebKit hears seconds later): measured on 2 cores, one
 * file per core left the machine 26-58 % idle. With every test passing, the e2e suite took 489 s
 * three at a time and 437-462 s four at a time (three runs), the cores then 90-100 % busy, so more
 * would only queue. E2E_LANES=N in the environment overrides it, for measuring.
 */
const E2E_LANES = Number(process.env.E2E_LANES) || Math.min(os.availableParallelism() + 2, 4);

/** The engines a plain `npm test` runs it in: all three. `--engine firefox` (or a list) runs only those. */
const DEFAULT_ENGINES = ENGINES;

async function e2e() {
  console.log(
    '== end-to-end tests (uvu + playwright-core in Chromium against built dist/, test/e2e/; engines*.test.ts in Chromium, Firefox and WebKit)',
  );
  const unknown = (enginesAsked ?? []).filter((engine) => !isEngine(engine));
  if (unknown.length) {
    console.log(`unknown engine ${unknown.join(', ')} (expected ${ENGINES.join(', ')})`);
    return record('e2e', 0, 1);
  }
  if (!enginesAsked && chromeMissing('e2e')) return;
  const smoke = quick ? { entries: QUICK_SMOKE.file } : {};
  const files = await bundleTests({ root, dir: 'e2e', outdir: path.join(cache, 'e2e'), grep, ...smoke });
  if (!files.length) return record('e2e', 0, 0);
  let sites;
  try {
    if (quick) console.log(`quick: engines.test.ts, scenarios ${QUICK_SMOKE.scenarios}, on the React build (the full run: every file)`);
    else console.log('building the test sites (React and Preact: v1, v2, kill switch, renamed, under /my-app/)');
    console.log(describeTestScreens(root));
    sites = await buildSites();
  } catch (err) {
    console.log(/** @type {Error} */ (err).message);
    return record('e2e', 0, 1);
  }
  // Builds that the engines' processes share, made once in the run (test/e2e/lib/shared-build.ts).
  const shared = await fs.mkdtemp(path.join(os.tmpdir(), 'offline-shell-e2e-shared-'));
  /** @type {Record<string, string>} */
  const env = { FORCE_COLOR: '0', CHROME_PATH: chrome, TEST_SITES: sites, E2E_SHARED: shared };
  // SCENARIOS set by hand wins (engine-suite.ts reads it).
  if (quick && !process.env.SCENARIOS) env.SCENARIOS = QUICK_SMOKE.scenarios;
  const engineFiles = files.filter(isEngineTest);
  const engines = engineFiles.length ? (enginesAsked?.filter(isEngine) ?? DEFAULT_ENGINES) : [];
  const chromiumFiles = enginesAsked ? [] : files.filter((file) => !isEngineTest(file));
  // Cloudflare Pages' runtime, installed into the cache on first use (no dev dependency: setup.mjs),
  // and only for a run with a file that starts it (not the quick run's).
  const sources = chromiumFiles.map((file) => sourceOf(file, path.join(cache, 'e2e'), path.join(root, 'test/e2e')));
  if (needsPagesRuntime(sources)) env.WRANGLER_PATH = ensureWrangler(cache);
  // The Observatory's scanner and the CSP Evaluator likewise, when their tests run.
  if (chromiumFiles.some((file) => path.basename(file) === OBSERVATORY_TEST)) env.OBSERVATORY_PATH = ensureObservatory(cache);
  if (chromiumFiles.some((file) => path.basename(file) === CSP_EVALUATOR_TEST)) env.CSP_EVALUATOR_PATH = ensureCspEvaluator(cache);
  // The longest first, by the last run's times (run-times.mjs), or on a fresh clone by the times
  // shipped in test/harness/e2e-times.json. A file with neither goes first, in this order: the
  // engine runs, WebKit's the longest (its network changes take seconds to reach the page).
  const timesFile = path.join(cache, 'e2e-times.json');
  const known = await timesToOrderBy(timesFile, path.join(root, 'test/harness/e2e-times.json'));
  // Only whole files' times are kept: the quick run's and a SCENARIOS run's are a part of one.
  const keepsTimes = !quick && !process.env.SCENARIOS;
  const jobs = longestFirst(
    [
      // engines is empty when there is no engine file.
      ...[...engines].reverse().flatMap((engine) =>
        engineFiles.map((file) => ({
          key: `${engine} ${path.basename(file)}`,
          // The quick run: the React build (the full run adds Preact, which shares every line of the offline core).
          run: () => runEngineTest({ engine, file, env, capture: true, build: quick ? 'react' : undefined }),
        })),
      ),
      ...chromiumFiles.map((file) => ({
        key: path.basename(file),
        run: () => run(process.execPath, ['--enable-source-maps', 'test/harness/uvu-run.mjs', file], { capture: true, env }),
      })),
    ],
    (job) => job.key,
    known,
  );
  // One process per file, E2E_LANES at a time; output printed per file.
  let passed = 0;
  let failed = 0;
  const workers = Array.from({ length: E2E_LANES }, async () => {
    for (;;) {
      const job = jobs.shift();
      if (!job) return;
      const started = performance.now();
      const { code, out } = await job.run();
      known[job.key] = Math.round(performance.now() - started);
      process.stdout.write(out);
      const counts = uvuCounts(out, code);
      passed += counts.passed;
      failed += counts.failed;
    }
  });
  await Promise.all(workers);
  if (keepsTimes) await fs.writeFile(timesFile, JSON.stringify(known, null, 2));
  await fs.rm(shared, { recursive: true, force: true });
  // The smoke names its scenarios by number: one renumbered in engines.test.ts must fail the run, not shrink it.
  const smokeCount = QUICK_SMOKE.scenarios.split(',').length * engines.length;
  if (env.SCENARIOS === QUICK_SMOKE.scenarios && !process.env.SCENARIOS && passed + failed < smokeCount) {
    console.log(`quick: engines.test.ts ran ${passed + failed} of the smoke's ${smokeCount} scenarios (${QUICK_SMOKE.scenarios})`);
    failed++;
  }
  record('e2e', passed, failed);
}

/**
 * The source of a bundled test file (test-bundle.mjs): `<outdir>/x.test.mjs` for `<src>/x.test.ts` or `.tsx`.
 * @param {string} bundled
 * @param {string} outdir
 * @param {string} src
 */
function sourceOf(bundled, outdir, src) {
  const base = path.join(src, path.relative(outdir, bundled)).replace(/\.mjs$/, '');
  return existsSync(`${base}.tsx`) ? `${base}.tsx` : `${base}.ts`;
}

/** @type {Record<string, () => Promise<void>>} */
const suites = { lint, types, unit, browser, e2e };
// Browsers and hosts from Debian, installed here when missing (setup.mjs): the README's two
// commands are all a new machine gets.
if (wanted.some((name) => name === 'browser' || name === 'e2e')) ensureTestMachine();
// Types and unit start now, beside lint and the others (their children share the 2 cores); each
// prints when its turn comes, and a failure to start is reported then (the catch only keeps an
// early rejection from ending the run before that). The test sites are built now too, about 10 s
// of the full run's start that the suites before e2e would otherwise wait out (a failed build is
// reported by e2e).
if (wanted.includes('types')) {
  typesChecked = checkTypes();
  typesChecked.catch(() => {});
}
if (wanted.includes('unit')) {
  unitRun = runUnit();
  unitRun.catch(() => {});
}
if (wanted.includes('e2e')) buildSites().catch(() => {});
for (const name of wanted) {
  if (!suites[name]) {
    console.log(`unknown suite ${name} (expected ${Object.keys(suites).join(', ')})`);
    totals.failed++;
    continue;
  }
  suiteStarted = performance.now();
  try {
    await suites[name]();
  } catch (err) {
    console.log(`${name}: ${/** @type {Error} */ (err).stack ?? err}`);
    record(name, 0, 1);
  }
}
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed ? 1 : 0);
