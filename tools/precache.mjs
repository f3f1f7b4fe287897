// The worker's part of the build: the precache manifest /precache.json, and sw.js pinned to it.
import { buildWorker, sri, versionOf } from './site.mjs';

/** The URL path a file is cached and served under: `status/index.html` -> `/status/`, `index.html` -> `/`. */
export const urlOf = (p) => '/' + p.replace(/(^|\/)index\.html$/, '$1');

/**
 * The precache manifest: URL path -> SRI hash for every file of the version but sw.js (the browser
 * fetches the worker itself, and the page's HEAD probe of /sw.js must always reach the network).
 * `/audit.json` is precached so /about works offline, with '' for integrity: it lists the hashes of
 * sw.js and of this manifest, which pin this manifest in turn, so neither can hold the other's
 * hash. It carries no code, and the status page checks files against this manifest, not audit.json.
 */
export function precacheManifest(entries) {
  const manifest = {};
  for (const e of entries) if (!['sw.js', 'audit.json', 'precache.json'].includes(e.path)) manifest[urlOf(e.path)] = e.sha384;
  manifest['/audit.json'] = '';
  return manifest;
}

const PLACEHOLDER = '@@offline-shell-version@@';

/**
 * Writes the manifest as precache.json and bundles sw.ts pinned to it by SHA-384: the manifest is
 * a file rather than inlined, so sw.js stays within its 1,200 B gzip budget whatever the number of
 * files. The version id hashes every file, the manifest AND the worker's own code, so a
 * worker-only change is a new version with a new cache name: a failed install deletes its own
 * cache, and that must never be the cache the active version serves from.
 */
export async function buildServiceWorker({ root, entries, prefix, networkOnly = [], killSwitch = false }) {
  const manifest = Buffer.from(JSON.stringify(precacheManifest(entries), null, 1) + '\n');
  const code = await buildWorker({
    root,
    define: { __VERSION__: PLACEHOLDER, __MANIFEST_SRI__: sri(manifest), __KILL_SWITCH__: killSwitch, __CACHE_PREFIX__: prefix, __NETWORK_ONLY__: networkOnly },
  });
  const version = versionOf([...entries, { path: 'precache.json', sha384: sri(manifest) }, { path: 'sw.js', sha384: sri(code) }]);
  return { worker: Buffer.from(code.toString().replaceAll(PLACEHOLDER, version)), manifest, version };
}
