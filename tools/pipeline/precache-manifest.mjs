// The precache manifest, /precache.json: every file of the version the worker caches, by URL,
// with its SHA-384.
import { HEADERS_FILE } from '../headers.mjs';
import { filesOnlyTheWebManifestNames } from './references.mjs';

/** The manifest's URL; src/sw/config.ts names the same path MANIFEST_URL. */
export const MANIFEST_FILE = 'precache.json';

/**
 * A file of the site and its SHA-384; `leftToHost`: one the worker does not keep (filesLeftToTheHost).
 * @typedef {{ path: string, sha384: string, leftToHost?: boolean }} FileEntry
 */

/**
 * The files the worker leaves to the host, which no screen reads: robots.txt, for crawlers, and
 * the icons only the web app manifest names, which a browser reads to add the app to a home screen.
 * Every other file is precached: the pages, what they load, and what a screen may fetch. On a slow
 * HTTP/1.1 link, which carries six requests at a time, these three made a first visit's install
 * take a third round of requests.
 * @param {Map<string, Buffer>} files every file of the site so far (posix path -> bytes)
 * @param {string} base
 * @returns {string[]}
 */
export const filesLeftToTheHost = (files, base) =>
  ['robots.txt', ...filesOnlyTheWebManifestNames(files, base)].filter((file) => files.has(file));

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
 * browser fetches the worker itself, and the page's HEAD probe of /sw.js must reach the network)
 * and those left to the host.
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
    if (!NOT_PRECACHED.includes(entry.path) && !entry.leftToHost) manifest[urlOf(entry.path, base)] = entry.sha384;
  }
  manifest[urlOf('audit.json', base)] = '';
  return manifest;
}
