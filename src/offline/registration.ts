// The service worker's state for the UI, and the page's side of updates: register /sw.js, follow
// the install (with progress), offer a waiting version, and reload once when the user takes it.
import { createStore, type Store } from '../store';
import { reloadAfterFlush, reloadGuard } from './flush';

/** Where the worker stands, as the UI shows it. */
export type WorkerState = 'unsupported' | 'registering' | 'installing' | 'ready' | 'update-waiting' | 'error';

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
}

/** What the active worker reports about itself (its answer to GET_VERSION). */
export interface WorkerInfo {
  version: string;
  /** The CacheStorage name holding this version's files. */
  cache: string;
  /** URL of the precache manifest (URL path -> SRI hash; '' = not hash-checked), stored in `cache`. */
  manifest: string;
  /** SRI hash of the manifest's bytes, as pinned in sw.js. */
  integrity: string;
}

const state = createStore<RegistrationSnapshot>({ state: 'unsupported', progress: null, version: null, scope: null, lastCheck: null, error: null });

/** The registration store. */
export const registration: Store<RegistrationSnapshot> = state;

const HOUR = 3_600_000;
// The worker broadcasts install progress on this channel: its cache prefix (package.json name + '-').
const CHANNEL = 'offline-shell-';
const GUARD = 'offline-shell:update-reload';
let reg: ServiceWorkerRegistration | undefined;
let asked: ServiceWorker | undefined; // the active worker whose version the store holds

/** Derives the state from the registration's workers; asks the version once one is active. */
function sync(): void {
  const r = reg!;
  if (r.waiting && r.active) state.update({ state: 'update-waiting' });
  else if (r.active?.state === 'activated') {
    state.update({ state: 'ready' });
    if (r.active !== asked) {
      // Ask the newly active worker for its version; a worker that never answers leaves it unknown.
      const ch = new MessageChannel();
      ch.port1.onmessage = (e: MessageEvent<WorkerInfo>) => state.update({ version: e.data.version });
      (asked = r.active).postMessage({ type: 'GET_VERSION' }, [ch.port2]);
    }
  } else if (r.installing || r.waiting) state.update({ state: 'installing', progress: state.getSnapshot().progress ?? { done: 0, total: 0 } });
}

/** Follows one worker; an install that fails (installing -> redundant) is reported. */
function watch(w: ServiceWorker | null): void {
  let last = w?.state;
  w?.addEventListener('statechange', () => {
    if (w.state === 'redundant' && last === 'installing') {
      // The first install failing leaves no offline copy; a failed update leaves the old one serving.
      state.update(reg?.active ? { error: 'An update failed to install; this version keeps working.' } : { state: 'error', error: 'Could not save the app for offline use.' });
    }
    last = w.state;
    sync();
  });
}

/** Registers /sw.js after the load event (not in dev builds). */
export function startRegistration(): void {
  const sw = navigator.serviceWorker;
  if (!sw) return; // stays 'unsupported': the app works online as before
  state.update({ state: 'registering' });
  let controlled = !!sw.controller;
  sw.addEventListener('controllerchange', () => {
    // A new version took over (the user chose it, here or in another tab) or the kill switch did:
    // reload once onto it. Not on the first install's claim(), and never twice in 10 s (DevTools'
    // "update on reload" would loop).
    if (controlled && !(reloadGuard(GUARD, 10_000) > 0)) reloadAfterFlush();
    controlled = true;
  });
  // Safari before 15.4 has workers but no BroadcastChannel: no progress there, the rest works.
  if (self.BroadcastChannel)
    new BroadcastChannel(CHANNEL).onmessage = (e: MessageEvent<[number, number]>) => {
      if (state.getSnapshot().state === 'installing') state.update({ progress: { done: e.data[0], total: e.data[1] } });
    };
  const go = () =>
    sw.register('/sw.js', { scope: '/', updateViaCache: 'none' }).then(
      (r) => {
        // Chromium with workers blocked resolves to undefined instead of rejecting.
        if (!r) return state.update({ state: 'unsupported' });
        reg = r;
        state.update({ scope: r.scope, lastCheck: Date.now() });
        r.addEventListener('updatefound', () => {
          watch(r.installing);
          sync();
        });
        [r.installing, r.waiting, r.active].forEach(watch);
        sync();
        setInterval(checkForUpdate, HOUR);
        addEventListener('online', checkForUpdate);
      },
      (err: Error) => state.update({ state: 'error', error: `Offline use is unavailable: ${err.message}` }),
    );
  if (document.readyState === 'complete') go();
  else addEventListener('load', go, { once: true });
}

/** Asks the server for a new sw.js now. */
export function checkForUpdate(): void {
  if (!reg) return;
  state.update({ lastCheck: Date.now() });
  // Offline or the server is down: the next check (hourly, or when the network returns) retries.
  reg.update().catch(() => {});
}

/** Activates the waiting worker; the page reloads once when it takes control. */
export function applyUpdate(): void {
  reg?.waiting?.postMessage({ type: 'SKIP_WAITING' });
}
