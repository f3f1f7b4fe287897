// The reload-loop guard of the automatic reloads (reconnect, update): a reload records its time
// in sessionStorage, which survives the reload, and no second one may follow within a window.
// DevTools' "update on reload", or a network that drops right after a reload, would loop otherwise.
import { withinWindow } from '../core/clock';
import { area, save } from '../stored-data/storage';

/**
 * Claims the right to reload now: returns 0 and records the time when no automatic reload under
 * `key` happened in the last `windowMs`; otherwise returns the ms until one may, never more than
 * `windowMs`. Without sessionStorage there is no record to keep and it returns 0: reloading beats
 * never reloading.
 */
export function claimReload(key: string, windowMs: number): number {
  const storage = area('sessionStorage');
  const last = Number(storage?.getItem(key) ?? Number.NaN);
  const now = Date.now();
  // A record in the future: the clock moved back since that reload. How long ago it really was is
  // unknown, so the window starts again now, once: waiting out `last` could take a month.
  if (last > now) {
    save(key, String(now), storage);
    return windowMs;
  }
  const remaining = withinWindow(last + windowMs - now, windowMs);
  if (remaining > 0) return remaining;
  // A failed write (storage full) leaves this reload unguarded, as without sessionStorage.
  save(key, String(now), storage);
  return 0;
}
