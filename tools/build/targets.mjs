// The engines the page and the worker run on, one list for both (README "Minimum engines"):
// esbuild lowers newer syntax to them, and the build fails when a script it wrote calls an API
// they lack, which esbuild cannot lower. Safari 15.0-15.3 is the oldest: it has service workers
// and module scripts, but not Object.hasOwn, Array.prototype.at, structuredClone or BroadcastChannel
// (the code checks for the last one before using it).
import { BuildError } from '../build-error.mjs';

/** esbuild's `target` for the page and the worker. */
export const TARGETS = ['chrome92', 'edge92', 'firefox90', 'safari15'];

/**
 * APIs beyond TARGETS, as they appear in minified output (property names survive minifying),
 * with the first versions that have them. A name that only looks like one (a method of the app's
 * own called `at`) fails too: rename it.
 * @type {readonly { api: string, pattern: RegExp, since: string }[]}
 */
export const BEYOND_TARGETS = [
  { api: 'Object.hasOwn', pattern: /\bObject\.hasOwn\b/, since: 'Chrome 93, Firefox 92, Safari 15.4' },
  { api: 'Array.prototype.at / String.prototype.at', pattern: /\.at\(/, since: 'Chrome 92, Firefox 90, Safari 15.4' },
  { api: 'structuredClone', pattern: /\bstructuredClone\b/, since: 'Chrome 98, Firefox 94, Safari 15.4' },
  { api: 'crypto.randomUUID', pattern: /\.randomUUID\(/, since: 'Chrome 92, Firefox 95, Safari 15.4' },
  { api: 'Array.prototype.findLast', pattern: /\.findLast(Index)?\(/, since: 'Chrome 97, Firefox 104, Safari 15.4' },
  {
    api: 'Array.prototype.toSorted and the other copying methods',
    pattern: /\.(toSorted|toReversed|toSpliced)\(/,
    since: 'Chrome 110, Firefox 115, Safari 16',
  },
  { api: 'Object.groupBy / Map.groupBy', pattern: /\b(Object|Map)\.groupBy\b/, since: 'Chrome 117, Firefox 119, Safari 17.4' },
  { api: 'Promise.withResolvers', pattern: /\bPromise\.withResolvers\b/, since: 'Chrome 119, Firefox 121, Safari 17.4' },
  { api: 'AbortSignal.timeout / AbortSignal.any', pattern: /\bAbortSignal\.(timeout|any)\b/, since: 'Chrome 103, Firefox 100, Safari 16' },
  { api: 'Array.fromAsync', pattern: /\bArray\.fromAsync\b/, since: 'Chrome 121, Firefox 115, Safari 16.4' },
];

/**
 * Throws a one-line BuildError naming the first API beyond TARGETS that the script `file` calls.
 * @param {string} file
 * @param {Buffer | string} code
 */
export function checkTargets(file, code) {
  const text = code.toString();
  for (const { api, pattern, since } of BEYOND_TARGETS) {
    if (!pattern.test(text)) continue;
    throw new BuildError(`${file} calls ${api} (${since}), beyond the minimum engines ${TARGETS.join(', ')} (tools/build/targets.mjs)`);
  }
}
