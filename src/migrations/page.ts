// The page's part of the migrations from this template's earlier releases (the worker's:
// worker.ts): what a person stored before one app was its name and its base, under keys
// `<name>:<what>` that every app of that name on the origin shared. Each is moved to this app's own
// key: written, read back, and only then removed, so the data never needs twice its room for long;
// on a nearly full device (a heavy user's data filling most of the quota) the old key is removed
// first, its value held in memory, and written back if the new key still does not fit.
//
// Who takes a key that several bases shared: the first app of that name to start on this version,
// whatever its base, records itself under TAKEN_BY_KEY; the others leave every old key alone (they
// start empty, as a new app at that base would). A tab still running an earlier release may write
// an old key again after the move: each device document of the app that took the keys takes that
// too (document-host.ts takeFormerKeys). sessionStorage is one tab's own: the app that starts in the
// tab takes its old keys (the resume point of the update's own reload).
// An app that never shipped an earlier release deletes src/migrations/ and the lines marked
// "Delete with src/migrations/" (README, "Make it your own").
import { APP_ID, APP_NAME, storageKey } from '../contract/app-name';
import { takeFormerKeys } from '../stored-data/document-host';
import { area, type StorageArea, save, writeReplacing } from '../stored-data/storage';

/** What the earlier releases called a storage key: `<name>:<what>`, one for every app of that name on the origin. */
export const LEGACY_KEY_PREFIX = APP_NAME + ':';

/** The app (`<name>@<base>`) that took this origin's old localStorage keys. Itself under the old prefix: every base of the name reads it. */
export const TAKEN_BY_KEY = `${LEGACY_KEY_PREFIX}taken-by`;

/**
 * Moves the keys the earlier releases left, in localStorage (when this app takes them) and in
 * this tab's sessionStorage, and lets each device document take in its old key from then on.
 * Call it before anything reads storage.
 */
export function adoptEarlierReleases(): void {
  const local = area('localStorage');
  if (local && takesLegacyKeys(local)) moveLegacyKeys(local);
  moveLegacyKeys(area('sessionStorage'));
  takeFormerKeys(legacyKeysOf);
}

/** The old key of this app's key `key` (`<id>:<what>` was `<name>:<what>`), when this app takes the old keys of `storage`. */
export function legacyKeysOf(key: string, storage: StorageArea | null): string[] {
  const what = key.startsWith(storageKey('')) ? key.slice(storageKey('').length) : undefined;
  return what !== undefined && takesLegacyKeys(storage) ? [LEGACY_KEY_PREFIX + what] : [];
}

/** The old keys `storage` holds now. */
function legacyKeysIn(storage: StorageArea): string[] {
  return Array.from({ length: storage.length }, (_, index) => storage.key(index)).filter(
    (key): key is string => key !== TAKEN_BY_KEY && (key?.startsWith(LEGACY_KEY_PREFIX) ?? false),
  );
}

/**
 * Whether this app takes the old keys of `storage` (localStorage): it took them before, or no app
 * of this name has and there are some to take (it records itself then). A record that cannot be
 * written (storage full) still lets this start take them: what it moves is gone from the old keys.
 */
export function takesLegacyKeys(storage: StorageArea | null): boolean {
  if (!storage) return false;
  const takenBy = storage.getItem(TAKEN_BY_KEY);
  if (takenBy !== null) return takenBy === APP_ID;
  if (legacyKeysIn(storage).length === 0) return false;
  save(TAKEN_BY_KEY, APP_ID, storage);
  return true;
}

/**
 * Moves each old key of `storage` to this app's key for it, where that has nothing yet. An old key
 * whose new key exists was written by a tab still on an earlier release after the move: a device
 * document takes it (legacyKeysOf); anything else keeps the newer value.
 */
export function moveLegacyKeys(storage: StorageArea | null): void {
  if (!storage) return;
  for (const legacyKey of legacyKeysIn(storage)) {
    const key = storageKey(legacyKey.slice(LEGACY_KEY_PREFIX.length));
    const value = storage.getItem(legacyKey);
    if (value === null || storage.getItem(key) !== null) continue;
    writeReplacing(storage, key, value, [legacyKey]);
  }
}
