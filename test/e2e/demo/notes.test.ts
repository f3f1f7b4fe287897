// Notes kept on the device, in real Chromium against the built site: nothing typed is lost to a
// reconnect reload, a quick reload or a closed tab, and two tabs share their notes.
import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { countLoads } from '../lib/app';
import { freshContext } from '../lib/browser';
import { startHost } from '../lib/hosts';
import { BUILDS, site } from '../lib/site';
import { shareChromium, type Shared } from '../lib/suite';
import { until } from '../lib/wait';
import { QUIET_AFTER_INPUT_MS } from '../../../src/reload/quiet-moment';
import { firstNote, newNotesPage, openNotes, openNotesWatched, savedNotes } from './lib/notes';

const note = (page: Page, n: number) => page.getByRole('textbox', { name: `Note ${n}` });

/** Waits until `page` has the keyboard focus in note `n`. */
const focusIn = (page: Page, n: number, what: string) =>
  until(what, () => note(page, n).evaluate((el) => el === document.activeElement), 2000);

for (const build of BUILDS) {
  const test = suite<Shared>(`notes (${build.name})`);
  shareChromium(test, () => startHost('preview', site(build.name, 'v1')));

  test('a new user sees one empty, labelled note; added notes get the focus; all of it is kept', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const { page, problems } = await openNotesWatched(context, host.url);
    assert.is(await page.getByRole('textbox').count(), 1);
    assert.is(await firstNote(page).inputValue(), '');
    await firstNote(page).fill('groceries');
    await page.getByRole('button', { name: 'Add note' }).click();
    await focusIn(page, 2, 'focus on the new note');
    await page.keyboard.type('call the bank');
    await page.getByRole('button', { name: 'Add note' }).click();
    await note(page, 3).waitFor();
    await page.getByRole('button', { name: 'Delete note 2' }).click();
    await focusIn(page, 2, 'focus on the note after the deleted one');
    await until('the throttled save', async () => (await savedNotes(page))?.join() === 'groceries,');
    await page.reload();
    await firstNote(page).waitFor();
    assert.equal(await page.getByRole('textbox').evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).value)), ['groceries', '']);
    assert.equal(problems, []);
    await context.close();
  });

  test('text typed offline, going online right after the last keystroke, is all there after the reload', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const page = await newNotesPage(context, host.url);
    const loads = countLoads(page);
    await context.setOffline(true);
    await firstNote(page).click();
    await page.keyboard.type('written on the train, ');
    await page.getByRole('button', { name: 'Add note' }).click();
    await note(page, 2).waitFor();
    await page.keyboard.type('and a second note, to the very last letter', { delay: 5 });
    const lastKey = Date.now();
    await context.setOffline(false);
    // Back online while the person is still typing, as the page counts it: the reload must wait
    // for the quiet moment. (The browser's answer alone can take 200 ms on a busy machine.)
    assert.ok(Date.now() - lastKey < QUIET_AFTER_INPUT_MS / 2, `online ${Date.now() - lastKey} ms after the last keystroke`);
    await until('the reload', () => loads.n >= 1, 5000);
    await firstNote(page).waitFor();
    assert.is(await firstNote(page).inputValue(), 'written on the train, ');
    assert.is(await note(page, 2).inputValue(), 'and a second note, to the very last letter');
    await context.close();
  });

  test('text typed just before a reload or closing the tab is kept (saved on pagehide)', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const page = await newNotesPage(context, host.url);
    await firstNote(page).fill('reloaded at once');
    await page.reload(); // well within the 1 s save delay
    await firstNote(page).waitFor();
    assert.is(await firstNote(page).inputValue(), 'reloaded at once');
    await firstNote(page).fill('closed at once');
    await page.close({ runBeforeUnload: true });
    const again = await context.newPage();
    await openNotes(again, host.url);
    assert.is(await firstNote(again).inputValue(), 'closed at once');
    await context.close();
  });

  test("two tabs share notes, and neither overwrites the other's newer text", async ({ browser, host }) => {
    const context = await freshContext(browser);
    const a = await context.newPage();
    const b = await context.newPage();
    await openNotes(a, host.url);
    await openNotes(b, host.url);
    await firstNote(a).fill('from tab A');
    await until('tab B to show what A typed', async () => (await firstNote(b).inputValue()) === 'from tab A', 3000);
    await b.getByRole('button', { name: 'Add note' }).click();
    await focusIn(b, 2, 'focus on the new note');
    await b.keyboard.type('from tab B');
    await until(
      "tab A to show B's note",
      async () => (await note(a, 2).count()) === 1 && (await note(a, 2).inputValue()) === 'from tab B',
      3000,
    );
    // Both type at once, each in its own note, before either has saved.
    await firstNote(a).fill('A, newer');
    await note(b, 2).fill('B, newer');
    for (const page of [a, b]) {
      await until(
        'both tabs to show both newer texts',
        async () => (await firstNote(page).inputValue()) === 'A, newer' && (await note(page, 2).inputValue()) === 'B, newer',
        4000,
      );
    }
    // A deletes B's note; B does not bring it back.
    await a.getByRole('button', { name: 'Delete note 2' }).click();
    await until('the delete to reach tab B', async () => (await b.getByRole('textbox').count()) === 1, 3000);
    await until('the delete to be saved', async () => (await savedNotes(b))?.join() === 'A, newer');
    // B's reload saves whatever B still holds (on pagehide), pending save or not: after it, the
    // device has B's view of the notes.
    await b.reload();
    await firstNote(b).waitFor();
    assert.equal(await b.getByRole('textbox').evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).value)), ['A, newer']);
    assert.equal(await savedNotes(b), ['A, newer']);
    await context.close();
  });

  test.run();
}
