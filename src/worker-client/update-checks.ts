// Finding a new version while a page stays open: the browser checks on navigation only, so the page
// asks for /sw.js hourly, when the network returns, and when the person comes back to a tab (shown
// again, or restored from the back/forward cache) whose last check is over a minute old.
import { isWithinLast } from '../core/clock';
import { currentRegistration, registrationState } from './registration-store';

const HOUR_MS = 3_600_000;
/** A tab shown again (or restored from the back/forward cache) checks for updates when its last check is older than this. */
const STALE_CHECK_MS = 60_000;

/** Checks for updates from now on: hourly, when back online, and when a tab comes back. */
export function checkForUpdatesWhileOpen(): void {
  setInterval(checkForUpdate, HOUR_MS);
  addEventListener('online', checkForUpdate);
  // A tab left in the background, or an installed app resumed on a phone, gets no navigation and
  // so no update check from the browser: it asks when the person comes back to it.
  document.addEventListener('visibilitychange', checkIfStale);
  addEventListener('pageshow', (event) => {
    if (event.persisted) checkIfStale();
  });
}

/** Checks for an update when the page is visible, online, and its last check is over a minute old. */
function checkIfStale(): void {
  if (document.hidden || !navigator.onLine) return;
  const lastCheck = registrationState.getSnapshot().lastCheck ?? 0;
  // A last check in the future (the clock moved back since) is of unknown age: check now.
  if (isWithinLast(lastCheck, STALE_CHECK_MS - 1)) return;
  checkForUpdate();
}

/** Asks the server for a new sw.js now, and the active worker to check its cache (and repair it if online). */
export function checkForUpdate(): void {
  const registered = currentRegistration();
  if (!registered) return;
  registrationState.update({ lastCheck: Date.now() });
  registered.active?.postMessage({ type: 'CHECK_CACHE' });
  // Offline or the server is down: the next check (hourly, or when the network returns) retries.
  registered.update().catch(() => {});
}
