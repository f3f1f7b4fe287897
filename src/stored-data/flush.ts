// Everything that must reach device storage before the page goes away registers here, so every
// reload path (reconnect, "Reload to update", the kill switch: src/reload/reload-after-flush.ts)
// saves the user's text first.
import { APP_NAME } from '../contract/app-name';

/** A synchronous save: returns false when what it holds could be neither saved nor carried through a reload. */
type Flusher = () => boolean | void;

const flushers = new Set<Flusher>();

/** Registers a synchronous save; returns its unregister. */
export function onFlush(save: Flusher): () => void {
  flushers.add(save);
  return () => flushers.delete(save);
}

/** Runs every registered save now; one failing save does not stop the others. Returns whether everything is kept. */
export function flushAll(): boolean {
  let kept = true;
  for (const save of [...flushers]) {
    try {
      if (save() === false) kept = false;
    } catch (error) {
      console.error(`${APP_NAME}: a save failed before reload`, error);
    }
  }
  return kept;
}
