// The dev build's sw.js. Dev pages register no service worker, but a production build served on
// the same origin (`npm start` on the same port) may have left one, which would keep answering
// with the cached production app. The browser checks that worker's script for an update on every
// navigation (Service Workers, "Soft Update"), bypassing the HTTP cache; the dev server answers
// with this worker, which takes over, deletes that build's caches, unregisters itself and reloads
// its pages onto the dev build. Chosen over `Clear-Site-Data: "storage"`, which would also delete
// the builder's saved data (localStorage), and which Firefox and Safari do not honour in full.

/** The first line of the dev build's sw.js: what `npm run verify` recognises as no release. */
export const DEV_WORKER_MARK = '// Dev build: no service worker.';

/**
 * The dev build's sw.js for the app `identity`: it deletes only this app's caches (the prefix of
 * src/contract/app-name.ts's cachePrefixOf), so other apps of the origin keep theirs.
 * @param {import('../config.mjs').Identity} identity
 */
export function devWorker(identity) {
  const prefix = `[${identity.__APP_NAME__}@${identity.__BASE__}] `;
  return `${DEV_WORKER_MARK}
// A production build's worker of this origin updates to this one, which removes it and its caches.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(${JSON.stringify(prefix)})) await caches.delete(name);
      await self.registration.unregister();
      // A page that cannot be navigated from here is loaded from the network at its next visit all the same.
      for (const page of await self.clients.matchAll({ type: 'window' })) page.navigate(page.url).catch(() => {});
    })(),
  );
});
`;
}

/**
 * An intercept that says once, on the dev server's output, that a production worker asked for
 * an update and is being taken out of the way; then leaves the request to `next` and the server.
 * @param {string} base
 * @param {import('./server.mjs').Intercept} next
 * @returns {import('./server.mjs').Intercept}
 */
export function workerNotice(base, next) {
  let told = false;
  return (request, response) => {
    // The browser marks a worker script's own fetch with `Service-Worker: script`.
    if (!told && request.headers['service-worker'] === 'script') {
      told = true;
      console.log(
        `dev: a production build's service worker was registered for ${base} on this origin; it is replaced by one that deletes its caches, unregisters itself and reloads its pages onto the dev build`,
      );
    }
    return next(request, response);
  };
}
