// The notes store: the editing actions, a debounced save to the device, a synchronous flush for
// `pagehide`, hidden tabs and reloads, and merging what another tab saved (`storage` event).
import { storageKey } from '../app-name';
import { onFlush } from '../offline/flush';
import { persistWithoutPrompt } from '../offline/persistence';
import { area, load, save, type StorageProblem } from '../offline/storage';
import { createStore, type Store } from '../store';
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
/** Where unreadable stored notes are copied before anything overwrites them. */
export const BACKUP_KEY = NOTES_KEY + ':backup';

const state = createStore<NotesState>({ notes: [], corrupt: false, loaded: false });
/** The notes store. */
export const notes: Store<NotesState> = state;

let doc: Doc = { notes: [], gone: {} };
let dirty = false;
let timer: ReturnType<typeof setTimeout> | undefined;
let debounce = 1000;
let storage: Storage | null = null;

const sameDoc = (a: Doc, b: Doc) => JSON.stringify(a) === JSON.stringify(b);
const saveSoon = () => {
  dirty = true;
  // Not reset by each keystroke: during long typing a save still happens every `debounce` ms.
  timer ??= setTimeout(flushNotes, debounce);
};
const change = (next: Doc) => {
  doc = next;
  state.update({ notes: next.notes });
  saveSoon();
};

/** Saves pending changes now, synchronously (for pagehide and before a reload). */
export function flushNotes(): void {
  clearTimeout(timer);
  timer = undefined;
  if (!dirty) return;
  const problem = save(NOTES_KEY, { v: 1, ...doc }, storage) as NotesState['problem'];
  // A failed save stays pending: the text stays on screen and the next flush tries again.
  dirty = !!problem;
  state.update({ problem });
  // There is something worth keeping now: ask the browser to keep it, where it cannot prompt.
  if (!problem && doc.notes.some((note) => note.text)) persistWithoutPrompt().catch(() => {});
}

/** Adds an empty note at the end; returns its id. */
export function addNote(): string {
  const id = newId();
  change({ ...doc, notes: [...doc.notes, { id, text: '', at: Date.now() }] });
  return id;
}

/** Replaces the text of a note. */
export function editNote(id: string, text: string): void {
  change({ ...doc, notes: doc.notes.map((note) => (note.id === id ? { id, text, at: Date.now() } : note)) });
}

/** Deletes a note (and remembers when, so another tab's older copy does not bring it back). */
export function deleteNote(id: string): void {
  change({ notes: doc.notes.filter((note) => note.id !== id), gone: { ...doc.gone, [id]: Date.now() } });
}

/** What a restore did: notes added and updated, or why nothing changed (storage full). */
export type RestoreOutcome = { added: number; updated: number } | { problem: 'full' };

/**
 * Merges a backup's notes into this device's (src/notes/backup.ts mergeBackup) and writes the
 * result in one setItem: it is all stored, or, when storage is full, nothing changes at all (not
 * even on screen). Without any storage the notes merge for this session, as every edit does.
 */
export function restoreNotes(backupNotes: Note[]): RestoreOutcome {
  const { doc: merged, added, updated } = mergeBackup(doc, backupNotes);
  const problem = save(NOTES_KEY, { v: 1, ...merged }, storage);
  if (problem === 'full') return { problem };
  // The merge holds every pending edit too: it is saved now, or (no storage) as saved as it gets.
  clearTimeout(timer);
  timer = undefined;
  dirty = false;
  doc = merged;
  state.update({ notes: merged.notes, problem: problem === 'unavailable' ? problem : undefined });
  return { added, updated };
}

/** Loads the notes and starts saving them; `storage` and `debounceMs` are for tests. Returns a stop function. */
export function startNotes({ debounceMs = 1000, storage: notesStorage = area() }: { debounceMs?: number; storage?: Storage | null } = {}): () => void {
  debounce = debounceMs;
  storage = notesStorage;
  clearTimeout(timer);
  timer = undefined;
  dirty = false;
  const { raw, value, problem } = load(NOTES_KEY, storage);
  const { doc: found, lost } = recover(value);
  // New users (and anyone whose storage gave nothing back) start with one empty note; someone
  // who deleted every note has tombstones and gets none. Its fixed id and time 0 make the first
  // note of two fresh tabs the same note, not two.
  doc = found.notes.length || Object.keys(found.gone).length ? found : { notes: [{ id: '0', text: '', at: 0 }], gone: {} };
  const corrupt = problem === 'corrupt' || lost;
  state.set({ notes: doc.notes, corrupt, loaded: true, problem: problem === 'unavailable' ? problem : undefined });
  // Keep the unreadable text before the first save replaces it; save what was recovered only
  // once the copy exists.
  if (corrupt && !save(BACKUP_KEY, raw, storage)) {
    dirty = true;
    flushNotes();
  }

  const onStorage = (event: StorageEvent) => {
    if (event.key !== NOTES_KEY || !event.newValue) return;
    let theirs: Doc;
    try {
      theirs = recover(JSON.parse(event.newValue)).doc;
    } catch {
      return;
    }
    const merged = merge(doc, theirs);
    if (!sameDoc(merged, doc)) {
      doc = merged;
      state.update({ notes: merged.notes });
    }
    // What they stored lacks something newer of ours: store the merge (it converges: merging again gives the same).
    if (!sameDoc(merged, theirs)) saveSoon();
  };
  const onHide = () => {
    if (document.hidden) flushNotes();
  };
  addEventListener('storage', onStorage);
  addEventListener('pagehide', flushNotes);
  document.addEventListener('visibilitychange', onHide);
  const stopFlushing = onFlush(flushNotes);
  return () => {
    stopFlushing();
    clearTimeout(timer);
    timer = undefined;
    removeEventListener('storage', onStorage);
    removeEventListener('pagehide', flushNotes);
    document.removeEventListener('visibilitychange', onHide);
  };
}
