// The precache manifest, /precache.json: every file of the version the worker caches, by URL,
// with its SHA-384.
import { HEADERS_FILE } from '../headers.mjs';

/** The manifest's URL; src/sw/config.ts names the same path MANIFEST_URL. */
export const MANIFEST_FILE = 'precache.json';

/** @typedef {{ path: string, sha384: string }} FileEntry */

/**
 * Files that are not precached, or not with a hash (see precacheManifest). `_headers` is the
 * host's configuration: Netlify and Cloudflare Pages read it and never serve it.
 */
const NOT_PRECACHED = ['sw.js', 'audit.json', MANIFEST_FILE, HEADERS_FILE];

/**
 * The URL path a file is cached and served under: `status/index.html` -> `/status/`, `index.html` -> `/`.
 * @param {string} filePath
 * @param {string} [base]
 */
export const urlOf = (filePath, base = '/') => base + filePath.replace(/(^|\/)index\.html$/, '$1');

/**
 * What the first screens need: the pages and the assets/ they load (scripts, styles, chunks).
 * @param {FileEntry} entry
 */
const firstScreensNeed = (entry) => entry.path.endsWith('.html') || entry.path.startsWith('assets/');

/**
 * The precache manifest: URL path -> SRI hash of every file of the version except sw.js (the
 * browser fetches the worker itself, and the page's HEAD probe of /sw.js must reach the network).
 * `/audit.json` is precached so /about works offline, with '' for integrity: it lists the hashes
 * of sw.js and of this manifest, which pin this manifest in turn, so neither can hold the other's
 * hash. It carries no code, and the status page checks files against the build's list, not it.
 * The worker asks for the files in the manifest's order, all at once: what the first screens need
 * comes first, so on a link that queues requests those are stored first.
 * @param {FileEntry[]} entries
 * @param {string} [base]
 * @returns {Record<string, string>}
 */
export function precacheManifest(entries, base = '/') {
  /** @type {Record<string, string>} */
  const manifest = {};
  const ordered = [...entries.filter(firstScreensNeed), ...entries.filter((entry) => !firstScreensNeed(entry))];
  for (const entry of ordered) {
    if (!NOT_PRECACHED.includes(entry.path)) manifest[urlOf(entry.path, base)] = entry.sha384;
  }
  manifest[urlOf('audit.json', base)] = '';
  return manifest;
}
