// Bad device storage in real Chromium: a real full quota, corrupt stored data, and a profile
// that blocks site data (reading window.localStorage throws SecurityError).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { axeViolations, countLoads, fillLocalStorage, openInstalled, pageTimersDone, shownText } from '../lib/app';
import { NO_ROOM_TO_SAVE } from '../../../src/ui/no-room';
import { freshContext, launchWithProfile } from '../lib/browser';
import { startHost } from '../lib/hosts';
import { BUILDS, site } from '../lib/site';
import { shareChromium, type Shared } from '../lib/suite';
import { until, WAIT } from '../lib/wait';
import { firstNote, newNotesPage, NOTES_BACKUP_KEY, NOTES_KEY, openNotes, openNotesWatched, savedNotes, shownNotes } from './lib/notes';

const notice = (page: Page) => page.locator('main .notice');

for (const build of BUILDS) {
  const test = suite<Shared>(`notes, bad storage (${build.name})`);
  shareChromium(test, () => startHost('preview', site(build.name, 'v1')));

  test('a full storage says the device has no room and what frees it, keeps the text on screen, and saves once there is room', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    const page = await newNotesPage(context, host.url);
    await firstNote(page).fill('saved before the disk filled up');
    await until('the throttled save', async () => (await savedNotes(page))?.[0] === 'saved before the disk filled up');
    const fillers = await fillLocalStorage(page);
    assert.ok(fillers > 5, 'the quota is real (several MB)');
    const longer = 'saved before the disk filled up, and this added while it was full';
    await firstNote(page).fill(longer);
    await until('the notice', async () => (await shownText(notice(page))) === NO_ROOM_TO_SAVE, 3000);
    assert.is(await firstNote(page).inputValue(), longer, 'the text stays on screen');
    assert.equal(await savedNotes(page), ['saved before the disk filled up'], 'the last good save is intact');
    // The user makes room; the next save goes through and the notice goes away.
    await page.evaluate(() => localStorage.removeItem('filler-0'));
    await firstNote(page).press('End');
    await page.keyboard.type('!');
    await until('the notice to go', async () => (await shownText(notice(page))) === '', 3000);
    await page.reload();
    await firstNote(page).waitFor();
    assert.is(await firstNote(page).inputValue(), longer + '!');
    await context.close();
  });

  test('a full device: a note added and typed while nothing can be saved stays through the reconnect reload, still said unsaved', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    const page = await openInstalled(context, host.url);
    await firstNote(page).fill('saved before the disk filled up');
    await until('the throttled save', async () => (await savedNotes(page))?.[0] === 'saved before the disk filled up');
    await fillLocalStorage(page);
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.keyboard.type('typed into a new note on a full device');
    await until('the notice', async () => (await shownText(notice(page))) === NO_ROOM_TO_SAVE, 3000);
    const loads = countLoads(page);
    await context.setOffline(true);
    await page.getByText('You are offline').waitFor();
    await context.setOffline(false);
    await until('the reconnect reload', async () => loads.n === 1, 15_000);
    await page.getByRole('textbox', { name: 'Note 2', exact: true }).waitFor(WAIT);
    assert.equal(await shownNotes(page), ['saved before the disk filled up', 'typed into a new note on a full device']);
    await until('the notice, still true', async () => (await shownText(notice(page))) === NO_ROOM_TO_SAVE, 3000);
    assert.equal(await savedNotes(page), ['saved before the disk filled up'], 'not saved: carried through the reload');
    await context.close();
  });

  test('corrupt stored notes do not crash the app: a one-line notice, the raw text kept under a backup key', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const { page, problems } = await openNotesWatched(context, host.url);
    const raw = '{"v":1,"notes":[{"id":"a","text":"half of a lo';
    await page.evaluate(([k, v]) => localStorage.setItem(k, v), [NOTES_KEY, raw]);
    await page.reload();
    await firstNote(page).waitFor();
    assert.match(await shownText(notice(page)), 'could not be read');
    assert.is(await page.evaluate((k) => localStorage.getItem(k), NOTES_BACKUP_KEY), raw);
    await firstNote(page).fill('the app still works');
    await until('the throttled save', async () => (await savedNotes(page))?.[0] === 'the app still works');
    await page.reload();
    await firstNote(page).waitFor();
    assert.is(await firstNote(page).inputValue(), 'the app still works');
    assert.is(await shownText(notice(page)), '', 'the notice was for that one load');
    assert.equal(problems, []);
    await context.close();
  });

  test('storage disabled (site data blocked): a notice, the notes work for the session and cross the reconnect reload', async ({
    host,
  }) => {
    // Chromium's "block all site data" setting, as a user or policy sets it.
    const chromium = await launchWithProfile((profile) => {
      mkdirSync(path.join(profile, 'Default'));
      writeFileSync(
        path.join(profile, 'Default', 'Preferences'),
        JSON.stringify({ profile: { default_content_setting_values: { cookies: 2 } } }),
      );
    });
    try {
      const { context } = chromium;
      const page = context.pages()[0] ?? (await context.newPage());
      await openNotes(page, host.url);
      assert.ok(
        await page.evaluate(() => {
          try {
            return !localStorage;
          } catch {
            return true;
          }
        }),
        'storage really is blocked',
      );
      assert.match(await shownText(notice(page)), 'keeps no data here');
      await firstNote(page).fill('kept for this session');
      await page.getByRole('button', { name: 'Add note' }).click();
      await page.getByRole('textbox', { name: 'Note 2' }).waitFor();
      await page.getByRole('textbox', { name: 'Note 2' }).fill('a new note, nowhere stored');
      await pageTimersDone(page, 1000); // the app's throttled save (1 s) has been tried, and failed
      assert.is(await firstNote(page).inputValue(), 'kept for this session');
      // The reconnect reload: with no storage at all, the notes cross it in the history entry's state.
      const loads = countLoads(page);
      await context.setOffline(true);
      await page.getByText('You are offline').waitFor();
      await context.setOffline(false);
      await until('the reconnect reload', async () => loads.n === 1, 15_000);
      await page.getByRole('textbox', { name: 'Note 2' }).waitFor(WAIT);
      assert.equal(await shownNotes(page), ['kept for this session', 'a new note, nowhere stored']);
    } finally {
      await chromium.close();
    }
  });

  test('the Notes screen and its notices pass axe, and work from the keyboard', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const page = await newNotesPage(context, host.url);
    await page.evaluate((k) => localStorage.setItem(k, '{not json'), NOTES_KEY);
    await page.reload();
    await firstNote(page).waitFor();
    await context.setOffline(true);
    await page.getByText('You are offline').waitFor();
    assert.equal(await axeViolations(page), []);
    // Keyboard only: from the first note, Tab reaches its Delete, then Add note.
    await firstNote(page).focus();
    await page.keyboard.press('Tab');
    assert.is(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Delete note 1');
    await page.keyboard.press('Tab');
    assert.is(await page.evaluate(() => document.activeElement?.textContent), 'Add note');
    await page.keyboard.press('Enter');
    await until(
      'focus on the new note',
      () => page.evaluate(() => document.activeElement?.id.startsWith('note-') && document.activeElement.tagName === 'TEXTAREA'),
      2000,
    );
    await page.keyboard.type('typed without a mouse');
    assert.is(await page.getByRole('textbox', { name: 'Note 2' }).inputValue(), 'typed without a mouse');
    await context.close();
  });

  test.run();
}
