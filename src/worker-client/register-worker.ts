// Registering /sw.js: after the page's `load` (the install's downloads must not compete with the
// page's own), at its fixed URL with `updateViaCache: 'none'`, then following its workers; a
// registration or first install that fails is tried again later (install-retry.ts). On a first
// visit from a host slow to answer, the page asks, beside sw.js, for what the install will want
// first (warmTheInstall): the precache manifest and the other screens' files.
import { BASE, withBase } from '../contract/base';
import { followWorkers } from './follow-workers';
import { reportFailedInstall, retryFirstInstall } from './install-retry';
import { registrationState, rememberRegistration } from './registration-store';
import { workerScriptUrl } from './worker-script-url';

/**
 * Registers /sw.js once the page has loaded; `then` runs after the first registration settled
 * (registered or not). On a first visit, `otherScreensFiles` names what the screens not shown load.
 */
export function registerAfterLoad(serviceWorker: ServiceWorkerContainer, then: () => void, otherScreensFiles: () => string[]): void {
  const register = async () => {
    // A controlled page has every file in the worker's cache already.
    const warm = !serviceWorker.controller && hostAnswersSlowly();
    if (warm) warmTheInstall([withBase('/precache.json')]);
    const registered = registerWorkerScript(serviceWorker);
    if (warm) warmTheInstall(otherScreensFiles());
    await registered;
    then();
  };
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
}

/**
 * The time the host took to start answering the page's own HTML from which a first visit asks for
 * the install's files beside sw.js. Those requests pay where they fill connections that would sit
 * idle for a round trip; where the host answers at once they only add work beside the worker's
 * start: on loopback the other screens' files made the install end 13-28 ms later, and the manifest
 * alone about 20 ms (Chromium 156, 2 cores, medians of 15 and 21 first visits), so they wait for a
 * round trip well beyond that.
 */
export const SLOW_FIRST_BYTE_MS = 50;

/** Whether the host was slow to start answering this page (SLOW_FIRST_BYTE_MS or more); true when the engine cannot say. */
function hostAnswersSlowly(): boolean {
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return !navigation || navigation.responseStart - navigation.requestStart >= SLOW_FIRST_BYTE_MS;
}

/**
 * Asks for `urls` now, into the HTTP cache, where the install finds them (it checks each by its
 * hash there, and asks the server again for a copy that fails): the precache manifest, the worker's
 * first download after its own script, then the other screens' pages and scripts. While sw.js is on
 * its way, a link that carries six requests at a time (HTTP/1.1) has idle connections: filled now,
 * the install has one round of requests fewer to wait for. After `load`, so nothing of the page's own
 * waits for them; each file still crosses the network once. A failure costs nothing: the install
 * fetches the file itself.
 */
function warmTheInstall(urls: string[]): void {
  // The body is read: the HTTP cache keeps a response once it is whole.
  for (const url of urls)
    fetch(url)
      .then((response) => response.arrayBuffer())
      .catch(() => {});
}

/** Registers /sw.js and follows the registration's workers; a registration that fails is tried again later. */
async function registerWorkerScript(serviceWorker: ServiceWorkerContainer): Promise<void> {
  const registerAgain = () => registerWorkerScript(serviceWorker);
  let registered: ServiceWorkerRegistration | undefined;
  try {
    // updateViaCache 'none': the browser's update check always reaches the server for sw.js.
    registered = await serviceWorker.register(workerScriptUrl(), { scope: BASE, updateViaCache: 'none' });
  } catch (error) {
    retryFirstInstall(`Offline use is unavailable: ${(error as Error).message}`, registerAgain);
    return;
  }
  // Chromium with workers blocked resolves to undefined instead of rejecting.
  if (!registered) {
    registrationState.update({ state: 'unsupported' });
    return;
  }
  rememberRegistration(registered);
  registrationState.update({ scope: registered.scope, lastCheck: Date.now() });
  followWorkers(registered, () => reportFailedInstall(registered, registerAgain));
}
