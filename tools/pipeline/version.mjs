// The version id of a build: a hash over every file's hash.
import { createHash } from 'node:crypto';

/**
 * Short content version over all [path, sha384] pairs, stable for the same bytes.
 * @param {{ path: string, sha384: string }[]} entries
 */
export function versionOf(entries) {
  const h = createHash('sha256');
  for (const e of [...entries].sort((a, b) => (a.path < b.path ? -1 : 1))) h.update(`${e.path}\0${e.sha384}\n`);
  return h.digest('hex').slice(0, 12);
}
