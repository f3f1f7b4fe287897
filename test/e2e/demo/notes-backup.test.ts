// Notes backup and restore in real Chromium: the download is a file the user keeps (made in the
// page, so it works offline), restoring it after the browser lost everything brings back the same
// notes, and a file that is not a valid backup, or a full storage, changes nothing. What the two
// controls do is loaded on first use (src/ui/later.ts): once installed, from the worker's cache,
// with the server down too; a copy that cannot be had is said on screen.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appRunning, fillLocalStorage, openInstalled, watchConsole } from '../lib/app';
import { NO_ROOM_FOR_RESTORE } from '../../../src/ui/no-room';
import { clearHttpCache, freshContext } from '../lib/browser';
import { evict } from '../lib/caches';
import { requestsSince, startHost } from '../lib/hosts';
import { APP_NAME, BUILDS, site } from '../lib/site';
import { shareChromium, type Shared } from '../lib/suite';
import { firstNote, newNotesPage, NOTES_KEY, savedNotes, shownNotes } from './lib/notes';
import { until, WAIT } from '../lib/wait';
import { backupFile, backupStatus, restoreBackup as restore } from './lib/backup';
import { present } from '../../present';

/** Types two notes and waits until both are saved. */
async function writeTwoNotes(page: Page): Promise<void> {
  await firstNote(page).fill('groceries: milk, "bread"');
  await page.getByRole('button', { name: 'Add note' }).click();
  await page.getByRole('textbox', { name: 'Note 2' }).fill('call the bank\nabout the ünïcode card');
  await until('both notes saved', async () => (await savedNotes(page))?.length === 2 && (await savedNotes(page))?.[1] !== '');
}

/** The scripts the page loads on use, as URL paths (its lazy-scripts meta element): the backup's code is among them. */
const scriptsLoadedOnUse = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const named = document.querySelector('meta[name="lazy-scripts"]')?.getAttribute('content') ?? '{}';
    return Object.values(JSON.parse(named) as Record<string, [string, string][]>).flatMap((files) => files.map(([file]) => `/${file}`));
  });

/** What either control says when its code could not be loaded (src/ui/screens/notes/Backup.tsx). */
const NOT_LOADED = 'this part of the app could not be loaded. Check the connection, then reload the page.';

for (const build of BUILDS) {
  const test = suite<Shared>(`notes backup (${build.name})`);
  shareChromium(test, () => startHost('preview', site(build.name, 'v1')));

  test('download a backup offline, lose all site data, restore it: the same notes, the same ids and times', async ({ browser, host }) => {
    const context = await freshContext(browser, { acceptDownloads: true });
    const page = await openInstalled(context, host.url);
    const problems = watchConsole(page);
    await writeTwoNotes(page);
    const stored = await page.evaluate((key) => localStorage.getItem(key), NOTES_KEY);
    await context.setOffline(true);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download a backup' }).click()]);
    const today = await page.evaluate(() =>
      [new Date().getFullYear(), new Date().getMonth() + 1, new Date().getDate()].map((n) => String(n).padStart(2, '0')).join('-'),
    );
    assert.is(download.suggestedFilename(), `${APP_NAME}-notes-${today}.json`);
    const file = readFileSync(await download.path());
    const backup = JSON.parse(file.toString());
    assert.equal([backup.format, backup.version], ['notes-backup', 1]);
    assert.equal(backup.notes, JSON.parse(present(stored, 'the notes in localStorage')).notes, 'every note with its id, text and time');
    await backupStatus(page).getByText(`Saved 2 notes to ${APP_NAME}-notes-${today}.json.`).waitFor(WAIT);
    // The browser deletes the site's storage (what Safari does after 7 days without a visit).
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await firstNote(page).waitFor(WAIT);
    assert.equal(await shownNotes(page), [''], 'a new user again');
    const said = await restore(page, { name: download.suggestedFilename(), buffer: file });
    // The new start's empty note is another note (random ids): both of the file's are added, and the empty one goes.
    assert.is(said, `Restored from ${APP_NAME}-notes-${today}.json: 2 notes added, 0 notes updated, 0 notes brought back.`);
    assert.equal(await shownNotes(page), ['groceries: milk, "bread"', 'call the bank\nabout the ünïcode card']);
    assert.equal(
      JSON.parse(present(await page.evaluate((key) => localStorage.getItem(key), NOTES_KEY), 'the notes in localStorage')).notes,
      backup.notes,
    );
    await page.reload();
    await firstNote(page).waitFor(WAIT);
    assert.equal(await shownNotes(page), ['groceries: milk, "bread"', 'call the bank\nabout the ünïcode card'], 'kept after a reload');
    assert.equal(problems, []);
    await context.close();
  });

  test('restoring merges by id: the newer text wins, notes only on this device stay, and the message names the note kept as edited here', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    const page = await newNotesPage(context, host.url);
    await writeTwoNotes(page);
    const [first, second] = JSON.parse(
      present(await page.evaluate((key) => localStorage.getItem(key), NOTES_KEY), 'the notes in localStorage'),
    ).notes;
    const backup = {
      format: 'notes-backup',
      version: 1,
      notes: [
        { ...first, text: 'older text of note 1', at: first.at - 1000 },
        { ...second, text: 'newer text of note 2', at: second.at + 1000 },
        { id: 'zz-from-elsewhere', text: 'a note from another device', at: 1 },
      ],
    };
    const said = await restore(page, { name: 'merge.json', buffer: Buffer.from(JSON.stringify(backup)) });
    assert.is(
      said,
      'Restored from merge.json: 1 note added, 1 note updated, 0 notes brought back; 1 note kept as edited here after the backup.',
    );
    assert.equal(await shownNotes(page), ['groceries: milk, "bread"', 'newer text of note 2', 'a note from another device']);
    await context.close();
  });

  test('two fresh profiles: a backup moved from one to the other keeps both first notes; a deleted note comes back with a restore', async ({
    browser,
    host,
  }) => {
    const first = await freshContext(browser, { acceptDownloads: true });
    const second = await freshContext(browser);
    const one = await newNotesPage(first, host.url);
    await firstNote(one).fill('typed on the first device');
    await until('saved', async () => (await savedNotes(one))?.[0] === 'typed on the first device');
    const [download] = await Promise.all([one.waitForEvent('download'), one.getByRole('button', { name: 'Download a backup' }).click()]);
    const file = { name: 'first-device.json', buffer: readFileSync(await download.path()) };
    const two = await newNotesPage(second, host.url);
    await firstNote(two).fill('typed on the second device');
    await until('saved', async () => (await savedNotes(two))?.[0] === 'typed on the second device');
    assert.is(await restore(two, file), 'Restored from first-device.json: 1 note added, 0 notes updated, 0 notes brought back.');
    assert.equal((await shownNotes(two)).sort(), ['typed on the first device', 'typed on the second device']);
    // Deleted by mistake, then undone with the same file.
    const index = (await shownNotes(two)).indexOf('typed on the first device');
    await two.getByRole('button', { name: `Delete note ${index + 1}` }).click();
    await until('deleted', async () => (await shownNotes(two)).length === 1);
    assert.is(await restore(two, file), 'Restored from first-device.json: 0 notes added, 0 notes updated, 1 note brought back.');
    assert.equal((await shownNotes(two)).sort(), ['typed on the first device', 'typed on the second device']);
    await two.reload();
    await firstNote(two).waitFor(WAIT);
    assert.equal((await shownNotes(two)).sort(), ['typed on the first device', 'typed on the second device'], 'stored, not only shown');
    // An edit made here after the backup wins over the file's copy, and the message says so.
    await two.getByRole('textbox', { name: `Note ${index + 1}`, exact: true }).fill('edited here after the backup');
    await until('saved', async () => (await savedNotes(two))?.includes('edited here after the backup'));
    assert.is(
      await restore(two, file),
      'Restored from first-device.json: 0 notes added, 0 notes updated, 0 notes brought back; 1 note kept as edited here after the backup.',
    );
    assert.equal((await shownNotes(two)).sort(), ['edited here after the backup', 'typed on the second device']);
    await first.close();
    await second.close();
  });

  test('a file that is not a valid backup is refused with a clear message, and nothing changes', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const page = await newNotesPage(context, host.url);
    await writeTwoNotes(page);
    const before = await savedNotes(page);
    const refusals: [string, Buffer, string][] = [
      [
        'broken.json',
        Buffer.from('{"format": "notes-backup", "version": 1, "notes": ['),
        'This file is not a notes backup: it is not valid JSON.',
      ],
      [
        'later.json',
        Buffer.from(JSON.stringify({ format: 'notes-backup', version: 2, notes: [] })),
        'This backup has format version 2; this app reads version 1.',
      ],
      [
        'types.json',
        Buffer.from(JSON.stringify({ format: 'notes-backup', version: 1, notes: [{ id: 'a', text: 42, at: 1 }] })),
        'This backup is damaged: note 1 has no text.',
      ],
      [
        'huge.json',
        Buffer.alloc(16 * 1024 * 1024 + 1, ' '),
        'This file is larger than 16 MB, more than any device keeps of notes, so it is not a notes backup.',
      ],
    ];
    for (const [name, buffer, reason] of refusals) {
      assert.is(await restore(page, { name, buffer }), `Not restored: ${reason} Nothing was changed.`, name);
      assert.equal(await savedNotes(page), before, `${name}: the stored notes are unchanged`);
      assert.equal(await shownNotes(page), before, `${name}: the notes on screen are unchanged`);
    }
    await context.close();
  });

  test('storage full while restoring: the quota message, and nothing half-written', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const page = await newNotesPage(context, host.url);
    await writeTwoNotes(page);
    const before = await savedNotes(page);
    await fillLocalStorage(page);
    const big = { format: 'notes-backup', version: 1, notes: [{ id: 'big', text: 'a long note '.repeat(2000), at: 1 }] };
    assert.is(await restore(page, { name: 'big.json', buffer: Buffer.from(JSON.stringify(big)) }), NO_ROOM_FOR_RESTORE);
    assert.equal(await savedNotes(page), before);
    assert.equal(await shownNotes(page), before);
    await context.close();
  });

  test('installed, the controls’ code is the worker’s: no request for it reaches the server, and with the server down a backup is restored', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser, { acceptDownloads: true });
    const page = await openInstalled(context, host.url);
    const problems = watchConsole(page);
    await writeTwoNotes(page);
    const onUse = await scriptsLoadedOnUse(page);
    assert.ok(onUse.length > 0, 'the page names the scripts it loads on use');
    const answered: boolean[] = [];
    page.on('response', (response) => {
      if (onUse.includes(new URL(response.url()).pathname)) answered.push(response.fromServiceWorker());
    });
    await host.logged();
    const from = host.log.length;
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download a backup' }).click()]);
    await backupStatus(page)
      .getByText(/^Saved 2 notes to /)
      .waitFor(WAIT);
    assert.ok(answered.length > 0 && answered.every(Boolean), `the page asked for the code on use, and the worker answered: ${answered}`);
    await host.logged();
    assert.equal(
      requestsSince(host, from).filter((url) => onUse.includes(url)),
      [],
      'the server, up all along, was not asked for it',
    );
    const file = { name: download.suggestedFilename(), buffer: readFileSync(await download.path()) };
    await host.pause();
    try {
      // The browser deletes the site's storage; a new page (a new module map) restores with the server down.
      await page.evaluate(() => localStorage.clear());
      await page.reload();
      await appRunning(page);
      await firstNote(page).waitFor(WAIT);
      assert.equal(await shownNotes(page), [''], 'a new user again');
      assert.is(await restore(page, file), `Restored from ${file.name}: 2 notes added, 0 notes updated, 0 notes brought back.`);
      assert.equal(await shownNotes(page), ['groceries: milk, "bread"', 'call the bank\nabout the ünïcode card']);
      assert.equal(await savedNotes(page), ['groceries: milk, "bread"', 'call the bank\nabout the ünïcode card'], 'stored, not only shown');
    } finally {
      await host.resume();
    }
    assert.equal(problems, []);
    await context.close();
  });

  test('the controls’ code evicted from the cache and the server down: each control says it could not be loaded, and nothing changes', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    const page = await openInstalled(context, host.url);
    await writeTwoNotes(page);
    const before = await savedNotes(page);
    // Gone from the worker's cache and from the browser's HTTP cache (which the worker's repair would find it in), with no server to fetch it from.
    await evict(page, await scriptsLoadedOnUse(page));
    await clearHttpCache(page);
    await host.pause();
    try {
      await page.getByRole('button', { name: 'Download a backup' }).click();
      await backupStatus(page).getByText(`Not saved: ${NOT_LOADED}`).waitFor(WAIT);
      const file = backupFile([{ id: 'from-elsewhere', text: 'a note from another device', at: 1 }]);
      assert.is(await restore(page, { name: 'other.json', buffer: file }), `Not restored: ${NOT_LOADED} Nothing was changed.`);
      assert.equal(await savedNotes(page), before, 'the stored notes are unchanged');
      assert.equal(await shownNotes(page), before, 'the notes on screen are unchanged');
    } finally {
      await host.resume();
    }
    await context.close();
  });

  test.run();
}
