// The precache check, framework-free: is every file of this build in our caches, byte for byte?
import { CACHE_PREFIX } from '../contract/app-name';
import { withBase } from '../contract/base';
import type { Audit } from '../contract/audit';
import { sri } from '../contract/sri';

/** Result of a precache check: files verified of total, their bytes, and what failed. */
export interface PrecacheVerdict {
  total: number;
  verified: number;
  bytes: number;
  failed: string[];
}

/**
 * The URL a file is cached under: a route's HTML under its directory URL (`status/index.html` ->
 * `/status/`). tools/pipeline/precache-manifest.mjs `urlOf` is the build's side of the same rule (a unit test holds
 * them together).
 */
export const urlOf = (path: string): string => withBase('/' + path.replace(/(^|\/)index\.html$/, '$1'));

/**
 * Files of the audit the worker does not keep with a hash: sw.js (the browser keeps the worker
 * itself), audit.json (it cannot list its own hash) and _headers (the host's configuration,
 * never served by the hosts that read it). tools/pipeline/precache-manifest.mjs NOT_PRECACHED is the build's side.
 */
const NOT_PRECACHED = ['sw.js', 'audit.json', '_headers'];

/** The files the worker precaches with a hash. */
const precachedFiles = (audit: Audit) => audit.files.filter((file) => !NOT_PRECACHED.includes(file.path));

/**
 * Checks each precached file of the audit against our caches (only ours: other apps may share
 * the origin). Resolves to null when nothing is cached yet.
 */
export async function verifyPrecache(audit: Audit): Promise<PrecacheVerdict | null> {
  const cacheNames = await ourCacheNames(audit.version);
  if (cacheNames.length === 0) return null;
  const files = precachedFiles(audit);
  const verdict: PrecacheVerdict = { total: files.length, verified: 0, bytes: 0, failed: [] };
  for (const file of files) {
    const problem = await problemWith(cacheNames, urlOf(file.path), file.sha384);
    if (problem) {
      verdict.failed.push(`${file.path}: ${problem}`);
      continue;
    }
    verdict.verified++;
    verdict.bytes += file.bytes;
  }
  return verdict;
}

/** The names of our caches, this version's alone when it exists (while an update waits, the old one is still there). */
async function ourCacheNames(version: string): Promise<string[]> {
  if (!self.caches) return [];
  const names = (await self.caches.keys()).filter((name) => name.startsWith(CACHE_PREFIX));
  const thisVersion = names.filter((name) => name === CACHE_PREFIX + version);
  return thisVersion.length ? thisVersion : names;
}

/**
 * Why the cached copy of `url` is not the file with hash `sha384`, or undefined when it is. Read by
 * name with caches.match(): caches.open() creates a cache that the next version's activation has
 * just deleted, and an empty old cache would stay behind until the next update (seen in WebKit).
 */
async function problemWith(cacheNames: string[], url: string, sha384: string): Promise<string | undefined> {
  for (const cacheName of cacheNames) {
    const response = await self.caches.match(url, { cacheName });
    if (!response) continue;
    return (await sri(await response.arrayBuffer())) === sha384 ? undefined : 'hash mismatch';
  }
  return 'not cached';
}
