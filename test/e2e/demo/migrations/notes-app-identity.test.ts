// The demo's notes through an update from the last released version, whose keys and caches
// carried the name alone: at `/` and under a base, the note, the place in it and an offline copy
// are kept, and the notes move to the key of this app's name and base (app-identity.test.ts has
// the shell's side: two apps on one origin).
import type { BrowserContext, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { APP_NAME, appId, cachePrefixOf, storageKey } from '../../../../src/contract/app-name';
import { LEGACY_KEY_PREFIX } from '../../../../src/migrations/page';
import { TEST_BASE } from '../../../harness/test-sites.mjs';
import { countLoads, waitReady } from '../../lib/app';
import { freshContext } from '../../lib/browser';
import { cacheNames } from '../../lib/caches';
import { caretOf } from '../../lib/field';
import { startHost } from '../../lib/hosts';
import { firstNote, savedNotes } from '../lib/notes';
import { audit, BUILDS, headersOfItsTime, sharedOrigin, site } from '../../lib/site';
import { shareChromium, type Shared } from '../../lib/suite';
import { until, WAIT } from '../../lib/wait';

/** The notes key of the app served at `base`. */
const notesKeyAt = (base: string): string => storageKey('notes', appId(APP_NAME, base));

/** A new page of `context` at `url` once the app's worker is installed there, with its notes loaded. */
async function openInstalledNotes(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await waitReady(page);
  await firstNote(page).waitFor(WAIT);
  return page;
}

/** Types `text` into the first note and waits until the app has saved it under `key`. */
async function typeAndSave(page: Page, text: string, key: string): Promise<void> {
  await firstNote(page).fill(text);
  await until(`"${text}" saved under ${key}`, async () => (await savedNotes(page, key))?.includes(text));
}

for (const build of BUILDS) {
  for (const [base, released, current] of [
    ['/', 'released', 'v1'],
    [TEST_BASE, 'released-base', 'base'],
  ] as const) {
    const test = suite<Shared>(`update from the released version at ${base} (${build.name})`);
    const webRoot = (variant: typeof released | typeof current) =>
      base === '/' ? site(build.name, variant) : sharedOrigin({ [base]: site(build.name, variant) });
    const releasedRoot = webRoot(released);
    const releasedHeaders = headersOfItsTime(site(build.name, released));
    shareChromium(test, () =>
      startHost('preview', releasedRoot, { securityOf: (root) => (root === releasedRoot ? releasedHeaders : undefined) }),
    );

    test('the note, the place in it and an offline copy are kept through the update', async ({ browser, host }) => {
      const app = new URL(base, host.url).href;
      const context = await freshContext(browser);
      const page = await openInstalledNotes(context, app);
      // The released version saves under the name alone.
      await typeAndSave(page, 'typed before the update', `${LEGACY_KEY_PREFIX}notes`);
      const releasedCaches = await cacheNames(page);
      assert.equal(releasedCaches, [`${APP_NAME}-${audit(site(build.name, released)).version}`]);
      await host.setRoot(webRoot(current));
      // Another tab finds the new version and takes it; this one keeps the caret in its note.
      const other = await context.newPage();
      await other.goto(new URL('status/', app).href);
      await other.getByRole('button', { name: 'Reload to update' }).click(WAIT);
      await firstNote(page).focus();
      await firstNote(page).evaluate((note: HTMLTextAreaElement) => note.setSelectionRange(6, 6));
      const loads = countLoads(page);
      await until('the updated page', () => loads.n >= 1, 15_000);
      await until(
        'the note back after the reload',
        async () =>
          (await firstNote(page)
            .inputValue()
            .catch(() => '')) === 'typed before the update',
      );
      await until('the caret back where it was', async () => (await caretOf(page))?.start === 6);
      const version = audit(site(build.name, current)).version;
      await until(
        'only the new offline copy',
        async () => (await cacheNames(page)).join() === cachePrefixOf(appId(APP_NAME, base)) + version,
      );
      assert.equal(await savedNotes(page, notesKeyAt(base)), ['typed before the update'], "under this app's own key now");
      assert.is(await savedNotes(page, `${LEGACY_KEY_PREFIX}notes`), null, 'the old key moved: nothing kept twice');
      // A tab still on the released version (hidden, waiting for its quiet moment) saves under the
      // old key: what it saves reaches the updated tab.
      const savedByOldTab = { v: 1, notes: [{ id: '0', text: 'typed in a tab not yet updated', at: Date.now() + 60_000 }], gone: {} };
      await other.evaluate(([key, text]) => localStorage.setItem(key, text), [`${LEGACY_KEY_PREFIX}notes`, JSON.stringify(savedByOldTab)]);
      await until(
        "the old tab's edit in the updated tab",
        async () => (await firstNote(page).inputValue()) === 'typed in a tab not yet updated',
      );
      await until(
        'and saved under the new key',
        async () => (await savedNotes(page, notesKeyAt(base)))?.[0] === 'typed in a tab not yet updated',
      );
      assert.is(await savedNotes(page, `${LEGACY_KEY_PREFIX}notes`), null, 'and moved off the old key again');
      await context.close();
    });

    test.run();
  }
}
