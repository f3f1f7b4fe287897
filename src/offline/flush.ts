// Everything that must reach device storage before the page goes away registers here, so every
// reload path (reconnect, "Reload to update", the kill switch) saves the user's text first, and
// where they were (src/offline/resume-point.ts) so the new page puts them back.
import { APP_NAME } from '../app-name';
import { isWithinLast } from './clock';
import { logTransition } from './connectivity';
import { whenQuiet } from './quiet-moment';
import { saveResumePoint } from './resume-point';

/**
 * How long a reload waits, at most, while what the person typed can be neither saved nor carried
 * through it (site data blocked: no localStorage, no sessionStorage). Meanwhile the page stays as
 * it is, the status log says "reload waits: unsaved text", and each second the saves are tried
 * again; then the reload goes ahead, so no reload (an update, the kill switch) waits for good.
 */
export const UNSAVED_WAIT_MS = 60_000;

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

/** When the current reload started waiting for unsaved text (undefined: it is not waiting). */
let waitingSince: number | undefined;

/**
 * Saves everything and the resume point, then reloads: the one way the app reloads itself. Its
 * callers wait for a quiet moment first (src/offline/quiet-moment.ts whenQuiet). While something
 * cannot be kept, it waits (UNSAVED_WAIT_MS at most) and tries again at each quiet second.
 */
export function reloadAfterFlush(): void {
  const flushed = flushAll();
  // The resume point in any case: a reload after the wait still brings back the place and the fields.
  const placed = saveResumePoint();
  if (!(flushed && placed) && (waitingSince === undefined || isWithinLast(waitingSince, UNSAVED_WAIT_MS))) {
    if (waitingSince === undefined) logTransition('reload-waits', 'unsaved text');
    waitingSince ??= Date.now();
    setTimeout(() => whenQuiet(reloadAfterFlush), 1000);
    return;
  }
  waitingSince = undefined;
  location.reload();
}
