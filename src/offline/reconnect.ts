// When the network comes back, reload the page once, at a moment that loses nothing:
// only after the page was really offline, once the network has been stable for a while and the
// server answers, never twice within the guard window, never in a hidden tab, and always through
// reloadAfterFlush() so every pending save reaches the device first.
import { storageKey } from '../app-name';
import { logTransition, probe } from './connectivity';
import { reloadAfterFlush } from './flush';
import { claimReload } from './reload-guard';

/** Timings (ms) and seams of the reload policy; every field has a production default, tests shorten them. */
export interface ReconnectOptions {
  /** The network must stay online this long before the probe: flapping gives one reload. */
  stableMs?: number;
  /** No second automatic reload within this long of the last one (kept in sessionStorage). */
  guardMs?: number;
  /** First wait after a failed probe; doubles each time up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Resolves true when the server is reachable (default: probe(), a HEAD of /sw.js). */
  check?: () => Promise<boolean>;
  /** Saves and reloads. */
  reload?: () => void;
}

/** sessionStorage key holding the time of the last reconnect reload. */
export const GUARD_KEY = storageKey('reconnect-reload');

/** Starts the reload-on-reconnect policy; returns a stop function. */
export function startReconnect({
  stableMs = 1000,
  guardMs = 10_000,
  backoffMs = 1000,
  maxBackoffMs = 30_000,
  check = probe,
  reload = reloadAfterFlush,
}: ReconnectOptions = {}): () => void {
  // Precondition of the reload: the page has been offline (a page loaded offline gets no
  // `offline` event, hence onLine), and has not reloaded since. `online` alone is no reason.
  let reloadPending = !navigator.onLine;
  // The tab was hidden when the reload was due: it reloads when shown, not behind the user's back.
  let reloadWhenVisible = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let nextBackoffMs = backoffMs;
  // Bumped by every network change: a probe answer that started before it is stale.
  let networkEpoch = 0;

  const scheduleAttempt = (delayMs: number) => {
    clearTimeout(timer);
    timer = setTimeout(attempt, delayMs);
  };

  async function attempt() {
    // Offline again: the next `online` event starts over.
    if (!reloadPending || !navigator.onLine) return;
    if (document.hidden) {
      reloadWhenVisible = true;
      return;
    }
    const epochAtStart = networkEpoch;
    const reachable = await check();
    if (epochAtStart !== networkEpoch) return;
    if (!reachable) {
      scheduleAttempt(nextBackoffMs);
      nextBackoffMs = Math.min(nextBackoffMs * 2, maxBackoffMs);
      return;
    }
    if (document.hidden) {
      reloadWhenVisible = true;
      return;
    }
    // Within the guard window (a reload loop, or the network dropped right after the last
    // reload): wait out the window instead of reloading again.
    const waitMs = claimReload(GUARD_KEY, guardMs);
    if (waitMs > 0) {
      scheduleAttempt(waitMs);
      return;
    }
    reloadPending = false;
    logTransition('reload');
    reload();
  }

  const onOffline = () => {
    reloadPending = true;
    networkEpoch++;
    clearTimeout(timer);
  };
  const onOnline = () => {
    networkEpoch++;
    nextBackoffMs = backoffMs;
    if (reloadPending) scheduleAttempt(stableMs);
  };
  const onVisibilityChange = () => {
    if (document.hidden || !reloadWhenVisible) return;
    reloadWhenVisible = false;
    scheduleAttempt(0);
  };
  addEventListener('offline', onOffline);
  addEventListener('online', onOnline);
  document.addEventListener('visibilitychange', onVisibilityChange);
  return () => {
    networkEpoch++;
    clearTimeout(timer);
    removeEventListener('offline', onOffline);
    removeEventListener('online', onOnline);
    document.removeEventListener('visibilitychange', onVisibilityChange);
  };
}
