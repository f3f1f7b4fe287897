// How long each test file took in the last run, kept in the test cache (and shipped, for a fresh
// clone: test/harness/e2e-times.json) so the next run can start the longest first: a long file
// started last keeps the run going after the other lanes are done.
// Times only order the files; a lost or unreadable record costs balance, never a result.
import { promises as fs } from 'node:fs';

/**
 * The times (ms by file) in a JSON file an earlier run wrote; none when it is missing or unreadable.
 * @param {string} file
 * @returns {Promise<Record<string, number>>}
 */
export async function readTimes(file) {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * The times to order a run by: this machine's last whole run (`recorded`, in the test cache), and
 * for a file it has no time for, the times shipped with the project (`shipped`: a whole run on a
 * 2-core machine), so a fresh clone, CI's every run, starts the longest files first too.
 * @param {string} recorded
 * @param {string} shipped
 * @returns {Promise<Record<string, number>>}
 */
export async function timesToOrderBy(recorded, shipped) {
  return { ...(await readTimes(shipped)), ...(await readTimes(recorded)) };
}

/**
 * `items` with the ones `known` has no time for first, in their own order (a new file may be
 * long, and a first run keeps the order it was given), then the timed ones, the longest first.
 * @template T
 * @param {T[]} items
 * @param {(item: T) => string} keyOf
 * @param {Record<string, number>} known
 * @returns {T[]}
 */
export function longestFirst(items, keyOf, known) {
  const untimed = items.filter((item) => known[keyOf(item)] === undefined);
  const timed = items.filter((item) => known[keyOf(item)] !== undefined);
  return [...untimed, ...timed.sort((a, b) => known[keyOf(b)] - known[keyOf(a)])];
}
