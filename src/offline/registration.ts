// STUB (issue #3 replaces the body, keeps these exports): the service worker's state for the UI.
import { createStore, type Store } from '../store';

/** Where the worker stands, as the UI shows it. */
export type WorkerState = 'unsupported' | 'registering' | 'installing' | 'ready' | 'update-waiting' | 'error';

export interface RegistrationSnapshot {
  state: WorkerState;
  /** Precache progress while installing: files done of total. */
  progress: { done: number; total: number } | null;
  /** Version id of the active worker (from sw.js), when known. */
  version: string | null;
  scope: string | null;
  /** When the page last asked the server for a new sw.js (ms since epoch). */
  lastCheck: number | null;
  error: string | null;
}

const state = createStore<RegistrationSnapshot>({ state: 'unsupported', progress: null, version: null, scope: null, lastCheck: null, error: null });

/** The registration store. */
export const registration: Store<RegistrationSnapshot> = state;

/** Registers /sw.js after the load event (not in dev builds). */
export function startRegistration(): void {}

/** Asks the server for a new sw.js now. */
export async function checkForUpdate(): Promise<void> {}

/** Activates the waiting worker; the page reloads once when it takes control. */
export function applyUpdate(): void {}
