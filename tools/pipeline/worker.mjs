// sw.js: sw.ts (or the kill switch) bundled with the build's constants injected, pinned to the
// precache manifest by its SHA-384.
import { workerDefines } from '../defines.mjs';
import { sri } from '../sri.mjs';
import { bundle } from './bundle.mjs';
import { MANIFEST_FILE, precacheManifest } from './precache-manifest.mjs';
import { versionOf } from './version.mjs';
import { TARGETS } from './targets.mjs';

/** Stands in for the version in the bundled worker until the worker's own hash is known. */
const VERSION_PLACEHOLDER = '@@version@@';

/**
 * Writes the manifest and bundles sw.ts pinned to it by SHA-384. The version id hashes every
 * file, the manifest AND the worker's own code, so a worker-only change is a new version with a
 * new cache name: a failed install deletes its own cache, and that must never be the cache the
 * active version serves from. Returns { worker, manifest, version } (Buffers and a string).
 * `appDefines` without `__BASE__` builds for the root path.
 * @param {{ root: string, entries: import('./precache-manifest.mjs').FileEntry[], appDefines: Partial<import('../config.mjs').Identity>, networkOnly?: string[], claimedPaths?: string[], stallSeconds?: number, killSwitch?: boolean }} options
 * @returns {Promise<{ worker: Buffer, manifest: Buffer, version: string }>}
 */
export async function buildServiceWorker({
  root,
  entries,
  appDefines,
  networkOnly = [],
  claimedPaths = [],
  stallSeconds = 10,
  killSwitch = false,
}) {
  // package.json's prefixes are relative to the base (tools/config.mjs); the worker compares URL paths.
  const base = appDefines.__BASE__ ?? '/';
  /** @param {string[]} prefixes */
  const underBase = (prefixes) => prefixes.map((prefix) => base + prefix.slice(1));
  const manifest = Buffer.from(JSON.stringify(precacheManifest(entries, appDefines.__BASE__), null, 1) + '\n');
  const result = await bundle({
    absWorkingDir: root,
    // The kill switch is a worker of its own that withdraws the app (src/sw/kill-switch.ts).
    entryPoints: [killSwitch ? 'src/sw/kill-switch.ts' : 'sw.ts'],
    bundle: true,
    // A classic script: module workers are not in Firefox before 114 nor in older Safari.
    format: 'iife',
    target: TARGETS,
    minify: true,
    define: workerDefines({
      identity: appDefines,
      version: VERSION_PLACEHOLDER,
      manifestIntegrity: sri(manifest),
      networkOnly: underBase(networkOnly),
      claimedPaths: underBase(claimedPaths),
      stallSeconds,
    }),
    outfile: 'sw.js',
  });
  const code = Buffer.from(result.outputFiles[0].contents);
  const version = versionOf([...entries, { path: MANIFEST_FILE, sha384: sri(manifest) }, { path: 'sw.js', sha384: sri(code) }]);
  return { worker: Buffer.from(code.toString().replaceAll(VERSION_PLACEHOLDER, version)), manifest, version };
}
