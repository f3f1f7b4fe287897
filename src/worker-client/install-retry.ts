// When the first install fails (a file that kept stalling, a server error, a browser whose storage
// refused the files), the page tries again by itself while it stays open: with backoff, only while
// online, and without a reload (the page the person is using stays as it is). A failed update needs
// none: the old version keeps serving.
import { logTransition } from '../reload/connectivity';
import { registrationState } from './registration-store';

/** The first retry waits this long: a server error or a weak signal often passes within seconds. */
export const FIRST_RETRY_MS = 10_000;
/** Each later retry waits this many times longer than the one before... */
export const RETRY_GROWTH = 3;
/** ...up to this long: a page left open keeps trying, a few times an hour at most. */
export const LONGEST_RETRY_MS = 600_000;

/** How long to wait before the retry that follows `failures` failed installs (1 or more). */
export const retryDelay = (failures: number): number => Math.min(FIRST_RETRY_MS * RETRY_GROWTH ** (failures - 1), LONGEST_RETRY_MS);

/**
 * Calls `retry` once the delay for `failures` has passed and the browser is online (an offline
 * page waits for its `online` event); returns the time (ms since epoch) the retry is due.
 */
export function scheduleInstallRetry(failures: number, retry: () => void): number {
  const delay = retryDelay(failures);
  setTimeout(() => whenOnline(retry), delay);
  return Date.now() + delay;
}

/** Calls `then` now when online, else at the next `online` event. */
function whenOnline(then: () => void): void {
  if (navigator.onLine) {
    then();
    return;
  }
  addEventListener('online', then, { once: true });
}

/** First installs (or registrations) that failed in this page: each retry waits longer. */
let installFailures = 0;

/** A failed update leaves the old version serving; a failed first install leaves no offline copy, and is tried again. */
export function reportFailedInstall(registered: ServiceWorkerRegistration, registerAgain: () => void): void {
  if (registered.active) {
    registrationState.update({ error: 'An update failed to install; this version keeps working.' });
    return;
  }
  retryFirstInstall('Could not save the app for offline use.', registerAgain);
}

/**
 * Says that offline use is not ready yet and when the page tries again, and tries then: a first
 * install that failed removed its registration (Service Workers spec, Install step "installFailed"),
 * so the retry registers anew (`registerAgain`). No reload: the page in use stays as it is.
 */
export function retryFirstInstall(error: string, registerAgain: () => void): void {
  installFailures++;
  const retryAt = scheduleInstallRetry(installFailures, () => {
    registrationState.update({ state: 'registering', error: null, retryAt: null, installFailure: null });
    registerAgain();
  });
  registrationState.update({ state: 'error', error, retryAt });
  logTransition('install-failed', `${error} Trying again in ${Math.round((retryAt - Date.now()) / 1000)} s.`);
}
