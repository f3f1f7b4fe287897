// Persistent storage in real Chromium: never asked on load, asked once after the first note is
// saved only where no prompt can appear, and the status page shows the outcome and keeps its
// "Keep data on this device" button. Spies count the page's calls and pass each one through to
// the browser's own navigator.storage.persist() and navigator.permissions.query().
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { settle, statusFact } from '../lib/app';
import { freshContext } from '../lib/browser';
import { startHost } from '../lib/hosts';
import { BUILDS, site } from '../lib/site';
import { shareChromium, type Shared } from '../lib/suite';
import { until, WAIT } from '../lib/wait';
import { firstNote, newNotesPage, openNotes, savedNotes } from './lib/notes';
import { present } from '../../present';

interface Calls {
  persist: number;
  /** The state each permissions.query({ name: 'persistent-storage' }) answered. */
  queries: string[];
}

/** Counts every page's calls of persist() and of the persistent-storage permission query, from before any script runs. */
async function spyOnPersistence(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const calls: { persist: number; queries: string[] } = { persist: 0, queries: [] };
    (window as unknown as { __calls: typeof calls }).__calls = calls;
    const persist = StorageManager.prototype.persist;
    StorageManager.prototype.persist = function (this: StorageManager) {
      calls.persist++;
      return persist.call(this);
    };
    const query = Permissions.prototype.query;
    Permissions.prototype.query = function (this: Permissions, descriptor: PermissionDescriptor) {
      const answer = query.call(this, descriptor);
      if (descriptor.name === 'persistent-storage') answer.then((status) => calls.queries.push(status.state));
      return answer;
    };
  });
}

const calls = (page: Page): Promise<Calls> => page.evaluate(() => (window as unknown as { __calls: Calls }).__calls);

/**
 * Grants this context's origin persistent storage, as Chromium does for an installed or
 * bookmarked site (DevTools protocol). The grant lasts while the returned session stays
 * attached (Chromium drops a session's permission overrides when it detaches): detach it after.
 */
async function grantPersistentStorage(context: BrowserContext, page: Page, origin: string): Promise<CDPSession> {
  const devtools = await context.newCDPSession(page);
  const { targetInfo } = await devtools.send('Target.getTargetInfo');
  await devtools.detach();
  const browserSession = await present(context.browser(), 'the browser of the context').newBrowserCDPSession();
  await browserSession.send('Browser.grantPermissions', {
    permissions: ['durableStorage'],
    origin,
    browserContextId: targetInfo.browserContextId,
  });
  return browserSession;
}

for (const build of BUILDS) {
  const test = suite<Shared>(`notes persistence (${build.name})`);
  shareChromium(test, () => startHost('preview', site(build.name, 'v1')));

  test('not asked on load; after the first save only the permission is looked at (Chromium says "prompt"), so nothing asks; the button does', async ({
    browser,
    host,
  }) => {
    const context = await freshContext(browser);
    await spyOnPersistence(context);
    const page = await newNotesPage(context, host.url);
    assert.equal(await calls(page), { persist: 0, queries: [] }, 'nothing on load');
    await firstNote(page).fill('worth keeping');
    await until('the save', async () => (await savedNotes(page))?.[0] === 'worth keeping');
    await until('the permission looked at after the save', async () => (await calls(page)).queries.length > 0);
    assert.equal(await calls(page), { persist: 0, queries: ['prompt'] }, 'asked nothing that could prompt');
    await page.getByRole('link', { name: 'Offline readiness' }).click();
    await settle(page, 'Offline readiness');
    assert.is(await statusFact(page, 'Persistent'), 'no: may be cleared when space runs low');
    // More saves ask nothing more.
    await page.getByRole('link', { name: 'Notes' }).click();
    await firstNote(page).fill('worth keeping, edited');
    await until('the second save', async () => (await savedNotes(page))?.[0] === 'worth keeping, edited');
    await page.getByRole('link', { name: 'Offline readiness' }).click();
    await settle(page, 'Offline readiness');
    assert.equal(await calls(page), { persist: 0, queries: ['prompt'] });
    // The user's choice: the button asks (headless Chromium without engagement declines).
    await page.getByRole('button', { name: 'Keep data on this device' }).click();
    await until('the answer on the status page', async () => (await statusFact(page, 'Persistent')) === 'no: the browser declined');
    assert.is((await calls(page)).persist, 1);
    await context.close();
  });

  test('where the browser already grants persistence, the status page says so and offers no button', async ({ browser, host }) => {
    const context = await freshContext(browser);
    await spyOnPersistence(context);
    const page = await context.newPage();
    const grant = await grantPersistentStorage(context, page, new URL(host.url).origin);
    await openNotes(page, host.url);
    await firstNote(page).fill('worth keeping');
    await until('the save', async () => (await savedNotes(page))?.[0] === 'worth keeping');
    await page.getByRole('link', { name: 'Offline readiness' }).click();
    await settle(page, 'Offline readiness');
    assert.is(await statusFact(page, 'Persistent'), 'yes');
    assert.is(await page.getByRole('button', { name: 'Keep data on this device' }).count(), 0);
    assert.is((await calls(page)).persist, 0, 'nothing to ask: persisted() already says yes');
    await page.getByText('such as a backup file, keeps what you saved here safe').waitFor(WAIT);
    await grant.detach();
    await context.close();
  });

  test.run();
}
