// The first install's "n of m files" for the pages: a few times a second, not once per file
// (src/sw/precache.ts posts them, and why an install failed: src/contract/install-report.ts).

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
  // Posts the newest count when it is new, and then waits an interval; else the interval is over.
  const send = (done: number) => {
    posted = done;
    post(done);
  };
  const postNewest = () => {
    interval = newest === posted ? undefined : setTimeout(postNewest, intervalMs);
    if (interval) send(newest);
  };
  const stop = () => clearTimeout(interval);
  return {
    report(done) {
      newest = done;
      if (done === total) {
        stop();
        send(done);
      } else if (!interval) postNewest();
    },
    stop,
  };
}
