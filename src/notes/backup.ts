// The notes backup file, pure functions only: what "Download a backup" writes, what "Restore from
// a backup" accepts (anything else, a file over one of its limits too, is refused with one
// sentence saying why: a file is taken whole or not at all), and how a backup merges into the
// notes on this device. Browsers delete site data (Safari after 7 days without a
// visit, any browser under storage pressure): this file is the user's own copy, so every limit
// here lies above what the app lets a person store (the editor holds the notes to model.ts MAX_NOTES).
// The page loads it on use, with what the backup controls do (src/ui/screens/notes/backup-actions.ts).
import { APP_NAME } from '../contract/app-name';
import { formatNumber } from '../core/format';
import { nextTime } from '../stored-data/device-document';
import { isNewer, isUntouched, MAX_NOTES, merge, type Doc, type Note } from './model';

/** What identifies the file as a notes backup, whatever the app is called. */
export const BACKUP_FORMAT = 'notes-backup';
/** The format's version: a reader refuses any other, so a later format is never misread. */
export const BACKUP_VERSION = 1;
/**
 * The largest file read: above the largest backup a device can hold notes for. localStorage keeps
 * 5,242,880 UTF-16 code units an origin in Chromium, Firefox and Safari; the backup writes each
 * unit of note text as at most 3 bytes of UTF-8 (as the stored JSON escapes it, 1 unit for 1 to 3
 * bytes, 6 for 6), and each note's fields with at most twice the stored overhead.
 */
export const MAX_BACKUP_BYTES = 16 * 1024 * 1024;

/**
 * The file's content: format and version first, the app it came from and when (ISO 8601, for
 * people), then every note with its id, text and `at`, the time of its last edit (ms since epoch).
 */
export interface Backup {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  app: string;
  savedAt: string;
  notes: Note[];
}

/** The backup of `notes` as the file's text (readable JSON). */
export function backupText(notes: readonly Note[], now: Date): string {
  const backup: Backup = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    app: APP_NAME,
    savedAt: now.toISOString(),
    notes: notes.map(({ id, text, at }) => ({ id, text, at })),
  };
  return JSON.stringify(backup, null, 2) + '\n';
}

/** `<app-name>-notes-YYYY-MM-DD.json`, with the local date. */
export function backupFileName(now: Date): string {
  const day = [now.getFullYear(), now.getMonth() + 1, now.getDate()].map((part) => String(part).padStart(2, '0')).join('-');
  return `${APP_NAME}-notes-${day}.json`;
}

/** The notes of a valid backup, or the sentence saying why the file is not one. */
export type ReadBackup = { notes: Note[] } | { refused: string };

/** The reason a file of `bytes` is refused before it is read, or undefined when it may be read. */
export function sizeProblem(bytes: number): string | undefined {
  if (bytes > MAX_BACKUP_BYTES) return 'This file is larger than 16 MB, more than any device keeps of notes, so it is not a notes backup.';
  return undefined;
}

/** The limit `notes` break, as the sentence a refusal says, or undefined within it (so a download can warn too). */
export function limitProblem(notes: readonly Note[]): string | undefined {
  if (notes.length > MAX_NOTES)
    return `This backup has ${formatNumber(notes.length)} notes; this app keeps at most ${formatNumber(MAX_NOTES)}.`;
  return undefined;
}

/** Reads a backup file's text: its notes, or why it is refused (nothing is ever partly taken). */
export function readBackup(text: string): ReadBackup {
  const tooLarge = sizeProblem(new Blob([text]).size);
  if (tooLarge) return { refused: tooLarge };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { refused: 'This file is not a notes backup: it is not valid JSON.' };
  }
  const backup = (data ?? {}) as Partial<Record<keyof Backup, unknown>>;
  if (typeof data !== 'object' || backup.format !== BACKUP_FORMAT) return { refused: 'This file is not a notes backup.' };
  if (backup.version !== BACKUP_VERSION)
    return { refused: `This backup has format version ${String(backup.version)}; this app reads version ${BACKUP_VERSION}.` };
  if (!Array.isArray(backup.notes)) return { refused: 'This backup is damaged: it has no list of notes.' };
  const problems = backup.notes.map(noteProblem);
  const first = problems.findIndex(Boolean);
  if (first >= 0) return { refused: `This backup is damaged: note ${first + 1} ${problems[first]}.` };
  const notes = (backup.notes as Note[]).map(({ id, text, at }) => ({ id, text, at }));
  const overLimit = limitProblem(notes);
  if (overLimit) return { refused: overLimit };
  const repeated = repeatedId(notes);
  if (repeated) return { refused: `This backup is damaged: notes ${repeated[0] + 1} and ${repeated[1] + 1} have the same id.` };
  return { notes };
}

/** The positions of the first two notes that share an id (a Map: ids are data, never object keys), or undefined. */
function repeatedId(notes: readonly Note[]): [number, number] | undefined {
  const seen = new Map<string, number>();
  for (const [index, note] of notes.entries()) {
    const earlier = seen.get(note.id);
    if (earlier !== undefined) return [earlier, index];
    seen.set(note.id, index);
  }
  return undefined;
}

/** What is wrong with one note of a backup ("has no text"), or '' when nothing is. */
function noteProblem(candidate: unknown): string {
  if (typeof candidate !== 'object' || candidate === null) return 'is not a note';
  const note = candidate as Partial<Record<keyof Note, unknown>>;
  if (typeof note.id !== 'string' || note.id === '') return 'has no id';
  if (typeof note.text !== 'string') return 'has no text';
  if (typeof note.at !== 'number' || !Number.isFinite(note.at) || note.at < 0) return 'has no valid edit time';
  return '';
}

/** The notes of this device with a backup merged in, and what the backup did to them. */
export interface Restored {
  doc: Doc;
  /** Notes of the file this device never had. */
  added: number;
  /** Notes whose file copy is newer than this device's. */
  updated: number;
  /** Notes of the file deleted here: restored as they are in the file. */
  broughtBack: number;
  /** Notes edited here since the file's copy (another text): this device's edit stays. */
  newerHere: number;
}

/**
 * The id every fresh profile's first note had before ids were random: two devices' notes `0` may
 * share no edit at all. Any other id is random, so a note of the file with it is a copy of this one.
 */
const SHARED_FIRST_ID = '0';

/**
 * Merges a backup's notes by id, as the person's undo: every note of the file is on the screen
 * afterwards, a note deleted here included (stamped after its deletion, so it stays back in every
 * tab), unless this device edited that note after the file's copy: the newer edit wins. Notes only
 * here stay. A file's note `0` with other text than this device's `0` is another note (named by
 * its time, the same name at each restore of the file): both are kept.
 */
export function mergeBackup(doc: Doc, notes: Note[], now: number): Restored {
  const here = new Map(doc.notes.map((note) => [note.id, note]));
  const counts = { added: 0, updated: 0, broughtBack: 0, newerHere: 0 };
  const ownId = (note: Note): Note =>
    note.id === SHARED_FIRST_ID && here.has(note.id) && here.get(note.id)?.text !== note.text
      ? { ...note, id: `0-${note.at.toString(36)}` }
      : note;
  // An untouched empty note (a fresh profile's) is no text to bring: left out, not counted.
  const restored = notes
    .filter((note) => !isUntouched(note))
    .map(ownId)
    .map((note) => {
      const known = here.get(note.id);
      const deletedAt = doc.gone.get(note.id);
      if (known) {
        if (isNewer(note, known)) counts.updated++;
        else if (known.text !== note.text) counts.newerHere++;
        return note;
      }
      if (deletedAt === undefined) {
        counts.added++;
        return note;
      }
      counts.broughtBack++;
      return { ...note, at: nextTime(Math.max(deletedAt, note.at), now) };
    });
  return { doc: merge(doc, { notes: restored, gone: new Map() }), ...counts };
}
