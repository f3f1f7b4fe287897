// The notes store: the editing actions on the notes document, kept on the device by the reusable
// device document (src/stored-data/device-document.ts: throttled save, flush before reloads, two tabs,
// storage problems, restore). What is the notes' own: the key, the shape, the merge (model.ts).
import { storageKey } from '../contract/app-name';
import { createDeviceDocument, type DeviceDocumentOptions } from '../stored-data/device-document';
import { selectStore, type Store } from '../core/store';
import type { Restored } from './backup';
import { EMPTY_DOC, merge, newId, recover, toStored, withEdit, withNewNote, withoutNote, type Doc } from './model';

/** What the Notes screen shows: the notes, and what went wrong with the device's storage. */
export interface NotesState {
  notes: Doc['notes'];
  /** The last save failed because storage is full, or there is no storage at all. */
  problem?: 'full' | 'unavailable';
  /** Stored notes could not all be read: their text was 'copied' to BACKUP_KEY, or 'not-copied' (kept as it is, nothing saved over it). */
  corrupt?: 'copied' | 'not-copied';
  /** The stored notes are of a newer format than this code reads: this tab saves nothing until reloaded. */
  outdated: boolean;
  /** What this tab had not saved when it became outdated: 'kept' aside for the newer version to merge, or 'not-kept' (no room). */
  unsaved?: 'kept' | 'not-kept';
  /** False until the notes were read from the device (and in the prerendered HTML). */
  loaded: boolean;
}

/** localStorage key of the notes document. */
export const NOTES_KEY = storageKey('notes');

/** What the notes declare to the device document (exported so tests can open the same notes as a second tab would). */
export const NOTES_DOCUMENT: DeviceDocumentOptions<Doc> = {
  key: NOTES_KEY,
  empty: EMPTY_DOC,
  // The shape saved as version 1 since `v` was first written; a new shape is version 2 with an
  // upgrade(data, 1) beside it (README, "Add stored data").
  version: 1,
  recover,
  merge,
  toJSON: toStored,
  // New users (and anyone whose storage gave nothing back) start with one empty note; someone
  // who deleted every note has tombstones and gets none. Its id is random like every note's (a
  // fixed one made two devices' first notes one); its time 0 marks it untouched, so a merge
  // drops it beside another fresh tab's (model.ts merge).
  initial: (found) => (found.notes.length || found.gone.size ? found : { notes: [{ id: newId(), text: '', at: 0 }], gone: new Map() }),
  worthKeeping: (doc) => doc.notes.some((note) => note.text),
};

const notesDocument = createDeviceDocument(NOTES_DOCUMENT);

/** Where unreadable stored notes are copied before anything overwrites them. */
export const BACKUP_KEY = notesDocument.backupKey;

/** The notes store. */
export const notes: Store<NotesState> = selectStore(notesDocument, ({ doc, ...status }) => ({ notes: doc.notes, ...status }));

/** The notes document as it is now. */
const current = (): Doc => notesDocument.getSnapshot().doc;

/** Saves pending changes now, synchronously (for pagehide and before a reload). */
export const flushNotes = (): void => notesDocument.flush();

/** Adds an empty note at the end; returns its id. */
export function addNote(): string {
  const id = newId();
  notesDocument.change(withNewNote(current(), id, Date.now()));
  return id;
}

/** Replaces the text of a note (stamped after the version it replaces, whatever this device's clock says). */
export function editNote(id: string, text: string): void {
  notesDocument.change(withEdit(current(), id, text, Date.now()));
}

/** Deletes a note (and remembers when, so no copy of the deleted version brings it back). */
export function deleteNote(id: string): void {
  notesDocument.change(withoutNote(current(), id, Date.now()));
}

/** Lets the unreadable stored notes that could not be copied be replaced by the notes on screen: the person chose to start over. */
export const startOver = (): void => notesDocument.discardUnreadable();

/** What a restore did (backup.ts Restored's counts), or why nothing changed (storage full, or notes of a newer format stored). */
export type RestoreOutcome = Omit<Restored, 'doc'> | { problem: 'full' | 'outdated' };

/**
 * Merges a backup's notes into this device's with `mergeIn` (src/notes/backup.ts mergeBackup:
 * passed in, so the merge is loaded only with the backup controls' code) and writes the result in
 * one setItem: it is all stored, or, when storage is full or holds a newer format, nothing
 * changes at all (not even on screen). Without any storage the notes merge for this session, as every edit does.
 */
export function restoreNotes(mergeIn: (here: Doc) => Restored): RestoreOutcome {
  const { doc: merged, ...counts } = mergeIn(current());
  const problem = notesDocument.restore(merged);
  if (problem) return { problem };
  return counts;
}

/** Loads the notes and starts saving them; `storage` and `saveWithinMs` are for tests. Returns a stop function. */
export const startNotes = (options: { saveWithinMs?: number; storage?: Storage | null } = {}): (() => void) => notesDocument.start(options);
