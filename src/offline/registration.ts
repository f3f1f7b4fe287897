// The service worker's state for the UI, and the page's side of updates: register /sw.js, follow
// the install (with progress), offer a waiting version, and reload once when the user takes it.
import { PROGRESS_CHANNEL, REPAIR_CHANNEL, storageKey } from '../app-name';
import { BASE, withBase } from '../base';
import type { RepairReport } from '../repair-report';
import { createStore, type Store } from '../store';
import { logTransition } from './connectivity';
import { reloadAfterFlush } from './flush';
import { scheduleInstallRetry } from './install-retry';
import { whenQuiet } from './quiet-moment';
import { claimReload } from './reload-guard';
import { saveResumePoint } from './resume-point';

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
  /** The worker's last check of its cache (missing files, repairs), once it reported one. */
  repair: RepairReport | null;
}

/** What the active worker answers to GET_VERSION. */
export interface WorkerVersion {
  version: string;
}

const state = createStore<RegistrationSnapshot>({
  state: 'unknown',
  progress: null,
  version: null,
  scope: null,
  lastCheck: null,
  error: null,
  retryAt: null,
  repair: null,
});

/** The registration store. */
export const registration: Store<RegistrationSnapshot> = state;

const HOUR_MS = 3_600_000;
/** A tab shown again (or restored from the back/forward cache) checks for updates when its last check is older than this. */
const STALE_CHECK_MS = 60_000;
/** No second update reload within this long: DevTools' "update on reload" would loop. */
const UPDATE_RELOAD_GUARD_MS = 10_000;
/** sessionStorage key holding the time of the last update reload. */
const UPDATE_RELOAD_KEY = storageKey('update-reload');

let workerRegistration: ServiceWorkerRegistration | undefined;
/** Registrations and workers already followed: a retry may be handed the same objects again. */
const followed = new WeakSet<ServiceWorkerRegistration | ServiceWorker>();
/** First installs (or registrations) that failed in this page: each retry waits longer. */
let installFailures = 0;
/** The active worker whose version the store holds: asked once per worker. */
let versionAskedOf: ServiceWorker | undefined;

/** Derives the state from the registration's workers; asks the version once one is active. */
function syncState(registered: ServiceWorkerRegistration): void {
  const active = registered.active;
  if (registered.waiting && active) {
    state.update({ state: 'update-waiting' });
    return;
  }
  if (active?.state === 'activated') {
    state.update({ state: 'ready' });
    if (active !== versionAskedOf) {
      askVersion(active);
      // A newly active worker (this page load, or an activation) checks its cache once.
      active.postMessage({ type: 'CHECK_CACHE' });
    }
    return;
  }
  if (registered.installing || registered.waiting) {
    state.update({ state: 'installing', progress: state.getSnapshot().progress ?? { done: 0, total: 0 } });
  }
}

/** Asks a newly active worker for its version; a worker that never answers leaves it unknown. */
function askVersion(active: ServiceWorker): void {
  versionAskedOf = active;
  const channel = new MessageChannel();
  channel.port1.onmessage = (event: MessageEvent<WorkerVersion>) => state.update({ version: event.data.version });
  active.postMessage({ type: 'GET_VERSION' }, [channel.port2]);
}

/** Follows one worker's state changes; an install that fails (installing -> redundant) is reported. */
function follow(registered: ServiceWorkerRegistration, worker: ServiceWorker | null): void {
  if (!worker || followed.has(worker)) return;
  followed.add(worker);
  let previous = worker.state;
  worker.addEventListener('statechange', () => {
    if (worker.state === 'redundant' && previous === 'installing') reportFailedInstall(registered);
    previous = worker.state;
    syncState(registered);
  });
}

/** A failed update leaves the old version serving; a failed first install leaves no offline copy, and is tried again. */
function reportFailedInstall(registered: ServiceWorkerRegistration): void {
  if (registered.active) {
    state.update({ error: 'An update failed to install; this version keeps working.' });
    return;
  }
  retryLater('Could not save the app for offline use.');
}

/**
 * Says that offline use is not ready yet and when the page tries again, and tries then: a first
 * install that failed removed its registration (Service Workers spec, Install step "installFailed"),
 * so the retry registers anew. No reload: the page in use stays as it is.
 */
function retryLater(error: string): void {
  installFailures++;
  const retryAt = scheduleInstallRetry(installFailures, () => {
    state.update({ state: 'registering', error: null, retryAt: null });
    const serviceWorker = navigator.serviceWorker;
    if (serviceWorker) registerScript(serviceWorker);
  });
  state.update({ state: 'error', error, retryAt });
  logTransition('install-failed', `${error} Trying again in ${Math.round((retryAt - Date.now()) / 1000)} s.`);
}

/**
 * Reloads once onto a new version when a new worker takes control (the user chose "Reload to
 * update", here or in another tab, or the kill switch took over). Preconditions: a worker
 * controlled this page before (the first install's claim() is no reason to reload), and no update
 * reload happened within the guard window. It waits for the new worker to be activated, the tab to
 * be visible and a quiet moment (src/offline/quiet-moment.ts), as every reload of the app does.
 */
function reloadOnControllerChange(serviceWorker: ServiceWorkerContainer): void {
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

/**
 * Listens to a BroadcastChannel of the worker's while the page is shown. Chromium keeps no page
 * with a listening channel in the back/forward cache (reason BroadcastChannelOnMessage, measured
 * in Chromium 156), and a tab restored from it is how a person often comes back: the channel
 * closes when the page is hidden that way and opens again when it is restored.
 */
function listenWhileShown<T>(name: string, onMessage: (data: T) => void): void {
  // Safari before 15.4 has workers but no BroadcastChannel: no progress or repair news there.
  if (!self.BroadcastChannel) return;
  let channel: BroadcastChannel | undefined;
  const open = () => {
    channel = new BroadcastChannel(name);
    channel.onmessage = (event: MessageEvent<T>) => onMessage(event.data);
  };
  open();
  addEventListener('pagehide', () => {
    channel?.close();
    channel = undefined;
  });
  addEventListener('pageshow', (event) => {
    if (event.persisted && !channel) open();
  });
}

/** Shows the first install's "n of m files", which the worker broadcasts as it precaches. */
function listenForProgress(): void {
  listenWhileShown<[number, number]>(PROGRESS_CHANNEL, ([done, total]) => {
    if (state.getSnapshot().state !== 'installing') return;
    state.update({ progress: { done, total } });
  });
}

/** Follows the worker's reports on its cache: files missing, being repaired, repaired. */
function listenForRepairs(): void {
  listenWhileShown<RepairReport>(REPAIR_CHANNEL, (repair) => {
    logCacheFaults(state.getSnapshot().repair, repair);
    state.update({ repair });
  });
}

/** Logs the moment the worker finds its storage failing, or damaged entries in its cache. */
function logCacheFaults(before: RepairReport | null, now: RepairReport): void {
  if (now.storageFailing && !before?.storageFailing) logTransition('storage-failing', 'working online only');
  if (now.damaged.length && !before?.damaged.length) logTransition('copy-damaged', `${now.damaged.join(', ')}: repairing`);
}

/** Registers /sw.js, then follows its workers and checks for updates hourly and when back online. */
async function register(serviceWorker: ServiceWorkerContainer): Promise<void> {
  // On a first visit, the worker's first download after its own script is the precache manifest:
  // ask for it now, beside sw.js, so the install finds it in the HTTP cache (it is checked by its
  // hash there). A controlled page has it in the worker's cache already. A failure costs nothing:
  // the install fetches it itself.
  if (!serviceWorker.controller) fetch(withBase('/precache.json')).catch(() => {});
  await registerScript(serviceWorker);
  setInterval(checkForUpdate, HOUR_MS);
  addEventListener('online', checkForUpdate);
  // A tab left in the background, or an installed app resumed on a phone, gets no navigation and
  // so no update check from the browser: it asks when the person comes back to it.
  document.addEventListener('visibilitychange', checkIfStale);
  addEventListener('pageshow', (event) => {
    if (event.persisted) checkIfStale();
  });
}

/** Registers /sw.js and follows the registration's workers; a registration that fails is tried again later. */
async function registerScript(serviceWorker: ServiceWorkerContainer): Promise<void> {
  let registered: ServiceWorkerRegistration | undefined;
  try {
    // updateViaCache 'none': the browser's update check always reaches the server for sw.js.
    registered = await serviceWorker.register(withBase('/sw.js'), { scope: BASE, updateViaCache: 'none' });
  } catch (error) {
    retryLater(`Offline use is unavailable: ${(error as Error).message}`);
    return;
  }
  // Chromium with workers blocked resolves to undefined instead of rejecting.
  if (!registered) {
    state.update({ state: 'unsupported' });
    return;
  }
  workerRegistration = registered;
  state.update({ scope: registered.scope, lastCheck: Date.now() });
  if (!followed.has(registered)) {
    followed.add(registered);
    registered.addEventListener('updatefound', () => {
      follow(registered, registered.installing);
      syncState(registered);
    });
  }
  for (const worker of [registered.installing, registered.waiting, registered.active]) follow(registered, worker);
  syncState(registered);
}

/** Checks for an update when the page is visible, online, and its last check is over a minute old. */
function checkIfStale(): void {
  if (document.hidden || !navigator.onLine) return;
  const lastCheck = state.getSnapshot().lastCheck ?? 0;
  if (Date.now() - lastCheck < STALE_CHECK_MS) return;
  checkForUpdate();
}

/** Registers /sw.js after the load event (not in dev builds). */
export function startRegistration(): void {
  const serviceWorker = navigator.serviceWorker;
  if (!serviceWorker) {
    // No offline layer (an old browser, or an insecure origin): the app works online as before.
    state.update({ state: 'unsupported' });
    return;
  }
  state.update({ state: 'registering' });
  reloadOnControllerChange(serviceWorker);
  listenForProgress();
  listenForRepairs();
  // After `load`: the install's downloads must not compete with the page's own.
  if (document.readyState === 'complete') register(serviceWorker);
  else addEventListener('load', () => register(serviceWorker), { once: true });
}

/** Dev builds register no worker, so nothing stale is served while developing: the status page says so. */
export function skipRegistrationInDev(): void {
  state.update({ state: 'unsupported', error: 'dev builds register no service worker' });
}

/** Asks the server for a new sw.js now, and the active worker to check its cache (and repair it if online). */
export function checkForUpdate(): void {
  if (!workerRegistration) return;
  state.update({ lastCheck: Date.now() });
  workerRegistration.active?.postMessage({ type: 'CHECK_CACHE' });
  // Offline or the server is down: the next check (hourly, or when the network returns) retries.
  workerRegistration.update().catch(() => {});
}

/** Activates the waiting worker; the page reloads once when it takes control. */
export function applyUpdate(): void {
  workerRegistration?.waiting?.postMessage({ type: 'SKIP_WAITING' });
}
