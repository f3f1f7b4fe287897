// Device storage for the user's data (localStorage: synchronous, so a save can finish inside
// `pagehide` or right before `location.reload()`, which IndexedDB's async transactions cannot
// promise). Every failure comes back as a value the UI can show, never as an exception.

/** Why a read or a write did not work: quota reached, storage disabled, or unreadable data. */
export type StorageProblem = 'full' | 'unavailable' | 'corrupt';

/** The page's localStorage (or sessionStorage), or null where the browser forbids it: with site data blocked, merely reading `window.localStorage` throws a SecurityError. */
export function area(kind: 'localStorage' | 'sessionStorage' = 'localStorage'): Storage | null {
  try {
    const s = window[kind];
    s.length; // Firefox hands out the object but throws on first use when storage is disabled
    return s;
  } catch {
    return null;
  }
}

/** Reads `key` as JSON: `raw` is the stored text (null when absent); invalid JSON gives problem 'corrupt'. */
export function load(key: string, s = area()): { raw: string | null; value?: unknown; problem?: StorageProblem } {
  let raw: string | null = null;
  try {
    raw = s!.getItem(key);
    return { raw, value: raw === null ? undefined : JSON.parse(raw) };
  } catch {
    return { raw, problem: s && raw !== null ? 'corrupt' : 'unavailable' };
  }
}

/** Writes `value` (a string as is, anything else as JSON); returns the problem, or undefined once stored. */
export function save(key: string, value: unknown, s = area()): StorageProblem | undefined {
  try {
    s!.setItem(key, typeof value == 'string' ? value : JSON.stringify(value));
  } catch (err) {
    // QuotaExceededError (Chromium, WebKit) / NS_ERROR_DOM_QUOTA_REACHED (old Firefox)
    return s && /quota/i.test((err as Error).name) ? 'full' : 'unavailable';
  }
}
