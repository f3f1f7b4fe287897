// The one way the app reloads itself: what the person typed saved first (src/stored-data/flush.ts),
// and where they were (src/reload/resume-point.ts), so the new page puts them back.
import { isWithinLast } from '../core/clock';
import { logTransition } from './connectivity';
import { flushAll } from '../stored-data/flush';
import { whenQuiet } from './quiet-moment';
import { saveResumePoint } from './resume-point';

/**
 * How long a reload waits, at most, while what the person typed can be neither saved nor carried
 * through it (site data blocked: no localStorage, no sessionStorage). Meanwhile the page stays as
 * it is, the status log says "reload waits: unsaved text", and each second the saves are tried
 * again; then the reload goes ahead, so no reload (an update, the kill switch) waits for good.
 */
export const UNSAVED_WAIT_MS = 60_000;

/** When the current reload started waiting for unsaved text (undefined: it is not waiting). */
let waitingSince: number | undefined;

/**
 * Saves everything and the resume point, then reloads: the one way the app reloads itself. Its
 * callers wait for a quiet moment first (src/reload/quiet-moment.ts whenQuiet). While something
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
