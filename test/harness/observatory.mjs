#!/usr/bin/env node
// Scores a host's headers the way the MDN HTTP Observatory does, on any port (its own CLI scans
// only ports 80 and 443): its scanner's retrieve() and tests (npm @mdn/mdn-http-observatory),
// graded as its scan() grades them. Usage:
//   node test/harness/observatory.mjs HOST --http-port N [--https-port M] [--path /] [--json]
// Over HTTPS the scanner checks the certificate (a failure there fails redirection and HSTS): for
// a self-signed one, start Node with NODE_EXTRA_CA_CERTS=cert.pem. The scanner is no dependency of
// the project: OBSERVATORY_PATH names its package folder (`npm test` sets it), else it is installed
// into the test cache on first use (setup.mjs ensureObservatory()).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureObservatory, testCache } from './setup.mjs';

/**
 * One of the scanner's tests, as graded.
 * @typedef {{ name: string, result: string, pass: boolean, scoreModifier: number }} ObservatoryTest
 */
/**
 * Where to scan: the host's ports and the path.
 * @typedef {{ httpPort?: number, httpsPort?: number, path?: string }} ScanTarget
 */

const USAGE = 'usage: node test/harness/observatory.mjs HOST --http-port N [--https-port M] [--path /] [--json]';

/**
 * The scanner's package folder: OBSERVATORY_PATH, or the one installed in the test cache (the
 * install's line goes to stderr: stdout is the scan's).
 */
const scannerPackage = () =>
  ensureObservatory(testCache(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')), console.error);

/**
 * Retrieves `hostname` on the given ports and grades it; resolves to the score, the grade and every test's outcome.
 * @param {string} hostname
 * @param {ScanTarget} [target]
 * @param {string} [packageDir] the scanner's package folder
 * @returns {Promise<{ score: number, grade: string, tests: ObservatoryTest[] }>}
 */
export async function observatoryScore(hostname, { httpPort, httpsPort, path: urlPath = '/' } = {}, packageDir = scannerPackage()) {
  const load = (/** @type {string} */ file) => import(pathToFileURL(path.join(packageDir, file)).href);
  const { retrieve } = await load('src/retriever/retriever.js');
  const { ALL_TESTS } = await load('src/constants.js');
  const { getGradeForScore, getScoreModifier } = await load('src/grader/grader.js');
  const { MINIMUM_SCORE_FOR_EXTRA_CREDIT } = await load('src/grader/charts.js');
  const requests = await retrieve(hostname, { httpPort, httpsPort, path: urlPath });
  if (!requests.responses.auto) throw new Error(`no answer from ${hostname} (http port ${httpPort ?? 80}, https port ${httpsPort ?? 443})`);
  /** @type {ObservatoryTest[]} */
  const tests = ALL_TESTS.map(
    (/** @type {(requests: unknown) => { constructor: { name: string }, result: string, pass: boolean }} */ test) => {
      const output = test(requests);
      return { name: output.constructor.name, result: output.result, pass: output.pass, scoreModifier: getScoreModifier(output.result) };
    },
  );
  // As the scanner's scan() grades: bonuses count only when the penalties alone leave an A.
  const withBonuses = 100 + tests.reduce((sum, test) => sum + test.scoreModifier, 0);
  const penaltiesOnly = 100 + tests.reduce((sum, test) => sum + Math.min(test.scoreModifier, 0), 0);
  const { score, grade } = getGradeForScore(penaltiesOnly >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withBonuses : penaltiesOnly);
  return { score, grade, tests };
}

/**
 * Parses argv: a host name, the ports, the path and --json; null when it does not fit USAGE.
 * @param {string[]} argv
 */
function parseArgs(argv) {
  /** @type {ScanTarget & { json: boolean }} */
  const options = { json: false };
  /** @type {string | undefined} */
  let hostname;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') options.json = true;
    else if (arg === '--http-port') options.httpPort = Number(argv[++i]);
    else if (arg === '--https-port') options.httpsPort = Number(argv[++i]);
    else if (arg === '--path') options.path = argv[++i];
    else if (!hostname && !arg.startsWith('--')) hostname = arg;
    else return null;
  }
  return hostname ? { hostname, options } : null;
}

/**
 * The report a person reads: the score and grade, then one line per test.
 * @param {{ score: number, grade: string, tests: ObservatoryTest[] }} result
 */
function report({ score, grade, tests }) {
  const lines = tests.map(
    (test) => `${test.pass ? 'pass' : 'FAIL'} ${String(test.scoreModifier).padStart(4)}  ${test.name}: ${test.result}`,
  );
  return [`observatory: ${score} (${grade})`, ...lines].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = parseArgs(process.argv.slice(2));
  if (!args) {
    console.error(USAGE);
    process.exit(2);
  }
  try {
    const result = await observatoryScore(args.hostname, args.options);
    console.log(args.options.json ? JSON.stringify(result) : report(result));
  } catch (error) {
    console.error(`observatory: ${/** @type {Error} */ (error).message}`);
    process.exit(1);
  }
}
