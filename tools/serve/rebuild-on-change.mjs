// The dev loop's answer to file events: one build at a time, reported only when nothing changed meanwhile.

/**
 * Returns the file watcher's callback: it starts `build` at once, with no settling delay. An
 * editor's save is often several events (truncate, write, rename): those of one write arrive in
 * the same turn of the event loop and make one build; one that arrives while a build runs makes
 * one more build, and only a build that started after the last event is reported to
 * `report({ error } | { value })`, so a half-written file never reloads the page. Builds never overlap.
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
