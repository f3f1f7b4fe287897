// The kill switch: the entry of the worker that `npm run build -- --kill-switch` ships as /sw.js
// instead of sw.ts, for the day a bad version ships. Browsers check /sw.js for updates on
// navigation, so every installed copy soon runs this, and it withdraws the app's offline layer.
import { deleteOurCaches } from './our-caches';

declare const self: ServiceWorkerGlobalScope;

// Take over at once: a bad version must not keep serving until its pages close.
self.addEventListener('install', () => self.skipWaiting());

self.addEventListener('activate', (event) => event.waitUntil(withdraw()));

/**
 * Deletes our caches, unregisters, and reloads the pages the bad version controlled, so they load
 * from the network with no worker.
 */
async function withdraw(): Promise<void> {
  await deleteOurCaches();
  await self.registration.unregister();
  const pages = await self.clients.matchAll({ type: 'window' });
  for (const page of pages) page.navigate(page.url);
}
