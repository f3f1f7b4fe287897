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
  const d = (data ?? {}) as { notes?: unknown; gone?: unknown };
  const list: unknown[] = Array.isArray(d.notes) ? d.notes : [];
  const notes: Note[] = [];
  for (const n of list as Partial<Note>[]) {
    // A note whose text survived is kept even if its id or time did not.
    if (typeof n?.text == 'string') notes.push({ id: typeof n.id == 'string' ? n.id : newId(), text: n.text, at: +n.at! || 0 });
  }
  const gone = Object.fromEntries(Object.entries(d.gone ?? {}).filter(([, t]) => typeof t == 'number'));
  return { doc: merge({ notes, gone }, { notes: [], gone: {} }), lost: data !== undefined && (!Array.isArray(d.notes) || notes.length < list.length) };
}

/** Merges two versions note by note: the later edit wins, a note deleted after its last edit stays deleted. */
export function merge(a: Doc, b: Doc): Doc {
  const gone: Record<string, number> = { ...a.gone };
  for (const [id, t] of Object.entries(b.gone)) if (!(gone[id] >= t)) gone[id] = t;
  const byId = new Map<string, Note>();
  for (const n of [...a.notes, ...b.notes]) {
    const m = byId.get(n.id);
    // Equal times: the text decides, so both tabs pick the same winner.
    if (!m || n.at > m.at || (n.at == m.at && n.text > m.text)) byId.set(n.id, n);
  }
  return {
    notes: [...byId.values()].filter((n) => !(gone[n.id] >= n.at)).sort((x, y) => (x.id < y.id ? -1 : 1)),
    gone: Object.fromEntries(Object.entries(gone).sort()),
  };
}
