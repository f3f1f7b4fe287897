// The install: every file of this version, each verified by its SHA-384, stored all or nothing.
import { PROGRESS_CHANNEL } from '../app-name';
import { CACHE_NAME, MANIFEST_INTEGRITY, MANIFEST_URL } from './config';
import { throttledProgress } from './install-progress';

/** The manifest's shape: URL path -> SRI hash ('' for a file that cannot be hash-checked). */
export type Manifest = Record<string, string>;

/**
 * How a fetch goes out. `keepalive` is for the install only: Chromium 156 lets an installing
 * worker's ordinary fetches out a few at a time (measured: three in flight on the bench's slow
 * link; on loopback each file, even one from the HTTP cache, waiting for the one before), while
 * keepalive fetches start at once. A keepalive GET is otherwise the same fetch (its limits are on
 * request bodies, and a worker stopped mid-install fails the install anyway), but Chromium allows
 * 256 of them in flight per renderer (measured: the 257th fails), so the install keeps
 * INSTALL_FETCHES_AT_ONCE in flight. A worker that is installed is not held back: repairs fetch plainly.
 */
export type FetchMode = { keepalive: boolean };

/** At most this many install downloads at once: well under Chromium's 256 keepalive fetches, and more than HTTP/1.1's six connections. */
const INSTALL_FETCHES_AT_ONCE = 16;

/**
 * Fetches a file of this version, verified by its SHA-384 (`integrity`: the promise settles only
 * after the whole body is checked). The first try may be answered by the HTTP cache, without
 * revalidation: the page has just loaded most of these files, and the hash makes any copy safe,
 * so on a first visit each file crosses the network once. A copy that fails the check (a stale
 * HTTP cache, an old CDN edge) is fetched again past the cache; only if that fails too does the
 * install fail. A file with no hash to check (audit.json) always comes from the server.
 */
export async function fetchVerified(url: string, integrity: string, mode: FetchMode = { keepalive: false }): Promise<Response> {
  if (integrity) {
    try {
      return await fetchChecked(url, integrity, 'force-cache', mode);
    } catch {
      // Altered or stale bytes, or an error answer: ask the server itself.
    }
  }
  return fetchChecked(url, integrity, 'reload', mode);
}

/**
 * One fetch that refuses errors (and a 206: nothing asked for a range) and responses from another
 * origin ('basic' means same origin even after redirects, never opaque).
 */
async function fetchChecked(url: string, integrity: string, cache: RequestCache, { keepalive }: FetchMode): Promise<Response> {
  const response = await fetch(url, { cache, integrity, keepalive });
  if (!response.ok || response.type !== 'basic') throw new Error(`${url}: ${response.status}`);
  return response;
}

/**
 * Fetches the manifest and every file it lists, verified, and stores each one in this version's
 * cache as soon as it is verified: no page reads that cache before this worker activates, so a
 * file stored early is as invisible as one not yet fetched. Storing as files arrive overlaps the
 * writes with the downloads. A failed fetch or write fails the install and, once every write has
 * settled, deletes the cache: all or nothing, the old version keeps serving.
 */
export async function precacheVerified(): Promise<void> {
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
    store(MANIFEST_URL, manifestResponse);
    await fetchAndStoreReportingProgress(manifest, store);
    await Promise.all(writes);
  } catch (error) {
    // A write still under way could recreate the cache after the delete: wait for every one first.
    // CACHE_NAME never names the active version's cache: the version id hashes sw.js too, and an
    // identical sw.js is not reinstalled.
    await Promise.allSettled(writes);
    await caches.delete(CACHE_NAME);
    throw error;
  }
}

/** Fetches every file of the manifest, verified, stores each with `store`, and posts "n of m" to the pages as files are stored. */
async function fetchAndStoreReportingProgress(
  manifest: Manifest,
  store: (url: string, response: Response) => Promise<void>,
): Promise<void> {
  // A first install controls no page yet, and a BroadcastChannel reaches uncontrolled pages of
  // this origin too. (Safari before 15.4 has no BroadcastChannel: it installs without progress.)
  const channel = globalThis.BroadcastChannel ? new BroadcastChannel(PROGRESS_CHANNEL) : undefined;
  const urls = Object.keys(manifest);
  const progress = throttledProgress(urls.length, (done) => channel?.postMessage([done, urls.length]));
  let done = 0;
  try {
    await eachAtMost(urls, INSTALL_FETCHES_AT_ONCE, async (url) => {
      await store(url, await fetchVerified(url, manifest[url], { keepalive: true }));
      done++;
      progress.report(done);
    });
  } finally {
    progress.stop();
    channel?.close();
  }
}

/**
 * Runs `task` on every item, at most `limit` at a time. After a failure no new item starts, and
 * it rejects with that failure only once the tasks under way have settled: a write still running
 * after the caller deleted the cache would create it again.
 */
async function eachAtMost<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (!failure && next < items.length) {
      const item = items[next++];
      await task(item).catch((error: unknown) => {
        failure ??= { error };
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw failure.error;
}
