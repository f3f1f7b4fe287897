// The offline guarantees, proven in each browser engine (issue 12): registration, every screen from
// the cache with the server down, exactly one reload when the network returns (also when it flaps),
// an update that arrives with exactly one reload, a broken update that never installs, the kill
// switch, and no console errors. Written once against the engine-neutral driver (lib/driver.ts) and
// the readers every engine shares (lib/screens.ts, notes.ts, caches.ts, ...); each suite's browser,
// host, profile and shared steps are lib/engine-suite.ts. ENGINE (chromium | firefox | webkit,
// default chromium) picks the browser and BUILD (react | preact, default both) the build. Run by
// hand with `node test/harness/engines.mjs firefox react`.
//
// Where an engine cannot express a step, a comment says so and the test asserts what it can show.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as assert from 'uvu/assert';
import { CACHE_PREFIX, storageKey } from '../../src/contract/app-name';
import { listScreens } from '../../tools/screens.mjs';
import { auditVersionsByCache, cachedPaths, cachedSri, damage, evict, ourCacheNames } from './lib/caches';
import { buildChecklistApp, checklistOf, checklistWith, NEW_ITEM, type ChecklistApp } from './lib/checklist-app';
import { logKinds, logLines } from './lib/connectivity-log';
import { assertOneReconnectReload, Documents } from './lib/documents';
import { EngineSuite, engineUnderTest } from './lib/engine-suite';
import { BIG_APP_PACE, buildBigApp, MEDIA_FILES, STALLED_FILE, stallOnce } from './lib/big-app';
import { buildV3 } from './lib/third-version';
import { holdFile, requestsSince, startHost } from './lib/hosts';
import { MESSAGE_PATH, messageForm, secretsOf, stateLine } from './lib/message-form';
import { assertPolicyEnforced, assertTrustedTypesEnforced } from './lib/page-policy';
import { OTHER_SITE, OTHER_SITE_HEADING, withOtherSite } from './lib/other-site';
import { registrationOf, type RegistrationSeen } from './lib/registration';
import { DEEP_LINK, FIELD_SCREEN, heading, ROUTES, statusRow, stylesheetsApply, variant } from './lib/screens';
import { appScript, audit, copySite, readPrecache, site, temp } from './lib/site';
import { sleep, until } from './lib/wait';
import { appStorage, assertStorageKept, caretOf, fieldText, fillLocalStorage, storedText } from './lib/field';

const { engine: ENGINE, builds: BUILDS } = engineUnderTest();

/** The second app, built once for the file's suites (lib/checklist-app.ts), when its first scenario runs. */
let checklist: Promise<ChecklistApp> | undefined;
const checklistApp = (): Promise<ChecklistApp> => (checklist ??= buildChecklistApp());

/** Where the checklist shows its field: its home screen (this app's field screen may be one the checklist lacks). */
const CHECKLIST_HOME = '/';

/** The checklist's key in localStorage (test/fixtures/checklist/store.ts). */
const CHECKLIST_KEY = storageKey('checklist');

/** Where each navigation lands: the screen's <h1>. The deep link is not a route: the shell renders "Not found". */
const VISITS = [...ROUTES, DEEP_LINK];

for (const [index, build] of BUILDS.entries()) {
  const s = new EngineSuite(ENGINE, build, { last: index === BUILDS.length - 1 });
  const {
    scenario,
    url,
    openInstalled,
    typeIntoField,
    fieldLabelOf,
    goOffline,
    goOnline,
    typeThroughReconnectReload,
    checkForUpdate,
    assertNoProblems,
  } = s;

  scenario('1. registration: /sw.js with scope /, the page is controlled once installed, "Ready to work offline"', async () => {
    const tab = await openInstalled();
    const reg = await registrationOf(tab);
    assert.equal(
      reg && { scope: reg.scope, script: reg.script, controller: reg.controller, active: reg.active, updateViaCache: reg.updateViaCache },
      { scope: url('/'), script: url('/sw.js'), controller: url('/sw.js'), active: 'activated', updateViaCache: 'none' },
    );
    await assertNoProblems(tab);
  });

  scenario('2. offline from the cache: every screen and a deep link render with the server down, with all the app stored', async () => {
    const tab = await openInstalled();
    await typeIntoField(tab, 'typed before going offline');
    // Online first: a repeat visit asks the server for no file the worker precached. Only the
    // browser's own update check of /sw.js may reach it (and the reconnect probe, a HEAD).
    const precached = Object.keys(readPrecache(s.v1));
    await s.host.logged();
    const from = s.host.log.length;
    // The deep link is no route of this version: online it is the host's to answer.
    for (const { path: p, h1: title } of ROUTES) {
      await tab.goto(url(p));
      await until(`${p} to render "${title}"`, async () => (await heading(tab)) === title);
    }
    const asked = requestsSince(s.host, from);
    assert.equal(
      asked.filter((u) => precached.includes(u.split(/[?#]/)[0])),
      [],
      `precached files fetched again: ${asked.join(', ')}`,
    );
    // What the app stored, its pending saves flushed by those page loads (pagehide).
    const stored = await appStorage(tab);

    // Then the server down and the browser offline: nothing can come from the network.
    await goOffline(tab);
    for (const { path: p, h1: title } of VISITS) {
      await tab.goto(url(p));
      await until(`${p} to render "${title}" offline`, async () => (await heading(tab)) === title);
      // A page loaded offline starts with navigator.onLine false and says so.
      await until(`${p} to show the offline banner`, async () => (await tab.text()).includes('You are offline'));
    }
    await tab.goto(url('/about/'));
    const version = audit(s.v1).version;
    await until('/about/ to list the audit from the cache', async () => (await tab.text()).includes(`Version ${version}`));
    await until('/about/ to show the bundle composition from the cache', () =>
      tab.evaluate(
        () => document.querySelectorAll('table.composition tbody tr').length > 5 && !!document.querySelector('svg.chart[role="img"]'),
      ),
    );
    await tab.goto(url('/status/'));
    // The status screen hashes every precached file in the page: the cache holds the version intact.
    await until('/status/ to verify every file', async () => /(\d+) of \1 files verified/.test(await tab.text()));
    await tab.goto(url(FIELD_SCREEN.path));
    await until('the field screen to show its field offline', async () => (await fieldText(tab)) !== null);
    assert.equal(await appStorage(tab), stored, 'all the app stored is there offline');
    await assertNoProblems(tab);
  });

  scenario('3a. back online: exactly one reload, after a successful probe, with the text typed while offline', async () => {
    const tab = await openInstalled();
    const documents = await Documents.of(tab);
    await goOffline(tab);
    await tab.type(await fieldLabelOf(tab), 'typed while offline');
    await goOnline();
    // The reload comes ≥ 1 s after the page sees `online` (stable network, then the probe).
    await documents.reloaded('the reload', s.browser.networkLagMs + 10_000);
    await documents.until('the reloaded page to show the text', async () => (await fieldText(tab)) === 'typed while offline');
    await assertOneReconnectReload(tab, documents);
    await assertNoProblems(tab);
  });

  scenario('3b. flapping: the network toggled several times gives one reload', async () => {
    const tab = await openInstalled();
    const documents = await Documents.of(tab);
    await goOffline(tab);
    await s.host.resume();
    // Seven toggles 100 ms apart (a pace, not a wait), from offline to online. Chromium and Firefox deliver each
    // one to the page. WebKit's pages follow GLib's network monitor, which reports a link change
    // seconds later and may fold quick toggles into fewer events: the page sees what it sees, and
    // the assertion is the same: one reload.
    for (let i = 0; i < 7; i++) {
      await s.profile.setOffline(i % 2 === 1);
      await sleep(100);
    }
    await documents.reloaded('the reload', s.browser.networkLagMs + 10_000);
    await documents.until('the reloaded page to render', async () => (await fieldText(tab)) !== null);
    await assertOneReconnectReload(tab, documents);
    const kinds = await logKinds(tab);
    console.log(`  flapping in ${ENGINE}: the page logged ${kinds.join(', ')}`);
    await assertNoProblems(tab);
  });

  scenario('3c. flapping that the page sees, with the server down: no reload while probes fail, then exactly one', async () => {
    const tab = await openInstalled();
    const documents = await Documents.of(tab);
    await goOffline(tab);
    // Each toggle waits until the page has seen it, so the page goes through every transition; in
    // WebKit this is the only way it sees several (3b's quick toggles are folded by GLib).
    for (const offline of [false, true, false]) {
      await s.profile.setOffline(offline);
      const seen = documents.sampling(async () => (await tab.evaluate(() => navigator.onLine)) === !offline);
      await until(`the page to see the network ${offline ? 'gone' : 'back'}`, seen, s.browser.networkLagMs);
    }
    // Online with the server still down: the positive signal is a failed probe, the attempt that
    // would otherwise have reloaded; it backs off and retries, and no reload comes.
    await documents.until('a failed probe', async () => (await logKinds(tab)).includes('probe-failed'));
    assert.is(documents.reloads, 0, 'no reload while the server does not answer');
    // Read before the reload: the log a page keeps across a reload is its last 8 entries, and the
    // retries' failed probes (more of them where the network's return reaches the page late) can
    // push the first return out of it.
    const beforeReload = await logKinds(tab);
    assert.ok(
      beforeReload.filter((k) => k === 'online').length >= 2,
      `the page saw the network come back twice: ${beforeReload.join(', ')}`,
    );
    await s.host.resume();
    // The next retry comes after the backoff (1 s, then 2 s, 4 s, ...).
    await documents.reloaded('the reload once the server answers', 15_000);
    await documents.until('the reloaded page to render', async () => (await fieldText(tab)) !== null);
    await assertOneReconnectReload(tab, documents);
    // Chromium reports each probe that the stopped server refused (HEAD /sw.js) on the console.
    await assertNoProblems(tab, ['console.error: Failed to load resource: net::ERR_CONNECTION_REFUSED']);
  });

  scenario(
    '3d. typing through the reconnect: no reload while keys arrive, one after the pause, every key kept, the same field and caret',
    async () => {
      const tab = await openInstalled();
      const documents = await Documents.of(tab);
      await tab.type(await fieldLabelOf(tab), 'before ');
      const field = await until('the field to have the focus', async () => (await caretOf(tab))?.id);
      const { text, typed, reloadAfterMs } = await typeThroughReconnectReload(tab, documents, 'before ', () => fieldText(tab));
      console.log(
        `  typing through the reconnect in ${ENGINE} (${build}): ${typed.length} keys, reload ${reloadAfterMs} ms or less after the last one`,
      );
      await documents.until('the reloaded page to show the text', async () => (await fieldText(tab)) === text);
      // The resume point: the same field focused, the caret after the last key.
      const caret = await until('the field to have the focus again', () => caretOf(tab));
      assert.equal(caret, { id: field, start: text.length, end: text.length });
      await assertOneReconnectReload(tab, documents);
      await assertNoProblems(tab);
    },
  );

  // A builder's form through the reconnect, on both builds: React and Preact listen to different
  // events, and Firefox refills prerendered fields itself before either hears of them.
  scenario(
    "3e. a builder's form through the reconnect: every key and every control kept in the component, the caret where it was, no secret kept (password, a PIN shown as text, a split code)",
    async () => {
      await s.host.setRoot(site(build, 'form'));
      const tab = await openInstalled();
      await tab.goto(url(MESSAGE_PATH));
      await until('the form', () => messageForm(tab));
      await tab.type('To', 'ada');
      // A select takes the option whose name starts with the key pressed; a space ticks a checkbox.
      await tab.evaluate(() => document.querySelector<HTMLSelectElement>('select[name="priority"]')?.focus());
      await tab.press('h');
      await tab.evaluate(() => document.querySelector<HTMLInputElement>('.message input[type="checkbox"]')?.focus());
      await tab.press(' ');
      await tab.type('Password', 'secret');
      // Secrets as UI kits write them: a PIN typed while "Show PIN" made it a text field, a split one-time code.
      await tab.click('Show PIN');
      await until('the PIN shown as text', () =>
        tab.evaluate(() => document.querySelector('#message-pin')?.getAttribute('type') === 'text'),
      );
      await tab.type('PIN', '4711');
      for (const digit of [1, 2, 3]) await tab.type(`Code digit ${digit}`, String(digit));
      assert.equal(await secretsOf(tab), { pin: '4711', code: '123' });
      await tab.type('Your message', 'before ');
      const documents = await Documents.of(tab);
      const { text, typed } = await typeThroughReconnectReload(tab, documents, 'before ', async () => (await messageForm(tab))?.text);
      await documents.until('the reloaded page to log the fields it restored', async () =>
        (await logKinds(tab)).includes('fields-restored'),
      );
      const after = await messageForm(tab);
      const kept = after?.text.startsWith('before ') ? after.text.length - 'before '.length : 0;
      console.log(
        `  typing through a reconnect into a builder's form in ${ENGINE} (${build}): ${typed.length} keys typed, ${kept} kept, ${documents.reloads} reload(s)`,
      );
      const shown = { to: 'ada', text, priority: 'high', urgent: true, password: '' };
      assert.equal(after, { ...shown, state: stateLine(shown) }, 'every control as it was, in the component state too; the password empty');
      assert.equal(await caretOf(tab), { id: 'message-text', start: text.length, end: text.length }, 'the focus and caret where they were');
      // Four fields were saved: the PIN and the code's boxes never were (the PIN's key would count as missing: it is a password field again).
      assert.is((await logLines(tab)).at(-1), 'fields-restored: 4 of 4 came back');
      assert.equal(await secretsOf(tab), { pin: '', code: '' }, 'the secrets did not come back');
      await assertOneReconnectReload(tab, documents);
      await assertNoProblems(tab);
    },
  );

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

    scenario(
      '10b. a second app (a checklist): typing through the reconnect into its own field keeps every key in the component, the caret where it was',
      async () => {
        await s.host.setRoot((await checklistApp()).dist);
        const tab = await openInstalled(CHECKLIST_HOME);
        await tab.type(NEW_ITEM.label, 'before ');
        const documents = await Documents.of(tab);
        const { text } = await typeThroughReconnectReload(tab, documents, 'before ', async () => (await checklistOf(tab)).field);
        await documents.until('the reloaded page to log the fields it restored', async () =>
          (await logKinds(tab)).includes('fields-restored'),
        );
        assert.equal(await checklistOf(tab), checklistWith(text), 'every key, in the component state too');
        assert.equal(await caretOf(tab), { id: NEW_ITEM.id, start: text.length, end: text.length }, 'the focus and caret where they were');
        await assertOneReconnectReload(tab, documents);
        await assertNoProblems(tab);
      },
    );

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
      '10f. a second app (a checklist), its storage full: an item added while nothing can be saved stays through the reconnect reload, and is saved once there is room',
      async () => {
        const tab = await openChecklistWith('stored before the disk filled');
        assert.ok((await fillLocalStorage(tab)) > 0, 'the quota is real');
        await tab.type(NEW_ITEM.label, 'added while full');
        await tab.click('Add');
        await until('the item on screen', async () => (await checklistOf(tab)).items.includes('added while full'));
        // The app's throttled save (1 s) has been tried by then, and refused.
        await tab.evaluate((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)), 1500);
        assert.not.match((await storedText(tab, CHECKLIST_KEY)) ?? '', 'added while full', 'the device really has no room');
        const documents = await Documents.of(tab);
        await goOffline(tab);
        await goOnline();
        await documents.reloaded('the reconnect reload', 20_000);
        await documents.until('the item back after the reload', async () => (await checklistOf(tab)).items.includes('added while full'));
        assert.equal((await checklistOf(tab)).items, ['added while full', 'stored before the disk filled']);
        assert.not.match((await storedText(tab, CHECKLIST_KEY)) ?? '', 'added while full', 'still not saved: carried through the reload');
        // Room again: the next save stores it.
        await tab.evaluate(() => {
          for (const key of Object.keys(localStorage)) if (key.startsWith('filler-')) localStorage.removeItem(key);
        }, null);
        await tab.type(NEW_ITEM.label, 'added with room');
        await tab.click('Add');
        await until('every item stored', async () => {
          const stored = (await storedText(tab, CHECKLIST_KEY)) ?? '';
          return stored.includes('added while full') && stored.includes('added with room');
        });
        await assertOneReconnectReload(tab, documents);
        await assertNoProblems(tab);
      },
    );
  }

  // The update, broken update and kill switch scenarios run on the React build; the Preact build
  // shares every line of the offline core with it, and its registration, offline and reconnect
  // behaviour are proven above.
  if (build === 'react') {
    scenario('4. update: "A new version is ready", then "Reload to update" gives exactly one reload onto v2; old caches gone', async () => {
      const v2 = site(build, 'v2');
      const tab = await openInstalled();
      await s.host.setRoot(v2);
      await checkForUpdate(tab);
      await until('"A new version is ready"', async () => (await tab.text()).includes('A new version is ready'));
      assert.is(await variant(tab), '', 'the new version waits for the user');
      const documents = await Documents.of(tab);
      await tab.click('Reload to update');
      await documents.until('the new version', async () => (await variant(tab).catch(() => '')) === 'v2');
      // Positive signal before "no second reload": in the new document the new worker is active and
      // controls it, and nothing waits or installs, so no further controllerchange can come.
      const settled = await until('the registration to settle', async () => {
        await documents.sample();
        const reg = await registrationOf(tab);
        return reg && reg.active === 'activated' && reg.controlledByActive && !reg.waiting && !reg.installing;
      });
      assert.ok(settled);
      assert.is(documents.reloads, 1, 'exactly one reload');
      // Old versions' caches go in `activate`, which may finish after the page reloaded.
      await until('only the new version cache', async () => (await ourCacheNames(tab)).join() === CACHE_PREFIX + audit(v2).version);
      await assertNoProblems(tab);
    });

    scenario('5. a broken update (one file altered, same length) never installs; the old version keeps serving offline', async () => {
      const tab = await openInstalled();
      const before = await ourCacheNames(tab);
      const broken = copySite(site(build, 'v2'));
      const file = path.join(broken, 'licenses.txt');
      const text = readFileSync(file, 'utf8');
      // Same length, one character changed: only the SHA-384 in the manifest can tell.
      writeFileSync(file, text.replace('Third-party', 'Third_party'));
      assert.is.not(readFileSync(file, 'utf8'), text);
      await s.host.setRoot(broken);
      await checkForUpdate(tab);
      await until('"An update failed to install"', async () => (await tab.text()).includes('An update failed to install'));
      assert.equal(await ourCacheNames(tab), before, 'nothing of the broken version is cached');
      const reg = await registrationOf(tab);
      assert.equal(reg && { waiting: reg.waiting, installing: reg.installing }, { waiting: false, installing: false });
      // A good version deployed later installs, and the failure is no longer said.
      await s.host.setRoot(site(build, 'v2'));
      await tab.click('Check for update');
      await until('"A new version is ready"', async () => (await tab.text()).includes('A new version is ready'));
      assert.not.ok((await tab.text()).includes('An update failed to install'), 'the earlier failure is no longer said');
      await goOffline(tab);
      await tab.goto(url(FIELD_SCREEN.path));
      await until('the field screen offline', async () => (await fieldText(tab)) !== null);
      assert.is(await variant(tab), '', 'the old version serves');
      assert.ok(await tab.evaluate(() => !!navigator.serviceWorker.controller));
      await assertNoProblems(tab);
    });

    scenario(
      '6. the kill switch removes our registration and caches; the page then loads from the server, all the app stored kept',
      async () => {
        const tab = await openInstalled();
        const typed = 'kept through the kill switch';
        await typeIntoField(tab, typed);
        const documents = await Documents.of(tab);
        await s.host.setRoot(site(build, 'kill'));
        await checkForUpdate(tab);
        // The kill worker deletes our caches, unregisters and navigates the pages it controlled.
        await documents.reloaded('the page to be reloaded by the kill switch');
        // What the app stored, its pending saves flushed as the old page went (pagehide).
        const stored = await appStorage(tab);
        // The reloaded page registers /sw.js again (still the kill switch) and it withdraws again. The
        // Status screen's "Scope" row is filled when this document's register() resolved: after
        // that, no registration and no cache of ours means the withdrawal ran through. (The reload may
        // land on `/`: the worker navigates each page to its Client.url, the URL its document was
        // created with, which the app's client-side navigation to /status/ does not change.)
        await tab.click('Offline readiness');
        await until('the reloaded page to have registered', async () => (await statusRow(tab, 'Scope')) === url('/'));
        let seen: { registration: RegistrationSeen | null; caches: string[] } | undefined;
        await until('no registration and no cache of ours', async () => {
          seen = { registration: await registrationOf(tab), caches: await ourCacheNames(tab) };
          return seen.registration === null && seen.caches.length === 0;
        }).catch((error: Error) => {
          throw new Error(`${error.message}; last seen: ${JSON.stringify(seen)}`);
        });
        assert.is(await tab.evaluate(() => navigator.serviceWorker.controller), null);
        // A reload, not a navigation: python sends Last-Modified and no Cache-Control, so a plain
        // navigation may be answered by the HTTP cache (heuristic freshness); a reload revalidates.
        await tab.goto(url('/'));
        await s.host.logged();
        const from = s.host.log.length;
        await tab.reload();
        await until('the app to run', () => tab.evaluate(() => document.documentElement.dataset.running !== undefined));
        assertStorageKept(stored, await appStorage(tab), typed);
        assert.ok(requestsSince(s.host, from).includes('/'), 'the page came from the server');
        await assertNoProblems(tab);
      },
    );

    scenario(
      '11. on an origin shared with another site: online that site\'s page from the host, offline the app\'s "Not found"; a network 404 asked with Range stays a 404',
      async () => {
        await s.host.setRoot(withOtherSite(s.v1));
        const tab = await openInstalled();
        await s.host.logged();
        const from = s.host.log.length;
        await tab.goto(url(OTHER_SITE));
        await until('the other site', async () => (await heading(tab)) === OTHER_SITE_HEADING);
        await s.host.logged();
        assert.ok(requestsSince(s.host, from).includes(OTHER_SITE), 'the host was asked');
        const missing = await tab.evaluate(
          () => fetch('/no-such-file.txt', { headers: { Range: 'bytes=0-' } }).then((res) => res.status),
          null,
        );
        assert.is(missing, 404);
        await tab.goto(url('/'));
        await until('the app', async () => (await heading(tab)) !== '' && (await heading(tab)) !== OTHER_SITE_HEADING);
        await goOffline(tab);
        await tab.goto(url(OTHER_SITE));
        await until('the app\'s "Not found" offline', async () => (await heading(tab)) === 'Not found');
      },
    );

    scenario("12. a version activating while a newer one installs leaves the newer one's cache whole", async () => {
      const v3 = buildV3(false);
      const held = holdFile('/');
      const host = await startHost('preview', s.v1, { intercept: held.intercept });
      try {
        const tab = await s.profile.open(new URL('/', host.url).href);
        await until('"Ready to work offline"', async () => (await tab.text()).includes('Ready to work offline'), 20_000);
        await host.setRoot(site(build, 'v2'));
        await checkForUpdate(tab);
        await until('"A new version is ready"', async () => (await tab.text()).includes('A new version is ready'));
        // v3 deployed while v2 waits: its install holds on its page (which the HTTP cache has only as v1's).
        held.hold();
        await host.setRoot(v3);
        await tab.evaluate(() => {
          navigator.serviceWorker.getRegistration().then((registration) => registration?.update());
        }, null);
        await until('v3 to be installing', async () => held.waiting.length > 0);
        const documents = await Documents.of(tab);
        await tab.click('Reload to update');
        await documents.reloaded('the reload onto v2');
        held.release();
        await until('v3 to have installed', async () => (await registrationOf(tab))?.waiting === true);
        const v3Cache = CACHE_PREFIX + audit(v3).version;
        assert.ok((await ourCacheNames(tab)).includes(v3Cache), "v3's cache is there");
        assert.equal(await cachedPaths(tab, v3Cache), [...Object.keys(readPrecache(v3)), '/precache.json'].sort(), 'every file of v3');
      } finally {
        held.release();
        await host.close();
      }
    });

    scenario("13. a deploy landing mid-install: the new version's audit.json is never stored as the old one's", async () => {
      const held = holdFile('/audit.json');
      const host = await startHost('preview', s.v1, { intercept: held.intercept });
      try {
        held.hold();
        const tab = await s.profile.open(new URL('/', host.url).href);
        // Every other file asked first: the deploy lands when only audit.json is left to come.
        const others = Object.keys(readPrecache(s.v1)).filter((file) => file !== '/audit.json');
        await until('the install to ask for every other file, and audit.json', async () => {
          const asked = requestsSince(host, 0);
          return held.waiting.length > 0 && others.every((file) => asked.includes(file));
        });
        const v2 = site(build, 'v2');
        await host.setRoot(v2);
        held.release();
        // v1's install fails on another version's audit.json; the page's retry (10 s) installs v2.
        await until('"Ready to work offline"', async () => (await tab.text()).includes('Ready to work offline'), 30_000);
        const stored = await auditVersionsByCache(tab);
        assert.equal(stored, [[CACHE_PREFIX + audit(v2).version, audit(v2).version]], "each cache holds its own version's audit");
      } finally {
        held.release();
        await host.close();
      }
    });

    // One build: the install's downloads are the same code in both, and the scenario is the
    // engine's network under load (about 15 s in each engine).
    scenario(
      '9. a big app (40 more files, 12 MB) on a slow HTTP/1.1 link: every response longer than the stall limit but moving, one stalled',
      async () => {
        const dist = buildBigApp();
        const manifest = readPrecache(dist);
        const stall = stallOnce(dist);
        const host = await startHost('preview', dist, { intercept: stall.intercept, pace: BIG_APP_PACE });
        try {
          const started = Date.now();
          const tab = await s.profile.open(new URL('/', host.url).href);
          await until('"Ready to work offline"', async () => (await tab.text()).includes('Ready to work offline'), 60_000);
          console.log(`  (${ENGINE}) the big app ready to work offline in ${((Date.now() - started) / 1000).toFixed(1)} s`);
          const asked = requestsSince(host, 0);
          const times = (file: string) => asked.filter((url) => url === file).length;
          assert.equal(
            MEDIA_FILES.filter((file) => times(file) !== (file === STALLED_FILE ? 2 : 1)),
            [],
            `each moving download once, the stalled one cut and asked again: ${JSON.stringify(Object.fromEntries(MEDIA_FILES.map((f) => [f, times(f)])))}`,
          );
          assert.equal(
            await cachedSri(tab, MEDIA_FILES),
            MEDIA_FILES.map((file) => manifest[file]),
            'every file stored, verified',
          );
          await assertNoProblems(tab);
        } finally {
          stall.end();
          await host.close();
        }
      },
    );
  }

  scenario(
    '8. self-repair: a route page damaged on disk and a file deleted from the cache come back, verified, when a navigation needs them',
    async () => {
      const tab = await openInstalled();
      const manifest = readPrecache(s.v1);
      const repaired = ['/about/', '/licenses.txt'];
      // What a browser evicting under storage pressure leaves (/licenses.txt gone), and what a
      // damaged disk or profile leaves (/about/ present, with other bytes): neither may be served.
      await damage(tab, ['/about/'], ['/licenses.txt']);
      const [damagedSri, evictedSri] = await cachedSri(tab, repaired);
      assert.ok(damagedSri && damagedSri !== manifest['/about/'], 'damaged');
      assert.is(evictedSri, null, 'deleted');
      await tab.goto(url('/about/'));
      await until('/about/ to render', async () => (await heading(tab)) === 'What this app ships');
      await until('the entries back in the cache, verified', async () =>
        (await cachedSri(tab, repaired)).every((hash, index) => hash === manifest[repaired[index]]),
      );
      assert.equal(
        await cachedSri(tab, repaired),
        repaired.map((u) => manifest[u]),
        'the bytes the build hashed',
      );
      await until('/about/ to finish loading', async () => !(await tab.text()).includes('…'));
      await tab.goto(url('/status/'));
      await until('/status/ to verify every file', async () => /(\d+) of \1 files verified/.test(await tab.text()));
      await assertNoProblems(tab);
    },
  );

  scenario(
    '14. media under /my-app/ on python: imported SVG, PNG and font show, a sound and a video from static/ play and seek, with the server down',
    async () => {
      // python serving a folder that holds my-app/: the media variant, built with --base /my-app/.
      const media = site(build, 'media');
      const root = path.join(temp(), 'www');
      mkdirSync(root);
      symlinkSync(media, path.join(root, 'my-app'));
      await s.host.setRoot(root);
      const screen = '/my-app/media-fixture/';
      const tab = await openInstalled(screen);
      await goOffline(tab);
      await tab.goto(url(screen));
      await until('the media screen to render offline', async () => (await heading(tab)) === 'Media fixture');
      const images = () =>
        tab.evaluate(() =>
          [...document.querySelectorAll<HTMLImageElement>('.media-fixture img')].map((image) => ({
            src: image.getAttribute('src'),
            drawn: image.complete && image.naturalWidth > 0,
          })),
        );
      await until('both imported images drawn offline', async () => {
        const shown = await images();
        return shown.length === 2 && shown.every((image) => image.drawn);
      });
      assert.equal(
        (await images()).map((image) => image.src?.replace(/-[A-Z0-9]{8}\./, '-HASH.')),
        ['/my-app/assets/mark-HASH.svg', '/my-app/assets/dot-HASH.png'],
      );
      // The font the screen's stylesheet imports: "X" is two ems wide in it, under 1 em in any fallback.
      const font = await tab.evaluate(async () => {
        const faces = await document.fonts.load('16px "Offline Shell Fixture"', 'X');
        const sample = document.querySelector('.media-fixture .fixture-font');
        return { faces: faces.length, width: sample?.getBoundingClientRect().width ?? 0 };
      });
      assert.ok(font.faces === 1 && font.width >= 120, `the imported font renders offline: ${JSON.stringify(font)}`);
      for (const [selector, target] of [
        ['audio', 3],
        ['video', 1.5],
      ] as const) {
        // Muted, so no engine's autoplay rule stands in the way; played until its time moves, then sought.
        const played = await tab.evaluate(
          async ({ selector, target }) => {
            const element = document.querySelector<HTMLMediaElement>(`.media-fixture ${selector}`);
            if (!element) return { problem: 'no element' };
            element.muted = true;
            try {
              await element.play();
            } catch (error) {
              return { problem: `play() refused: ${error}`, code: element.error?.code ?? null };
            }
            const started = performance.now();
            while (element.currentTime < 0.2 && performance.now() - started < 10_000)
              await new Promise((resolve) => setTimeout(resolve, 50));
            const moved = element.currentTime;
            element.pause();
            const seeked = new Promise((resolve) => element.addEventListener('seeked', resolve, { once: true }));
            element.currentTime = target;
            await Promise.race([seeked, new Promise((resolve) => setTimeout(resolve, 10_000))]);
            return { moved, duration: element.duration, time: element.currentTime, code: element.error?.code ?? null };
          },
          { selector, target },
        );
        assert.equal(played.problem, undefined, `${selector}: ${JSON.stringify(played)}`);
        assert.ok((played.moved ?? 0) >= 0.2, `${selector} played: ${JSON.stringify(played)}`);
        assert.ok(Math.abs((played.time ?? 0) - target) < 0.3, `${selector} sought to ${target} s: ${JSON.stringify(played)}`);
        assert.is(played.code, null, `${selector}: no media error`);
      }
      await assertNoProblems(tab);
    },
  );

  scenario('7. no console errors from the app on any screen, once each has finished loading; a control error is seen', async () => {
    const tab = await openInstalled();
    // Online, so the app's routes: a path the version does not own is the host's page.
    for (const { path: p, h1: title } of ROUTES) {
      await tab.goto(url(p));
      await until(`${p} to render "${title}"`, async () => (await heading(tab)) === title);
      // Every placeholder of the app ends in "…" (Loading…, Checking…, storage "…"): none left
      // means the screen's own fetches are done.
      await until(`${p} to finish loading`, async () => !(await tab.text()).includes('…'));
      // Loaded before WebKit's problem hooks listen (after-load): a stylesheet the page's own policy
      // refused has no rules to read (stylesheetsApply). The script is proven by the rendered screen.
      assert.ok(await stylesheetsApply(tab), `${p}: the stylesheet applies`);
    }
    await assertNoProblems(tab);
    // evaluate() runs in the page's own JS world, not an isolated one: it sees the expando that
    // React (`__reactContainer$…`) or Preact (`__k`) put on #root. WebKit's page-side hooks
    // (lib/webkit.ts) rely on it to see the app's console.error.
    const world = await tab.evaluate(() =>
      Object.keys(document.getElementById('root') ?? {}).some((k) => k.startsWith('__react') || k === '__k'),
    );
    assert.ok(world, "evaluate() shares the page's JS world");
    // The control: an error and an exception the test causes are collected, so the empty list above
    // is a finding, not a blind spot. WebKit shows less than the others: WebDriver gives it no console
    // (lib/webkit.ts), so its tabs collect from the first command after each load, and an error
    // during start-up would show only as a screen that never renders (every test waits for one).
    await tab.evaluate(() => {
      console.error('engine test: control error');
      setTimeout(() => {
        throw new Error('engine test: control exception');
      });
    });
    await until('the control error and exception to be collected', async () => {
      const seen = await tab.problems();
      return seen.some((p) => p.includes('control error')) && seen.some((p) => p.includes('control exception'));
    });
    await assertTrustedTypesEnforced(tab);
    if (ENGINE === 'firefox') {
      // The Firefox rule in s.problemsOf() is narrow: a real failure of the worker's answer (a file it
      // does not cache, with the server down) is still an error.
      await s.host.pause();
      await tab.evaluate(() =>
        fetch('/not-precached.txt').then(
          () => undefined,
          () => undefined,
        ),
      );
      await until('Firefox to report the failed interception', async () =>
        (await s.problemsOf(tab)).some((p) => p.includes('FetchEvent.respondWith() that rejected')),
      );
      await s.host.resume();
    }
    // Last: it unregisters the tab's worker.
    await assertPolicyEnforced(tab, s.host, s.v1);
  });

  s.test.run();
}
