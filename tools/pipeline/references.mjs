// The files the site's own pages and web app manifest name must be files of the site: a
// `<link rel="icon">` or a manifest icon that points at nothing builds fine, serves a 404 and
// fails the worker's install on no host; the build says so instead, in one line.
import { BuildError } from '../build-error.mjs';

/** `href="…"` and `src="…"` in HTML (the template and the prerendered screens write double quotes). */
const HTML_URL = /\s(?:href|src)="([^"]*)"/g;

/**
 * The path of the site file a URL of the page names, or null for a URL that is no file of ours:
 * another origin, an in-page anchor, a `data:` or `blob:` URL, or a path outside the base.
 * @param {string} url
 * @param {string} base
 */
function sitePathOf(url, base) {
  if (!url.startsWith(base) || url.startsWith('//')) return null;
  const pathOnly = url.slice(base.length).replace(/[?#].*$/, '');
  // A folder URL (`/status/`, the base itself) is its index.html.
  return pathOnly === '' || pathOnly.endsWith('/') ? `${pathOnly}index.html` : pathOnly;
}

/**
 * The URLs a file of the site names: every `href`/`src` of an HTML file, every icon `src` of the
 * web app manifest.
 * @param {string} file
 * @param {Buffer} contents
 * @returns {string[]}
 */
function urlsNamedBy(file, contents) {
  if (file.endsWith('.html')) return [...contents.toString('utf8').matchAll(HTML_URL)].map((match) => match[1]);
  if (file !== 'manifest.webmanifest') return [];
  const manifest = JSON.parse(contents.toString('utf8'));
  if (!Array.isArray(manifest.icons)) return [];
  /** @type {unknown[]} */
  const sources = manifest.icons.map((/** @type {{ src?: unknown }} */ icon) => icon.src);
  return sources.filter((src) => typeof src === 'string');
}

/**
 * The files of the site that the web app manifest names (its icons) and no HTML page does: a
 * browser reads them only to add the app to a home screen.
 * @param {Map<string, Buffer>} files
 * @param {string} base
 * @returns {string[]}
 */
export function filesOnlyTheWebManifestNames(files, base) {
  /** @type {Set<string | null>} */
  const namedByPages = new Set();
  /** @type {Set<string | null>} */
  const namedByWebManifest = new Set();
  for (const [file, contents] of files) {
    const named = file.endsWith('.html') ? namedByPages : namedByWebManifest;
    for (const url of urlsNamedBy(file, contents)) named.add(sitePathOf(url, base));
  }
  return [...files.keys()].filter((file) => namedByWebManifest.has(file) && !namedByPages.has(file));
}

/**
 * Throws a one-line BuildError for the first URL an HTML file or the web app manifest names that
 * no file of the site answers; `files` is every file the build writes (posix paths).
 * @param {Map<string, Buffer>} files
 * @param {string} base
 */
export function checkReferences(files, base) {
  for (const [file, contents] of files) {
    for (const url of urlsNamedBy(file, contents)) {
      const target = sitePathOf(url, base);
      if (target === null || files.has(target)) continue;
      const origin = file.endsWith('.html') ? 'static/index.html (or a screen)' : 'static/manifest.webmanifest';
      throw new BuildError(`${origin} names ${url}, but the build writes no ${target} (add it to static/, or fix the reference)`);
    }
  }
}
