// What a device document is to the app that declares one (src/stored-data/device-document.ts
// makes it): the options a kind of stored data declares, the state its screens read, and the
// store's own calls.
import type { Store } from '../core/store';

/** What a kind of stored data declares. `Doc` is an object; toJSON() gives its stored form when it is not plain JSON. */
export interface DeviceDocumentOptions<Doc extends object> {
  /** The localStorage key (name it with storageKey() from src/contract/app-name.ts). */
  key: string;
  /** The document before anything was read: what the prerendered HTML and hydration show. */
  empty: Doc;
  /**
   * The stored format's version (default 1), saved as `v` beside the document's fields and read
   * back: stored data of a newer version is never overwritten (the state says `outdated`); stored
   * data of an older one goes through upgrade() and is saved again in this version, once.
   */
  version?: number;
  /**
   * Brings data stored in format `fromVersion` (older than `version`; data saved without `v` is
   * version 1) to this version's shape, from any older version; recover() then reads the result.
   * Default: the data as it is. A throw counts as unreadable data (copied aside, like corrupt text).
   */
  upgrade?(data: unknown, fromVersion: number): unknown;
  /**
   * Keeps what is usable of stored data (anything JSON.parse gave, upgraded, or undefined when
   * nothing is stored); `lost` tells whether anything had to be dropped (the stored text is then
   * copied aside before anything replaces it).
   */
  recover(data: unknown): { doc: Doc; lost: boolean };
  /** Merges two versions: the same result whichever side merges, in any grouping, and merging again changes nothing. */
  merge(mine: Doc, theirs: Doc): Doc;
  /** The document as it is stored, a JSON value whose fields go beside `v` (default: the document itself). */
  toJSON?(doc: Doc): object;
  /** The document a page load starts from, given what was recovered (default: that). */
  initial?(found: Doc): Doc;
  /** Whether the document holds something worth asking the browser to keep (default: always). */
  worthKeeping?(doc: Doc): boolean;
}

/** What a screen shows of a stored document. */
export interface DeviceDocumentState<Doc> {
  doc: Doc;
  /** The last save failed because storage is full, or there is no storage at all. */
  problem?: 'full' | 'unavailable';
  /**
   * Stored data could not all be read. 'copied': the stored text was copied to the backup key.
   * 'not-copied': no copy could be made (storage full), so the stored text stays as it is and
   * nothing is saved over it until a copy exists or discardUnreadable() is called.
   */
  corrupt?: 'copied' | 'not-copied';
  /** The stored data is of a newer format than this code reads: this tab saves and merges nothing until it is reloaded. */
  outdated: boolean;
  /**
   * Edits this tab had not saved when it became outdated: 'kept' aside on the device, where the
   * newer version merges them in when it starts (or at once, in its open tabs); 'not-kept' when
   * storage refused them (they stay on screen only).
   */
  unsaved?: 'kept' | 'not-kept';
  /** False until the document was read from the device (and in the prerendered HTML). */
  loaded: boolean;
}

/** Where a document is stored, for tests: `storage` (null: none at all) and the save delay. */
export interface DeviceDocumentStart {
  /**
   * A change is saved this long after the first unsaved change (default 1000): later changes do
   * not push the save back, so during long typing a save still happens this often (a throttle).
   */
  saveWithinMs?: number;
  storage?: Storage | null;
  /** Where what could not be saved is carried through a reload of this tab (default: sessionStorage; null: none). */
  session?: Storage | null;
}

/** Why restore() changed nothing: storage is full (or has no room for the copy of unreadable data), or the stored format is newer. */
export type RestoreProblem = 'full' | 'outdated';

/** A stored document: a store of its state, and what changes it. */
export interface DeviceDocument<Doc extends object> extends Store<DeviceDocumentState<Doc>> {
  /** Where unreadable stored data is copied before anything overwrites it (a later copy of other text: `<backupKey>-2`, `-3`, …). */
  readonly backupKey: string;
  /** Loads the document and starts saving it; returns a stop function. */
  start(options?: DeviceDocumentStart): () => void;
  /** Saves pending changes now, synchronously (for pagehide and before a reload). */
  flush(): void;
  /** Replaces the document with an edited version and saves it soon (within `saveWithinMs`); ignored once `outdated`. */
  change(next: Doc): void;
  /**
   * Stores `next`, merged with what is stored, in one write: it is all stored, or, when storage is
   * full or the stored format is newer, nothing changes at all (not even on screen) and the reason
   * comes back. Without any storage it changes for this session, as every edit does.
   */
  restore(next: Doc): RestoreProblem | undefined;
  /** The person chose to start over: unreadable stored data that could not be copied may now be replaced. */
  discardUnreadable(): void;
}
