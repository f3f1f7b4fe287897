// What the page knows of its service worker: the snapshot the UI shows (state, install progress,
// version, last update check, the retry of a failed first install, the worker's cache report),
// and the ServiceWorkerRegistration itself, which the update checks and "Reload to update" act on.
// Each job of registration/ writes its own fields; the UI only reads.
import type { InstallFailure } from '../contract/install-report';
import type { RepairReport } from '../contract/repair-report';
import { createStore, type Store } from '../core/store';

/** Where the worker stands, as the UI shows it ('unknown' until the page has looked, and in the prerendered HTML). */
export type WorkerState = 'unknown' | 'unsupported' | 'registering' | 'installing' | 'ready' | 'update-waiting' | 'error';

export interface RegistrationSnapshot {
  state: WorkerState;
  /**
   * Precache progress of the first install, files done of total. It stays set once 'ready', so
   * the UI can tell "this page just became offline-capable" from an ordinary visit (null).
   */
  progress: { done: number; total: number } | null;
  /** Version id of the active worker (from sw.js), when known. */
  version: string | null;
  scope: string | null;
  /** When the page last asked the server for a new sw.js (ms since epoch). */
  lastCheck: number | null;
  error: string | null;
  /** When the page tries a failed first install again (ms since epoch), while one is due. */
  retryAt: number | null;
  /** Why the last install failed, when the worker said (no room to store the app's files). */
  installFailure: InstallFailure | null;
  /** The worker's last check of its cache (missing files, repairs), once it reported one. */
  repair: RepairReport | null;
}

/** The snapshot, written by the modules of registration/ only. */
export const registrationState = createStore<RegistrationSnapshot>({
  state: 'unknown',
  progress: null,
  version: null,
  scope: null,
  lastCheck: null,
  error: null,
  retryAt: null,
  installFailure: null,
  repair: null,
});

/** The registration store, as the UI reads it. */
export const registration: Store<RegistrationSnapshot> = registrationState;

let current: ServiceWorkerRegistration | undefined;

/** The registration of /sw.js, once register() gave one (undefined before, and without workers). */
export const currentRegistration = (): ServiceWorkerRegistration | undefined => current;

/** Keeps the registration register() gave, for the update checks and the update. */
export function rememberRegistration(registered: ServiceWorkerRegistration): void {
  current = registered;
}
