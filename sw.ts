// The offline worker, served as /sw.js with scope "/": it precaches every file of this version
// with integrity checks, answers from its cache first, and changes versions only when the user
// says so. Each listener checks what it must leave alone first, then calls one function named for
// what it does (they live in src/sw/, which only the worker imports). The rules behind each line
// are in docs/offline-layer.md. The kill switch is another worker: src/sw/kill-switch.ts.
import { cacheFirst } from './src/sw/cache-first';
import { cacheKeys } from './src/sw/cache-keys';
import { CACHE_NAME, CLAIMED_PATHS, NETWORK_ONLY, VERSION } from './src/sw/config';
import { deleteOurCaches } from './src/sw/our-caches';
import { precacheVerified } from './src/sw/precache';
import { checkAndRepair } from './src/sw/repair';
import './src/migrations/worker'; // The caches of earlier releases are ours. Delete with src/migrations/

declare const self: ServiceWorkerGlobalScope;

self.addEventListener('install', (event) => {
  // No skipWaiting() here: a page of the old version may still need the old files. The page
  // offers "Reload to update" and posts SKIP_WAITING when the user takes it.
  event.waitUntil(precacheVerified());
});

self.addEventListener('activate', (event) => event.waitUntil(deleteOldVersionsAndClaimFirstInstall()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  // Same-origin GET only: HEAD (the reconnect probe), POST and other origins reach the network untouched.
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  const isNavigation = request.mode === 'navigate';
  const keys = cacheKeys(url.pathname, isNavigation, NETWORK_ONLY, CLAIMED_PATHS);
  if (keys.length === 0) return;
  const answered = cacheFirst(request, keys);
  event.respondWith(answered);
  // A navigation is an update check: then every precached file is checked and the missing ones
  // refetched, after the answer (never delaying it); waitUntil keeps the worker alive meanwhile.
  if (isNavigation) event.waitUntil(answered.then(checkAndRepair, checkAndRepair));
});

self.addEventListener('message', (event) => {
  const type = event.data?.type;
  if (type === 'SKIP_WAITING') self.skipWaiting();
  // For the status page and the update banner: which version this worker serves.
  if (type === 'GET_VERSION') event.ports[0]?.postMessage({ version: VERSION });
  // The page's own update checks (at start, so after each activation; hourly; on reconnect). A
  // page that sends a port hears when the check is over (the one under way, if it joined one).
  if (type === 'CHECK_CACHE') event.waitUntil(checkAndRepair().then(() => event.ports[0]?.postMessage({ checked: true })));
});

/**
 * Deletes older versions' caches (ours only), and claims the open pages only on the very first
 * install: nothing was controlled before. On an update the user chose skipWaiting, which hands
 * the open pages over anyway; otherwise pages never switch versions under them. A newer version
 * installing (a deploy landed) or waiting at this moment has a cache of ours too, and a version's
 * name does not say which is newer: the older caches are then left to that version's activation,
 * which deletes every cache but its own (and no page is claimed: a first visit's page is controlled
 * from its next load).
 */
async function deleteOldVersionsAndClaimFirstInstall(): Promise<void> {
  if (self.registration.installing || self.registration.waiting) return;
  const deleted = await deleteOurCaches(CACHE_NAME);
  if (deleted === 0) await self.clients.claim();
}
