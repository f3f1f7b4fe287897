// Setting up a suite so that a failure says why. uvu runs `before` hooks inside a try whose
// finally block returns (uvu 0.5 runner()), and a return in finally drops the error: the suite's
// tests then count as failed (0 / N) and nothing anywhere says what broke.
import type { Callback, Test } from 'uvu';

/** Runs `setUp` before the suite's first test; if it throws, prints the suite's name and the error's stack, then fails the suite as uvu would. */
export function beforeAllTests<Context>(test: Test<Context>, setUp: Callback<Context>): void {
  test.before(async (context) => {
    try {
      await setUp(context);
    } catch (error) {
      const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
      console.error(`\n  ${context.__suite__}: setting up the suite failed, so none of its tests ran:\n  ${reason}`);
      throw error;
    }
  });
}
