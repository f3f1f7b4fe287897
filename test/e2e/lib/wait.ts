// Bounded waiting. uvu has no per-test timeout, so every wait here ends with an error naming what
// it waited for. Wait for a positive signal; never sleep to prove that something did not happen.

/** How long a Playwright wait (`locator.waitFor(WAIT)`) may take before the test fails. */
export const WAIT = { timeout: 10_000 };

/** Resolves after `ms`. Only to pace an action (spacing network toggles), never to prove an absence. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 25 ms; resolves with its first truthy value, throws after `ms` naming `what`. */
export async function until<T>(what: string, check: () => T | Promise<T>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(25);
  }
}
