// Self-repair. Browsers evict, disks fail: an entry of CacheStorage can disappear behind the
// worker's back, come back unreadable or with other bytes, and the Cache API itself can reject
// (Chromium's "UnknownError: Unexpected internal error" on a damaged profile, quota errors). Every
// read of a precached entry is checked against the manifest's SHA-384; a missing or damaged entry
// is fetched again verified and put back, when a request needs it and in a check of every entry
// after each navigation and each update check of the page (hourly, on reconnect, at start).
// Nothing unverified is ever put or served for a precached URL; when the cache cannot be used,
// the verified download answers the request anyway: an online person is never locked out.
import { REPAIR_CHANNEL } from '../contract/app-name';
import type { RepairReport } from '../contract/repair-report';
import { CACHE_NAME, MANIFEST_INTEGRITY, MANIFEST_URL } from './config';
import { DOWNLOADS_AT_ONCE, eachAtMost, fetchVerified } from './download';
import type { Manifest } from './precache';
import { isThisVersions } from './this-version';

/** Where the cache stands, as the pages are told (src/contract/repair-report.ts). */
const report: RepairReport = { missing: [], damaged: [], repaired: 0, repairing: false, offline: false, storageFailing: false };
/** Damaged entries (deleted, not yet put back verified), by URL. */
const damaged = new Set<string>();
/** Repairs under way by URL: a request and the check asking for the same file share one download. */
const repairs = new Map<string, Promise<Response | undefined>>();
/** Cache API calls that rejected since this worker started: a check or a request compares it before and after. */
export let storageFailures = 0;
let manifest: Manifest | undefined;
let checking: Promise<void> | undefined;
/** Reaches every page of the app, controlled or not (Safari before 15.4 has no BroadcastChannel: no reports there). */
const channel = globalThis.BroadcastChannel ? new BroadcastChannel(REPAIR_CHANNEL) : undefined;

/** Tells every page of the app where the cache stands. */
function broadcast(): void {
  report.damaged = [...damaged];
  channel?.postMessage(report);
}

/** A Cache API call rejected: requests go to the network, and the pages hear it once. */
function storageFailed(): void {
  storageFailures++;
  if (report.storageFailing) return;
  report.storageFailing = true;
  broadcast();
}

/**
 * This version's cached copy of `url` as stored, or undefined when it is not there or the Cache
 * API failed. `match` with cacheName does not create an evicted cache, as open() would.
 */
export async function cached(url: string): Promise<Response | undefined> {
  try {
    return await caches.match(url, { cacheName: CACHE_NAME });
  } catch {
    storageFailed();
    return undefined;
  }
}

/**
 * This version's copy of `url` when it is there and its bytes are this version's (`integrity`,
 * src/sw/this-version.ts); undefined otherwise. A copy that cannot be read or fails its
 * hash is damaged: it is deleted, so the repair that follows puts a verified one in its place.
 */
export async function cachedVerified(url: string, integrity: string): Promise<Response | undefined> {
  const copy = await cached(url);
  if (!copy) return undefined;
  let bytes: ArrayBuffer | undefined;
  try {
    // A clone is read and the stored response itself answers: Chromium keeps the V8 code cache
    // of a script beside its CacheStorage entry and finds it only through that response. The
    // read fails when the entry's body is gone from a damaged profile.
    bytes = await copy.clone().arrayBuffer();
  } catch {}
  if (bytes && (await isThisVersions(bytes, integrity))) return copy;
  await forgetDamaged(url);
  return undefined;
}

/** Deletes a damaged entry and tells the pages; the Cache API failing here is a storage failure. */
async function forgetDamaged(url: string): Promise<void> {
  damaged.add(url);
  broadcast();
  try {
    await (await existingCache())?.delete(url);
  } catch {
    storageFailed();
  }
}

/**
 * This version's cache, or undefined once it is gone. After "Reload to update" the next version's
 * activation deletes it while a repair of this worker may still be downloading: `caches.open`
 * would create it again, empty and orphaned until the update after.
 */
async function existingCache(): Promise<Cache | undefined> {
  if (!(await caches.has(CACHE_NAME))) return undefined;
  return caches.open(CACHE_NAME);
}

/**
 * Fetches `url` verified by `integrity`, puts it in this version's cache and resolves to the
 * verified response; undefined when it cannot be had intact (altered bytes, an error status, a
 * download that keeps stalling, no network). When the cache refuses the put, the verified
 * response still answers: the person gets the file, the cache stays as it is.
 */
export function repair(url: string, integrity: string): Promise<Response | undefined> {
  let repaired = repairs.get(url);
  if (!repaired) {
    repaired = fetchAndPut(url, integrity).finally(() => repairs.delete(url));
    repairs.set(url, repaired);
  }
  // Each caller reads its own copy of the body.
  return repaired.then((response) => response?.clone());
}

/** One verified download and its put, counted in the report. */
async function fetchAndPut(url: string, integrity: string): Promise<Response | undefined> {
  // A check may have seen the entry missing just before a request's repair put it back (the
  // shared promise is gone once that repair settles): no second download, and no second count.
  const alreadyBack = await cachedVerified(url, integrity);
  if (alreadyBack) return alreadyBack;
  let response: Response;
  try {
    response = await fetchVerified(url, integrity);
  } catch {
    return undefined;
  }
  try {
    const cache = await existingCache();
    if (!cache) return response;
    await cache.put(url, response.clone());
    report.repaired++;
    damaged.delete(url);
  } catch {
    storageFailed();
  }
  return response;
}

/** This version's verified copy of `url`: the cached one, or else the one `repair` fetched; undefined when neither. */
export async function cachedOrRepaired(url: string, integrity: string): Promise<Response | undefined> {
  return (await cachedVerified(url, integrity)) ?? repair(url, integrity);
}

/**
 * The precache manifest of this version: held once read (it never changes within a version),
 * read from the cache and checked by the SHA-384 that sw.js pins, or, missing or damaged,
 * fetched again by that hash and put back. Undefined when it cannot be had (lost, and offline).
 */
export async function precacheManifest(): Promise<Manifest | undefined> {
  if (manifest) return manifest;
  const response = await cachedOrRepaired(MANIFEST_URL, MANIFEST_INTEGRITY);
  if (response) manifest = await response.json();
  return manifest;
}

/**
 * Checks every file of the manifest (and the manifest) in the cache against its hash and
 * refetches the missing and damaged ones, verified; one check at a time (a second caller shares
 * the one under way, and hears where it stands). Reports to the pages before and after. Never
 * fetches while offline (the page's check when the network returns runs it again), nor while the
 * Cache API is failing (every put would fail too: the requests are answered from the network).
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

/** One check: which entries are missing or damaged, then (online, storage working) their repair, reported before and after. */
async function checkEveryEntry(): Promise<void> {
  const failuresBefore = storageFailures;
  /** Says what is missing now, and whether storage failed during this check. */
  const reportMissing = (urls: string[], repairing: boolean) => {
    report.storageFailing = storageFailures > failuresBefore;
    report.missing = urls;
    report.repairing = repairing && !report.storageFailing;
    broadcast();
  };
  const missing: [string, string][] = [];
  for (const [url, integrity] of await manifestEntries()) if (!(await cachedVerified(url, integrity))) missing.push([url, integrity]);
  report.offline = !navigator.onLine;
  reportMissing(
    missing.map(([url]) => url),
    missing.length > 0 && !report.offline,
  );
  if (!report.repairing) return;
  await eachAtMost(missing, DOWNLOADS_AT_ONCE, async ([url, integrity]) => {
    await repair(url, integrity);
  });
  // What is in the cache now: a download that failed, or a put the cache refused, left it out.
  const stillMissing: string[] = [];
  for (const [url] of missing) if (!(await cached(url))) stillMissing.push(url);
  reportMissing(stillMissing, false);
}

/** [url, integrity] of the manifest and of every file it lists (only the manifest's own when it cannot be had). */
async function manifestEntries(): Promise<[string, string][]> {
  return [[MANIFEST_URL, MANIFEST_INTEGRITY], ...Object.entries((await precacheManifest()) ?? {})];
}
