// The bench's command line: how many runs, which parts, which builds.
import { BUILDS } from '../harness/test-sites.mjs';

/** The parts the bench can measure, in the order it measures them. */
export const PARTS = ['build', 'dev', 'load', 'engines', 'reconnect', 'backup', 'lighthouse'];

/**
 * What to measure: runs per part, the parts, the builds.
 * @typedef {{ runs: number, parts: string[], builds: import('../harness/test-sites.mjs').BuildName[], noLighthouse?: boolean, compare?: string, before?: string }} BenchOptions
 */

/**
 * Parses argv strictly: an unknown option is an error, not a silent default.
 * @param {string[]} argv
 * @returns {BenchOptions}
 */
export function parseArgs(argv) {
  /** @type {BenchOptions} */
  const options = { runs: 5, parts: [...PARTS], builds: BUILDS.map((build) => build.name) };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--runs') options.runs = positiveInteger(argv[++i], '--runs');
    else if (arg === '--only') options.parts = partList(argv[++i]);
    else if (arg === '--preact') options.builds = ['preact'];
    else if (arg === '--react') options.builds = ['react'];
    else if (arg === '--no-lighthouse') options.noLighthouse = true;
    else if (arg === '--compare') options.compare = folderArgument(argv[++i]);
    else if (arg === '--before') options.before = refArgument(argv[++i]);
    else
      throw new Error(
        `bench: unknown option ${arg} (expected --runs N, --only ${PARTS.join(',')}, --react, --preact, --no-lighthouse, --compare DIR, --before REF)`,
      );
  }
  if (options.noLighthouse) options.parts = options.parts.filter((part) => part !== 'lighthouse');
  if (options.compare && !options.parts.some((part) => part === 'load' || part === 'engines'))
    throw new Error('bench: --compare compares first visits, the load and engines parts: add one to --only');
  if (options.before && !options.compare)
    throw new Error('bench: --before REF goes with --compare DIR: it adds a column to that comparison');
  if (options.before && !options.parts.includes('load'))
    throw new Error('bench: --before compares first visits, the load part: add it to --only');
  return options;
}

/**
 * The git commit --before names (a branch, tag or hash of this repository), or an error when none is given.
 * @param {string | undefined} text
 */
function refArgument(text) {
  if (!text || text.startsWith('--')) throw new Error('bench: --before needs a git commit of this repository to build, e.g. --before main');
  return text;
}

/**
 * The folder --compare names (a built site), or an error when none is given.
 * @param {string | undefined} text
 */
function folderArgument(text) {
  if (!text || text.startsWith('--'))
    throw new Error('bench: --compare needs the folder of a built site, e.g. --compare ../other-app/dist');
  return text;
}

/**
 * A whole number ≥ 1, or an error naming the option.
 * @param {string | undefined} text
 * @param {string} option
 */
function positiveInteger(text, option) {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`bench: ${option} needs a whole number ≥ 1, got ${text ?? 'nothing'}`);
  return value;
}

/**
 * The comma-separated part names of --only, each checked.
 * @param {string | undefined} text
 */
function partList(text) {
  const parts = String(text ?? '')
    .split(',')
    .filter(Boolean);
  const unknown = parts.filter((part) => !PARTS.includes(part));
  if (!parts.length || unknown.length)
    throw new Error(`bench: --only takes a comma-separated list of ${PARTS.join(', ')}; got ${text ?? 'nothing'}`);
  return parts;
}
