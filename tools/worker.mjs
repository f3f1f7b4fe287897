// The node side of the service worker, in one place: its configuration checks, the precache
// manifest /precache.json, and sw.js bundled from sw.ts with the build's constants injected.
import { HEADERS_FILE } from './headers.mjs';
import { BuildError, bundle, sri, versionOf } from './site.mjs';

/** The manifest's URL; src/sw/config.ts names the same path MANIFEST_URL. */
const MANIFEST_FILE = 'precache.json';

/**
 * Files that are not precached, or not with a hash (see precacheManifest). `_headers` is the
 * host's configuration: Netlify and Cloudflare Pages read it and never serve it.
 */
const NOT_PRECACHED = ['sw.js', 'audit.json', MANIFEST_FILE, HEADERS_FILE];

/** The URL path a file is cached and served under: `status/index.html` -> `/status/`, `index.html` -> `/`. */
export const urlOf = (filePath, base = '/') => base + filePath.replace(/(^|\/)index\.html$/, '$1');

/**
 * Checks package.json `networkOnly` (path prefixes the worker never answers for: ACME,
 * server-side pages); returns the list, [] when absent.
 */
export function networkOnlyOf(pkg) {
  const prefixes = pkg.networkOnly ?? [];
  const valid = Array.isArray(prefixes) && prefixes.every((prefix) => typeof prefix === 'string' && prefix.startsWith('/'));
  if (!valid) throw new BuildError('package.json "networkOnly" must be a list of path prefixes starting with "/"');
  return prefixes;
}

/**
 * The precache manifest: URL path -> SRI hash of every file of the version except sw.js (the
 * browser fetches the worker itself, and the page's HEAD probe of /sw.js must reach the network).
 * `/audit.json` is precached so /about works offline, with '' for integrity: it lists the hashes
 * of sw.js and of this manifest, which pin this manifest in turn, so neither can hold the other's
 * hash. It carries no code, and the status page checks files against the build's list, not it.
 */
export function precacheManifest(entries, base = '/') {
  const manifest = {};
  for (const entry of entries) {
    if (!NOT_PRECACHED.includes(entry.path)) manifest[urlOf(entry.path, base)] = entry.sha384;
  }
  manifest[urlOf('audit.json', base)] = '';
  return manifest;
}

/** Stands in for the version in the bundled worker until the worker's own hash is known. */
const VERSION_PLACEHOLDER = '@@version@@';

/**
 * Writes the manifest and bundles sw.ts pinned to it by SHA-384. The version id hashes every
 * file, the manifest AND the worker's own code, so a worker-only change is a new version with a
 * new cache name: a failed install deletes its own cache, and that must never be the cache the
 * active version serves from. Returns { worker, manifest, version } (Buffers and a string).
 */
export async function buildServiceWorker({ root, entries, appDefines, networkOnly = [], killSwitch = false }) {
  const manifest = Buffer.from(JSON.stringify(precacheManifest(entries, appDefines.__BASE__), null, 1) + '\n');
  const constants = {
    ...appDefines,
    __VERSION__: VERSION_PLACEHOLDER,
    __MANIFEST_INTEGRITY__: sri(manifest),
    __NETWORK_ONLY__: networkOnly,
  };
  const result = await bundle({
    absWorkingDir: root,
    // The kill switch is a worker of its own that withdraws the app (src/sw/kill-switch.ts).
    entryPoints: [killSwitch ? 'src/sw/kill-switch.ts' : 'sw.ts'],
    bundle: true,
    // A classic script: module workers are not in Firefox before 114 nor in older Safari.
    format: 'iife',
    target: 'es2020',
    minify: true,
    define: jsonDefines(constants),
    outfile: 'sw.js',
  });
  const code = Buffer.from(result.outputFiles[0].contents);
  const version = versionOf([...entries, { path: MANIFEST_FILE, sha384: sri(manifest) }, { path: 'sw.js', sha384: sri(code) }]);
  return { worker: Buffer.from(code.toString().replaceAll(VERSION_PLACEHOLDER, version)), manifest, version };
}

/** esbuild `define` values are code: each constant becomes its JSON. */
const jsonDefines = (constants) => Object.fromEntries(Object.entries(constants).map(([name, value]) => [name, JSON.stringify(value)]));
