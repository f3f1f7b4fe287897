// The app's caches as seen from inside a page, in any engine: a Playwright page and an engine
// driver's tab (lib/driver.ts) both run a function sent as source text with one argument.
import { APP_NAME } from './site';
import { until } from './wait';

/** A page that runs a function in itself: a Playwright Page, or a Tab of lib/driver.ts. */
export interface RunsInPage {
  evaluate<T, A>(fn: (arg: A) => T | Promise<T>, arg: A): Promise<T>;
}

/** The argument both in-page functions take: the app's cache-name prefix and the URL paths. */
type CacheQuery = [prefix: string, urls: string[]];

/** In the page: deletes `urls` from every cache whose name starts with `prefix`. */
async function deleteInPage([prefix, urls]: CacheQuery): Promise<void> {
  for (const name of (await caches.keys()).filter((cacheName) => cacheName.startsWith(prefix))) {
    const cache = await caches.open(name);
    for (const url of urls) await cache.delete(url);
  }
}

/** In the page: the SRI hash of each of `urls` as cached in the caches named `prefix…`, null when not cached. */
async function sriInPage([prefix, urls]: CacheQuery): Promise<(string | null)[]> {
  const names = (await caches.keys()).filter((cacheName) => cacheName.startsWith(prefix));
  return Promise.all(
    urls.map(async (url) => {
      for (const name of names) {
        const response = await (await caches.open(name)).match(url);
        if (!response) continue;
        const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', await response.arrayBuffer()));
        return 'sha384-' + btoa(String.fromCharCode(...digest));
      }
      return null;
    }),
  );
}

/** The SRI hash (SHA-384) of each path's bytes in the app's caches, computed in the page; null for a path not cached. */
export const cachedSri = (page: RunsInPage, paths: string[]): Promise<(string | null)[]> => page.evaluate(sriInPage, [`${APP_NAME}-`, paths] as CacheQuery);

/**
 * Deletes entries from the app's caches through the page's Cache API, as a browser evicting them
 * would, and resolves once they are all gone. A check of the worker's that is walking the
 * manifest (the one a new worker's activation starts) puts back an entry deleted before it got
 * there: the repair doing its job, so they are deleted again until none is cached.
 */
export async function evict(page: RunsInPage, paths: string[]): Promise<void> {
  await until(`${paths.join(', ')} deleted from the cache`, async () => {
    await page.evaluate(deleteInPage, [`${APP_NAME}-`, paths] as CacheQuery);
    return (await cachedSri(page, paths)).every((hash) => hash === null);
  });
}
