// The Notes screen's storage and backup as the notes tests drive them: the notes' key, their
// stored text, the texts on screen, and restoring a backup file through the page's own control.
import type { Page } from 'playwright-core';
import { storageKey } from '../../../src/app-name';
import { shownText } from './app';
import { APP_NAME } from './site';
import { until } from './wait';

/** localStorage key of the notes: src/notes/store.ts NOTES_KEY, from the same storageKey(). */
export const NOTES_KEY = storageKey('notes');
/** Where the device document copies unreadable notes (src/offline/device-document.ts backupKey). */
export const NOTES_BACKUP_KEY = `${NOTES_KEY}:backup`;

/** The text stored under `key` in the page's localStorage, or null. */
export const storedText = (page: Page, key = NOTES_KEY): Promise<string | null> => page.evaluate((name) => localStorage.getItem(name), key);

/** The texts in the note editors, in order. */
export const shownNotes = (page: Page): Promise<string[]> =>
  page.getByRole('textbox').evaluateAll((editors) => editors.map((editor) => (editor as HTMLTextAreaElement).value));

/** The backup section's live region. */
export const backupStatus = (page: Page) => page.getByRole('region', { name: 'Backup' }).getByRole('status');

/** Chooses a file for "Restore from a backup" and waits until the page says what it did. */
export async function restoreBackup(page: Page, file: { name: string; buffer: Buffer }): Promise<string> {
  const before = await shownText(backupStatus(page));
  await page.getByLabel('Restore from a backup').setInputFiles({ ...file, mimeType: 'application/json' });
  return until('the outcome of the restore', async () => {
    const now = await shownText(backupStatus(page));
    return now !== before ? now : '';
  });
}

/** A backup file's bytes, as "Download a backup" writes them, holding `notes`. */
export const backupFile = (notes: { id: string; text: string; at: number }[]): Buffer =>
  Buffer.from(JSON.stringify({ format: 'notes-backup', version: 1, app: APP_NAME, savedAt: new Date().toISOString(), notes }));
