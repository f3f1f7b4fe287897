// What the build tells the worker (tools/pipeline/worker.mjs injects these with esbuild `define`), under
// names that say what they are. Worker-only: the page never imports src/sw/.
import { CACHE_PREFIX } from '../contract/app-name';
import { withBase } from '../contract/base';

declare const __VERSION__: string;
declare const __MANIFEST_INTEGRITY__: string;
declare const __NETWORK_ONLY__: string[];
declare const __CLAIMED_PATHS__: string[];

/** This build's version id: a hash over every file, the manifest and this worker's own code. */
export const VERSION: string = __VERSION__;

/** The one cache of this version; another version's cache is deleted when this one activates. */
export const CACHE_NAME = CACHE_PREFIX + VERSION;

/**
 * The precache manifest (URL path -> SRI hash of every file of the version). It is a file rather
 * than inlined, so sw.js stays small however many files ship; sw.js pins it by its SHA-384, so
 * the chain of integrity runs sw.js -> precache.json -> each file.
 */
export const MANIFEST_URL = withBase('/precache.json');

/** SRI hash of the manifest's bytes. */
export const MANIFEST_INTEGRITY: string = __MANIFEST_INTEGRITY__;

/**
 * URL path prefixes that always go to the network (package.json `networkOnly`: ACME, server
 * pages). package.json writes them relative to the base, as `claimedPaths`; the build puts both
 * under it (`/.well-known/` is /my-app/.well-known/ under --base /my-app/).
 */
export const NETWORK_ONLY: readonly string[] = __NETWORK_ONLY__;

/**
 * URL path prefixes under the base where every navigation is the app's, one this version does not
 * know answered with its not-found page even online (package.json `claimedPaths`; `["/"]`: every
 * path). Elsewhere the worker answers only its version's own routes.
 */
export const CLAIMED_PATHS: readonly string[] = __CLAIMED_PATHS__;
