// The largest backup a device makes, in real Chromium: notes filling nearly all of localStorage
// (3,300 notes of 1,500 Chinese characters: about 5 million characters), downloaded through the
// screen, then restored through the screen on a fresh profile, whole, with the restore's time and
// the page's longest task measured in the page. And the editor's one limit, 10,000 notes, said
// where the person adds one. CSS selectors, not role queries: over thousands of text areas a role
// query is itself a long task in the page, and would be measured as the app's.
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { freshContext } from '../lib/browser';
import { startHost } from '../lib/hosts';
import { newNotesPage, NOTES_KEY, seedLongNotes } from './lib/notes';
import { BUILDS, site, temp } from '../lib/site';
import { shareChromium, type Shared } from '../lib/suite';

const NOTES = 3_300;
const NOTE_LENGTH = 1_500;
/** The editor's limit on notes (src/notes/model.ts MAX_NOTES). */
const MAX_NOTES = 10_000;
const LONG_WAIT = { timeout: 60_000 };

/** Resolves once the page shows `count` note editors. */
const notesShown = (page: Page, count: number) =>
  page.waitForFunction((expected) => document.querySelectorAll('.notes textarea').length === expected, count, LONG_WAIT);

/** The page's notes as stored, without the empty note a fresh profile starts with. */
const storedNotes = (page: Page) =>
  page.evaluate(
    (key) =>
      (JSON.parse(localStorage.getItem(key) ?? '{"notes":[]}').notes as { text: string; at: number }[]).filter(
        (note) => note.text !== '' || note.at !== 0,
      ),
    NOTES_KEY,
  );

/** Records, in the page, when a file is chosen, when the backup section says it restored, and every long task meanwhile. */
const watchRestore = (page: Page) =>
  page.evaluate(() => {
    const watched = { chosenAt: 0, restoredAt: 0, said: '', longTasks: [] as number[] };
    (window as unknown as { restore: typeof watched }).restore = watched;
    addEventListener('change', () => (watched.chosenAt = performance.now()), true);
    const status = document.querySelector('.backup [role="status"]') as Element;
    new MutationObserver(() => {
      if (!status.textContent?.startsWith('Restored') && !status.textContent?.startsWith('Not restored')) return;
      watched.restoredAt = performance.now();
      watched.said = status.textContent;
    }).observe(status, { childList: true, subtree: true, characterData: true });
    // Only the tasks from the choice on: the page's own start is not the restore's.
    const sinceChoice = (entry: PerformanceEntry) => watched.chosenAt > 0 && entry.startTime >= watched.chosenAt;
    new PerformanceObserver((list) =>
      watched.longTasks.push(
        ...list
          .getEntries()
          .filter(sinceChoice)
          .map((entry) => entry.duration),
      ),
    ).observe({
      type: 'longtask',
    });
  });

for (const build of BUILDS) {
  const test = suite<Shared>(`the largest backup (${build.name})`);
  shareChromium(test, () => startHost('preview', site(build.name, 'v1')));

  test('notes filling the device download as one file and restore whole on a fresh profile, without a long freeze', async ({
    browser,
    host,
  }) => {
    const source = await freshContext(browser, { acceptDownloads: true });
    const page = await newNotesPage(source, host.url);
    const storedChars = await seedLongNotes(page, NOTES, NOTE_LENGTH);
    await page.reload();
    await notesShown(page, NOTES);
    const clicked = Date.now();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.backup button').click()]);
    const file = readFileSync(await download.path());
    const downloadMs = Date.now() - clicked;
    const backup = JSON.parse(file.toString()) as { notes: unknown[] };
    assert.is(backup.notes.length, NOTES);

    const fresh = await freshContext(browser);
    const restoring = await newNotesPage(fresh, host.url);
    await watchRestore(restoring);
    // Chosen by its path, as a person chooses a file: Playwright hands a buffer to the page through
    // script, which would itself be a long task of seconds in the page.
    const chosen = path.join(temp(), download.suggestedFilename());
    copyFileSync(await download.path(), chosen);
    await restoring.locator('.backup input[type="file"]').setInputFiles(chosen);
    await restoring.waitForFunction(
      () => (window as unknown as { restore: { restoredAt: number } }).restore.restoredAt > 0,
      null,
      LONG_WAIT,
    );
    const watched = await restoring.evaluate(
      () => (window as unknown as { restore: { chosenAt: number; restoredAt: number; said: string; longTasks: number[] } }).restore,
    );
    assert.is(watched.said, `Restored from ${download.suggestedFilename()}: ${NOTES} notes added, 0 notes updated, 0 notes brought back.`);
    // The fresh profile's untouched empty note goes with the restore: only the file's notes are shown.
    await notesShown(restoring, NOTES);
    assert.equal(await storedNotes(restoring), backup.notes, 'every note with its id, text and time');
    const restoreMs = Math.round(watched.restoredAt - watched.chosenAt);
    const longest = Math.round(Math.max(0, ...watched.longTasks));
    console.log(
      `  largest backup (${build.name}): ${storedChars.toLocaleString('en-US')} characters stored, file ${file.length.toLocaleString('en-US')} B; download ${downloadMs} ms, restore ${restoreMs} ms, longest task ${longest} ms`,
    );
    assert.ok(file.length > 14_500_000, 'a file of the largest size: three bytes of UTF-8 for each character');
    assert.ok(longest < 2_000, `the page never froze for 2 s (longest task ${longest} ms)`);
    await source.close();
    await fresh.close();
  });

  test('at 10,000 notes "Add note" adds none and says why, where the person adds one', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const page = await newNotesPage(context, host.url);
    await seedLongNotes(page, MAX_NOTES, 10);
    await page.reload();
    await notesShown(page, MAX_NOTES);
    const add = page.locator('#add-note');
    assert.is(await add.getAttribute('aria-disabled'), 'true');
    assert.is(
      await add.evaluate((button) => document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent),
      'This app keeps at most 10,000 notes: delete one to add another.',
    );
    // Playwright waits for an aria-disabled button to be enabled: the person's click is dispatched as it is.
    await add.dispatchEvent('click');
    await page.locator(`.notes li:nth-child(${MAX_NOTES}) button`).dispatchEvent('click');
    await notesShown(page, MAX_NOTES - 1);
    assert.is(await add.getAttribute('aria-disabled'), null, 'below the limit, it adds again');
    await context.close();
  });

  test.run();
}
