// Nothing lost when clocks disagree or the stored shape changes (issue 36), in real Chromium
// against the built sites: a backup from a clock a year fast restored with a second tab open,
// notes whose ids are Object.prototype's member names, notes stored by a newer version of the
// app, and unreadable notes on a full storage. Storage is filled for real (fillLocalStorage).
import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { axeViolations, countLoads, fillLocalStorage, pageTimersDone, shownText, watchConsole } from '../lib/app';
import { freshContext } from '../lib/browser';
import { startHost } from '../lib/hosts';
import { firstNote, NOTES_BACKUP_KEY, NOTES_KEY, openNotes, openNotesWatched, shownNotes, storedText } from './lib/notes';
import { BUILDS, site } from '../lib/site';
import { shareChromium, type Shared } from '../lib/suite';
import { until, WAIT } from '../lib/wait';
import { backupFile, restoreBackup } from './lib/backup';

const YEAR = 365 * 24 * 60 * 60 * 1000;

/** The Notes screen's notices (an aria-live region). */
const notice = (page: Page) => page.locator('main .notice[aria-live="polite"]');

/** The editor of the note with id `id`. */
const editor = (page: Page, id: string) => page.locator(`[id="note-${id}"]`);

/** The Delete button beside the note with id `id`. */
const deleteButton = (page: Page, id: string) =>
  page.locator('li', { has: editor(page, id) }).getByRole('button', { name: /^Delete note/ });

/** Waits until every tab shows `texts` as its notes. */
async function allShow(pages: Page[], texts: string[], what: string): Promise<void> {
  for (const page of pages) await until(what, async () => (await shownNotes(page)).join('|') === texts.join('|'), 5000);
}

for (const build of BUILDS) {
  const test = suite<Shared>(`notes integrity (${build.name})`);
  shareChromium(test, () => startHost('preview', site(build.name, 'v1')));

  test('a backup from a clock a year fast, restored with a second tab open: edits and deletes stick in both tabs and after a reload, ids such as __proto__ included', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    const [a, b] = [await context.newPage(), await context.newPage()];
    const problems = { a: watchConsole(a), b: watchConsole(b) };
    await openNotes(a, host.url);
    await openNotes(b, host.url);
    const yearAhead = Date.now() + YEAR;
    const restored = [
      { id: '__proto__', text: 'proto, a year ahead', at: yearAhead },
      { id: 'constructor', text: 'constructor, a year ahead', at: yearAhead },
      { id: 'toString', text: 'toString, a year ahead', at: yearAhead },
      { id: 'year-ahead', text: 'written a year ahead', at: yearAhead },
    ];
    const said = await restoreBackup(a, { name: 'fast-clock.json', buffer: backupFile(restored) });
    assert.is(said, 'Restored from fast-clock.json: 4 notes added, 0 notes updated, 0 notes brought back.');
    // The untouched empty note each fresh tab started with goes: the file brought notes.
    await allShow(
      [a, b],
      restored.map((note) => note.text),
      'both tabs to show the restored notes',
    );
    // Tab A edits two of them, tab B deletes two: each change is stamped after the version it changes.
    await editor(a, 'year-ahead').fill('edited here, where the clock is a year behind');
    await editor(a, 'constructor').fill('constructor, edited');
    await deleteButton(b, '__proto__').click();
    await deleteButton(b, 'toString').click();
    const expected = ['constructor, edited', 'edited here, where the clock is a year behind'];
    await allShow([a, b], expected, 'both tabs to show the edits and the deletes');
    await until('the merge to be stored', async () => {
      const stored = JSON.parse((await storedText(a)) ?? '{"notes":[]}') as { notes: { text: string }[] };
      return stored.notes.map((note) => note.text).join('|') === expected.join('|');
    });
    // The two tabs settle: once both have run their pending saves, the stored text stays as it is
    // (with a tombstone that went missing in a merge, they rewrote it at each other every second).
    const settled = await storedText(a);
    await Promise.all([pageTimersDone(a, 1100), pageTimersDone(b, 1100)]);
    await Promise.all([pageTimersDone(a, 1100), pageTimersDone(b, 1100)]);
    assert.is(await storedText(a), settled, 'nothing rewritten once both tabs merged');
    assert.equal(
      await a.evaluate((text) => Object.keys(JSON.parse(text ?? '{}').gone), settled),
      ['__proto__', 'toString'],
      'the tombstones are stored under their ids',
    );
    await a.reload();
    await b.reload();
    await firstNote(a).waitFor(WAIT);
    await firstNote(b).waitFor(WAIT);
    assert.equal(await shownNotes(a), expected, 'after a reload, tab A');
    assert.equal(await shownNotes(b), expected, 'after a reload, tab B');
    assert.equal(problems, { a: [], b: [] });
    await context.close();
  });

  test('notes stored by a newer version: both tabs turn read-only with a Reload offer (keyboard, aria-live), and the data stays untouched', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    const [a, b] = [await context.newPage(), await context.newPage()];
    await openNotes(a, host.url);
    await openNotes(b, host.url);
    await firstNote(b).fill('typed in the older version');
    // A newer version of the app, in tab A, saves the notes in a shape this version cannot read.
    const newer = JSON.stringify({ v: 2, notes: { shape: 'this version does not know' } });
    await a.evaluate(([key, text]) => localStorage.setItem(key, text), [NOTES_KEY, newer] as const);
    await notice(b).getByText('saved by a newer version of this app').waitFor(WAIT);
    assert.not.ok(await firstNote(b).isEditable(), 'what tab B shows stays, read-only');
    assert.is(await firstNote(b).inputValue(), 'typed in the older version');
    assert.is(await b.getByRole('button', { name: 'Add note' }).count(), 0);
    assert.is(await b.getByRole('region', { name: 'Backup' }).count(), 0);
    // Tab B goes away (its pagehide flush), tab A loads again: neither writes.
    await b.close({ runBeforeUnload: true });
    const loads = countLoads(a);
    await a.reload();
    const reload = notice(a).getByRole('button', { name: 'Reload' });
    await reload.waitFor(WAIT);
    assert.is(await a.getByRole('textbox').count(), 0, 'nothing of the newer shape is shown');
    assert.equal(await axeViolations(a), []);
    // From the keyboard: Tab from the top of the page reaches Reload, and Enter reloads.
    await a.keyboard.press('Tab');
    await until('the focus on Reload', async () => {
      if (await reload.evaluate((button) => button === document.activeElement)) return true;
      await a.keyboard.press('Tab');
      return false;
    });
    await a.keyboard.press('Enter');
    await until('the reload Enter asked for', () => loads.n >= 2);
    await reload.waitFor(WAIT);
    assert.is(await storedText(a), newer, 'the newer notes are exactly as that version stored them');
    assert.is(await storedText(a, NOTES_BACKUP_KEY), null);
    await context.close();
  });

  test('unreadable notes and a full storage: the notice says no copy could be kept, the original is kept, and "Start over" works from the keyboard', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    const { page, problems } = await openNotesWatched(context, host.url);
    const unreadable = `{"v":1,"notes":[{"id":"a","text":"${'the first half of a long note, '.repeat(60)}`;
    await page.evaluate(([key, text]) => localStorage.setItem(key, text), [NOTES_KEY, unreadable] as const);
    assert.ok((await fillLocalStorage(page)) > 5, 'the quota is real (several MB)');
    await page.reload();
    await firstNote(page).waitFor(WAIT);
    const startOver = page.getByRole('button', { name: 'Start over (discard the unreadable notes)' });
    await startOver.waitFor(WAIT);
    const said = await shownText(notice(page));
    assert.match(said, 'storage is too full to keep a copy');
    assert.not.match(said, 'a copy was kept');
    // Typing goes on screen; its save is tried (the save timer has run) and writes nothing, nor does the reload's flush.
    await firstNote(page).fill('typed while the disk is full');
    await pageTimersDone(page, 1000);
    assert.is(await storedText(page), unreadable, 'the original is still there');
    await page.reload();
    await startOver.waitFor(WAIT);
    assert.is(await storedText(page), unreadable, 'still there after the flush of a reload');
    // What was typed crossed the reload (carried in sessionStorage): still on screen, still unsaved.
    await until('the typed text back', async () => (await firstNote(page).inputValue()) === 'typed while the disk is full');
    assert.is(await storedText(page, NOTES_BACKUP_KEY), null);
    // The person chooses to start over, from the keyboard: Shift+Tab from the first note reaches the button.
    await firstNote(page).focus();
    await page.keyboard.press('Shift+Tab');
    assert.ok(await startOver.evaluate((button) => button === document.activeElement), 'Start over has the focus');
    await page.keyboard.press('Enter');
    await until('the notes to be saved over the unreadable ones', async () => (await storedText(page)) !== unreadable);
    assert.equal(
      JSON.parse((await storedText(page)) ?? 'null').notes.map(({ text }: { text: string }) => text),
      ['typed while the disk is full'],
      'what was typed on screen is what is saved',
    );
    assert.is(await shownText(notice(page)), '');
    assert.ok(await firstNote(page).evaluate((note) => note === document.activeElement), 'the focus went to the first note');
    assert.equal(problems, []);
    await context.close();
  });

  test.run();
}
