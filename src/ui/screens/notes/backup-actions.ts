// What "Download a backup" and "Restore from a backup" do: loaded the first time the person uses
// one of them (Backup.tsx), not with the first screen, whose script every visit loads; the worker
// precaches it like every file, so both work offline. The format and the merge are src/notes/backup.ts.
import { backupFileName, backupText, limitProblem, mergeBackup, readBackup, sizeProblem } from '../../../notes/backup';
import { notes, restoreNotes } from '../../../notes/store';
import { downloadText } from '../../download';
import { formatCount } from '../../../core/format';
import { NO_ROOM_FOR_RESTORE } from '../../no-room';

/** "1 note", "3 notes". */
const noteCount = (count: number): string => formatCount(count, 'note');

/** Saves every note as a JSON file (a Blob download made in the page, so it works offline); returns the sentence to show. */
export function downloadBackup(): string {
  const now = new Date();
  const list = notes.getSnapshot().notes;
  const name = backupFileName(now);
  const size = downloadText(name, backupText(list, now));
  // The file is made either way (it is the person's text), but a file over a limit would be refused on restore: say so now.
  const overLimit = sizeProblem(size) ?? limitProblem(list);
  if (overLimit) return `Saved ${noteCount(list.length)} to ${name}, but this app cannot restore it: ${overLimit}`;
  return `Saved ${noteCount(list.length)} to ${name}.`;
}

/** Lets the browser paint and take input between two long steps of a restore. */
const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve));

/**
 * Reads a chosen file and restores from it; resolves to the sentence to show. The largest backup
 * (16 MB) is read off the main thread (File.text()), parsed in one task, then written and drawn in
 * the next: each step is one long task, never one long freeze of all of them.
 */
export async function restoreFrom(file: File): Promise<string> {
  const refused = sizeProblem(file.size);
  const read = refused ? { refused } : readBackup(await file.text());
  if ('refused' in read) return `Not restored: ${read.refused} Nothing was changed.`;
  await nextTask();
  const outcome = restoreNotes((here) => mergeBackup(here, read.notes, Date.now()));
  if ('problem' in outcome && outcome.problem === 'outdated')
    return 'Not restored: your notes were saved by a newer version of this app. Nothing was changed; reload to get it.';
  if ('problem' in outcome) return NO_ROOM_FOR_RESTORE;
  const { added, updated, broughtBack, newerHere } = outcome;
  // The file's older text of a note edited here is not shown: say so, so the count is never "nothing" while the file holds text.
  const kept = newerHere ? `; ${noteCount(newerHere)} kept as edited here after the backup` : '';
  return `Restored from ${file.name}: ${noteCount(added)} added, ${noteCount(updated)} updated, ${noteCount(broughtBack)} brought back${kept}.`;
}
