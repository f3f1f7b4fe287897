// What a device document decides, apart from the browser: given the texts it finds stored (its key,
// the keys whose content it takes in, what the last page of this tab carried) and what it holds,
// what it is after reading, what another tab's save merges into, and what to write. Plain functions
// of text and state: no storage, no clock, no events. device-document.ts performs each plan through
// a DocumentHost (document-host.ts), and test/unit/device-document-plan.test.ts runs them in-process.
import type { DeviceDocumentOptions } from './device-document-api';
import { parse, type StorageProblem } from './storage';

/** What stored text is, as this code reads it. */
export interface StoredRead<Doc> {
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

/** What a page load finds: the document's own text, and the texts it takes in. */
export interface Found {
  /** The text under the document's key (null: nothing, or no storage). */
  stored: string | null;
  /** Other keys whose content is merged in (an earlier release's, older formats' aside keys), with their texts. */
  others: readonly { key: string; raw: string | null }[];
  /** What earlier pages of this tab carried because they could not save it (sessionStorage, the history entry). */
  carried: readonly string[];
}

/** What a document is once a page load has read it. */
export interface Loaded<Doc> {
  /** What is stored under its key, as read. */
  found: StoredRead<Doc>;
  /** The document the page starts from. */
  doc: Doc;
  /** The stored format is newer than this code's: it saves nothing. */
  outdated: boolean;
  /** The other keys whose content went into `doc`: the next write removes them. */
  mergedFrom: string[];
  /** An earlier page of this tab carried something (kept carried until a save succeeds). */
  carried: boolean;
  /**
   * Save at once: unreadable data is copied aside and what was recovered saved; an older format is
   * saved in this one (upgraded once); what other keys held moves under ours; what was carried is stored.
   */
  saveNow: boolean;
}

/** What a write does: stop (a newer format is stored), or copy unreadable text aside first, then store `text`. */
export type WritePlan<Doc> =
  | { outdated: true }
  | {
      outdated?: false;
      /** Unreadable stored text to copy before it is replaced; the write stops when the copy fails. */
      copy?: { key: string; text: string };
      /** The document to store: what is written, merged with what is stored. */
      merged: Doc;
      text: string;
    };

/** What another tab's save does here: nothing, this tab becomes outdated, or `merged` is shown (and saved, when `save`). */
export type Heard<Doc> = undefined | { outdated: true } | { outdated?: false; merged: Doc; save: boolean; mergedFrom?: string };

/** The plans of one kind of stored data. */
export interface DocumentPlan<Doc> {
  /** Where unreadable stored text is copied (then `-2`, `-3`, …). */
  backupKey: string;
  /** Where what this tab could not save is carried through its reloads (sessionStorage, or the history entry's state). */
  carryKey: string;
  /** Where a tab on this code keeps the edits it could not save once a newer format was stored. */
  asideKey: string;
  /** The aside keys of every older format: what tabs on older code kept for this version to merge in. */
  olderAsideKeys: string[];
  /** Reads stored text (null: nothing stored) as this version: parsed, version checked, upgraded, recovered. */
  read(raw: string | null): StoredRead<Doc>;
  /** The text `doc` is stored as: its stored form, with the format version as `v`. */
  text(doc: Doc): string;
  /** Whether two documents are stored alike. */
  same(a: Doc, b: Doc): boolean;
  /** Reads a document at page load: its stored text, merged with what other keys and the last page of this tab hold. */
  load(found: Found): Loaded<Doc>;
  /**
   * Plans writing `next` over what is stored now (`found`: another tab may have saved since its
   * last `storage` event reached us): merged with it; never over a newer format, nor over
   * unreadable text of which no copy exists (`replaceable`: the text whose copy exists or that the
   * person discarded). `textAt` reads a key, for a free backup key.
   */
  write(next: Doc, found: StoredRead<Doc>, replaceable: string | null, textAt: (key: string) => string | null): WritePlan<Doc>;
  /**
   * Plans what a `storage` event for `key` does to `doc`: another tab saved under the document's
   * key, under one of `takenKeys` (an earlier release's), or under an older format's aside key.
   * Theirs is merged in; ours is stored back when theirs lacks something of ours or is of an older
   * format (it converges: merging again gives the same, so the other tab stores nothing back). What
   * came under another key is saved under ours, and that key removed by the write.
   */
  heard(doc: Doc, key: string | null, newValue: string | null, takenKeys: readonly string[]): Heard<Doc>;
  /** The text of the edits a tab on older code keeps aside: `doc` merged with what other tabs of its format kept there (`there`). */
  aside(doc: Doc, there: string | null): string;
}

/** The format version stored data says it has: `v`, or 1 for data saved without one. */
function storedVersion(data: unknown): number {
  const version = (data as { v?: unknown } | null | undefined)?.v;
  return typeof version === 'number' && Number.isInteger(version) && version >= 1 ? version : 1;
}

/**
 * Where to copy unreadable text: the backup key, or `<backup key>-2`, `-3`, … when an earlier
 * copy of other text is there (an earlier copy is never overwritten; the same text is not copied twice).
 */
export function freeBackupKey(backupKey: string, raw: string, textAt: (key: string) => string | null): string {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? backupKey : `${backupKey}-${n}`;
    const there = textAt(candidate);
    if (there === null || there === raw) return candidate;
  }
}

/** What a screen says when a write fails: no room ('full'), or storage blocked or gone ('unavailable'). */
export const shownProblem = (problem: StorageProblem): 'full' | 'unavailable' => (problem === 'full' ? 'full' : 'unavailable');

/** The plans of the kind of stored data `options` declares. */
export function createPlan<Doc extends object>(options: DeviceDocumentOptions<Doc>): DocumentPlan<Doc> {
  const { key, empty, recover, merge, version = 1, upgrade = (data: unknown) => data } = options;
  const { toJSON = (value: Doc): object => value, initial = (found: Doc) => found } = options;
  const olderAsideKeys = Array.from({ length: version - 1 }, (_, index) => `${key}:unsaved-v${index + 1}`);

  function read(raw: string | null): StoredRead<Doc> {
    const { value, problem } = parse(raw);
    const unreadable = { raw, ...recover(undefined), lost: true, older: false, newer: false };
    if (problem) return unreadable;
    const from = value === undefined ? version : storedVersion(value);
    if (from > version) return { raw, doc: empty, lost: false, older: false, newer: true };
    let data = value;
    if (from < version) {
      try {
        data = upgrade(value, from);
      } catch {
        return unreadable;
      }
    }
    return { raw, ...recover(data), older: from < version, newer: false };
  }

  /** What another key holds (another tab's save, an older format's edits kept aside), when it is JSON of this format or older. */
  function readOther(raw: string | null): StoredRead<Doc> | undefined {
    if (raw === null || parse(raw).problem) return undefined;
    const other = read(raw);
    return other.newer ? undefined : other;
  }

  const text = (doc: Doc): string => JSON.stringify({ v: version, ...toJSON(doc) });

  function load({ stored, others, carried }: Found): Loaded<Doc> {
    const found = read(stored);
    if (found.newer) return { found, doc: empty, outdated: true, mergedFrom: [], carried: false, saveNow: false };
    let doc = found.doc;
    const mergedFrom: string[] = [];
    for (const other of others) {
      const otherRead = readOther(other.raw);
      if (!otherRead) continue;
      doc = merge(doc, otherRead.doc);
      mergedFrom.push(other.key);
    }
    // Both carried texts, merged: one may be older (the other place refused a later carry).
    let fromLastPage: Doc | undefined;
    for (const carriedText of carried) {
      const carriedRead = readOther(carriedText);
      if (carriedRead && !carriedRead.lost) fromLastPage = fromLastPage ? merge(fromLastPage, carriedRead.doc) : carriedRead.doc;
    }
    return {
      found,
      doc: initial(fromLastPage ? merge(doc, fromLastPage) : doc),
      outdated: false,
      mergedFrom,
      carried: carried.length > 0,
      saveNow: found.lost || found.older || mergedFrom.length > 0 || !!fromLastPage,
    };
  }

  function write(next: Doc, found: StoredRead<Doc>, replaceable: string | null, textAt: (key: string) => string | null): WritePlan<Doc> {
    if (found.newer) return { outdated: true };
    const merged = merge(next, found.doc);
    const { raw } = found;
    const copy =
      found.lost && raw !== null && raw !== replaceable ? { key: freeBackupKey(key + ':backup', raw, textAt), text: raw } : undefined;
    return { copy, merged, text: text(merged) };
  }

  const same = (a: Doc, b: Doc): boolean => JSON.stringify(toJSON(a)) === JSON.stringify(toJSON(b));

  function heard(doc: Doc, heardKey: string | null, newValue: string | null, takenKeys: readonly string[]): Heard<Doc> {
    const other = heardKey !== null && (takenKeys.includes(heardKey) || olderAsideKeys.includes(heardKey));
    // Unreadable text from another tab is handled when this tab next writes (copied aside first).
    if (!newValue || !(heardKey === key || other) || parse(newValue).problem) return undefined;
    const theirs = read(newValue);
    if (theirs.newer) return { outdated: true };
    const merged = merge(doc, theirs.doc);
    if (other) return { merged, save: true, mergedFrom: heardKey };
    return { merged, save: theirs.older || !same(merged, theirs.doc) };
  }

  function aside(doc: Doc, there: string | null): string {
    const kept = readOther(there);
    return text(kept && !kept.lost ? merge(doc, kept.doc) : doc);
  }

  return {
    backupKey: key + ':backup',
    carryKey: key + ':carried',
    asideKey: `${key}:unsaved-v${version}`,
    olderAsideKeys,
    read,
    text,
    same,
    load,
    write,
    heard,
    aside,
  };
}
