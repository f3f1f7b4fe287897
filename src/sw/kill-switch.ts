// The kill switch: the entry of the worker that `npm run build -- --kill-switch` ships as /sw.js
// instead of sw.ts, for the day a bad version ships. Browsers check /sw.js for updates on
// navigation, so every installed copy soon runs this, and it withdraws the app's offline layer.
import { deleteOurCaches } from './our-caches';
import '../migrations/worker'; // The caches of earlier releases are ours. Delete with src/migrations/

declare const self: ServiceWorkerGlobalScope;

// Take over at once: a bad version must not keep serving until its pages close.
self.addEventListener('install', () => self.skipWaiting());

self.addEventListener('activate', (event) => event.waitUntil(withdrawAndReloadPages()));

// A page that loaded while the withdrawal was under way registers /sw.js again. A browser that
// follows the older spec's "uninstalling flag" rule (register() clears the flag, as Gecko's
// register job does) revives the registration being removed instead of installing anew, and the
// same bytes mean no new install, so `activate` never runs again: the likely cause of the engine
// test's kill-switch step failing in Firefox in about one full run of three. Every page of the
// app asks its active worker for the version right after registering
// (src/worker-client/follow-workers.ts): that message withdraws once more. No reload here:
// the pages `activate` reloaded are on their way, and the page that asked is not controlled.
self.addEventListener('message', (event) => event.waitUntil(withdraw()));

/** Deletes our caches and unregisters; unregisters even when the Cache API refuses the deletes (a damaged profile, a full disk). */
async function withdraw(): Promise<void> {
  try {
    await deleteOurCaches();
  } finally {
    await self.registration.unregister();
  }
}

/** Withdraws, then reloads the pages the bad version controlled, so they load from the network with no worker. */
async function withdrawAndReloadPages(): Promise<void> {
  // Caches left behind are not served once unregistered: the pages must still leave the bad version.
  await withdraw().catch(() => {});
  const pages = await self.clients.matchAll({ type: 'window' });
  for (const page of pages) page.navigate(page.url);
}
