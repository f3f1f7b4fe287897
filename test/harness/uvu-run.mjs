// Runs bundled uvu test files in one process, as `uvu` does, so their counts add up in one summary.
// Each file has a time limit (TEST_FILE_LIMIT_S seconds, 600 unless told): past it, the run stops
// with a line naming the file, the suite and the test it was in (uvu-timed.mjs reports them), and
// a summary that counts that test as failed, so a hanging test never hangs `npm test`.
// With TEST_FILE_TIMES=FILE it writes there how long each file's suites took, in ms, for runner.mjs to
// share the unit files out between its processes by time.
// Usage: [TEST_FILE_LIMIT_S=60] [TEST_FILE_TIMES=times.json] node test/harness/uvu-run.mjs file.mjs [...]
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as nodeSetTimeout, clearTimeout as nodeClearTimeout } from 'node:timers';
import { pathToFileURL } from 'node:url';

/** uvu's globals for running several files as one: defer the run, and a queue of suites per file. */
const uvuGlobals =
  /** @type {typeof globalThis & { UVU_DEFER: number, UVU_INDEX: number, UVU_QUEUE: unknown[][], UVU_WHERE?: { suite: string, step: string } }} */ (
    globalThis
  );
uvuGlobals.UVU_DEFER = 1;
const uvu = await import('uvu');

/** How long one file may run, in seconds. */
const limitSeconds = Number(process.env.TEST_FILE_LIMIT_S ?? 600);

/** What the suites that finished counted, for the summary a time limit prints. */
const finished = { total: 0, passed: 0 };

/** The running file's limit (Node's own timer: a test may have faked the global setTimeout). @type {NodeJS.Timeout | undefined} */
let limit;

/**
 * Stops the run: the file ran past its limit. Prints where it was and a uvu summary in which the
 * test under way counts as failed, then exits 1.
 * @param {string} file
 */
function overLimit(file) {
  const where = uvuGlobals.UVU_WHERE;
  const at = where ? `in suite "${where.suite}", ${where.step}` : 'before its first suite started';
  process.stdout.write(`\n\n  ✘ TIME LIMIT ${file} ran past ${limitSeconds} s: stopped ${at}\n`);
  process.stdout.write(`\n  Total:     ${finished.total + 1}\n  Passed:    ${finished.passed}\n`);
  process.exit(1);
}

/** How long each file's suites took, in ms, by the path it was given as. @type {Record<string, number>} */
const took = {};

/**
 * Wraps the suites a file queued: the file's limit starts with its first suite and ends with its last.
 * @param {unknown[]} queued [file name, ...suite runners], as uvu queues them
 * @param {string} given the file's path as given on the command line
 */
function timeFile(queued, given) {
  const file = String(queued[0]);
  const last = queued.length - 1;
  let started = 0;
  for (let index = 1; index <= last; index++) {
    const run = /** @type {() => Promise<[unknown, number, number, number]>} */ (queued[index]);
    queued[index] = async () => {
      if (index === 1) {
        limit = nodeSetTimeout(overLimit, limitSeconds * 1000, file);
        started = performance.now();
      }
      const result = await run();
      finished.passed += result[1];
      finished.total += result[3];
      if (index === last) {
        nodeClearTimeout(limit);
        took[given] = Math.round(performance.now() - started);
      }
      return result;
    };
  }
}

const files = process.argv.slice(2);
for (const [index, file] of files.entries()) {
  uvuGlobals.UVU_INDEX = index;
  uvuGlobals.UVU_QUEUE.push([path.basename(file)]);
  await import(pathToFileURL(path.resolve(file)).href);
}
for (const [index, queued] of uvuGlobals.UVU_QUEUE.entries()) timeFile(queued, files[index]);
await uvu.exec(false);
if (process.env.TEST_FILE_TIMES) writeFileSync(process.env.TEST_FILE_TIMES, JSON.stringify(took));
// A test that failed midway may leave a browser or server open; the results are in, so exit now.
process.exit(process.exitCode ?? 0);
