// The install: every file of this version, each verified by its SHA-384, stored all or nothing.
import { PROGRESS_CHANNEL } from '../app-name';
import { CACHE_NAME, MANIFEST_INTEGRITY, MANIFEST_URL } from './config';

/** The manifest's shape: URL path -> SRI hash ('' for a file that cannot be hash-checked). */
export type Manifest = Record<string, string>;

/**
 * Fetches a file of this version, verified by its SHA-384 (`integrity`: the promise settles only
 * after the whole body is checked). The first try may be answered by the HTTP cache, without
 * revalidation: the page has just loaded most of these files, and the hash makes any copy safe,
 * so on a first visit each file crosses the network once. A copy that fails the check (a stale
 * HTTP cache, an old CDN edge) is fetched again past the cache; only if that fails too does the
 * install fail. A file with no hash to check (audit.json) always comes from the server.
 */
export async function fetchVerified(url: string, integrity: string): Promise<Response> {
  if (integrity) {
    try {
      return await fetchChecked(url, integrity, 'force-cache');
    } catch {
      // Altered or stale bytes, or an error answer: ask the server itself.
    }
  }
  return fetchChecked(url, integrity, 'reload');
}

/**
 * One fetch that refuses errors (and a 206: nothing asked for a range) and responses from another
 * origin ('basic' means same origin even after redirects, never opaque).
 */
async function fetchChecked(url: string, integrity: string, cache: RequestCache): Promise<Response> {
  const response = await fetch(url, { cache, integrity });
  if (!response.ok || response.type !== 'basic') throw new Error(`${url}: ${response.status}`);
  return response;
}

/**
 * Fetches the manifest and every file it lists, verified, and only then writes them all to this
 * version's cache: a failed fetch or write fails the install and leaves nothing behind, so the
 * old version keeps serving.
 */
export async function precacheVerified(): Promise<void> {
  try {
    const manifestResponse = await fetchVerified(MANIFEST_URL, MANIFEST_INTEGRITY);
    const manifest: Manifest = await manifestResponse.clone().json();
    const files = await fetchAllReportingProgress(manifest);
    const cache = await caches.open(CACHE_NAME);
    await Promise.all([cache.put(MANIFEST_URL, manifestResponse), ...files.map(([url, response]) => cache.put(url, response))]);
  } catch (error) {
    // A failed write (quota) must not leave half a version either. CACHE_NAME never names the
    // active version's cache: the version id hashes sw.js too, and an identical sw.js is not reinstalled.
    await caches.delete(CACHE_NAME);
    throw error;
  }
}

/** Fetches every file of the manifest, verified, posting "n of m" to the pages as each arrives. */
async function fetchAllReportingProgress(manifest: Manifest): Promise<[string, Response][]> {
  // A first install controls no page yet, and a BroadcastChannel reaches uncontrolled pages of
  // this origin too. (Safari before 15.4 has no BroadcastChannel: it installs without progress.)
  const progress = globalThis.BroadcastChannel ? new BroadcastChannel(PROGRESS_CHANNEL) : undefined;
  const urls = Object.keys(manifest);
  let done = 0;
  return Promise.all(
    urls.map(async (url): Promise<[string, Response]> => {
      const response = await fetchVerified(url, manifest[url]);
      done++;
      progress?.postMessage([done, urls.length]);
      return [url, response];
    }),
  );
}
