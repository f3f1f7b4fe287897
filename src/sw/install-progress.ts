// The first install's "n of m files" for the pages: a few times a second, not once per file; and
// why it failed, when the person can do something about it (src/install-report.ts).
import { PROGRESS_CHANNEL } from '../app-name';
import { isQuotaError, type InstallReport } from '../install-report';

/**
 * The least time between two progress reports. Each report re-renders the page's banner, a polite
 * live region that a screen reader reads out, and crosses from the worker to every page: one per
 * file (16 in about 150 ms on loopback) made the install itself about 17 ms slower (measured in
 * Chromium 156 on 2 cores) and queued announcements nobody could follow. Four a second still
 * moves the count visibly on a slow link.
 */
export const PROGRESS_INTERVAL_MS = 250;

/** Takes each new count of files stored, and says when no more will come. */
export interface ProgressReporter {
  report(done: number): void;
  stop(): void;
}

/**
 * Passes counts of `total` to `post`: the first one at once, then at most one per interval (the
 * newest count when the interval ends, so the page is never more than one interval behind), and
 * the last one (`done === total`) at once.
 */
export function throttledProgress(total: number, post: (done: number) => void, intervalMs = PROGRESS_INTERVAL_MS): ProgressReporter {
  let interval: ReturnType<typeof setTimeout> | undefined;
  let newest = 0;
  let posted = 0;
  const send = (done: number) => {
    posted = done;
    post(done);
  };
  const startInterval = () => {
    interval = setTimeout(() => {
      interval = undefined;
      if (newest === posted) return;
      send(newest);
      startInterval();
    }, intervalMs);
  };
  const stop = () => {
    clearTimeout(interval);
    interval = undefined;
  };
  return {
    report(done) {
      newest = done;
      if (done === total) {
        stop();
        send(done);
        return;
      }
      if (interval) return;
      send(done);
      startInterval();
    },
    stop,
  };
}

/**
 * Tells the pages that the install failed for lack of room (the Cache API's QuotaExceededError),
 * which they say in words a person can act on; any other failure needs no words of its own.
 */
export function reportInstallFailure(error: unknown): void {
  if (!isQuotaError(error) || !globalThis.BroadcastChannel) return;
  const channel = new BroadcastChannel(PROGRESS_CHANNEL);
  channel.postMessage({ failed: 'no-room' } satisfies InstallReport);
  channel.close();
}
