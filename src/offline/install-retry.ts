// When the first install fails (a file that kept stalling, a server error, a browser whose storage
// refused the files), the page tries again by itself while it stays open: with backoff, only while
// online, and without a reload (the page the person is using stays as it is).

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
