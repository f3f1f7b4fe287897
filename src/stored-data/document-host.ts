// What a device document touches outside itself, as one small interface: its storage areas, this
// history entry's state, the clock, the page's events and the ask to keep its data. browserHost()
// is the page's; the unit tests give one of plain in-memory areas and a scripted clock.
import { persistWithoutPrompt } from './persistence';
import { area, keepInHistory, type StorageArea } from './storage';

/** The world of a device document. */
export interface DocumentHost {
  /** Where the document is stored (localStorage), or null: no storage at all. */
  storage: StorageArea | null;
  /** Where what could not be saved is carried through a reload of this tab (sessionStorage), or null. */
  session: StorageArea | null;
  /** What this history entry's state holds under `key` (a reload keeps it, even where site data is blocked). */
  historyState(key: string): unknown;
  /** Puts `value` in this history entry's state under `key` (undefined: removes it); says whether it is there. */
  keepInHistory(key: string, value: unknown): boolean;
  /** Runs `run` once `ms` have passed; returns its cancel. */
  later(run: () => void, ms: number): () => void;
  /** Hears other tabs' saves (`storage` events) and the page hiding or going away; returns the stop. */
  listen(onStorage: (key: string | null, newValue: string | null) => void, onLeave: () => void): () => void;
  /** Asks to keep this site's data, where the browser cannot prompt. */
  persist(): void;
  /** The keys whose content a document stored under `key` takes in, then removes (none unless set by formerKeys()). */
  formerKeys(key: string): string[];
}

/** Which keys an earlier release of the app kept a document under, in `storage`: none until a migration says. */
let formerKeysOf = (_key: string, _storage: StorageArea | null): string[] => [];

/**
 * Makes each document take in what `of` names (its keys of an earlier release) at start and when
 * a tab still on that release saves it again: merged, saved under its key, the old key removed.
 */
export function takeFormerKeys(of: (key: string, storage: StorageArea | null) => string[]): void {
  formerKeysOf = of;
}

/** The page's host: `storage` and `session` (default localStorage and sessionStorage; null: none), its history, timers and events. */
export function browserHost({
  storage = area(),
  session = area('sessionStorage'),
}: {
  storage?: StorageArea | null;
  session?: StorageArea | null;
} = {}): DocumentHost {
  return {
    storage,
    session,
    historyState: (key) => history.state?.[key],
    keepInHistory,
    later(run, ms) {
      const timer = setTimeout(run, ms);
      return () => clearTimeout(timer);
    },
    listen(onStorage, onLeave) {
      const heard = (event: StorageEvent) => onStorage(event.key, event.newValue);
      const onHide = () => {
        if (document.hidden) onLeave();
      };
      addEventListener('storage', heard);
      addEventListener('pagehide', onLeave);
      document.addEventListener('visibilitychange', onHide);
      return () => {
        removeEventListener('storage', heard);
        removeEventListener('pagehide', onLeave);
        document.removeEventListener('visibilitychange', onHide);
      };
    },
    persist: () => {
      persistWithoutPrompt().catch(() => {});
    },
    formerKeys: (key) => formerKeysOf(key, storage),
  };
}
