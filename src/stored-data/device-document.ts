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
// What each step decides is in document-plan.ts; this file performs it through a DocumentHost
// (document-host.ts) and keeps the state between steps.
import { createStore } from '../core/store';
import type {
  DeviceDocument,
  DeviceDocumentOptions,
  DeviceDocumentStart,
  DeviceDocumentState,
  RestoreProblem,
} from './device-document-api';
import { browserHost, type DocumentHost } from './document-host';
import { createPlan, shownProblem, type StoredRead } from './document-plan';
import { onFlush } from './flush';
import { loadText, save, writeReplacing } from './storage';

export type { DeviceDocument, DeviceDocumentOptions, DeviceDocumentStart, DeviceDocumentState, RestoreProblem };

/**
 * The time to stamp a change to a version stamped `after`: now, or just after `after` when this
 * device's clock is behind the one that stamped it. A hybrid logical clock: a change always wins
 * over what it changes (in merges that let the later time win), whatever the wall clocks say.
 */
export const nextTime = (after: number, now: number = Date.now()): number => Math.max(now, after + 1);

/** What writing did: the document as written (ours merged with what was stored), or why nothing was written. */
type Written<Doc> = { doc: Doc; problem?: undefined } | { doc?: undefined; problem: 'full' | 'unavailable' | 'outdated' };

/**
 * Makes the store of one kind of stored data; call start() once the page runs. `hostOf` gives the
 * world it runs in for each start (default: the page's; tests give an in-memory one).
 */
export function createDeviceDocument<Doc extends object>(
  options: DeviceDocumentOptions<Doc>,
  hostOf: (start: DeviceDocumentStart) => DocumentHost = browserHost,
): DeviceDocument<Doc> {
  const { key, empty, worthKeeping = () => true } = options;
  const plan = createPlan(options);
  const { carryKey } = plan;
  const state = createStore<DeviceDocumentState<Doc>>({ doc: empty, outdated: false, loaded: false });
  let host: DocumentHost | undefined;
  let doc = empty;
  let dirty = false;
  let outdated = false;
  let cancelTimer: (() => void) | undefined;
  let saveWithin = 1000;
  /** Whether this tab's unsaved document is carried now (false: nothing to carry, or the carry failed). */
  let carried = false;
  /** Unreadable stored text that may be replaced: its copy exists, or the person chose to discard it. */
  let replaceable: string | null = null;
  /** The stored text this tab read or wrote last, as read. */
  let lastRead: StoredRead<Doc> | undefined;
  /** Keys of an earlier release this document takes in (decided at start). */
  let takenKeys: string[] = [];
  /** Other keys whose content is merged into `doc` (an earlier release's, older tabs' unsaved edits): removed once the next write has stored it. */
  const mergedFrom = new Set<string>();

  const storage = () => host?.storage ?? null;
  const textAt = (at: string) => loadText(at, storage()).raw;
  const cancelSave = () => {
    cancelTimer?.();
    cancelTimer = undefined;
  };
  const saveSoon = () => {
    dirty = true;
    // Not reset by each change: during long typing a save still happens every `saveWithin` ms.
    cancelTimer ??= host?.later(flush, saveWithin);
  };

  /** Shows `next` if it differs from what is shown. */
  function show(next: Doc): void {
    if (plan.same(next, doc)) return;
    doc = next;
    state.update({ doc: next });
  }

  /** What is stored under the key now; text this tab read or wrote last is not parsed again (nor upgraded twice). */
  function readStored(): StoredRead<Doc> {
    const raw = textAt(key);
    if (lastRead && raw === lastRead.raw) return lastRead;
    lastRead = plan.read(raw);
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
    const { asideKey } = plan;
    const unsaved = dirty ? (save(asideKey, plan.aside(doc, textAt(asideKey)), storage()) ? 'not-kept' : 'kept') : undefined;
    dirty = false;
    state.update({ outdated: true, unsaved });
  }

  /** Performs the write plan for `next` (document-plan.ts): the copy of unreadable text first, then the merged document. */
  function write(next: Doc): Written<Doc> {
    const written = plan.write(next, readStored(), replaceable, textAt);
    if (written.outdated) {
      becomeOutdated();
      return { problem: 'outdated' };
    }
    if (written.copy) {
      const copyProblem = save(written.copy.key, written.copy.text, storage());
      if (copyProblem) {
        state.update({ corrupt: 'not-copied' });
        return { problem: shownProblem(copyProblem) };
      }
      replaceable = written.copy.text;
      state.update({ corrupt: 'copied' });
    }
    // What other keys held is in the merge: they go once it is stored (first, if both do not fit).
    const area = storage();
    const { text, merged } = written;
    const problem = area && mergedFrom.size > 0 ? writeReplacing(area, key, text, [...mergedFrom]) : save(key, text, area);
    if (problem) return { problem: shownProblem(problem) };
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
    if (!written.problem && worthKeeping(doc)) host?.persist();
  }

  /**
   * Keeps the unsaved document for the next page of this tab while saves fail: in sessionStorage,
   * or, where site data is blocked, in this history entry's state (a reload keeps it); forgets it
   * once a save succeeds.
   */
  function carry(): void {
    if (!host) return;
    if (dirty) {
      const text = plan.text(doc);
      carried = !save(carryKey, text, host.session) || host.keepInHistory(carryKey, text);
      return;
    }
    if (!carried) return;
    host.session?.removeItem(carryKey);
    host.keepInHistory(carryKey, undefined);
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

  /** Another tab saved: performs what the plan says it does here (document-plan.ts heard). */
  function onStorage(heardKey: string | null, newValue: string | null): void {
    if (outdated) return;
    const heard = plan.heard(doc, heardKey, newValue, takenKeys);
    if (!heard) return;
    if (heard.outdated) {
      becomeOutdated();
      return;
    }
    show(heard.merged);
    if (heard.mergedFrom) mergedFrom.add(heard.mergedFrom);
    if (heard.save) saveSoon();
  }

  function start(startOptions: DeviceDocumentStart = {}): () => void {
    cancelSave();
    const world = hostOf(startOptions);
    host = world;
    saveWithin = startOptions.saveWithinMs ?? 1000;
    dirty = false;
    replaceable = null;
    mergedFrom.clear();
    takenKeys = world.formerKeys(key);
    const stored = loadText(key, world.storage);
    const carriedTexts = [loadText(carryKey, world.session).raw, world.historyState(carryKey)].filter(
      (text): text is string => typeof text === 'string',
    );
    const loaded = plan.load({
      stored: stored.raw,
      others: [...takenKeys, ...plan.olderAsideKeys].map((other) => ({ key: other, raw: textAt(other) })),
      carried: carriedTexts,
    });
    lastRead = loaded.found;
    outdated = loaded.outdated;
    carried = loaded.carried;
    doc = loaded.doc;
    for (const other of loaded.mergedFrom) mergedFrom.add(other);
    state.set({ doc, outdated, loaded: true, problem: stored.problem });
    if (loaded.saveNow) {
      dirty = true;
      flush();
    }
    const stopListening = world.listen(onStorage, flush);
    const stopFlushing = onFlush(flushBeforeReload);
    return () => {
      stopFlushing();
      cancelSave();
      stopListening();
    };
  }

  return {
    subscribe: state.subscribe,
    getSnapshot: state.getSnapshot,
    getServerSnapshot: state.getServerSnapshot,
    backupKey: plan.backupKey,
    start,
    flush,
    change,
    restore,
    discardUnreadable,
  };
}
