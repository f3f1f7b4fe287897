// Everything that must reach device storage before the page goes away registers here, so every
// reload path (reconnect, "Reload to update", the kill switch) saves the user's text first, and
// where they were (src/offline/resume-point.ts) so the new page puts them back.
import { APP_NAME } from '../app-name';
import { saveResumePoint } from './resume-point';

const flushers = new Set<() => void>();

/** Registers a synchronous save; returns its unregister. */
export function onFlush(save: () => void): () => void {
  flushers.add(save);
  return () => flushers.delete(save);
}

/** Runs every registered save now; one failing save does not stop the others. */
export function flushAll(): void {
  for (const save of [...flushers]) {
    try {
      save();
    } catch (error) {
      console.error(`${APP_NAME}: a save failed before reload`, error);
    }
  }
}

/**
 * Saves everything and the resume point, then reloads: the one way the app reloads itself. Its
 * callers wait for a quiet moment first (src/offline/quiet-moment.ts whenQuiet).
 */
export function reloadAfterFlush(): void {
  flushAll();
  saveResumePoint();
  location.reload();
}
