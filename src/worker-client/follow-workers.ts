// The worker's state for the UI, derived from the registration's workers as they change: installing,
// waiting as an update, active (its version asked once), or an install that failed.
import { registrationState } from './registration-store';

/** What the active worker answers to GET_VERSION. */
export interface WorkerVersion {
  version: string;
}

/** Registrations and workers already followed: a retry may be handed the same objects again. */
const followed = new WeakSet<ServiceWorkerRegistration | ServiceWorker>();
/** The active worker whose version the store holds: asked once per worker. */
let versionAskedOf: ServiceWorker | undefined;
/** Workers this page found before they were active: each verified every file as it stored it, just now. */
const installedHere = new WeakSet<ServiceWorker>();

/**
 * Follows a registration's workers, the ones it has and each one it finds later, into the store;
 * `onInstallFailed` is called when one of them fails to install (installing -> redundant).
 */
export function followWorkers(registered: ServiceWorkerRegistration, onInstallFailed: () => void): void {
  if (!followed.has(registered)) {
    followed.add(registered);
    registered.addEventListener('updatefound', () => {
      follow(registered, registered.installing, onInstallFailed);
      syncState(registered);
    });
  }
  for (const worker of [registered.installing, registered.waiting, registered.active]) follow(registered, worker, onInstallFailed);
  syncState(registered);
}

/** Follows one worker's state changes; an install that fails (installing -> redundant) is reported. */
function follow(registered: ServiceWorkerRegistration, worker: ServiceWorker | null, onInstallFailed: () => void): void {
  if (!worker || followed.has(worker)) return;
  followed.add(worker);
  if (worker.state !== 'activated') installedHere.add(worker);
  let previous = worker.state;
  worker.addEventListener('statechange', () => {
    if (worker.state === 'redundant' && previous === 'installing') onInstallFailed();
    previous = worker.state;
    syncState(registered);
  });
}

/** Derives the state from the registration's workers; asks the version once one is active. */
function syncState(registered: ServiceWorkerRegistration): void {
  const active = registered.active;
  if (registered.waiting && active) {
    // An update installed: an earlier one's "failed to install" is no longer true.
    registrationState.update({ state: 'update-waiting', error: null });
    return;
  }
  if (active?.state === 'activated') {
    registrationState.update({ state: 'ready' });
    if (active !== versionAskedOf) {
      askVersion(active);
      // A worker found active (this page load) checks its cache once; one this page saw install
      // has just checked every file it stored, and checking again would read and hash them all twice.
      if (!installedHere.has(active)) active.postMessage({ type: 'CHECK_CACHE' });
    }
    return;
  }
  if (registered.installing || registered.waiting) {
    registrationState.update({ state: 'installing', progress: registrationState.getSnapshot().progress ?? { done: 0, total: 0 } });
  }
}

/** Asks a newly active worker for its version; a worker that never answers leaves it unknown. */
function askVersion(active: ServiceWorker): void {
  versionAskedOf = active;
  const channel = new MessageChannel();
  channel.port1.onmessage = (event: MessageEvent<WorkerVersion>) => registrationState.update({ version: event.data.version });
  active.postMessage({ type: 'GET_VERSION' }, [channel.port2]);
}
