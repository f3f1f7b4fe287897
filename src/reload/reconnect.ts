// When the network comes back, reload the page once, at a moment that loses nothing: only after
// the page was really offline, once the network has been stable for a while, the tab is visible,
// the person is not in the middle of something (src/reload/quiet-moment.ts) and the server
// answers; never twice within the guard window; and always through reloadAfterFlush(), which
// saves every pending edit and the resume point first.
import { storageKey } from '../contract/app-name';
import { logTransition } from './connectivity';
import { reloadAfterFlush } from './reload-after-flush';
import { busyReason, whenQuiet, type BusyReason } from './quiet-moment';
import { claimReload } from './reload-guard';
import { sharedProbe } from './shared-probe';

/** Timings (ms) and seams of the reload policy; every field has a production default, tests shorten them. */
export interface ReconnectOptions {
  /** The network must stay online this long before the probe: flapping gives one reload. */
  stableMs?: number;
  /** No second automatic reload within this long of the last one (kept in sessionStorage). */
  guardMs?: number;
  /** First wait after a failed probe; doubles each time up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /**
   * Resolves true when the server is reachable; `onlineSince` is when this tab saw the network
   * return (default: sharedProbe(), a HEAD of /sw.js that the tabs take turns on).
   */
  check?: (onlineSince: number) => Promise<boolean>;
  /** Saves and reloads. */
  reload?: () => void;
}

/** sessionStorage key holding the time of the last reconnect reload. */
export const GUARD_KEY = storageKey('reconnect-reload');

/** Logs "reload waits: <reason>" for the status page. */
const logWait = (reason: BusyReason) => logTransition('reload-waits', reason);

/** Starts the reload-on-reconnect policy; returns a stop function. */
export function startReconnect({
  stableMs = 1000,
  guardMs = 10_000,
  backoffMs = 1000,
  maxBackoffMs = 30_000,
  check = sharedProbe,
  reload = reloadAfterFlush,
}: ReconnectOptions = {}): () => void {
  // Precondition of the reload: the page has been offline (a page loaded offline gets no
  // `offline` event, hence onLine), and has not reloaded since. `online` alone is no reason.
  let reloadPending = !navigator.onLine;
  let onlineSince = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelQuietWait = () => {};
  let nextBackoffMs = backoffMs;
  // Bumped by every network change: a probe answer that started before it is stale.
  let networkEpoch = 0;

  const cancelPending = () => {
    clearTimeout(timer);
    cancelQuietWait();
  };
  const scheduleAttempt = (delayMs: number) => {
    cancelPending();
    timer = setTimeout(attempt, delayMs);
  };

  /** Waits for a visible tab and a quiet moment, then probes. */
  function attempt(): void {
    // Offline again: the next `online` event starts over.
    if (!reloadPending || !navigator.onLine) return;
    cancelQuietWait();
    cancelQuietWait = whenQuiet(probeThenReload, logWait);
  }

  async function probeThenReload(): Promise<void> {
    const epochAtStart = networkEpoch;
    // A check that throws is a failed probe: the backoff retries it.
    const reachable = await check(onlineSince).catch(() => false);
    if (epochAtStart !== networkEpoch || !reloadPending) return;
    if (!reachable) {
      scheduleAttempt(nextBackoffMs);
      nextBackoffMs = Math.min(nextBackoffMs * 2, maxBackoffMs);
      return;
    }
    // The person started typing (or hid the tab) while the probe was out: wait for the next quiet
    // moment and ask again then, as the network may have changed meanwhile.
    if (busyReason()) {
      attempt();
      return;
    }
    reloadUnlessGuarded();
  }

  /** Reloads now, or waits out the guard window; its caller has checked the precondition. */
  function reloadUnlessGuarded(): void {
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
    cancelPending();
  };
  const onOnline = () => {
    networkEpoch++;
    onlineSince = Date.now();
    nextBackoffMs = backoffMs;
    if (reloadPending) scheduleAttempt(stableMs);
  };
  // The browser's own events, not the connectivity store: each event is one step of this policy
  // (the store also changes on every probe answer, this policy's own included), and it needs no
  // other module started first.
  addEventListener('offline', onOffline);
  addEventListener('online', onOnline);
  return () => {
    networkEpoch++;
    cancelPending();
    removeEventListener('offline', onOffline);
    removeEventListener('online', onOnline);
  };
}
