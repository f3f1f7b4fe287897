// Registering /sw.js: after the page's `load` (the install's downloads must not compete with the
// page's own), at its fixed URL with `updateViaCache: 'none'`, then following its workers; a
// registration or first install that fails is tried again later (install-retry.ts).
import { BASE, withBase } from '../contract/base';
import { followWorkers } from './follow-workers';
import { reportFailedInstall, retryFirstInstall } from './install-retry';
import { registrationState, rememberRegistration } from './registration-store';
import { workerScriptUrl } from './worker-script-url';

/**
 * Registers /sw.js once the page has loaded; `then` runs after the first registration settled
 * (registered or not).
 */
export function registerAfterLoad(serviceWorker: ServiceWorkerContainer, then: () => void): void {
  const register = async () => {
    // On a first visit, the worker's first download after its own script is the precache manifest:
    // ask for it now, beside sw.js, so the install finds it in the HTTP cache (it is checked by its
    // hash there). A controlled page has it in the worker's cache already. A failure costs nothing:
    // the install fetches it itself.
    if (!serviceWorker.controller) fetch(withBase('/precache.json')).catch(() => {});
    await registerWorkerScript(serviceWorker);
    then();
  };
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
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
