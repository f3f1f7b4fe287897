// The origin's caches as seen from inside a page, in any engine: a Playwright page and an engine
// driver's tab (lib/driver.ts RunsInPage) both run a function sent as source text with one argument.
import { CACHE_PREFIX } from '../../../src/contract/app-name';
import type { RunsInPage } from './driver';

/** Names of the page origin's caches, sorted (caches.keys() lists them in the order they were made). */
export const cacheNames = (page: RunsInPage): Promise<string[]> => page.evaluate(async () => (await caches.keys()).sort(), null);

/** Names of this app's caches (CACHE_PREFIX), sorted: other apps on the origin have other prefixes. */
export const ourCacheNames = async (page: RunsInPage): Promise<string[]> =>
  (await cacheNames(page)).filter((name) => name.startsWith(CACHE_PREFIX));

/** The URL paths stored in one cache, sorted. */
export const cachedPaths = (page: RunsInPage, name: string): Promise<string[]> =>
  page.evaluate(
    async (cacheName) => (await (await caches.open(cacheName)).keys()).map((request) => new URL(request.url).pathname).sort(),
    name,
  );

/** Each of this app's caches with the version of the `audit.json` it holds ('none' when it holds none), in the order caches.keys() lists them. */
export const auditVersionsByCache = (page: RunsInPage): Promise<[string, string][]> =>
  page.evaluate(async (prefix) => {
    const found: [string, string][] = [];
    for (const name of (await caches.keys()).filter((cacheName) => cacheName.startsWith(prefix))) {
      const copy = await (await caches.open(name)).match('/audit.json');
      found.push([name, copy ? (await copy.json()).version : 'none']);
    }
    return found;
  }, CACHE_PREFIX);

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
export const cachedSri = (page: RunsInPage, paths: string[]): Promise<(string | null)[]> =>
  page.evaluate(sriInPage, [CACHE_PREFIX, paths] as CacheQuery);

/**
 * In the page: asks the worker that controls it for a check of its cache, and resolves when
 * that check is over (or the one already under way, which the request joins).
 */
async function cacheCheckedInPage(): Promise<void> {
  const worker = navigator.serviceWorker.controller;
  if (!worker) throw new Error('no worker controls the page');
  const channel = new MessageChannel();
  await new Promise((resolve) => {
    channel.port1.onmessage = resolve;
    worker.postMessage({ type: 'CHECK_CACHE' }, [channel.port2]);
  });
}

/** In the page: replaces `urls` in every cache named `prefix…` with other bytes under the same URL. */
async function damageInPage([prefix, urls]: CacheQuery): Promise<void> {
  for (const name of (await caches.keys()).filter((cacheName) => cacheName.startsWith(prefix))) {
    const cache = await caches.open(name);
    for (const url of urls) await cache.put(url, new Response('damaged on disk', { headers: { 'Content-Type': 'text/html' } }));
  }
}

/**
 * Deletes entries from the app's caches through the page's Cache API, as a browser evicting them
 * would. A check of the worker's still walking the manifest (the one a new worker's activation
 * or the page's start asked for) would put back an entry deleted before it got there, so this
 * first waits until the worker says its check is over: no other starts before the page's next
 * navigation or update check, and the entries stay gone.
 */
export async function evict(page: RunsInPage, paths: string[]): Promise<void> {
  await page.evaluate(cacheCheckedInPage, null);
  await page.evaluate(deleteInPage, [CACHE_PREFIX, paths] as CacheQuery);
}

/**
 * Overwrites entries of the app's caches with other bytes through the page's Cache API: what a
 * damaged disk or profile leaves behind (present, but not the file the build hashed); and deletes
 * `evicted` ones at the same moment. Waits for the worker's check first, as evict() does: one
 * check, since each check would put back what the other call changed.
 */
export async function damage(page: RunsInPage, damaged: string[], evicted: string[] = []): Promise<void> {
  await page.evaluate(cacheCheckedInPage, null);
  await page.evaluate(damageInPage, [CACHE_PREFIX, damaged] as CacheQuery);
  await page.evaluate(deleteInPage, [CACHE_PREFIX, evicted] as CacheQuery);
}
