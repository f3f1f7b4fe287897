// "Download a backup" and "Restore from a backup": the notes as a file the user keeps, because
// browsers delete site data (src/notes/backup.ts has the format and the merge).
import { useState, type ChangeEvent } from 'react';
import { backupFileName, backupText, limitProblem, readBackup, sizeProblem } from '../../../notes/backup';
import { notes, restoreNotes } from '../../../notes/store';
import { downloadText } from '../../download';
import { formatCount } from '../../../core/format';
import { NO_ROOM_FOR_RESTORE } from '../../no-room';

/** "1 note", "3 notes". */
const noteCount = (count: number): string => formatCount(count, 'note');

/** Saves every note as a JSON file: a Blob download made in the page, so it works offline. */
function downloadBackup(): string {
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
async function restoreFrom(file: File): Promise<string> {
  const refused = sizeProblem(file.size);
  const read = refused ? { refused } : readBackup(await file.text());
  if ('refused' in read) return `Not restored: ${read.refused} Nothing was changed.`;
  await nextTask();
  const outcome = restoreNotes(read.notes);
  if ('problem' in outcome && outcome.problem === 'outdated')
    return 'Not restored: your notes were saved by a newer version of this app. Nothing was changed; reload to get it.';
  if ('problem' in outcome) return NO_ROOM_FOR_RESTORE;
  const { added, updated, broughtBack, newerHere } = outcome;
  // The file's older text of a note edited here is not shown: say so, so the count is never "nothing" while the file holds text.
  const kept = newerHere ? `; ${noteCount(newerHere)} kept as edited here after the backup` : '';
  return `Restored from ${file.name}: ${noteCount(added)} added, ${noteCount(updated)} updated, ${noteCount(broughtBack)} brought back${kept}.`;
}

/** The backup controls under the notes, with one live region for what they did. */
export function Backup() {
  const [message, setMessage] = useState('');
  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setMessage(`Reading ${file.name}…`);
    setMessage(
      await restoreFrom(file).catch((error: Error) => `Not restored: the file could not be read (${error.message}). Nothing was changed.`),
    );
    // The same file chosen again is a new choice (a change event needs a changed value).
    input.value = '';
  };
  return (
    <section className="backup" aria-labelledby="backup-heading">
      <h2 id="backup-heading">Backup</h2>
      <p>Your notes live only in this browser, which may delete them. Keep a copy as a file.</p>
      <p className="actions">
        <button type="button" onClick={() => setMessage(downloadBackup())}>
          Download a backup
        </button>
        <label className="file">
          Restore from a backup
          <input type="file" accept=".json,application/json" onChange={onFile} />
        </label>
      </p>
      <p role="status">{message}</p>
    </section>
  );
}
