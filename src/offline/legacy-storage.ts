// What a person stored with the versions before one app was its name and its base: keys
// `<name>:<what>` (src/app-name.ts LEGACY_KEY_PREFIX), which every app of that name on the origin
// shared. On the first start of this version each is copied to this app's own key, unless that
// key exists already, so notes, the resume point of the update's own reload and the connectivity
// log carry over. The old keys stay: another copy of the app at another base on this origin reads
// them too when it updates, and nothing of this app reads them again.
import { LEGACY_KEY_PREFIX, storageKey } from '../app-name';
import { area, save } from './storage';

/** Marks an area whose old keys were copied: once per origin (localStorage), once per tab (sessionStorage). */
const ADOPTED_KEY = storageKey('legacy-keys-adopted');

/** Copies the keys the versions before left, in localStorage and this tab's sessionStorage, once each. */
export function adoptLegacyStorage(): void {
  adoptLegacyKeys(area('localStorage'));
  adoptLegacyKeys(area('sessionStorage'));
}

/**
 * Copies each old key of `storage` to this app's key for it, where that has nothing yet. Done
 * once: a key the person later cleared must not come back. A copy that fails (storage full)
 * leaves the area unmarked, so the next start tries again; nothing is ever deleted here.
 */
export function adoptLegacyKeys(storage: Storage | null): void {
  if (!storage || storage.getItem(ADOPTED_KEY) !== null) return;
  const legacyKeys = Array.from({ length: storage.length }, (_, index) => storage.key(index)).filter(
    (key): key is string => key?.startsWith(LEGACY_KEY_PREFIX) ?? false,
  );
  let copiedAll = true;
  for (const legacyKey of legacyKeys) {
    const key = storageKey(legacyKey.slice(LEGACY_KEY_PREFIX.length));
    const value = storage.getItem(legacyKey);
    if (value === null || storage.getItem(key) !== null) continue;
    if (save(key, value, storage)) copiedAll = false;
  }
  if (copiedAll) save(ADOPTED_KEY, '1', storage);
}
