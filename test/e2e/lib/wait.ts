// Bounded waiting. uvu has no per-test timeout, so every wait here ends with an error naming what
// it waited for. Wait for a positive signal; never sleep to prove that something did not happen.

/** How long a Playwright wait (`locator.waitFor(WAIT)`) may take before the test fails. */
export const WAIT = { timeout: 10_000 };

/** Resolves after `ms`. Only to pace an action (spacing network toggles), never to prove an absence. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How often `until` checks: at once, then after 25 ms, then each pause half as long again, up to
 * 100 ms. A check is usually a round trip to a browser (a script run in the page, a WebDriver
 * command), and several test files share the machine's cores: at a steady 25 ms a wait of ten
 * seconds costs 400 of them.
 */
const FIRST_PAUSE_MS = 25;
const LONGEST_PAUSE_MS = 100;

/** Polls `check` (more slowly as it waits: FIRST_PAUSE_MS up to LONGEST_PAUSE_MS); resolves with its first truthy value, throws after `ms` naming `what`. */
export async function until<T>(what: string, check: () => T | Promise<T>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(LONGEST_PAUSE_MS, pause * 1.5)) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(pause);
  }
}
