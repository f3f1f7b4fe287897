// The page's side of the service worker, started from src/main.tsx: each job is a module of this
// folder (the store, registering, following the workers, the failed-install retry, the worker's
// broadcasts, update checks, the update reload); this one starts them in order.
import { listenForCacheRepairs } from './cache-repair-reports';
import { listenForInstallProgress } from './install-progress';
import { registerAfterLoad } from './register-worker';
import { registrationState } from './registration-store';
import { checkForUpdatesWhileOpen } from './update-checks';
import { reloadOnControllerChange } from './update-reload';

/**
 * Registers /sw.js after the load event (not in dev builds), then checks for updates while the page
 * is open; `otherScreensFiles` names what the screens not shown load (warmed on a first visit).
 */
export function startRegistration(otherScreensFiles: () => string[]): void {
  const serviceWorker = navigator.serviceWorker;
  if (!serviceWorker) {
    // No offline layer (an old browser, or an insecure origin): the app works online as before.
    registrationState.update({ state: 'unsupported' });
    return;
  }
  registrationState.update({ state: 'registering' });
  reloadOnControllerChange(serviceWorker);
  listenForInstallProgress();
  listenForCacheRepairs();
  registerAfterLoad(serviceWorker, checkForUpdatesWhileOpen, otherScreensFiles);
}

/** Dev builds register no worker, so nothing stale is served while developing: the status page says so. */
export function skipRegistrationInDev(): void {
  registrationState.update({ state: 'unsupported', error: 'dev builds register no service worker' });
}
