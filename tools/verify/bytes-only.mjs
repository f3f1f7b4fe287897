// What `npm run verify -- URL --bytes-only` adds to the checks of tools/verify.mjs, and the check
// of the worker's scope both modes make: for hosts that send no headers (python's http.server, S3
// without metadata, GitHub Pages), the bytes decide, and the headers a host does not send as
// promised are warnings, one line per header.
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** @typedef {import('./browser-checks.mjs').Problem} Problem */

/**
 * A SCOPE problem when the build was made for another base than the URL's path: its worker, served
 * at the URL's path, would control that path while its precache and every link name the build's
 * base. The build's base is where its precache manifest puts audit.json (tools/pipeline/precache-manifest.mjs).
 * @param {URL} base
 * @param {string} dist
 * @returns {Promise<Problem[]>}
 */
export async function scopeProblem(base, dist) {
  let manifest;
  try {
    manifest = JSON.parse(await fs.readFile(path.join(dist, 'precache.json'), 'utf8'));
  } catch {
    return [];
  }
  const built = Object.keys(manifest)
    .find((urlPath) => urlPath.endsWith('/audit.json'))
    ?.slice(0, -'audit.json'.length);
  if (built === undefined || built === base.pathname) return [];
  return [
    {
      kind: 'scope',
      line: `SCOPE sw.js: dist/ is built for --base ${built}, served at ${base.pathname}: its worker would control ${base.pathname} and precache ${built}; build with --base ${base.pathname}`,
    },
  ];
}

/** The kinds of problem `--bytes-only` reports as warnings: what the host sends beside the bytes. */
export const HEADER_KINDS = ['header', 'type'];

/**
 * The warnings of `--bytes-only`: one line per header (or type) and what is wrong with it, with
 * how many files and the first of them, instead of one line per file.
 * @param {Problem[]} problems header and type problems, `KIND file: what`
 * @returns {string[]}
 */
export function warningLines(problems) {
  /** @type {Map<string, string[]>} */
  const byWhat = new Map();
  for (const { line } of problems) {
    const match = /^(\w+) (\S+?)(?: \([^)]*\))?: (.*)$/.exec(line);
    const [what, file] = match ? [`${match[1]} ${match[3]}`, match[2]] : [line, ''];
    byWhat.set(what, [...(byWhat.get(what) ?? []), file]);
  }
  return [...byWhat].map(([what, files]) => {
    const [kind, ...rest] = what.split(' ');
    const where = files.length === 1 ? files[0] : `${files.length} files, ${files[0]} first`;
    return `WARNING ${kind} (${where}): ${rest.join(' ')}`;
  });
}
