// Device storage for the user's data (localStorage: synchronous, so a save can finish inside
// `pagehide` or right before `location.reload()`, which IndexedDB's async transactions cannot
// promise). Every failure comes back as a value the UI can show, never as an exception.
import { isQuotaError } from '../contract/install-report';

/** Why a read or a write did not work: quota reached, storage disabled, or unreadable data. */
export type StorageProblem = 'full' | 'unavailable' | 'corrupt';

/** What of a Storage the stored data uses: the page's localStorage and sessionStorage, or the tests' in-memory areas. */
export type StorageArea = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

/** The page's localStorage (or sessionStorage), or null where the browser forbids it: with site data blocked, merely reading `window.localStorage` throws a SecurityError. */
export function area(kind: 'localStorage' | 'sessionStorage' = 'localStorage'): Storage | null {
  try {
    const storage = window[kind];
    // Firefox hands out the object but throws on first use when storage is disabled.
    void storage.length;
    return storage;
  } catch {
    return null;
  }
}

/** Reads the text stored under `key` (null when absent), or the problem 'unavailable'. */
export function loadText(key: string, storage: StorageArea | null = area()): { raw: string | null; problem?: 'unavailable' } {
  if (!storage) return { raw: null, problem: 'unavailable' };
  try {
    return { raw: storage.getItem(key) };
  } catch {
    return { raw: null, problem: 'unavailable' };
  }
}

/** Reads `key` as JSON: `raw` is the stored text (null when absent); invalid JSON gives problem 'corrupt'. */
export function load(key: string, storage: StorageArea | null = area()): { raw: string | null; value?: unknown; problem?: StorageProblem } {
  const { raw, problem } = loadText(key, storage);
  if (problem) return { raw, problem };
  return parse(raw);
}

/** Parses stored text: its value (undefined for no text), or problem 'corrupt' for text that is not JSON. */
export function parse(raw: string | null): { raw: string | null; value?: unknown; problem?: 'corrupt' } {
  if (raw === null) return { raw, value: undefined };
  try {
    return { raw, value: JSON.parse(raw) };
  } catch {
    return { raw, problem: 'corrupt' };
  }
}

/** Writes `value` (a string as is, anything else as JSON); returns the problem, or undefined once stored. */
export function save(key: string, value: unknown, storage: StorageArea | null = area()): StorageProblem | undefined {
  if (!storage) return 'unavailable';
  try {
    storage.setItem(key, typeof value === 'string' ? value : JSON.stringify(value));
    return undefined;
  } catch (error) {
    return isQuotaError(error) ? 'full' : 'unavailable';
  }
}

/**
 * Writes `value` under `key`, reads it back, then removes `oldKeys` (what `value` replaces: keys
 * whose content was merged into it). When both do not fit, the old keys are removed first, their
 * values held here, and written back if `value` still does not fit: nothing is lost either way.
 * Returns the problem, or undefined once `value` is stored and the old keys are gone.
 */
export function writeReplacing(storage: StorageArea, key: string, value: string, oldKeys: readonly string[]): StorageProblem | undefined {
  let held: (readonly [string, string | null])[] = [];
  let problem = save(key, value, storage);
  if (problem === 'full' && oldKeys.length > 0) {
    held = oldKeys.map((oldKey) => [oldKey, storage.getItem(oldKey)] as const);
    for (const [oldKey] of held) storage.removeItem(oldKey);
    problem = save(key, value, storage);
  }
  // Read back before anything is removed: a browser that said yes and kept nothing keeps the old keys.
  if (!problem && storage.getItem(key) !== value) problem = 'unavailable';
  if (problem) {
    for (const [oldKey, oldValue] of held) if (oldValue !== null) save(oldKey, oldValue, storage);
    return problem;
  }
  for (const oldKey of oldKeys) storage.removeItem(oldKey);
  return undefined;
}

/**
 * Puts `value` in the current history entry's state under `key` (undefined: removes it), for the
 * next page of this tab where site data is blocked: a reload keeps the entry's state. Says whether it is there.
 */
export function keepInHistory(key: string, value: unknown): boolean {
  try {
    history.replaceState({ ...history.state, [key]: value }, '');
    return value !== undefined;
  } catch {
    // Too many calls (Safari and Firefox limit replaceState), or a value that cannot be cloned.
    return false;
  }
}
