// What a person stored with the versions before one app was its name and its base: keys
// `<name>:<what>` (src/contract/app-name.ts LEGACY_KEY_PREFIX), which every app of that name on the origin
// shared. Each is moved to this app's own key: written, read back, and only then removed, so the
// data never needs twice its room for long, and on a nearly full device (a heavy user's data
// filling most of the quota) it moves another way: the old key is removed first, its value held
// in memory, and written back if the new key still does not fit.
//
// Who takes a key that several bases shared: the first app of that name to start on this version,
// whatever its base, records itself under TAKEN_BY_KEY; the others leave every old key alone (they
// start empty, as a new app at that base would). A tab still running an earlier version may write
// an old key again after the move: the app that took the keys takes that too
// (src/stored-data/device-document.ts `legacyKeys`). sessionStorage is one tab's own: the app that
// starts in the tab takes its old keys (the resume point of the update's own reload).
import { APP_ID, LEGACY_KEY_PREFIX, storageKey } from '../contract/app-name';
import { area, type StorageProblem, save } from './storage';

/** The app (`<name>@<base>`) that took this origin's old localStorage keys. Itself under the old prefix: every base of the name reads it. */
export const TAKEN_BY_KEY = `${LEGACY_KEY_PREFIX}taken-by`;

/** Moves the keys the versions before left, in localStorage (when this app takes them) and in this tab's sessionStorage. */
export function adoptLegacyStorage(): void {
  const local = area('localStorage');
  if (local && takesLegacyKeys(local)) moveLegacyKeys(local);
  moveLegacyKeys(area('sessionStorage'));
}

/** The old keys `storage` holds now. */
function legacyKeysIn(storage: Storage): string[] {
  return Array.from({ length: storage.length }, (_, index) => storage.key(index)).filter(
    (key): key is string => key !== TAKEN_BY_KEY && (key?.startsWith(LEGACY_KEY_PREFIX) ?? false),
  );
}

/**
 * Whether this app takes the old keys of `storage` (localStorage): it took them before, or no app
 * of this name has and there are some to take (it records itself then). A record that cannot be
 * written (storage full) still lets this start take them: what it moves is gone from the old keys.
 */
export function takesLegacyKeys(storage: Storage | null): boolean {
  if (!storage) return false;
  const takenBy = storage.getItem(TAKEN_BY_KEY);
  if (takenBy !== null) return takenBy === APP_ID;
  if (legacyKeysIn(storage).length === 0) return false;
  save(TAKEN_BY_KEY, APP_ID, storage);
  return true;
}

/**
 * Moves each old key of `storage` to this app's key for it, where that has nothing yet. An old key
 * whose new key exists was written by a tab still on an earlier version after the move: a document
 * that merges it takes it (device-document.ts `legacyKeys`); anything else keeps the newer value.
 */
export function moveLegacyKeys(storage: Storage | null): void {
  if (!storage) return;
  for (const legacyKey of legacyKeysIn(storage)) {
    const key = storageKey(legacyKey.slice(LEGACY_KEY_PREFIX.length));
    const value = storage.getItem(legacyKey);
    if (value === null || storage.getItem(key) !== null) continue;
    writeReplacing(storage, key, value, [legacyKey]);
  }
}

/**
 * Writes `value` under `key`, reads it back, then removes `oldKeys` (what `value` replaces). When
 * both do not fit, the old keys are removed first, their values held here, and written back if
 * `value` still does not fit: nothing is lost either way. Returns the problem, or undefined once
 * `value` is stored and the old keys are gone.
 */
export function writeReplacing(storage: Storage, key: string, value: string, oldKeys: readonly string[]): StorageProblem | undefined {
  let held: (readonly [string, string | null])[] = [];
  const putBack = () => {
    for (const [oldKey, oldValue] of held) if (oldValue !== null) save(oldKey, oldValue, storage);
  };
  let problem = save(key, value, storage);
  if (problem === 'full' && oldKeys.length > 0) {
    held = oldKeys.map((oldKey) => [oldKey, storage.getItem(oldKey)] as const);
    for (const [oldKey] of held) storage.removeItem(oldKey);
    problem = save(key, value, storage);
  }
  // Read back before anything is removed: a browser that said yes and kept nothing keeps the old keys.
  if (!problem && storage.getItem(key) !== value) problem = 'unavailable';
  if (problem) {
    putBack();
    return problem;
  }
  for (const oldKey of oldKeys) storage.removeItem(oldKey);
  return undefined;
}
