// The app's side of a dev reload: it reloads the way the shell's own reloads do (every save
// flushed, the resume point saved: the screen, scroll, focus, caret and every field the person
// changed, src/stored-data/flush.ts), and tells the terminal what did not come back. Dev builds only.
import { reloadAfterFlush } from '../reload/reload-after-flush';
import type { RestoreOutcome } from '../reload/field-restore';
import { DEV_RELOAD_EVENT, REPORT_PATH } from './protocol';

/** Answers the dev client's reload with the shell's own: the work is kept. */
export function keepWorkOnDevReload(): void {
  addEventListener(DEV_RELOAD_EVENT, (event) => {
    event.preventDefault();
    reloadAfterFlush();
  });
}

/** Tells the dev server, for the terminal, which fields (or the focus) a reload could not put back. */
export function reportRestore(outcome: RestoreOutcome & { focusLost: string | null }): void {
  if (outcome.notPutBack.length === 0 && outcome.focusLost === null) return;
  const body = JSON.stringify({ path: location.pathname, notPutBack: outcome.notPutBack, focusLost: outcome.focusLost });
  // Nothing to do when the server is gone: the dev loop stopped.
  fetch(REPORT_PATH, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }).catch(() => {});
}
