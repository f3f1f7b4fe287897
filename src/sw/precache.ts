// The install: every file of this version, each verified by its SHA-384, stored all or nothing.
import { PROGRESS_CHANNEL } from '../app-name';
import { CACHE_NAME, MANIFEST_INTEGRITY, MANIFEST_URL } from './config';

/** The manifest's shape: URL path -> SRI hash ('' for a file that cannot be hash-checked). */
type Manifest = Record<string, string>;

/**
 * Fetches `url` past the HTTP cache, refusing altered bytes (`integrity`: the promise settles
 * only after the whole body is checked), errors, and responses from another origin.
 */
export async function fetchVerified(url: string, integrity: string): Promise<Response> {
  const response = await fetch(url, { cache: 'reload', integrity });
  // `ok` rules out errors (and a 206: nothing asked for a range); 'basic' means same origin even
  // after redirects, never opaque.
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
