// The engines the page and the worker run on, one list for both (docs/offline-layer.md, "Minimum engines"):
// esbuild lowers newer syntax to them, and the build fails when a script it wrote calls an API
// they lack, which esbuild cannot lower. Safari 15.0-15.3 is the oldest: it has service workers
// and module scripts, but not Object.hasOwn, Array.prototype.at, structuredClone or BroadcastChannel
// (the code checks for the last one before using it).
import { readFileSync } from 'node:fs';
import path from 'node:path';
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
 * Where in `sources` (files from `root`, the builder's first) the call is: `file:line:column` of
 * the first line that matches `pattern` and is no comment; undefined when none does (a call
 * written another way than the minified output shows it).
 * @param {string} root
 * @param {readonly string[]} sources
 * @param {RegExp} pattern
 */
export function placeOf(root, sources, pattern) {
  const ordered = [
    ...sources.filter((file) => !file.includes('node_modules/')),
    ...sources.filter((file) => file.includes('node_modules/')),
  ];
  for (const file of ordered) {
    let text;
    try {
      text = readFileSync(path.join(root, file), 'utf8');
    } catch {
      continue;
    }
    const lines = text.split(/\r?\n/);
    for (let index = 0; index < lines.length; index++) {
      const match = pattern.exec(lines[index]);
      if (!match || /^\s*(\/\/|\*|\/\*)/.test(lines[index])) continue;
      // On the name, not the dot before it: where an editor's cursor goes.
      const column = match.index + (match[0].startsWith('.') ? 2 : 1);
      return `${file}:${index + 1}:${column}`;
    }
  }
  return undefined;
}

/**
 * Throws a one-line BuildError naming the first API beyond TARGETS that the script `file` calls,
 * and where: the source file, line and column (`sources`: the files the script was bundled from,
 * from `root`), or the script alone when no source shows the call.
 * @param {string} file
 * @param {Buffer | string} code
 * @param {{ root: string, sources: readonly string[] }} [from]
 */
export function checkTargets(file, code, from) {
  const text = code.toString();
  for (const { api, pattern, since } of BEYOND_TARGETS) {
    if (!pattern.test(text)) continue;
    const place = from && placeOf(from.root, from.sources, pattern);
    const reason = `calls ${api} (${since}), beyond the minimum engines ${TARGETS.join(', ')} (tools/pipeline/targets.mjs)`;
    throw new BuildError(place ? `${place}: ${reason}, in ${file}` : `${file} ${reason}`);
  }
}
