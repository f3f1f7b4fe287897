// What the worker tells every page of the app about its cache, on REPAIR_CHANNEL (src/app-name.ts),
// after each check of the precached files. Types only: the worker sends it, the page reads it.

/** The worker's cache as its last check found it. */
export interface RepairReport {
  /** URL paths of precached files missing from the cache right now (precache.json included). */
  missing: string[];
  /** Files put back, each verified by its SHA-384, since this worker last started. */
  repaired: number;
  /** A refetch of the missing files is under way. */
  repairing: boolean;
  /** The worker saw no network, so it did not try: the next check while online does. */
  offline: boolean;
}
