// The demo's own test library: the Notes screen's data as its tests read and seed it, the same way
// in every engine (a Playwright Page or a Tab of lib/driver.ts): the notes' keys, their stored text,
// the note editors' text and caret; and the Notes screen in Chromium (Playwright). Driving the
// backup section with Playwright is lib/backup.ts. The shell's tests never import it (lib/field.ts).
import type { BrowserContext, Page } from 'playwright-core';
import { storageKey } from '../../../../src/contract/app-name';
import { newWatchedPage, type WatchedVisit } from '../../lib/app';
import type { RunsInPage } from '../../lib/driver';
import { storedText as storedUnder } from '../../lib/field';
import { WAIT } from '../../lib/wait';

/** localStorage key of the notes: src/notes/store.ts NOTES_KEY, from the same storageKey(). */
export const NOTES_KEY = storageKey('notes');
/** Where the device document copies unreadable notes (src/stored-data/device-document.ts backupKey). */
export const NOTES_BACKUP_KEY = `${NOTES_KEY}:backup`;

/** The text stored under `key` (the notes' unless told) in the page's localStorage, or null. */
export const storedText = (page: RunsInPage, key = NOTES_KEY): Promise<string | null> => storedUnder(page, key);

/** The texts of the notes saved on the device (localStorage) under `key` (this app's), or null while nothing is saved. */
export const savedNotes = (page: RunsInPage, key = NOTES_KEY): Promise<string[] | null> =>
  page.evaluate((notesKey) => {
    const saved = localStorage.getItem(notesKey);
    return saved === null ? null : (JSON.parse(saved) as { notes: { text: string }[] }).notes.map((note) => note.text);
  }, key);

/** Stores `texts` as the device's notes (ids n1, n2, …), as the app saves them; the page shows them once loaded again. */
export const seedNotes = (page: RunsInPage, texts: string[]): Promise<void> =>
  page.evaluate(
    ([key, list]) =>
      localStorage.setItem(
        key,
        JSON.stringify({ v: 1, notes: list.map((text, index) => ({ id: `n${index + 1}`, text, at: 1 })), gone: {} }),
      ),
    [NOTES_KEY, texts] as const,
  );

/**
 * Stores `count` notes of `length` Chinese characters each under `key`, made in the page (megabytes
 * never cross the driver), as the app saves them; resolves to the characters stored under the key.
 */
export const seedLongNotes = (page: RunsInPage, count: number, length: number, key = NOTES_KEY): Promise<number> =>
  page.evaluate(
    ([notesKey, noteCount, noteLength]) => {
      const text = (index: number) => `${index + 1} `.concat('离线笔记保存在设备上'.repeat(noteLength / 10)).slice(0, noteLength);
      const notes = Array.from({ length: noteCount }, (_, index) => ({ id: `n${index + 1}`, text: text(index), at: index + 1 }));
      const stored = JSON.stringify({ v: 1, notes, gone: {} });
      localStorage.setItem(notesKey, stored);
      return stored.length;
    },
    [key, count, length] as const,
  );

/** The first note's text, or null before the Notes screen rendered it. */
export const firstNoteText = (page: RunsInPage): Promise<string | null> =>
  page.evaluate(() => document.querySelector<HTMLTextAreaElement>('.notes textarea')?.value ?? null, null);

/** The focused note editor's label ("Note 1", ...) and selection, or null when no note editor has the focus. */
export const focusedNote = (page: RunsInPage) =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLTextAreaElement | null;
    return active?.matches('.notes textarea')
      ? {
          label: document.querySelector(`label[for="${active.id}"]`)?.textContent,
          start: active.selectionStart,
          end: active.selectionEnd,
        }
      : null;
  }, null);

/** The first note's editor: present once the app has started (and registered its listeners). */
export const firstNote = (page: Page) => page.getByRole('textbox', { name: 'Note 1', exact: true });

/** Opens the Notes screen at `url` and waits for the app to run. */
export async function openNotes(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await firstNote(page).waitFor(WAIT);
}

/** A new page of `context` at the Notes screen of `url`, once the app runs. */
export async function newNotesPage(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await openNotes(page, url);
  return page;
}

/** A new page of `context`, its console watched from the start, at the Notes screen of `url` with the app running. */
export async function openNotesWatched(context: BrowserContext, url: string): Promise<WatchedVisit> {
  const visit = await newWatchedPage(context);
  await openNotes(visit.page, url);
  return visit;
}

/** The texts in the note editors, in order. */
export const shownNotes = (page: Page): Promise<string[]> =>
  page.getByRole('textbox').evaluateAll((editors) => editors.map((editor) => (editor as HTMLTextAreaElement).value));
