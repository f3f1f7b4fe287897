// Everything that must reach device storage before the page goes away registers here, so every
// reload path (reconnect, "Reload to update", the kill switch) can save the user's text first.
import { area, save } from './storage';

const flushers = new Set<() => void>();

/** Registers a synchronous save; returns its unregister. */
export function onFlush(fn: () => void): () => void {
  flushers.add(fn);
  return () => flushers.delete(fn);
}

/** Runs every registered save now; one failing save does not stop the others. */
export function flushAll(): void {
  for (const fn of [...flushers]) {
    try {
      fn();
    } catch (err) {
      console.error('offline-shell: a save failed before reload', err);
    }
  }
}

/** Saves everything, then reloads: the one way the app reloads itself. */
export function reloadAfterFlush(): void {
  flushAll();
  location.reload();
}

/**
 * The reload-loop guard of the automatic reloads: the ms left of the `ms` window after the last
 * reload recorded under `key` (sessionStorage). When none is left, records now, so the caller
 * reloads. Without sessionStorage there is no guard (NaN): reloading beats never reloading.
 */
export function reloadGuard(key: string, ms: number): number {
  const s = area('sessionStorage');
  const left = Number(s?.getItem(key)) + ms - Date.now();
  if (!(left > 0)) save(key, '' + Date.now(), s);
  return left;
}
