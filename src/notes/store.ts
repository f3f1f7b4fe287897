// The notes store: the editing actions on the notes document, kept on the device by the reusable
// device document (src/offline/device-document.ts: debounced save, flush before reloads, two tabs,
// storage problems, restore). What is the notes' own: the key, the shape, the merge (model.ts).
import { storageKey } from '../app-name';
import { createDeviceDocument } from '../offline/device-document';
import { selectStore, type Store } from '../store';
import { mergeBackup } from './backup';
import { merge, newId, recover, type Doc, type Note } from './model';

/** What the Notes screen shows: the notes, and what went wrong with the device's storage. */
export interface NotesState {
  notes: Doc['notes'];
  /** The last save failed because storage is full, or there is no storage at all. */
  problem?: 'full' | 'unavailable';
  /** Stored notes could not all be read; the stored text was copied to BACKUP_KEY. */
  corrupt: boolean;
  /** False until the notes were read from the device (and in the prerendered HTML). */
  loaded: boolean;
}

/** localStorage key of the notes document. */
export const NOTES_KEY = storageKey('notes');

const notesDocument = createDeviceDocument<Doc>({
  key: NOTES_KEY,
  empty: { notes: [], gone: {} },
  recover,
  merge,
  // New users (and anyone whose storage gave nothing back) start with one empty note; someone
  // who deleted every note has tombstones and gets none. Its fixed id and time 0 make the first
  // note of two fresh tabs the same note, not two.
  initial: (found) => (found.notes.length || Object.keys(found.gone).length ? found : { notes: [{ id: '0', text: '', at: 0 }], gone: {} }),
  worthKeeping: (doc) => doc.notes.some((note) => note.text),
});

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
  const doc = current();
  notesDocument.change({ ...doc, notes: [...doc.notes, { id, text: '', at: Date.now() }] });
  return id;
}

/** Replaces the text of a note. */
export function editNote(id: string, text: string): void {
  const doc = current();
  notesDocument.change({ ...doc, notes: doc.notes.map((note) => (note.id === id ? { id, text, at: Date.now() } : note)) });
}

/** Deletes a note (and remembers when, so another tab's older copy does not bring it back). */
export function deleteNote(id: string): void {
  const doc = current();
  notesDocument.change({ notes: doc.notes.filter((note) => note.id !== id), gone: { ...doc.gone, [id]: Date.now() } });
}

/** What a restore did: notes added and updated, or why nothing changed (storage full). */
export type RestoreOutcome = { added: number; updated: number } | { problem: 'full' };

/**
 * Merges a backup's notes into this device's (src/notes/backup.ts mergeBackup) and writes the
 * result in one setItem: it is all stored, or, when storage is full, nothing changes at all (not
 * even on screen). Without any storage the notes merge for this session, as every edit does.
 */
export function restoreNotes(backupNotes: Note[]): RestoreOutcome {
  const { doc: merged, added, updated } = mergeBackup(current(), backupNotes);
  const problem = notesDocument.restore(merged);
  if (problem) return { problem };
  return { added, updated };
}

/** Loads the notes and starts saving them; `storage` and `debounceMs` are for tests. Returns a stop function. */
export const startNotes = (options: { debounceMs?: number; storage?: Storage | null } = {}): (() => void) => notesDocument.start(options);
