// Versions in each browser engine: an update with exactly one reload, a broken update that never
// installs, the kill switch, an origin shared with another site, a version activating while a
// newer one installs, a deploy landing mid-install, and a big app on a slow HTTP/1.1 link. On the
// React build: the Preact build shares every line of the worker and the offline core. The shared
// steps: lib/engine-suite.ts (engines.test.ts says how the engine files are run).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as assert from 'uvu/assert';
import { CACHE_PREFIX } from '../../src/contract/app-name';
import { auditVersionsByCache, cachedPaths, cachedSri, ourCacheNames } from './lib/caches';
import { Documents } from './lib/documents';
import { EngineSuite, engineUnderTest } from './lib/engine-suite';
import { BIG_APP_PACE, buildBigApp, MEDIA_FILES, STALLED_FILE, stallOnce } from './lib/big-app';
import { buildV3 } from './lib/third-version';
import { holdFile, requestsSince, startHost } from './lib/hosts';
import { OTHER_SITE, OTHER_SITE_HEADING, withOtherSite } from './lib/other-site';
import { registrationOf, type RegistrationSeen } from './lib/registration';
import { FIELD_SCREEN, heading, statusRow, variant } from './lib/screens';
import { audit, copySite, readPrecache, site } from './lib/site';
import { sharedBuild } from './lib/shared-build';
import { until } from './lib/wait';
import { appStorage, assertStorageKept, fieldText } from './lib/field';

const { engine: ENGINE, builds: BUILDS } = engineUnderTest();

for (const [index, build] of BUILDS.entries()) {
  const s = new EngineSuite(ENGINE, build, { last: index === BUILDS.length - 1 });
  const { scenario, url, openInstalled, typeIntoField, goOffline, checkForUpdate, assertNoProblems } = s;
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
        // v1's install fails on another version's audit.json. The page would try again in 10 s (its
        // retry: sw-faults.test.ts); a reload registers again at once and installs v2.
        await until("v1's install to fail", async () => (await tab.text()).includes('saving the app failed'));
        await tab.reload();
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
        // Built once for the run's engines (lib/shared-build.ts).
        const dist = await sharedBuild('big-app', buildBigApp);
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

  s.test.run();
}
