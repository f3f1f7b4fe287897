// Notes kept on the device, in real Chromium against the built site: nothing typed is lost to a
// reconnect reload, a quick reload or a closed tab, and two tabs share their notes.
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILDS, launch, preview, watchProblems } from './helpers';
import { countLoads, firstNote, openNotes, sleep, until } from './reconnect-helpers';

const note = (page: Page, n: number) => page.getByRole('textbox', { name: `Note ${n}` });

for (const build of BUILDS) {
  const test = suite(`notes (${build.name})`);
  let browser: Browser;
  const host = preview(build.dir);
  test.before(async () => {
    browser = await launch();
  });
  test.after(async () => {
    await browser.close();
    await (await host).close();
  });

  test('a new user sees one empty, labelled note; added notes get the focus; all of it is kept', async () => {
    const { url } = await host;
    const context = await browser.newContext({ serviceWorkers: 'allow' });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await openNotes(page, url);
    assert.is(await page.getByRole('textbox').count(), 1);
    assert.is(await firstNote(page).inputValue(), '');
    await firstNote(page).fill('groceries');
    await page.getByRole('button', { name: 'Add note' }).click();
    await until(() => note(page, 2).evaluate((el) => el === document.activeElement), 2000, 'focus on the new note');
    await page.keyboard.type('call the bank');
    await page.getByRole('button', { name: 'Add note' }).click();
    await note(page, 3).waitFor();
    await page.getByRole('button', { name: 'Delete note 2' }).click();
    await until(() => note(page, 2).evaluate((el) => el === document.activeElement), 2000, 'focus on the note after the deleted one');
    await sleep(1200); // the debounced save
    await page.reload();
    await firstNote(page).waitFor();
    assert.equal(await page.getByRole('textbox').evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).value)), ['groceries', '']);
    assert.equal(problems, []);
    await context.close();
  });

  test('text typed offline, going online within 150 ms of the last keystroke, is all there after the reload', async () => {
    const { url } = await host;
    const context = await browser.newContext({ serviceWorkers: 'allow' });
    const page = await context.newPage();
    await openNotes(page, url);
    const loads = countLoads(page);
    await context.setOffline(true);
    await firstNote(page).click();
    await page.keyboard.type('written on the train, ');
    await page.getByRole('button', { name: 'Add note' }).click();
    await note(page, 2).waitFor();
    await page.keyboard.type('and a second note, to the very last letter', { delay: 5 });
    const lastKey = Date.now();
    await context.setOffline(false);
    assert.ok(Date.now() - lastKey < 150, `online ${Date.now() - lastKey} ms after the last keystroke`);
    await until(() => loads.n >= 1, 5000, 'the reload');
    await firstNote(page).waitFor();
    assert.is(await firstNote(page).inputValue(), 'written on the train, ');
    assert.is(await note(page, 2).inputValue(), 'and a second note, to the very last letter');
    await context.close();
  });

  test('text typed just before a reload or closing the tab is kept (saved on pagehide)', async () => {
    const { url } = await host;
    const context = await browser.newContext({ serviceWorkers: 'allow' });
    const page = await context.newPage();
    await openNotes(page, url);
    await firstNote(page).fill('reloaded at once');
    await page.reload(); // well within the 1 s save debounce
    await firstNote(page).waitFor();
    assert.is(await firstNote(page).inputValue(), 'reloaded at once');
    await firstNote(page).fill('closed at once');
    await page.close({ runBeforeUnload: true });
    const again = await context.newPage();
    await openNotes(again, url);
    assert.is(await firstNote(again).inputValue(), 'closed at once');
    await context.close();
  });

  test('two tabs share notes, and neither overwrites the other\'s newer text', async () => {
    const { url } = await host;
    const context = await browser.newContext({ serviceWorkers: 'allow' });
    const a = await context.newPage();
    const b = await context.newPage();
    await openNotes(a, url);
    await openNotes(b, url);
    await firstNote(a).fill('from tab A');
    await until(async () => (await firstNote(b).inputValue()) === 'from tab A', 3000, 'tab B to show what A typed');
    await b.getByRole('button', { name: 'Add note' }).click();
    await until(() => note(b, 2).evaluate((el) => el === document.activeElement), 2000, 'focus on the new note');
    await b.keyboard.type('from tab B');
    await until(async () => (await note(a, 2).count()) === 1 && (await note(a, 2).inputValue()) === 'from tab B', 3000, 'tab A to show B\'s note');
    // Both type at once, each in its own note, before either has saved.
    await firstNote(a).fill('A, newer');
    await note(b, 2).fill('B, newer');
    for (const page of [a, b]) {
      await until(
        async () => (await firstNote(page).inputValue()) === 'A, newer' && (await note(page, 2).inputValue()) === 'B, newer',
        4000,
        'both tabs to show both newer texts',
      );
    }
    // A deletes B's note; B does not bring it back.
    await a.getByRole('button', { name: 'Delete note 2' }).click();
    await until(async () => (await b.getByRole('textbox').count()) === 1, 3000, 'the delete to reach tab B');
    await sleep(1500);
    await b.reload();
    await firstNote(b).waitFor();
    assert.equal(await b.getByRole('textbox').evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).value)), ['A, newer']);
    await context.close();
  });

  test.run();
}
