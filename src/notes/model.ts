// The notes document and its merge, pure functions only. Each note carries the time of its last
// edit and each deletion leaves a tombstone, so two tabs that saved different versions merge
// note by note to the same result (the newer edit wins; a delete wins over older edits only),
// whichever tab merges first: neither overwrites the other's newer text.

/** One note: `at` is the time of its last edit (ms since epoch). */
export interface Note {
  id: string;
  text: string;
  at: number;
}

/** What is stored: the notes in display order, and when each deleted note was deleted. */
export interface Doc {
  notes: Note[];
  gone: Record<string, number>;
}

/** A new note id; ids sort by creation time, so every tab shows the notes in the same order. */
export const newId = (): string => Date.now().toString(36) + Math.random().toString(36).slice(2, 6);

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
  const gone = Object.fromEntries(Object.entries(stored.gone ?? {}).filter(([, deletedAt]) => typeof deletedAt === 'number'));
  const lost = data !== undefined && (!Array.isArray(stored.notes) || notes.length < storedNotes.length);
  return { doc: merge({ notes, gone }, { notes: [], gone: {} }), lost };
}

/** Merges two versions note by note: the later edit wins, a note deleted after its last edit stays deleted. */
export function merge(mine: Doc, theirs: Doc): Doc {
  const gone: Record<string, number> = { ...mine.gone };
  for (const [id, deletedAt] of Object.entries(theirs.gone)) {
    if (!deletedSince(gone, id, deletedAt)) gone[id] = deletedAt;
  }
  const newestById = new Map<string, Note>();
  for (const note of [...mine.notes, ...theirs.notes]) {
    const known = newestById.get(note.id);
    if (!known || isNewer(note, known)) newestById.set(note.id, note);
  }
  const notes = [...newestById.values()].filter((note) => !deletedSince(gone, note.id, note.at)).sort((a, b) => (a.id < b.id ? -1 : 1));
  return { notes, gone: Object.fromEntries(Object.entries(gone).sort()) };
}

/** Whether the tombstones say `id` was deleted at `at` or later (a deletion wins over an edit of the same moment). */
function deletedSince(gone: Record<string, number>, id: string, at: number): boolean {
  const deletedAt = gone[id];
  return deletedAt !== undefined && deletedAt >= at;
}

/** Whether `note` wins over `known`: a later edit, or at equal times the greater text, so both tabs pick the same winner. */
const isNewer = (note: Note, known: Note): boolean => note.at > known.at || (note.at === known.at && note.text > known.text);
