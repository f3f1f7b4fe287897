// A device document's world in-process (src/stored-data/document-host.ts DocumentHost): storage
// areas as plain maps, with a room in characters that a write over it is refused as a browser
// refuses it (a QuotaExceededError), or blocked altogether (a SecurityError on every call, as
// with site data blocked); one history entry's state that survives a reload; a scripted clock;
// other tabs' saves and the page leaving told by the test. A reload is a new host over the same
// areas (reload()), with the same clock.
import type { DocumentHost } from '../../../src/stored-data/document-host';
import type { StorageArea } from '../../../src/stored-data/storage';

/** A storage area in memory: at most `room` characters of values, or `blocked` (every call throws). */
export class MemoryStorage implements StorageArea {
  readonly items = new Map<string, string>();
  blocked = false;
  constructor(public room = Number.POSITIVE_INFINITY) {}

  private check(): void {
    if (this.blocked) throw new DOMException('The operation is insecure.', 'SecurityError');
  }
  get length(): number {
    this.check();
    return this.items.size;
  }
  key(index: number): string | null {
    this.check();
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key: string): string | null {
    this.check();
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.check();
    const used = [...this.items].reduce((sum, [k, v]) => sum + (k === key ? 0 : v.length), 0);
    if (used + value.length > this.room) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    this.items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.check();
    this.items.delete(key);
  }
}

/** A clock the test moves: timers run in order as time passes. */
export class ScriptedClock {
  now = 0;
  private seq = 0;
  private readonly timers = new Map<number, { at: number; run: () => void }>();

  /** Runs `run` once `ms` have passed; returns its cancel. */
  later(run: () => void, ms: number): () => void {
    const id = ++this.seq;
    this.timers.set(id, { at: this.now + ms, run });
    return () => this.timers.delete(id);
  }
  /** Moves time by `ms`, running each timer that falls due, in order. */
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].run();
    }
    this.now = end;
  }
  /** How many timers are pending. */
  get pending(): number {
    return this.timers.size;
  }
}

/** One page of one tab, in memory. */
export interface MemoryPage {
  host: DocumentHost;
  /** What this history entry's state holds (a reload of the tab keeps it). */
  historyState: Record<string, unknown>;
  /** Another tab saved `newValue` under `key`: the `storage` event this page hears. */
  hear(key: string | null, newValue: string | null): void;
  /** The page hides or goes away (pagehide, visibilitychange to hidden). */
  leave(): void;
  /** How often the page asked to keep its data. */
  persistAsks: number;
  /** Whether anything listens (between start and stop). */
  listening(): boolean;
}

/**
 * A page over `local` and `session` (null: none), with `clock`; `historyState` is the history entry's
 * state (pass the last page's to reload the tab); `formerKeys` gives keys a document takes in.
 */
export function memoryPage({
  local = new MemoryStorage(),
  session = new MemoryStorage(),
  clock = new ScriptedClock(),
  historyState = {},
  formerKeys = () => [],
  historyRefuses = false,
}: {
  local?: MemoryStorage | null;
  session?: MemoryStorage | null;
  clock?: ScriptedClock;
  historyState?: Record<string, unknown>;
  formerKeys?: (key: string) => string[];
  /** replaceState throws (too many calls, or a value it cannot clone). */
  historyRefuses?: boolean;
} = {}): MemoryPage {
  let onStorage: ((key: string | null, newValue: string | null) => void) | undefined;
  let onLeave: (() => void) | undefined;
  const page: MemoryPage = {
    historyState,
    persistAsks: 0,
    host: {
      storage: local,
      session,
      historyState: (key) => page.historyState[key],
      keepInHistory(key, value) {
        if (historyRefuses) return false;
        page.historyState = { ...page.historyState, [key]: value };
        if (value === undefined) delete page.historyState[key];
        return value !== undefined;
      },
      later: (run, ms) => clock.later(run, ms),
      listen(storage, leave) {
        onStorage = storage;
        onLeave = leave;
        return () => {
          onStorage = undefined;
          onLeave = undefined;
        };
      },
      persist: () => {
        page.persistAsks++;
      },
      formerKeys,
    },
    hear: (key, newValue) => onStorage?.(key, newValue),
    leave: () => onLeave?.(),
    listening: () => onStorage !== undefined,
  };
  return page;
}
