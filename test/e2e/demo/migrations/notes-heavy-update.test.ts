// A heavy user updates from the last released version: notes filling about 60 % of what Chromium
// lets the site keep in localStorage (3 million characters of Chinese), saved by that version under
// its key `<name>:notes`. After "Reload to update" the notes move to this app's key (the old key
// removed first, since both copies cannot fit), and every save after the update works.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { APP_ID } from '../../../../src/contract/app-name';
import { LEGACY_KEY_PREFIX, TAKEN_BY_KEY } from '../../../../src/migrations/page';
import { openInstalled } from '../../lib/app';
import { freshContext } from '../../lib/browser';
import { startHost } from '../../lib/hosts';
import { firstNote, NOTES_KEY, savedNotes, seedLongNotes, shownNotes, storedText } from '../lib/notes';
import { BUILDS, headersOfItsTime, site } from '../../lib/site';
import { shareChromium, type Shared } from '../../lib/suite';
import { until, WAIT } from '../../lib/wait';

const OLD_KEY = `${LEGACY_KEY_PREFIX}notes`;
const NOTES = 300;
const NOTE_LENGTH = 10_000;

for (const build of BUILDS) {
  const test = suite<Shared>(`a heavy user updates from the released version (${build.name})`);
  const released = site(build.name, 'released');
  const releasedHeaders = headersOfItsTime(released);
  shareChromium(test, () => startHost('preview', released, { securityOf: (root) => (root === released ? releasedHeaders : undefined) }));

  test('3 million characters of notes move to the new key, and the notes keep saving', async ({ browser, host }) => {
    const context = await freshContext(browser);
    const page = await openInstalled(context, host.url);
    const storedChars = await seedLongNotes(page, NOTES, NOTE_LENGTH, OLD_KEY);
    assert.ok(storedChars > 3_000_000, `${storedChars} characters stored by the released version's format`);
    // The released version reads them and saves an edit (its own whole write of the notes).
    await page.reload();
    await firstNote(page).fill('edited before the update');
    await until('the released version saved the edit', async () => (await savedNotes(page, OLD_KEY))?.[0] === 'edited before the update');

    await host.setRoot(site(build.name, 'v1'));
    await page.goto(new URL('status/', host.url).href);
    await page.getByRole('button', { name: 'Reload to update' }).click(WAIT);
    // The reload is under way meanwhile: a read in the page going away reads nothing.
    const movedNotes = () => savedNotes(page, NOTES_KEY).catch(() => null);
    await until(
      'the updated page to move the notes to its key',
      async () => (await movedNotes())?.[0] === 'edited before the update',
      15_000,
    );
    await page.goto(host.url);
    await firstNote(page).waitFor(WAIT);
    assert.is((await shownNotes(page)).length, NOTES, 'every note shown');
    assert.is(await storedText(page, OLD_KEY), null, 'the old key is gone: nothing kept twice');
    assert.is(await storedText(page, TAKEN_BY_KEY), APP_ID, 'this app took the old keys');

    await firstNote(page).fill('edited after the update');
    await until('the edit saved under the new key', async () => (await savedNotes(page, NOTES_KEY))?.[0] === 'edited after the update');
    assert.is(await page.getByText('Not saved').count(), 0, 'no storage problem shown');
    await page.reload();
    await firstNote(page).waitFor(WAIT);
    assert.is(await firstNote(page).inputValue(), 'edited after the update', 'kept across a reload');
    assert.is((await savedNotes(page, NOTES_KEY))?.length, NOTES);
    await context.close();
  });

  test.run();
}
