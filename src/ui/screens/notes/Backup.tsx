// "Download a backup" and "Restore from a backup": the notes as a file the user keeps, because
// browsers delete site data. What the two controls do (backup-actions.ts) is loaded on first use,
// in the chunk of what no first screen needs (src/ui/later.ts), checked like every script of the
// page (src/ui/lazy-import.ts); the format and the merge are src/notes/backup.ts.
import { useState, type ChangeEvent } from 'react';
import { importChecked, LATER_MODULE } from '../../lazy-import';

/**
 * The controls' code, loading or loaded; forgotten when it failed, so each use asks again (the
 * message still says to reload: an engine may keep a failed module fetch for the page's life).
 */
let actions: Promise<typeof import('../../later')> | undefined;

/** What the controls do, loaded on first use (from the worker's cache once the app is installed, so offline too). */
function loadActions(): Promise<typeof import('../../later')> {
  actions ??= importChecked(LATER_MODULE, () => import('../../later')).catch((error: Error) => {
    actions = undefined;
    throw error;
  });
  return actions;
}

/** What a person reads when the controls' code could not be loaded (offline before the app was kept, or a script that fails its hash). */
const NOT_LOADED = 'this part of the app could not be loaded. Check the connection, then reload the page.';

/** The backup controls under the notes, with one live region for what they did. */
export function Backup() {
  const [message, setMessage] = useState('');
  const onDownload = async () => {
    setMessage(
      await loadActions().then(
        (loaded) => loaded.downloadBackup(),
        () => `Not saved: ${NOT_LOADED}`,
      ),
    );
  };
  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setMessage(`Reading ${file.name}…`);
    setMessage(
      await loadActions().then(
        (loaded) =>
          loaded
            .restoreFrom(file)
            .catch((error: Error) => `Not restored: the file could not be read (${error.message}). Nothing was changed.`),
        () => `Not restored: ${NOT_LOADED} Nothing was changed.`,
      ),
    );
    // The same file chosen again is a new choice (a change event needs a changed value).
    input.value = '';
  };
  return (
    <section className="backup" aria-labelledby="backup-heading">
      <h2 id="backup-heading">Backup</h2>
      <p>Your notes live only in this browser, which may delete them. Keep a copy as a file.</p>
      <p className="actions">
        <button type="button" onClick={onDownload}>
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
