// The install: every file of this version, each verified by its SHA-384, stored all or nothing.
import { PROGRESS_CHANNEL } from '../contract/app-name';
import { isQuotaError, type InstallReport } from '../contract/install-report';
import { CACHE_NAME, MANIFEST_INTEGRITY, MANIFEST_URL } from './config';
import { DOWNLOADS_AT_ONCE, eachAtMost, fetchVerified } from './download';
import { throttledProgress } from './install-progress';

/** The manifest's shape: URL path -> SRI hash ('' for a file that cannot be hash-checked). */
export type Manifest = Record<string, string>;

/**
 * Fetches the manifest and every file it lists, verified, and stores each one in this version's
 * cache as soon as it is verified: no page reads that cache before this worker activates, so a
 * file stored early is as invisible as one not yet fetched. Storing as files arrive overlaps the
 * writes with the downloads. A failed fetch or write fails the install and, once every write has
 * settled, deletes the cache: all or nothing, the old version keeps serving. The pages hear how
 * far it is ("n of m"), and when it failed for lack of room, which they say in words a person can
 * act on (any other failure needs no words of its own).
 */
export async function precacheVerified(): Promise<void> {
  // A first install controls no page yet, and a BroadcastChannel reaches uncontrolled pages of
  // this origin too. (Safari before 15.4 has no BroadcastChannel: it installs without reports.)
  const channel = globalThis.BroadcastChannel ? new BroadcastChannel(PROGRESS_CHANNEL) : undefined;
  // Not awaited here: opening a new cache (5-10 ms in Chromium, measured) runs beside the
  // manifest's download instead of before it. A failure to open fails the first write.
  const opened = caches.open(CACHE_NAME);
  const writes: Promise<void>[] = [];
  const store = (url: string, response: Response) => {
    const written = opened.then((cache) => cache.put(url, response));
    writes.push(written);
    return written;
  };
  try {
    const manifestResponse = await fetchVerified(MANIFEST_URL, MANIFEST_INTEGRITY, { keepalive: true });
    const manifest: Manifest = await manifestResponse.clone().json();
    // Not awaited (the downloads start at once), yet handled: a refused write (a full device) is
    // Promise.all's below, not an unhandled rejection in the worker's console meanwhile.
    store(MANIFEST_URL, manifestResponse).catch(() => {});
    await fetchAndStoreReportingProgress(manifest, store, channel);
    await Promise.all(writes);
  } catch (error) {
    // A write still under way could recreate the cache after the delete: wait for every one first.
    // CACHE_NAME never names the active version's cache: the version id hashes sw.js too, and an
    // identical sw.js is not reinstalled.
    await Promise.allSettled(writes);
    // A failing Cache API may refuse the delete too: the install's own failure is what to report.
    await caches.delete(CACHE_NAME).catch(() => {});
    if (isQuotaError(error)) channel?.postMessage({ failed: 'no-room' } satisfies InstallReport);
    throw error;
  } finally {
    channel?.close();
  }
}

/** Fetches every file of the manifest, verified, stores each with `store`, and posts "n of m" on `channel` as files are stored. */
async function fetchAndStoreReportingProgress(
  manifest: Manifest,
  store: (url: string, response: Response) => Promise<void>,
  channel: BroadcastChannel | undefined,
): Promise<void> {
  const urls = Object.keys(manifest);
  const progress = throttledProgress(urls.length, (done) => channel?.postMessage([done, urls.length]));
  let done = 0;
  try {
    await eachAtMost(urls, DOWNLOADS_AT_ONCE, async (url) => {
      await store(url, await fetchVerified(url, manifest[url], { keepalive: true }));
      done++;
      progress.report(done);
    });
  } finally {
    progress.stop();
  }
}
