#!/usr/bin/env node
// `npm test`: lint (Biome: format and rules, first because it takes a second), type check, unit
// (uvu + happy-dom), browser (@web/test-runner in Chromium), and end-to-end (uvu + playwright-core
// against built dist/ folders, and the offline guarantees of test/e2e/engines*.test.ts in Chromium,
// Firefox and WebKit). Prints `N passed, M failed` last.
// Usage: node test/harness/runner.mjs [lint|types|unit|browser|e2e ...] [--grep TEXT] [--engine chromium,firefox,webkit] [--quick]
//   (default: all suites, in order; --engine runs only engines*.test.ts, in those engines; --quick is
//   the edit loop's run: lint, types, unit and the shell's guarantees (engines*.test.ts) in Chromium
//   on the React build, with types checked and the test sites built while the others run)
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { chromePath } from './chromium.mjs';
import { ENGINES, isEngine, runEngineTest } from './engines.mjs';
import { runInGroup } from './process-group.mjs';
import { ensureCspEvaluator, ensureObservatory, ensureTestMachine, ensureWrangler, needsPagesRuntime, testCache } from './setup.mjs';
import { bundleTests } from './test-bundle.mjs';
import { buildTestSites } from './test-sites.mjs';
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
// The quick run reports types last: they are checked beside unit and e2e, from the start.
const wanted = args.length ? args : quick ? ['lint', 'unit', 'e2e', 'types'] : ['lint', 'types', 'unit', 'browser', 'e2e'];
const chrome = chromePath();
const totals = { passed: 0, failed: 0 };
/** When the running suite started (performance.now()), for its time on the `--` line. */
let suiteStarted = performance.now();

/**
 * Adds a suite's counts to the totals and prints them.
 * @param {string} suite
 * @param {number} passed
 * @param {number} failed
 */
const record = (suite, passed, failed) => {
  totals.passed += passed;
  totals.failed += failed;
  const seconds = Math.round((performance.now() - suiteStarted) / 1000);
  console.log(`-- ${suite}: ${passed} passed, ${failed} failed (${seconds} s)\n`);
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
 * @returns {Promise<{ name: string, failed: boolean, errors: string[] }[]>}
 */
async function checkTypes() {
  const names = Object.keys(PROGRAMS);
  const { code, out } = await run(process.execPath, ['tools/typecheck.mjs', '--json', '--cache', path.join(cache, 'types'), ...names], {
    capture: true,
  });
  const line = out.split('\n').find((text) => text.startsWith('[{'));
  // No result line: the checker crashed; its output says why, under every program.
  if (!line) return names.map((name) => ({ name, failed: true, errors: out.split('\n').filter(Boolean) }));
  /** @type {{ name: string, errors: string[] }[]} */
  const results = JSON.parse(line);
  // It exits 1 on any error: with none listed, every program counts as failed.
  const crashed = code !== 0 && results.every(({ errors }) => errors.length === 0);
  return results.map(({ name, errors }) => ({ name, failed: crashed || errors.length > 0, errors }));
}

/** The type check, started by the quick run before its other suites, or by types(). @type {ReturnType<typeof checkTypes> | undefined} */
let typesChecked;

async function types() {
  console.log(
    '== type check (tsc --noEmit: app with DOM lib, sw.ts with WebWorker lib, tests, the JavaScript of tools/, test/harness/ and test/bench/ from its JSDoc)',
  );
  typesChecked ??= checkTypes();
  let passed = 0;
  let failed = 0;
  for (const { name, failed: programFailed, errors } of await typesChecked) {
    for (const e of errors) console.log(`  ${e}`);
    console.log(`  ${programFailed ? '✘' : '•'} ${name}: ${errors.length} errors`);
    programFailed ? failed++ : passed++;
  }
  record('type check', passed, failed);
}

/** The unit files' times of the last run (uvu-run.mjs's TEST_TIMES), by path under the bundle folder. */
const UNIT_TIMES = path.join(cache, 'unit-times.json');

/**
 * Shares `files` out into `count` groups of about equal time (the longest first, each to the group
 * with the least so far), by the times `known` (ms; a file not timed yet counts a second); each
 * group in name order.
 * @param {string[]} files
 * @param {Record<string, number>} known
 * @param {number} count
 */
function shareByTime(files, known, count) {
  const groups = Array.from({ length: count }, () => ({ ms: 0, files: /** @type {string[]} */ ([]) }));
  const ms = (/** @type {string} */ file) => known[file] ?? 1000;
  for (const file of [...files].sort((a, b) => ms(b) - ms(a) || a.localeCompare(b))) {
    const least = groups.reduce((a, b) => (b.ms < a.ms ? b : a));
    least.ms += ms(file);
    least.files.push(file);
  }
  return groups.filter((group) => group.files.length).map((group) => group.files.sort());
}

/**
 * The unit files, in two processes at once (these machines have 2 cores, and the slow files spend
 * most of their time waiting on the builds they spawn), shared out by the last run's times.
 */
async function unit() {
  console.log('== unit tests (uvu + happy-dom, test/unit/)');
  const outdir = path.join(cache, 'unit');
  const files = await bundleTests({ root, dir: 'unit', outdir, grep });
  if (!files.length) return record('unit', 0, 0);
  /** @type {Record<string, number>} */
  const known = existsSync(UNIT_TIMES) ? JSON.parse(await fs.readFile(UNIT_TIMES, 'utf8')) : {};
  const relative = files.map((file) => path.relative(outdir, file));
  const groups = shareByTime(relative, known, Math.min(2, os.availableParallelism()));
  const runs = await Promise.all(
    groups.map(async (group, index) => {
      const times = path.join(cache, `unit-times-${index}.json`);
      await fs.rm(times, { force: true });
      const paths = group.map((file) => path.join(outdir, file));
      // A unit test file takes a second or two: a minute means it hangs (uvu-run.mjs names the test).
      const result = await run(process.execPath, ['--enable-source-maps', 'test/harness/uvu-run.mjs', ...paths], {
        capture: true,
        env: { FORCE_COLOR: '0', TEST_FILE_LIMIT_S: '60', TEST_TIMES: times },
      });
      /** @type {Record<string, number>} */
      const took = existsSync(times) ? JSON.parse(await fs.readFile(times, 'utf8')) : {};
      for (const [file, ms] of Object.entries(took)) known[path.relative(outdir, file)] = ms;
      return result;
    }),
  );
  await fs.writeFile(UNIT_TIMES, JSON.stringify(known, null, 2));
  let passed = 0;
  let failed = 0;
  for (const { code, out } of runs) {
    process.stdout.write(out);
    const counts = uvuCounts(out, code);
    passed += counts.passed;
    failed += counts.failed;
  }
  record('unit', passed, failed);
}

/** The test sites' build, started by the first suite that needs them. @type {Promise<string> | undefined} */
let built;

/**
 * Builds every site the e2e tests run against, once per run (test-sites.mjs); resolves to the
 * JSON file that lists their folders, passed to the tests as TEST_SITES.
 */
function buildSites() {
  built ??= buildTestSites(root, path.join(cache, 'sites'));
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
  const files = await bundleTests({ root, dir: 'e2e', outdir: path.join(cache, 'e2e'), grep });
  if (!files.length) return record('e2e', 0, 0);
  let sites;
  try {
    console.log('building the test sites (React and Preact: v1, v2, kill switch, renamed, under /my-app/)');
    console.log(describeTestScreens(root));
    sites = await buildSites();
  } catch (err) {
    console.log(/** @type {Error} */ (err).message);
    return record('e2e', 0, 1);
  }
  /** @type {Record<string, string>} */
  const env = { FORCE_COLOR: '0', CHROME_PATH: chrome, TEST_SITES: sites };
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
  // The engine runs go first: WebKit's is the longest (its network changes take seconds to reach
  // the page), and the Chromium files fill the other worker meanwhile.
  const jobs = [
    // engines is empty when there is no engine file.
    ...[...engines]
      .reverse()
      // The quick run: the React build (the full run adds Preact, which shares every line of the offline core).
      .flatMap((engine) =>
        engineFiles.map((file) => () => runEngineTest({ engine, file, env, capture: true, build: quick ? 'react' : undefined })),
      ),
    ...chromiumFiles.map(
      (file) => () => run(process.execPath, ['--enable-source-maps', 'test/harness/uvu-run.mjs', file], { capture: true, env }),
    ),
  ];
  // One process per file, two at a time (these machines have 2 cores); output printed per file.
  let passed = 0;
  let failed = 0;
  const workers = Array.from({ length: Math.min(2, os.availableParallelism()) }, async () => {
    for (;;) {
      const job = jobs.shift();
      if (!job) return;
      const { code, out } = await job();
      process.stdout.write(out);
      const counts = uvuCounts(out, code);
      passed += counts.passed;
      failed += counts.failed;
    }
  });
  await Promise.all(workers);
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
// The quick run checks types and builds the test sites beside its other suites, one core each (a
// failed build is reported by e2e).
if (quick && wanted.includes('types')) typesChecked = checkTypes();
if (quick && wanted.includes('e2e')) buildSites().catch(() => {});
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
