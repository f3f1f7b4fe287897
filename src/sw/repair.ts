// Self-repair. Browsers evict: under storage pressure an entry of CacheStorage can disappear
// behind the worker's back. A missing precached file is fetched again with the manifest's SHA-384
// and put back, when a request needs it and in a check of every entry after each navigation and
// each update check of the page (hourly, on reconnect, at start). Nothing unverified is ever put.
import { REPAIR_CHANNEL } from '../app-name';
import type { RepairReport } from '../repair-report';
import { CACHE_NAME, MANIFEST_INTEGRITY, MANIFEST_URL } from './config';
import { fetchVerified, type Manifest } from './precache';

const report: RepairReport = { missing: [], repaired: 0, repairing: false, offline: false };
/** Repairs under way by URL: a request and the check asking for the same file share one fetch. */
const repairs = new Map<string, Promise<boolean>>();
let manifest: Manifest | undefined;
let checking: Promise<void> | undefined;
/** Reaches every page of the app, controlled or not (Safari before 15.4 has no BroadcastChannel: no reports there). */
const channel = globalThis.BroadcastChannel ? new BroadcastChannel(REPAIR_CHANNEL) : undefined;

/** Tells every page of the app where the cache stands. */
const broadcast = (): void => channel?.postMessage(report);

/** This version's cached copy of `url`, or undefined. `match` with cacheName does not create an evicted cache, as open() would. */
export const cached = (url: string): Promise<Response | undefined> => caches.match(url, { cacheName: CACHE_NAME });

/**
 * Fetches `url` verified by `integrity` and puts it in this version's cache; resolves to whether
 * it did. Altered bytes, an error status or no network resolve to false, and nothing is put.
 */
export function repair(url: string, integrity: string): Promise<boolean> {
  let repaired = repairs.get(url);
  if (!repaired) {
    repaired = fetchAndPut(url, integrity).finally(() => repairs.delete(url));
    repairs.set(url, repaired);
  }
  return repaired;
}

/** One verified fetch and its put, counted in the report. */
async function fetchAndPut(url: string, integrity: string): Promise<boolean> {
  // A sweep may have seen the entry missing just before a request's repair put it back (the
  // shared promise is gone once that repair settles): no second fetch, and no second count.
  if (await cached(url)) return true;
  try {
    const response = await fetchVerified(url, integrity);
    await (await caches.open(CACHE_NAME)).put(url, response);
    report.repaired++;
    return true;
  } catch {
    return false;
  }
}

/** This version's copy of `url`: the cached one, or, missing, the one `repair` put back; undefined when neither. */
export async function cachedOrRepaired(url: string, integrity: string): Promise<Response | undefined> {
  const copy = await cached(url);
  if (copy) return copy;
  if (!(await repair(url, integrity))) return undefined;
  return cached(url);
}

/**
 * The precache manifest of this version: held once read (it never changes within a version),
 * read from the cache, or, evicted, refetched by the SHA-384 that sw.js pins and put back.
 * Undefined when it cannot be had (evicted, and offline).
 */
export async function precacheManifest(): Promise<Manifest | undefined> {
  if (manifest) return manifest;
  const response = await cachedOrRepaired(MANIFEST_URL, MANIFEST_INTEGRITY);
  if (response) manifest = await response.json();
  return manifest;
}

/**
 * Checks that every file of the manifest (and the manifest) is in the cache and refetches the
 * missing ones, verified; one check at a time (a second caller shares the one under way, and
 * hears where it stands). Reports to the pages before and after. Never fetches while offline:
 * the page's check when the network returns runs it again.
 */
export function checkAndRepair(): Promise<void> {
  if (checking) {
    broadcast();
    return checking;
  }
  checking = checkEveryEntry().finally(() => {
    checking = undefined;
  });
  return checking;
}

/** One check: which entries are missing, then (online) their repair, reported before and after. */
async function checkEveryEntry(): Promise<void> {
  const entries = await manifestEntries();
  const missing: [string, string][] = [];
  for (const entry of entries) if (!(await cached(entry[0]))) missing.push(entry);
  report.missing = missing.map(([url]) => url);
  report.offline = !navigator.onLine;
  report.repairing = missing.length > 0 && !report.offline;
  broadcast();
  if (!report.repairing) return;
  const results = await Promise.all(missing.map(([url, integrity]) => repair(url, integrity)));
  report.missing = report.missing.filter((_, index) => !results[index]);
  report.repairing = false;
  broadcast();
}

/** [url, integrity] of the manifest and of every file it lists (only the manifest's own when it cannot be had). */
async function manifestEntries(): Promise<[string, string][]> {
  return [[MANIFEST_URL, MANIFEST_INTEGRITY], ...Object.entries((await precacheManifest()) ?? {})];
}
