// Part 1, build: the wall time of `node build.mjs --out <tmp>`.
import { startInGroup } from '../harness/process-group.mjs';
import { median } from './median.mjs';
import { ROOT } from './root.mjs';

const BUILD_LIMIT_MS = 60_000;

/**
 * Runs `node build.mjs --out <out>` in `cwd` and resolves to its wall time in ms; rejects with its output on failure.
 * @param {string} cwd
 * @param {string} out
 * @param {boolean} preact
 * @returns {Promise<number>}
 */
export async function timedBuild(cwd, out, preact) {
  const started = performance.now();
  const build = startInGroup(process.execPath, ['build.mjs', '--out', out, ...(preact ? ['--preact'] : [])], { cwd });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    build.killGroup();
  }, BUILD_LIMIT_MS);
  // The wall time ends when the process exits; its output may finish arriving a little later.
  const [{ exitedAt }, { code, signal }] = await Promise.all([build.exited, build.closed]);
  clearTimeout(timer);
  if (timedOut) throw new Error(`bench: node build.mjs took longer than ${BUILD_LIMIT_MS} ms in ${cwd}`);
  if (code !== 0)
    throw new Error(
      `bench: node build.mjs --out ${out}${preact ? ' --preact' : ''} failed (${signal ?? `exit ${code}`}):\n${build.output.text.trim()}`,
    );
  return exitedAt - started;
}
/**
 * Part 1: `runs` production builds into `out`; resolves to every run's wall time. The last build stays in `out`.
 * @param {boolean} preact
 * @param {string} out
 * @param {number} runs
 */
export async function measureBuild(preact, out, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await timedBuild(ROOT, out, preact));
  return { runsMs: times, medianMs: median(times) };
}
