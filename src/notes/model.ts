// The notes document and its merge, pure functions only. Each note carries the time of its last
// edit and each deletion leaves a tombstone, so two tabs that saved different versions merge
// note by note to the same result (the later time wins; a delete wins over an edit of its own
// time or earlier), whichever tab merges first: neither overwrites the other's newer text.
//
// Times are a hybrid logical clock, not the wall clock alone: an edit or a delete is stamped
// max(now, time of the version it changes + 1), so it wins over what it changes even when this
// device's clock is behind the one that wrote that version (a backup from a device a year fast).
//
// Ids are data: they are never keys of a plain object (`__proto__`, `constructor`, `toString`
// are ids like any other). In memory the tombstones are a Map; stored, they stay the JSON object
// `{ [id]: time }` (format version 1), read with Object.entries and written to an object without
// a prototype.

import { nextTime } from '../stored-data/device-document';

/** One note: `at` is the time of its last edit (ms since epoch, from the clock described above). */
export interface Note {
  id: string;
  text: string;
  at: number;
}

/** The notes document: the notes in display order, and when each deleted note was deleted, by id. */
export interface Doc {
  notes: Note[];
  /** Never changed in place: a change makes a new Map, so a snapshot's Map stays as it was. */
  gone: ReadonlyMap<string, number>;
}

/** The document as stored (JSON): `gone` is an object without a prototype, keyed by id, sorted. */
export interface StoredDoc {
  notes: Note[];
  gone: Record<string, number>;
}

/** The most notes: a screen of textareas beyond this is no longer usable (Notes stops adding at it, a backup with more is refused). */
export const MAX_NOTES = 10_000;

/** No notes and no tombstones. */
export const EMPTY_DOC: Doc = { notes: [], gone: new Map() };

/**
 * A new note id: the creation time (so every tab shows the notes in the same order), then 96
 * random bits (crypto.getRandomValues, which unlike randomUUID also runs outside a secure
 * context), so two devices never make the same id and a backup moved between them merges no
 * unrelated notes.
 */
export const newId = (): string =>
  Date.now().toString(36) + '-' + Array.from(crypto.getRandomValues(new Uint32Array(3)), (n) => n.toString(36).padStart(7, '0')).join('');

/** The empty note a fresh start shows (time 0): dropped by any merge that has another note, so two fresh tabs show one note, not two. */
export const isUntouched = (note: Note): boolean => note.at === 0 && note.text === '';

/** `doc` with a new empty note `id` at the end, stamped `now`. */
export function withNewNote(doc: Doc, id: string, now: number): Doc {
  return { ...doc, notes: [...doc.notes, { id, text: '', at: now }] };
}

/** `doc` with note `id` holding `text`, stamped after the version it replaces. */
export function withEdit(doc: Doc, id: string, text: string, now: number): Doc {
  return { ...doc, notes: doc.notes.map((note) => (note.id === id ? { id, text, at: nextTime(note.at, now) } : note)) };
}

/** `doc` without note `id`, its tombstone stamped after the version it deletes (so no copy of that version brings it back). */
export function withoutNote(doc: Doc, id: string, now: number): Doc {
  const deleted = doc.notes.find((note) => note.id === id);
  if (!deleted) return doc;
  const gone = new Map(doc.gone);
  gone.set(id, Math.max(gone.get(id) ?? 0, nextTime(deleted.at, now)));
  return { notes: doc.notes.filter((note) => note.id !== id), gone };
}

/** The document as stored: tombstones in an object without a prototype (so an id such as `__proto__` is an own key), sorted by id. */
export function toStored(doc: Doc): StoredDoc {
  const gone: Record<string, number> = Object.create(null);
  for (const [id, at] of [...doc.gone].sort(([a], [b]) => compareIds(a, b))) gone[id] = at;
  return { notes: doc.notes, gone };
}

/** Keeps what is usable of stored data; `lost` tells whether anything had to be dropped. */
export function recover(data: unknown): { doc: Doc; lost: boolean } {
  const stored = (data ?? {}) as { notes?: unknown; gone?: unknown };
  const storedNotes: unknown[] = Array.isArray(stored.notes) ? stored.notes : [];
  const notes: Note[] = [];
  for (const candidate of storedNotes as Partial<Note>[]) {
    // A note whose text survived is kept even if its id or time did not.
    if (typeof candidate?.text !== 'string') continue;
    notes.push({ id: typeof candidate.id === 'string' ? candidate.id : newId(), text: candidate.text, at: Number(candidate.at) || 0 });
  }
  // JSON.parse makes every key an own property (`__proto__` too): Object.entries reads each one.
  const storedGone = typeof stored.gone === 'object' && stored.gone !== null ? Object.entries(stored.gone) : [];
  const gone = new Map(storedGone.filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
  const lost = data !== undefined && (!Array.isArray(stored.notes) || notes.length < storedNotes.length || gone.size < storedGone.length);
  return { doc: merge({ notes, gone }, EMPTY_DOC), lost };
}

/**
 * Merges two versions note by note: the later edit wins, a note deleted at or after its last
 * edit stays deleted. Commutative, associative and idempotent: each note's winner is the greatest
 * by (time, text), each tombstone the latest, and the notes are sorted by id. An untouched fresh
 * note goes when another note is there (each fresh tab makes its own).
 */
export function merge(mine: Doc, theirs: Doc): Doc {
  const gone = new Map(mine.gone);
  for (const [id, at] of theirs.gone) gone.set(id, Math.max(gone.get(id) ?? at, at));
  const newestById = new Map<string, Note>();
  for (const note of [...mine.notes, ...theirs.notes]) {
    const known = newestById.get(note.id);
    if (!known || isNewer(note, known)) newestById.set(note.id, note);
  }
  const live = [...newestById.values()].filter((note) => !deletedSince(gone, note)).sort((a, b) => compareIds(a.id, b.id));
  const notes = live.some((note) => !isUntouched(note)) ? live.filter((note) => !isUntouched(note)) : live;
  return { notes, gone };
}

/** Whether a tombstone says `note` was deleted at its time or later (a deletion wins over an edit of the same moment). */
function deletedSince(gone: ReadonlyMap<string, number>, note: Note): boolean {
  const deletedAt = gone.get(note.id);
  return deletedAt !== undefined && deletedAt >= note.at;
}

/** Orders ids by code units, the same in every tab. */
const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Whether `note` wins over `known`: a later edit, or at equal times the greater text, so both tabs pick the same winner. */
export const isNewer = (note: Note, known: Note): boolean => note.at > known.at || (note.at === known.at && note.text > known.text);
