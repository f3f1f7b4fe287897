// Taking a new version: the person chooses "Reload to update" (the worker never skips waiting on
// its own), the waiting worker activates, and every page it now controls reloads once onto it, at
// a quiet moment, with what was typed flushed and the resume point saved.
import { storageKey } from '../contract/app-name';
import { logTransition } from '../reload/connectivity';
import { reloadAfterFlush } from '../reload/reload-after-flush';
import { whenQuiet } from '../reload/quiet-moment';
import { claimReload } from '../reload/reload-guard';
import { saveResumePoint } from '../reload/resume-point';
import { currentRegistration } from './registration-store';

/** No second update reload within this long: DevTools' "update on reload" would loop. */
const UPDATE_RELOAD_GUARD_MS = 10_000;
/** sessionStorage key holding the time of the last update reload. */
const UPDATE_RELOAD_KEY = storageKey('update-reload');

/** Activates the waiting worker; the page reloads once when it takes control. */
export function applyUpdate(): void {
  currentRegistration()?.waiting?.postMessage({ type: 'SKIP_WAITING' });
}

/**
 * Reloads once onto a new version when a new worker takes control (the user chose "Reload to
 * update", here or in another tab, or the kill switch took over). Preconditions: a worker
 * controlled this page before (the first install's claim() is no reason to reload), and no update
 * reload happened within the guard window. It waits for the new worker to be activated, the tab to
 * be visible and a quiet moment (src/reload/quiet-moment.ts), as every reload of the app does.
 */
export function reloadOnControllerChange(serviceWorker: ServiceWorkerContainer): void {
  let controlledBefore = !!serviceWorker.controller;
  serviceWorker.addEventListener('controllerchange', () => {
    if (controlledBefore && claimReload(UPDATE_RELOAD_KEY, UPDATE_RELOAD_GUARD_MS) === 0) {
      // The kill switch navigates its pages itself, without waiting for this page: where the
      // person is goes to sessionStorage now, and again right before this page's own reload.
      saveResumePoint();
      whenActivated(serviceWorker.controller, () => whenQuiet(reloadAfterFlush, (reason) => logTransition('reload-waits', reason)));
    }
    controlledBefore = true;
  });
}

/**
 * Calls `then` once the new controller has activated, not before: WebKit gives a page that loads
 * while its worker is still activating a view of that worker that never updates (its state stays
 * "activating" and register() never settles), so the reloaded page would say "registering" for good.
 */
function whenActivated(controller: ServiceWorker | null, then: () => void): void {
  if (!controller || controller.state === 'activated') {
    then();
    return;
  }
  controller.addEventListener('statechange', () => {
    if (controller.state === 'activated') then();
  });
}
