// When the network comes back, reload the page once, at a moment that loses nothing:
// only after the page was really offline, once the network has been stable for a while and the
// server answers, never twice within the guard window, never in a hidden tab, and always through
// reloadAfterFlush() so every pending save reaches the device first.
import { logTransition, probe } from './connectivity';
import { reloadAfterFlush, reloadGuard } from './flush';

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

/** sessionStorage key holding the time of the last automatic reload. */
export const GUARD_KEY = 'offline-shell:reconnect-reload';

/** Starts the reload-on-reconnect policy; returns a stop function. */
export function startReconnect({
  stableMs = 1000,
  guardMs = 10_000,
  backoffMs = 1000,
  maxBackoffMs = 30_000,
  check = probe,
  reload = reloadAfterFlush,
}: ReconnectOptions = {}): () => void {
  // True once the page has been offline (a page loaded offline gets no `offline` event) and
  // until it reloads: `online` alone is not a reason to reload.
  let wanted = !navigator.onLine;
  let waitingForShow = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = backoffMs;
  // Bumped by every network change: a probe answer that started before it is stale.
  let run = 0;
  const later = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(attempt, ms);
  };

  async function attempt() {
    // Offline: the `online` event starts over. Hidden: the tab reloads when shown, not behind
    // the user's back (its state could change while they are away and a hidden reload is wasted).
    if (!wanted || !navigator.onLine) return;
    if (document.hidden) return void (waitingForShow = true);
    const mine = run;
    const ok = await check();
    if (mine != run) return;
    if (!ok) {
      later(delay);
      delay = Math.min(delay * 2, maxBackoffMs);
      return;
    }
    if (document.hidden) return void (waitingForShow = true);
    const left = reloadGuard(GUARD_KEY, guardMs);
    // Within the guard window (a reload loop, or the network dropped right after the last
    // reload): wait out the window instead of reloading again.
    if (left > 0) return later(left);
    wanted = false;
    logTransition('reload');
    reload();
  }

  const onOffline = () => {
    wanted = true;
    run++;
    clearTimeout(timer);
  };
  const onOnline = () => {
    run++;
    delay = backoffMs;
    if (wanted) later(stableMs);
  };
  const onVisibility = () => {
    if (!document.hidden && waitingForShow) {
      waitingForShow = false;
      later(0);
    }
  };
  addEventListener('offline', onOffline);
  addEventListener('online', onOnline);
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    run++;
    clearTimeout(timer);
    removeEventListener('offline', onOffline);
    removeEventListener('online', onOnline);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
