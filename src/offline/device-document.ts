// A document the user edits, kept on this device: one JSON value under one localStorage key. The
// machinery every kind of stored data needs lives here once: a debounced save, a synchronous
// flush on `pagehide`, on hiding the tab and before any reload (flush.ts), merging what another
// tab saved (`storage` event), storage that is full, unavailable or corrupt (the user's data is
// kept, an unreadable copy is saved aside), restoring a whole document in one write, and asking
// for persistent storage once there is something worth keeping. A kind of data declares only its
// key, its shape (empty, recover) and how two versions merge (src/notes/ is the example).
import { onFlush } from './flush';
import { persistWithoutPrompt } from './persistence';
import { area, load, save } from './storage';
import { createStore, type Store } from '../store';

/** What a kind of stored data declares. `Doc` is a plain JSON object. */
export interface DeviceDocumentOptions<Doc extends object> {
  /** The localStorage key (name it with storageKey() from src/app-name.ts). */
  key: string;
  /** The document before anything was read: what the prerendered HTML and hydration show. */
  empty: Doc;
  /**
   * Keeps what is usable of stored data (anything JSON.parse gave, or undefined when nothing is
   * stored); `lost` tells whether anything had to be dropped (the stored text is then copied aside).
   */
  recover(data: unknown): { doc: Doc; lost: boolean };
  /** Merges two versions: the same result whichever side merges, and merging again changes nothing. */
  merge(mine: Doc, theirs: Doc): Doc;
  /** The document a page load starts from, given what was recovered (default: that). */
  initial?(found: Doc): Doc;
  /** Whether the document holds something worth asking the browser to keep (default: always). */
  worthKeeping?(doc: Doc): boolean;
  /** The stored format's version, saved as `v` beside the document's fields (default 1). */
  version?: number;
}

/** What a screen shows of a stored document. */
export interface DeviceDocumentState<Doc> {
  doc: Doc;
  /** The last save failed because storage is full, or there is no storage at all. */
  problem?: 'full' | 'unavailable';
  /** Stored data could not all be read; the stored text was copied to the backup key. */
  corrupt: boolean;
  /** False until the document was read from the device (and in the prerendered HTML). */
  loaded: boolean;
}

/** Where a document is stored, for tests: `storage` (null: none at all) and the save delay. */
export interface DeviceDocumentStart {
  debounceMs?: number;
  storage?: Storage | null;
}

/** A stored document: a store of its state, and what changes it. */
export interface DeviceDocument<Doc extends object> extends Store<DeviceDocumentState<Doc>> {
  /** Where unreadable stored data is copied before anything overwrites it. */
  readonly backupKey: string;
  /** Loads the document and starts saving it; returns a stop function. */
  start(options?: DeviceDocumentStart): () => void;
  /** Saves pending changes now, synchronously (for pagehide and before a reload). */
  flush(): void;
  /** Replaces the document with an edited version and saves it soon (debounced). */
  change(next: Doc): void;
  /**
   * Replaces the document with `next` in one write: it is all stored, or, when storage is full,
   * nothing changes at all (not even on screen) and 'full' comes back. Without any storage it
   * changes for this session, as every edit does.
   */
  restore(next: Doc): 'full' | undefined;
}

/** Makes the store of one kind of stored data; call start() once the page runs. */
export function createDeviceDocument<Doc extends object>(options: DeviceDocumentOptions<Doc>): DeviceDocument<Doc> {
  const { key, empty, recover, merge, initial = (found: Doc) => found, worthKeeping = () => true, version = 1 } = options;
  const backupKey = key + ':backup';
  const state = createStore<DeviceDocumentState<Doc>>({ doc: empty, corrupt: false, loaded: false });
  let doc = empty;
  let dirty = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let debounce = 1000;
  let storage: Storage | null = null;

  const stored = (value: Doc) => ({ v: version, ...value });
  const sameDoc = (a: Doc, b: Doc) => JSON.stringify(a) === JSON.stringify(b);
  const cancelSave = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const saveSoon = () => {
    dirty = true;
    // Not reset by each change: during long typing a save still happens every `debounce` ms.
    timer ??= setTimeout(flush, debounce);
  };

  function flush(): void {
    cancelSave();
    if (!dirty) return;
    const problem = save(key, stored(doc), storage) as DeviceDocumentState<Doc>['problem'];
    // A failed save stays pending: the data stays on screen and the next flush tries again.
    dirty = !!problem;
    state.update({ problem });
    // There is something worth keeping now: ask the browser to keep it, where it cannot prompt.
    if (!problem && worthKeeping(doc)) persistWithoutPrompt().catch(() => {});
  }

  function change(next: Doc): void {
    doc = next;
    state.update({ doc: next });
    saveSoon();
  }

  function restore(next: Doc): 'full' | undefined {
    const problem = save(key, stored(next), storage);
    if (problem === 'full') return problem;
    // `next` holds every pending edit too: it is saved now, or (no storage) as saved as it gets.
    cancelSave();
    dirty = false;
    doc = next;
    state.update({ doc: next, problem: problem === 'unavailable' ? problem : undefined });
    return undefined;
  }

  /** Another tab saved: merge its version in, and store the merge if theirs lacks something of ours. */
  function onStorage(event: StorageEvent): void {
    if (event.key !== key || !event.newValue) return;
    let theirs: Doc;
    try {
      theirs = recover(JSON.parse(event.newValue)).doc;
    } catch {
      return;
    }
    const merged = merge(doc, theirs);
    if (!sameDoc(merged, doc)) {
      doc = merged;
      state.update({ doc: merged });
    }
    // It converges: merging again gives the same, so the other tab stores nothing back.
    if (!sameDoc(merged, theirs)) saveSoon();
  }

  const onHide = () => {
    if (document.hidden) flush();
  };

  function start({ debounceMs = 1000, storage: chosen = area() }: DeviceDocumentStart = {}): () => void {
    debounce = debounceMs;
    storage = chosen;
    cancelSave();
    dirty = false;
    const { raw, value, problem } = load(key, storage);
    const { doc: found, lost } = recover(value);
    doc = initial(found);
    const corrupt = problem === 'corrupt' || lost;
    state.set({ doc, corrupt, loaded: true, problem: problem === 'unavailable' ? problem : undefined });
    // Keep the unreadable text before the first save replaces it; save what was recovered only
    // once the copy exists.
    if (corrupt && !save(backupKey, raw, storage)) {
      dirty = true;
      flush();
    }
    addEventListener('storage', onStorage);
    addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onHide);
    const stopFlushing = onFlush(flush);
    return () => {
      stopFlushing();
      cancelSave();
      removeEventListener('storage', onStorage);
      removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onHide);
    };
  }

  return {
    subscribe: state.subscribe,
    getSnapshot: state.getSnapshot,
    getServerSnapshot: state.getServerSnapshot,
    backupKey,
    start,
    flush,
    change,
    restore,
  };
}
