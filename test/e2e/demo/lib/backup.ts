// The Notes screen's backup section as the Chromium tests drive it with Playwright: its live
// region, restoring a file through the page's own control, and a backup file's bytes.
import type { Page } from 'playwright-core';
import { shownText } from '../../lib/app';
import { APP_NAME } from '../../lib/site';
import { until } from '../../lib/wait';

/** The backup section's live region. */
export const backupStatus = (page: Page) => page.getByRole('region', { name: 'Backup' }).getByRole('status');

/** Chooses a file for "Restore from a backup" and waits until the page says what it did (not "Reading <file>…", said meanwhile). */
export async function restoreBackup(page: Page, file: { name: string; buffer: Buffer }, ms?: number): Promise<string> {
  const before = await shownText(backupStatus(page));
  await page.getByLabel('Restore from a backup').setInputFiles({ ...file, mimeType: 'application/json' });
  return until(
    'the outcome of the restore',
    async () => {
      const now = await shownText(backupStatus(page));
      return now !== before && now !== `Reading ${file.name}…` ? now : '';
    },
    ms,
  );
}

/** A backup file's bytes, as "Download a backup" writes them, holding `notes`. */
export const backupFile = (notes: { id: string; text: string; at: number }[]): Buffer =>
  Buffer.from(JSON.stringify({ format: 'notes-backup', version: 1, app: APP_NAME, savedAt: new Date().toISOString(), notes }));
