// The app's text field as the shell's guarantee tests drive it: the first text field on the app's
// field screen (lib/screens.ts FIELD_SCREEN, found from src/ui/screens/ by
// test/harness/field-screen.mjs; the fixture form when the app has none), whatever the app is.
// Playwright helpers for Chromium, and readers any engine runs (a Playwright Page or a Tab).
import type { BrowserContext, Page } from 'playwright-core';
import * as assert from 'uvu/assert';
import { storageKey } from '../../../src/contract/app-name';
import { appRunning, newWatchedPage, type WatchedVisit } from './app';
import type { RunsInPage } from './driver';
import { FIELD_SCREEN } from './screens';
import { WAIT } from './wait';

/** A text field: a textarea, an input of a text type (or none), an editable element. */
export const TEXT_FIELD =
  'textarea, input:not([type]), input[type="text"], input[type="search"], input[type="email"], input[type="url"], input[type="tel"], [contenteditable]:not([contenteditable="false"])';

/** The app's first text field in <main> of the page (Playwright). */
export const appField = (page: Page) => page.locator(`main :is(${TEXT_FIELD})`).first();

/** The URL of the field screen under `url` (the host's root, or a base under it). */
export const fieldScreenUrl = (url: string): string => new URL(FIELD_SCREEN.path.slice(1), url).href;

/** Opens the field screen under `url` and waits until the app runs and shows its field. */
export async function openFieldScreen(page: Page, url: string): Promise<void> {
  await page.goto(fieldScreenUrl(url));
  await appRunning(page);
  await appField(page).waitFor(WAIT);
}

/** A new page of `context` at the field screen under `url`, once the app runs. */
export async function newFieldPage(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await openFieldScreen(page, url);
  return page;
}

/** A new page of `context`, its console watched from the start, at the field screen under `url` with the app running. */
export async function openFieldWatched(context: BrowserContext, url: string): Promise<WatchedVisit> {
  const visit = await newWatchedPage(context);
  await openFieldScreen(visit.page, url);
  return visit;
}

/** The label of the first text field in <main> (its `<label for>`, else its aria-label), or null before it is shown. */
export const fieldLabel = (page: RunsInPage): Promise<string | null> =>
  page.evaluate((selector) => {
    const field = document.querySelector(`main :is(${selector})`);
    if (!field) return null;
    const label = field.id ? document.querySelector(`label[for="${CSS.escape(field.id)}"]`) : null;
    return (label?.textContent ?? field.getAttribute('aria-label') ?? '').replace(/\s+/g, ' ').trim();
  }, TEXT_FIELD);

/** The text of the first text field in <main>, or null before it is shown. */
export const fieldText = (page: RunsInPage): Promise<string | null> =>
  page.evaluate((selector) => {
    const field = document.querySelector<HTMLInputElement>(`main :is(${selector})`);
    if (!field) return null;
    return field.isContentEditable ? (field.textContent ?? '') : field.value;
  }, TEXT_FIELD);

/** The focused element's id and its selection, or null when no element with an id has the focus. */
export const caretOf = (page: RunsInPage): Promise<{ id: string; start: number | null; end: number | null } | null> =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLTextAreaElement | null;
    if (!active?.id) return null;
    return { id: active.id, start: active.selectionStart ?? null, end: active.selectionEnd ?? null };
  }, null);

/** The text stored under `key` in the page's localStorage, or null. */
export const storedText = (page: RunsInPage, key: string): Promise<string | null> =>
  page.evaluate((name) => localStorage.getItem(name), key);

/** Everything this app (of `app`, storageKey()'s prefix) keeps in the page's localStorage, by key: what it stored. */
export const appStorage = (page: RunsInPage, app?: string): Promise<Record<string, string>> =>
  page.evaluate(
    (prefix) =>
      Object.fromEntries(
        Object.keys(localStorage)
          .filter((key) => key.startsWith(prefix))
          .sort()
          .map((key) => [key, localStorage.getItem(key) ?? '']),
      ),
    storageKey('', app),
  );

/**
 * Asserts `after` (appStorage()) keeps all the app had stored in `before`: every key, and the text
 * `typed` in each value that held it. A value may move on otherwise: the app restamps an edit when
 * a reload it made puts the text back.
 */
export function assertStorageKept(before: Record<string, string>, after: Record<string, string>, typed: string): void {
  assert.equal(
    Object.keys(before).filter((key) => !(key in after)),
    [],
    'every key the app had stored is still there',
  );
  assert.equal(
    Object.keys(before).filter((key) => before[key].includes(typed) && !after[key]?.includes(typed)),
    [],
    `"${typed}" still stored wherever it was`,
  );
}

/**
 * Fills this origin's real localStorage quota with keys `filler-0`, `filler-1`, … to the last few
 * characters (halving the chunk at each refusal); resolves to how many keys it wrote.
 */
export const fillLocalStorage = (page: RunsInPage): Promise<number> =>
  page.evaluate(() => {
    let chunk = 'x'.repeat(1 << 20);
    let written = 0;
    for (;;) {
      try {
        localStorage.setItem('filler-' + written, chunk);
        written++;
      } catch {
        if (chunk.length <= 8) return written;
        chunk = chunk.slice(chunk.length / 2);
      }
    }
  }, null);
