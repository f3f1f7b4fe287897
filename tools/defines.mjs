// The build-time constants, the one set: what esbuild `define`s in the page, its prerendering,
// the worker and the bundled tests, all derived from the configuration (tools/config.mjs).

/** @typedef {import('./config.mjs').Identity} Identity */

/**
 * esbuild `define` values are code: each constant becomes its JSON.
 * @param {Record<string, unknown>} constants
 * @returns {Record<string, string>}
 */
export const jsonDefines = (constants) =>
  Object.fromEntries(Object.entries(constants).map(([name, value]) => [name, JSON.stringify(value)]));

/**
 * The constants esbuild replaces in the page's code (and in its prerendering at build time, and
 * in the tests, which run it as production code).
 * @param {{ dev: boolean, identity: Identity }} options
 * @returns {Record<string, string>}
 */
export const pageDefines = ({ dev, identity }) => ({
  'process.env.NODE_ENV': JSON.stringify(dev ? 'development' : 'production'),
  __DEV__: String(!!dev),
  __APP_NAME__: JSON.stringify(identity.__APP_NAME__),
  __APP_TITLE__: JSON.stringify(identity.__APP_TITLE__),
  __BASE__: JSON.stringify(identity.__BASE__),
});

/**
 * The constants esbuild replaces in the worker: the app's names, its version (a placeholder
 * until the worker's own hash is known), the manifest's SRI hash, the network-only and claimed
 * prefixes, and the stall limit.
 * @param {{ identity: Partial<Identity>, version: string, manifestIntegrity: string, networkOnly: string[], claimedPaths?: string[], stallSeconds?: number }} options
 * @returns {Record<string, string>}
 */
export const workerDefines = ({ identity, version, manifestIntegrity, networkOnly, claimedPaths = [], stallSeconds = 10 }) =>
  jsonDefines({
    ...identity,
    __VERSION__: version,
    __MANIFEST_INTEGRITY__: manifestIntegrity,
    __NETWORK_ONLY__: networkOnly,
    __CLAIMED_PATHS__: claimedPaths,
    __STALL_MS__: stallSeconds * 1000,
  });
