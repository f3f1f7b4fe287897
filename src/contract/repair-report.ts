// What the worker tells every page of the app about its cache, on REPAIR_CHANNEL (src/contract/app-name.ts),
// after each check of the precached files and when it finds a fault. Types only: the worker sends
// it, the page reads it.

/** The worker's cache as its last check found it. */
export interface RepairReport {
  /** URL paths of precached files missing from the cache right now (precache.json included). */
  missing: string[];
  /**
   * URL paths of entries found present but unreadable or failing their SHA-384: deleted, and
   * not yet put back verified.
   */
  damaged: string[];
  /** Files put back, each verified by its SHA-384, since this worker last started. */
  repaired: number;
  /** A refetch of the missing files is under way. */
  repairing: boolean;
  /** The worker saw no network, so it did not try: the next check while online does. */
  offline: boolean;
  /**
   * The browser's Cache API rejected a call (a damaged profile, a full disk): requests are
   * answered from the network, verified, and nothing is repaired until a check finds it working.
   */
  storageFailing: boolean;
}
