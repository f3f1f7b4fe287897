// Waiting with a limit, and the clocks the bench measures with.

/**
 * Resolves after `ms` milliseconds.
 * @param {number} ms
 * @returns {Promise<void>}
 */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Wall-clock time in ms with sub-millisecond precision, comparable with the browser's timeOrigin + now(). */
export const wallNow = () => performance.timeOrigin + performance.now();

/**
 * Rejects with `bench: <what> took longer than <ms> ms` if the promise has not settled by then.
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @param {string} what
 * @returns {Promise<T>}
 */
export async function within(promise, ms, what) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  /** @type {Promise<never>} */
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`bench: ${what} took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Calls `check` every `intervalMs` until it returns something other than undefined, at most
 * `limitMs`. A check that throws counts as "not yet" (a page between two documents does).
 * @template T
 * @param {() => T | undefined | Promise<T | undefined>} check
 * @param {{ limitMs: number, what: string, intervalMs?: number }} options
 * @returns {Promise<T>}
 */
export async function poll(check, { limitMs, what, intervalMs = 25 }) {
  /** @type {Error | undefined} */
  let lastError;
  for (const end = Date.now() + limitMs; Date.now() < end; await sleep(intervalMs)) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = /** @type {Error} */ (error);
    }
  }
  throw new Error(
    `bench: ${what} did not happen within ${limitMs} ms${lastError ? ` (last error: ${lastError.message.split('\n')[0]})` : ''}`,
  );
}
