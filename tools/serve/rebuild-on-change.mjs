// The dev loop's answer to file events: one build at a time, reported only when nothing changed meanwhile.

/**
 * How long a failed build waits for another file event before it is reported. An editor's save
 * truncates, then writes (or writes a temporary file, then renames it); a build that reads the
 * file in between fails in a few milliseconds, before the event of the write has been delivered,
 * and the write's own build succeeds right after: that failure is no news.
 */
const FAILURE_SETTLE_MS = 100;

/**
 * Returns the file watcher's callback: it starts `build` at once, with no settling delay. An
 * editor's save is often several events (truncate, write, rename): those of one write arrive in
 * the same turn of the event loop and make one build; one that arrives while a build runs makes
 * one more build, and only a build that started after the last event is reported to
 * `report({ error } | { value })` (a failure once no event followed for FAILURE_SETTLE_MS), so a
 * half-written file never reloads the page nor prints an error. Builds never overlap.
 * @template T
 * @param {() => Promise<T>} build
 * @param {(outcome: { error?: unknown, value?: T }) => void} report
 */
export function rebuildOnChange(build, report) {
  let changedSinceStart = false;
  let running = false;
  async function runUntilUnchanged() {
    running = true;
    while (changedSinceStart) {
      await new Promise((resolve) => setImmediate(resolve));
      changedSinceStart = false;
      let outcome;
      try {
        outcome = { value: await build() };
      } catch (error) {
        outcome = { error };
        await new Promise((resolve) => setTimeout(resolve, FAILURE_SETTLE_MS));
      }
      if (!changedSinceStart) report(outcome);
    }
    running = false;
  }
  return () => {
    changedSinceStart = true;
    if (!running) runUntilUnchanged();
  };
}
