// The offline guarantees on an app that is not ours, in each browser engine: a checklist
// (lib/checklist-app.ts) whose field keeps its text in component state and whose items are a
// createDeviceDocument, offline, through a reconnect, an update, the kill switch and a full device.
// The shared steps: lib/engine-suite.ts (engines.test.ts says how the engine files are run).
import * as assert from 'uvu/assert';
import { storageKey } from '../../src/contract/app-name';
import { listScreens } from '../../tools/screens.mjs';
import { cachedSri, evict, ourCacheNames } from './lib/caches';
import { buildChecklistApp, checklistOf, checklistWith, NEW_ITEM, type ChecklistApp } from './lib/checklist-app';
import { logKinds } from './lib/connectivity-log';
import { assertOneReconnectReload, Documents } from './lib/documents';
import { EngineSuite, engineUnderTest } from './lib/engine-suite';
import { registrationOf } from './lib/registration';
import { heading, variant } from './lib/screens';
import { appScript, readPrecache } from './lib/site';
import { sharedBuild } from './lib/shared-build';
import { until } from './lib/wait';
import { caretOf, fillLocalStorage, storedText } from './lib/field';

const { engine: ENGINE, builds: BUILDS } = engineUnderTest();

/**
 * The second app (lib/checklist-app.ts), built once for the run's engines (lib/shared-build.ts)
 * when the first scenario that needs it runs.
 */
let checklist: Promise<ChecklistApp> | undefined;
const checklistApp = (): Promise<ChecklistApp> => (checklist ??= sharedBuild('checklist-app', buildChecklistApp));

/** Where the checklist shows its field: its home screen (this app's field screen may be one the checklist lacks). */
const CHECKLIST_HOME = '/';

/** The checklist's key in localStorage (test/fixtures/checklist/store.ts). */
const CHECKLIST_KEY = storageKey('checklist');

for (const [index, build] of BUILDS.entries()) {
  const s = new EngineSuite(ENGINE, build, { last: index === BUILDS.length - 1 });
  const { scenario, url, openInstalled, goOffline, typeThroughReconnectReload, checkForUpdate, assertNoProblems } = s;
  // The same guarantees on an app that is not ours (lib/checklist-app.ts: a checklist, its field's
  // text in component state, its items through createDeviceDocument), on the React build as for the
  // builder's form (second-app.test.ts adds its first visit, and the field through an update and the kill switch, in Chromium).
  if (build === 'react') {
    /** Opens the checklist installed and adds `item`, once it is stored on the device. */
    const openChecklistWith = async (item: string) => {
      await s.host.setRoot((await checklistApp()).dist);
      const tab = await openInstalled(CHECKLIST_HOME);
      await tab.type(NEW_ITEM.label, item);
      await tab.click('Add');
      await until('the item stored', async () => ((await storedText(tab, CHECKLIST_KEY)) ?? '').includes(item));
      return tab;
    };

    scenario('10a. a second app (a checklist): every route renders offline with the server down, with the item it stored', async () => {
      const app = await checklistApp();
      const tab = await openChecklistWith('buy milk');
      await goOffline(tab);
      for (const screen of listScreens(app.project)) {
        await tab.goto(url(screen.path));
        await until(`${screen.path} to render "${screen.title}" offline`, async () => (await heading(tab)) === screen.title);
      }
      await tab.goto(url('/'));
      await until('the stored item, offline', async () => (await checklistOf(tab)).items.includes('buy milk'));
    });

    scenario('10c. a second app (a checklist): "Reload to update" gives one reload onto its new version, its field as it was', async () => {
      const app = await checklistApp();
      await s.host.setRoot(app.dist);
      const tab = await openInstalled(CHECKLIST_HOME);
      await s.host.setRoot(app.v2);
      await checkForUpdate(tab);
      await until('"A new version is ready"', async () => (await tab.text()).includes('A new version is ready'));
      await tab.click('Checklist');
      const text = 'an update does not lose this';
      await tab.type(NEW_ITEM.label, text);
      const documents = await Documents.of(tab);
      await tab.click('Reload to update');
      await documents.until('the new version', async () => (await variant(tab).catch(() => '')) === 'v2');
      await documents.until('the reloaded page to log the fields it restored', async () =>
        (await logKinds(tab)).includes('fields-restored'),
      );
      assert.equal(await checklistOf(tab), checklistWith(text), 'the field as it was, in the component state too');
      await documents.sample();
      assert.is(documents.reloads, 1, 'exactly one reload');
      await assertNoProblems(tab);
    });

    scenario(
      '10d. a second app (a checklist): its script and its page, evicted, come back verified when a navigation needs them',
      async () => {
        const app = await checklistApp();
        await s.host.setRoot(app.dist);
        const tab = await openInstalled(CHECKLIST_HOME);
        const manifest = readPrecache(app.dist);
        const evicted = ['/' + appScript(app.dist), '/'];
        await evict(tab, evicted);
        assert.equal(await cachedSri(tab, evicted), [null, null], 'both entries are gone');
        await tab.goto(url('/'));
        await until('the checklist to render', async () => (await heading(tab)) === 'Checklist');
        await until('the entries back in the cache, verified', async () =>
          (await cachedSri(tab, evicted)).every((hash, index) => hash === manifest[evicted[index]]),
        );
        await assertNoProblems(tab);
      },
    );

    scenario('10e. a second app (a checklist): its kill switch removes our registration and caches, its stored item kept', async () => {
      const app = await checklistApp();
      const tab = await openChecklistWith('kept through the kill switch');
      const documents = await Documents.of(tab);
      await s.host.setRoot(app.kill);
      await checkForUpdate(tab);
      await documents.reloaded('the page to be reloaded by the kill switch');
      // The reloaded page loads the restore of the place the old page left (src/main.tsx) and then
      // says it runs. Navigating before that cancels the load, which Firefox reports as the chunk
      // failing its hash (an empty body's): a test's navigation, not the app's fault.
      await documents.until('the reloaded page to run', () => tab.evaluate(() => document.documentElement.dataset.running !== undefined));
      await until(
        'no registration and no cache of ours',
        async () => (await registrationOf(tab)) === null && (await ourCacheNames(tab)).length === 0,
      );
      await tab.goto(url('/'));
      await until('the stored item, from the server', async () => (await checklistOf(tab)).items.includes('kept through the kill switch'));
      assert.is(await tab.evaluate(() => navigator.serviceWorker.controller), null, 'no worker controls the page');
      await assertNoProblems(tab);
    });
    scenario(
      '10f. a second app (a checklist), its storage full: an item added while nothing can be saved, and every key typed through the reconnect, come back after its reload with the caret where it was; the item is saved once there is room',
      async () => {
        const tab = await openChecklistWith('stored before the disk filled');
        assert.ok((await fillLocalStorage(tab)) > 0, 'the quota is real');
        await tab.type(NEW_ITEM.label, 'added while full');
        await tab.click('Add');
        await until('the item on screen', async () => (await checklistOf(tab)).items.includes('added while full'));
        // The app's throttled save (1 s) has been tried by then, and refused.
        await tab.evaluate((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)), 1500);
        assert.not.match((await storedText(tab, CHECKLIST_KEY)) ?? '', 'added while full', 'the device really has no room');
        // The next item, typed into the checklist's own field (its text in component state) through the reconnect.
        await tab.type(NEW_ITEM.label, 'before ');
        const documents = await Documents.of(tab);
        const { text } = await typeThroughReconnectReload(tab, documents, 'before ', async () => (await checklistOf(tab)).field);
        await documents.until('the reloaded page to log the fields it restored', async () =>
          (await logKinds(tab)).includes('fields-restored'),
        );
        await documents.until('the item back after the reload', async () => (await checklistOf(tab)).items.includes('added while full'));
        assert.equal(
          await checklistOf(tab),
          checklistWith(text, ['added while full', 'stored before the disk filled']),
          'every key, in the component state too, and both items',
        );
        assert.equal(await caretOf(tab), { id: NEW_ITEM.id, start: text.length, end: text.length }, 'the focus and caret where they were');
        assert.not.match((await storedText(tab, CHECKLIST_KEY)) ?? '', 'added while full', 'still not saved: carried through the reload');
        await assertOneReconnectReload(tab, documents);
        // Room again: the next save stores it.
        await tab.evaluate(() => {
          for (const key of Object.keys(localStorage)) if (key.startsWith('filler-')) localStorage.removeItem(key);
        }, null);
        await tab.click('Add');
        await until('every item stored', async () => {
          const stored = (await storedText(tab, CHECKLIST_KEY)) ?? '';
          return stored.includes('added while full') && stored.includes(text);
        });
        await assertNoProblems(tab);
      },
    );
  }

  s.test.run();
}
