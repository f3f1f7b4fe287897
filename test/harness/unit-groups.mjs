// The unit files, run in two processes at once (these machines have 2 cores, and the slow files
// spend most of their time waiting on the builds they spawn), shared out by the last run's times:
// uvu-run.mjs writes each file's time (TEST_FILE_TIMES), kept in <cache>/unit-times.json for the next run.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runInGroup } from './process-group.mjs';
import { readTimes } from './run-times.mjs';

/**
 * Shares `files` out into `count` groups of about equal time (the longest first, each to the group
 * with the least so far), by the times `known` (ms; a file not timed yet counts a second); each
 * group in name order.
 * @param {string[]} files
 * @param {Record<string, number>} known
 * @param {number} count
 */
export function shareByTime(files, known, count) {
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
 * Runs the bundled unit `files` (under `outdir`) through uvu-run.mjs in up to two processes at
 * once; resolves to each process's { code, out }, its output captured whole.
 * @param {{ root: string, cache: string, outdir: string, files: string[] }} options
 * @returns {Promise<{ code: number, out: string }[]>}
 */
export async function runUnitGroups({ root, cache, outdir, files }) {
  const timesFile = path.join(cache, 'unit-times.json');
  const known = await readTimes(timesFile);
  const groups = shareByTime(
    files.map((file) => path.relative(outdir, file)),
    known,
    Math.min(2, os.availableParallelism()),
  );
  const runs = await Promise.all(
    groups.map(async (group, index) => {
      const times = path.join(cache, `unit-times-${index}.json`);
      await fs.rm(times, { force: true });
      const paths = group.map((file) => path.join(outdir, file));
      // A unit test file takes a second or two: a minute means it hangs (uvu-run.mjs names the test).
      const result = await runInGroup(process.execPath, ['--enable-source-maps', 'test/harness/uvu-run.mjs', ...paths], {
        cwd: root,
        capture: true,
        env: { FORCE_COLOR: '0', TEST_FILE_LIMIT_S: '60', TEST_FILE_TIMES: times },
      });
      const took = await readTimes(times);
      for (const [file, ms] of Object.entries(took)) known[path.relative(outdir, file)] = ms;
      return result;
    }),
  );
  await fs.writeFile(timesFile, JSON.stringify(known, null, 2));
  return runs;
}
