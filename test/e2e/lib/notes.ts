// The Notes screen's data as the tests read and seed it, the same way in every engine (a
// Playwright Page or a Tab of lib/driver.ts): the notes' keys, their stored text, the note editors'
// text and caret. Driving the backup section with Playwright is lib/backup.ts.
import { storageKey } from '../../../src/app-name';
import type { RunsInPage } from './driver';

/** localStorage key of the notes: src/notes/store.ts NOTES_KEY, from the same storageKey(). */
export const NOTES_KEY = storageKey('notes');
/** Where the device document copies unreadable notes (src/offline/device-document.ts backupKey). */
export const NOTES_BACKUP_KEY = `${NOTES_KEY}:backup`;

/** The text stored under `key` in the page's localStorage, or null. */
export const storedText = (page: RunsInPage, key = NOTES_KEY): Promise<string | null> =>
  page.evaluate((name) => localStorage.getItem(name), key);

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

/** The focused element's id and its selection, or null when no element with an id has the focus. */
export const caretOf = (page: RunsInPage): Promise<{ id: string; start: number | null; end: number | null } | null> =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLTextAreaElement | null;
    if (!active?.id) return null;
    return { id: active.id, start: active.selectionStart ?? null, end: active.selectionEnd ?? null };
  }, null);

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
