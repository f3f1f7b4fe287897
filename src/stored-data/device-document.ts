// A document the user edits, kept on this device: one JSON value under one localStorage key. The
// machinery every kind of stored data needs lives here once: a throttled save, a synchronous
// flush on `pagehide`, on hiding the tab and before any reload (flush.ts), merging what another
// tab saved (`storage` event, and again right before each write), storage that is full,
// unavailable or corrupt (the user's data is kept; unreadable stored text is copied aside before
// anything replaces it, and is not replaced while no copy exists), a stored format version that
// is read (an older one is upgraded, a newer one is never overwritten, and a tab on older code
// that finds one keeps its unsaved edits aside for the newer version to merge), carrying what
// could not be saved (no room, storage blocked) through reloads of this tab in sessionStorage
// (its own quota: a full localStorage leaves it room), so a reload never drops it, restoring a whole
// document in one write, and asking for persistent storage once there is something worth
// keeping. A kind of data declares only its key, its shape (empty, recover, version, upgrade)
// and how two versions merge (README, "Add stored data").
import { onFlush } from './flush';
import { takesLegacyKeys, writeReplacing } from './legacy-storage';
import { persistWithoutPrompt } from './persistence';
import { area, keepInHistory, load, loadText, parse, save } from './storage';
import { createStore } from '../core/store';
import type {
  DeviceDocument,
  DeviceDocumentOptions,
  DeviceDocumentStart,
  DeviceDocumentState,
  RestoreProblem,
} from './device-document-api';

export type { DeviceDocument, DeviceDocumentOptions, DeviceDocumentStart, DeviceDocumentState, RestoreProblem };

/**
 * The time to stamp a change to a version stamped `after`: now, or just after `after` when this
 * device's clock is behind the one that stamped it. A hybrid logical clock: a change always wins
 * over what it changes (in merges that let the later time win), whatever the wall clocks say.
 */
export const nextTime = (after: number, now: number = Date.now()): number => Math.max(now, after + 1);

/** What is stored under the key now, as this code reads it. */
interface StoredRead<Doc> {
  /** The stored text, or null when nothing (or no storage) is there. */
  raw: string | null;
  /** What is usable of it, upgraded to this version. */
  doc: Doc;
  /** Some of it could not be read: the raw text must be copied aside before it is replaced. */
  lost: boolean;
  /** It is of an older format (upgraded in `doc`): saving it again stores this version. */
  older: boolean;
  /** It is of a newer format: `doc` is empty, and the text must never be replaced. */
  newer: boolean;
}

/** What writing did: the document as written (ours merged with what was stored), or why nothing was written. */
type Written<Doc> = { doc: Doc; problem?: undefined } | { doc?: undefined; problem: 'full' | 'unavailable' | 'outdated' };

/** The format version stored data says it has: `v`, or 1 for data saved without one. */
function storedVersion(data: unknown): number {
  const version = (data as { v?: unknown } | null | undefined)?.v;
  return typeof version === 'number' && Number.isInteger(version) && version >= 1 ? version : 1;
}

/** Makes the store of one kind of stored data; call start() once the page runs. */
export function createDeviceDocument<Doc extends object>(options: DeviceDocumentOptions<Doc>): DeviceDocument<Doc> {
  const { key, legacyKeys = [], empty, recover, merge, version = 1, upgrade = (data: unknown) => data } = options;
  const { toJSON = (value: Doc): object => value, initial = (found: Doc) => found, worthKeeping = () => true } = options;
  const backupKey = key + ':backup';
  /** sessionStorage key of what this tab could not save, carried through its reloads until a save succeeds. */
  const carryKey = key + ':carried';
  /** Where a tab on code of format `format` keeps the edits it could not save once a newer format was stored. */
  const asideKey = (format: number) => `${key}:unsaved-v${format}`;
  /** The format an aside key holds edits of, when it is one of an older format than this code's. */
  const olderAsideFormat = (candidate: string | null): number | undefined => {
    const format = Number(candidate?.startsWith(`${key}:unsaved-v`) ? candidate.slice(`${key}:unsaved-v`.length) : Number.NaN);
    return Number.isInteger(format) && format >= 1 && format < version ? format : undefined;
  };
  const state = createStore<DeviceDocumentState<Doc>>({ doc: empty, outdated: false, loaded: false });
  let doc = empty;
  let dirty = false;
  let outdated = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let saveWithin = 1000;
  let storage: Storage | null = null;
  let session: Storage | null = null;
  /** Whether this tab's unsaved document is in sessionStorage now (false: nothing to carry, or the carry failed). */
  let carried = false;
  /** Unreadable stored text that may be replaced: its copy exists, or the person chose to discard it. */
  let replaceable: string | null = null;
  /** The stored text this tab read or wrote last, as read. */
  let lastRead: StoredRead<Doc> | undefined;
  /** Whether this app takes the old keys of its document (decided at start). */
  let takesLegacy = false;
  /** Other keys whose content is merged into `doc` (legacy keys, older tabs' unsaved edits): removed once the next write has stored it. */
  const mergedFrom = new Set<string>();

  const stored = (value: Doc) => ({ v: version, ...toJSON(value) });
  const sameDoc = (a: Doc, b: Doc) => JSON.stringify(toJSON(a)) === JSON.stringify(toJSON(b));
  const cancelSave = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const saveSoon = () => {
    dirty = true;
    // Not reset by each change: during long typing a save still happens every `saveWithin` ms.
    timer ??= setTimeout(flush, saveWithin);
  };

  /** Shows `next` if it differs from what is shown. */
  function show(next: Doc): void {
    if (sameDoc(next, doc)) return;
    doc = next;
    state.update({ doc: next });
  }

  /** Reads stored text (the key's, or a `storage` event's) as this version: parsed, version checked, upgraded, recovered. */
  function read(raw: string | null, parsed: { value?: unknown; unreadable: boolean }): StoredRead<Doc> {
    const unreadable = { raw, ...recover(undefined), lost: true, older: false, newer: false };
    if (parsed.unreadable) return unreadable;
    const from = parsed.value === undefined ? version : storedVersion(parsed.value);
    if (from > version) return { raw, doc: empty, lost: false, older: false, newer: true };
    let data = parsed.value;
    if (from < version) {
      try {
        data = upgrade(parsed.value, from);
      } catch {
        return unreadable;
      }
    }
    return { raw, ...recover(data), older: from < version, newer: false };
  }

  /** What is stored under the key now; text this tab read or wrote last is not parsed again (nor upgraded twice). */
  function readStored(): StoredRead<Doc> {
    const { raw } = loadText(key, storage);
    if (lastRead && raw === lastRead.raw) return lastRead;
    const { value, problem } = parse(raw);
    lastRead = read(raw, { value, unreadable: problem === 'corrupt' });
    return lastRead;
  }

  /**
   * This tab's code is older than the stored format: from now on it writes nothing under the key.
   * Edits it had not saved yet are kept aside, merged with what other tabs of this format kept
   * there, for the newer version to merge in.
   */
  function becomeOutdated(): void {
    outdated = true;
    cancelSave();
    const unsaved = dirty ? keepAside() : undefined;
    dirty = false;
    state.update({ outdated: true, unsaved });
  }

  /** Stores this tab's document under its format's aside key (merged with what is there); says whether it is kept. */
  function keepAside(): 'kept' | 'not-kept' {
    const { raw, value, problem } = load(asideKey(version), storage);
    const there = raw === null || problem ? undefined : read(raw, { value, unreadable: false });
    const kept = there && !there.newer && !there.lost ? merge(doc, there.doc) : doc;
    return save(asideKey(version), JSON.stringify(stored(kept)), storage) ? 'not-kept' : 'kept';
  }

  /**
   * Where to copy unreadable text: the backup key, or `<backup key>-2`, `-3`, … when an earlier
   * copy of other text is there (an earlier copy is never overwritten; the same text is not copied twice).
   */
  function freeBackupKey(raw: string): string {
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? backupKey : `${backupKey}-${n}`;
      const there = loadText(candidate, storage).raw;
      if (there === null || there === raw) return candidate;
    }
  }

  /**
   * Writes `next` merged with what is stored now (another tab may have saved since its last
   * `storage` event reached us). Never replaces a newer format, nor unreadable text of which no
   * copy exists: that text is copied to the backup key first, and if the copy fails nothing is written.
   */
  function write(next: Doc): Written<Doc> {
    const found = readStored();
    if (found.newer) {
      becomeOutdated();
      return { problem: 'outdated' };
    }
    if (found.lost && found.raw !== null && found.raw !== replaceable) {
      const copyProblem = save(freeBackupKey(found.raw), found.raw, storage);
      if (copyProblem) {
        state.update({ corrupt: 'not-copied' });
        return { problem: copyProblem === 'full' ? 'full' : 'unavailable' };
      }
      replaceable = found.raw;
      state.update({ corrupt: 'copied' });
    }
    const merged = merge(next, found.doc);
    const text = JSON.stringify(stored(merged));
    // What old keys held is in `merged`: they go once it is stored (first, if both do not fit).
    const problem = storage && mergedFrom.size > 0 ? writeReplacing(storage, key, text, [...mergedFrom]) : save(key, text, storage);
    if (problem) return { problem: problem === 'full' ? 'full' : 'unavailable' };
    mergedFrom.clear();
    lastRead = { raw: text, doc: merged, lost: false, older: false, newer: false };
    return { doc: merged };
  }

  function flush(): void {
    cancelSave();
    if (!dirty || outdated) return;
    const written = write(doc);
    if (written.problem === 'outdated') return;
    // A failed save stays pending: the data stays on screen and the next flush tries again; till
    // then a reload of this tab carries it (sessionStorage) and the next page puts it back.
    dirty = !!written.problem;
    carry();
    if (written.doc) show(written.doc);
    state.update({ problem: written.problem });
    // There is something worth keeping now: ask the browser to keep it, where it cannot prompt.
    if (!written.problem && worthKeeping(doc)) persistWithoutPrompt().catch(() => {});
  }

  /**
   * Keeps the unsaved document for the next page of this tab while saves fail: in sessionStorage,
   * or, where site data is blocked, in this history entry's state (a reload keeps it); forgets it
   * once a save succeeds.
   */
  function carry(): void {
    if (dirty) {
      const text = JSON.stringify(stored(doc));
      carried = !save(carryKey, text, session) || keepInHistory(carryKey, text);
      return;
    }
    if (!carried) return;
    session?.removeItem(carryKey);
    keepInHistory(carryKey, undefined);
    carried = false;
  }

  /** Saves now, before a reload: says whether what this tab holds is kept (saved, carried, or nothing pending). */
  function flushBeforeReload(): boolean {
    flush();
    return !dirty || outdated || carried;
  }

  function change(next: Doc): void {
    if (outdated) return;
    doc = next;
    state.update({ doc: next });
    saveSoon();
  }

  function restore(next: Doc): RestoreProblem | undefined {
    if (outdated) return 'outdated';
    const written = write(next);
    if (written.problem === 'outdated' || written.problem === 'full') return written.problem;
    // `next` holds every pending edit too: it is saved now, or (no storage) as saved as it gets.
    cancelSave();
    dirty = false;
    show(written.doc ?? next);
    state.update({ problem: written.problem });
    return undefined;
  }

  function discardUnreadable(): void {
    if (outdated) return;
    replaceable = readStored().raw;
    state.update({ corrupt: undefined });
    dirty = true;
    flush();
  }

  /**
   * Another tab saved (under our key, or under a legacy key if it runs an earlier version and this
   * app takes the old keys): merge its version in, and store the merge if theirs lacks something of
   * ours or is of an older format (or came under a legacy key, which the write then removes).
   */
  function onStorage(event: StorageEvent): void {
    const isLegacy = takesLegacy && legacyKeys.includes(event.key ?? '');
    const isAside = olderAsideFormat(event.key) !== undefined;
    if (outdated || !event.newValue || !(event.key === key || isLegacy || isAside)) return;
    let value: unknown;
    try {
      value = JSON.parse(event.newValue);
    } catch {
      // Unreadable text from another tab is handled when this tab next writes (copied aside first).
      return;
    }
    const theirs = read(event.newValue, { value, unreadable: false });
    if (theirs.newer) {
      becomeOutdated();
      return;
    }
    const merged = merge(doc, theirs.doc);
    show(merged);
    // A legacy or aside key is never written: what it brought is saved under ours, and it is removed.
    if (isLegacy || isAside) {
      mergedFrom.add(event.key as string);
      saveSoon();
      return;
    }
    // It converges: merging again gives the same, so the other tab stores nothing back.
    if (theirs.older || !sameDoc(merged, theirs.doc)) saveSoon();
  }

  /**
   * `found` merged with what each legacy key holds, when this app takes the old keys; each merged
   * key is removed by the next write (unreadable or newer legacy text is left as it is).
   */
  function mergeLegacy(found: Doc): Doc {
    return takesLegacy ? mergeFrom(found, legacyKeys) : found;
  }

  /** `found` merged with the edits tabs on older code kept aside (each merged key is removed by the next write). */
  function mergeAside(found: Doc): Doc {
    return mergeFrom(
      found,
      Array.from({ length: version - 1 }, (_, index) => asideKey(index + 1)),
    );
  }

  /** `found` merged with what each of `otherKeys` holds, read as stored data of its own format; unreadable or newer text is left as it is. */
  function mergeFrom(found: Doc, otherKeys: readonly string[]): Doc {
    let merged = found;
    for (const otherKey of otherKeys) {
      const { raw, value, problem } = load(otherKey, storage);
      if (raw === null || problem) continue;
      const other = read(raw, { value, unreadable: false });
      if (other.newer) continue;
      merged = merge(merged, other.doc);
      mergedFrom.add(otherKey);
    }
    return merged;
  }

  const onHide = () => {
    if (document.hidden) flush();
  };

  /** What an earlier page of this tab carried (flush()), read as stored data; its key stays until a save succeeds. */
  function takeCarried(): Doc | undefined {
    const texts = [loadText(carryKey, session).raw, history.state?.[carryKey]].filter((text) => typeof text === 'string');
    carried = texts.length > 0;
    let found: Doc | undefined;
    // Both, merged: one of them may be older (the other place refused a later carry).
    for (const text of texts) {
      const { value, problem } = parse(text);
      const carriedRead = problem ? undefined : read(text, { value, unreadable: false });
      if (carriedRead && !carriedRead.newer && !carriedRead.lost) found = found ? merge(found, carriedRead.doc) : carriedRead.doc;
    }
    return found;
  }

  function start({
    saveWithinMs = 1000,
    storage: chosen = area(),
    session: chosenSession = area('sessionStorage'),
  }: DeviceDocumentStart = {}): () => void {
    saveWithin = saveWithinMs;
    storage = chosen;
    session = chosenSession;
    cancelSave();
    dirty = false;
    outdated = false;
    replaceable = null;
    mergedFrom.clear();
    takesLegacy = legacyKeys.length > 0 && takesLegacyKeys(storage);
    const { raw, value, problem } = load(key, storage);
    const found = read(raw, { value, unreadable: problem === 'corrupt' });
    lastRead = found;
    outdated = found.newer;
    const withLegacy = outdated ? found.doc : mergeAside(mergeLegacy(found.doc));
    const fromLastPage = outdated ? undefined : takeCarried();
    doc = outdated ? empty : initial(fromLastPage ? merge(withLegacy, fromLastPage) : withLegacy);
    state.set({ doc, outdated, loaded: true, problem: problem === 'unavailable' ? problem : undefined });
    // Unreadable data is copied aside and what was recovered saved at once, before any edit;
    // data of an older format is saved in this one, so it is upgraded only once; what a legacy
    // or aside key held is saved under ours, and that key removed; what the last page of this tab
    // could not save is saved now, or carried again.
    if (!outdated && (found.lost || found.older || mergedFrom.size > 0 || fromLastPage)) {
      dirty = true;
      flush();
    }
    addEventListener('storage', onStorage);
    addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onHide);
    const stopFlushing = onFlush(flushBeforeReload);
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
    discardUnreadable,
  };
}
