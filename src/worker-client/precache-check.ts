// The precache check, framework-free: is every file of this build in our caches, byte for byte?
import { CACHE_PREFIX } from '../contract/app-name';
import { withBase } from '../contract/base';
import type { Audit, AuditFile } from '../contract/audit';
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

/** The worker's precache manifest, a file of the audit like the others. */
const MANIFEST_PATH = 'precache.json';

/**
 * The files the worker precaches with a hash: those its manifest lists (robots.txt and the icons only
 * the web app manifest names are left to the host: tools/pipeline/precache-manifest.mjs), and the
 * manifest itself. Read from our cache, where it is checked by the audit's hash; without an intact
 * copy there, every file the worker could keep, so that the check names whatever is missing.
 */
async function precachedFiles(audit: Audit, cacheNames: string[]): Promise<AuditFile[]> {
  const candidates = audit.files.filter((file) => !NOT_PRECACHED.includes(file.path));
  const manifestFile = candidates.find((file) => file.path === MANIFEST_PATH);
  const manifest = manifestFile && (await intactCopy(cacheNames, urlOf(MANIFEST_PATH), manifestFile.sha384));
  if (!manifest) return candidates;
  const listed: Record<string, string> = JSON.parse(new TextDecoder().decode(manifest));
  return candidates.filter((file) => file === manifestFile || listed[urlOf(file.path)] !== undefined);
}

/**
 * Checks each precached file of the audit against our caches (only ours: other apps may share
 * the origin). Resolves to null when nothing is cached yet.
 */
export async function verifyPrecache(audit: Audit): Promise<PrecacheVerdict | null> {
  const cacheNames = await ourCacheNames(audit.version);
  if (cacheNames.length === 0) return null;
  const files = await precachedFiles(audit, cacheNames);
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
 * Why the cached copy of `url` is not the file with hash `sha384`, or undefined when it is.
 */
async function problemWith(cacheNames: string[], url: string, sha384: string): Promise<string | undefined> {
  const bytes = await cachedBytes(cacheNames, url);
  if (!bytes) return 'not cached';
  return (await sri(bytes)) === sha384 ? undefined : 'hash mismatch';
}

/** The bytes of the cached copy of `url` when they are the file with hash `sha384`, else undefined. */
async function intactCopy(cacheNames: string[], url: string, sha384: string): Promise<ArrayBuffer | undefined> {
  const bytes = await cachedBytes(cacheNames, url);
  return bytes && (await sri(bytes)) === sha384 ? bytes : undefined;
}

/**
 * The bytes of the first cached copy of `url` in `cacheNames`, or undefined. Read by name with
 * caches.match(): caches.open() creates a cache that the next version's activation has just
 * deleted, and an empty old cache would stay behind until the next update (seen in WebKit).
 */
async function cachedBytes(cacheNames: string[], url: string): Promise<ArrayBuffer | undefined> {
  for (const cacheName of cacheNames) {
    const response = await self.caches.match(url, { cacheName });
    if (response) return response.arrayBuffer();
  }
  return undefined;
}
