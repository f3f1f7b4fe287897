// The migrations from this template's earlier releases (src/migrations/): what they stored under
// `<name>:<what>`, shared by every base of the name, moves to this app's keys (never doubled, and
// on a full device whole), a device document takes in its old key whenever a tab still on an
// earlier release writes it, and the worker deletes the offline copy an earlier release left for
// this base. A builder who never shipped an earlier release deletes this folder with src/migrations/.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { APP_ID, APP_NAME, appId, storageKey } from '../../../src/contract/app-name';
import { adoptEarlierReleases, LEGACY_KEY_PREFIX, moveLegacyKeys, TAKEN_BY_KEY, takesLegacyKeys } from '../../../src/migrations/page';
import { createDeviceDocument } from '../../../src/stored-data/device-document';
import { takeFormerKeys } from '../../../src/stored-data/document-host';
import { domPerTest, tinyStorage } from '../dom';
import { buildWorker, smallSite, World, WorkerUnderTest } from '../lib/worker-under-test';

const keys = suite('earlier releases: stored keys moved, never doubled');
const env = domPerTest(keys);
// adoptEarlierReleases() lets every device document take in its old key from then on: not beyond this suite.
keys.after.each(() => takeFormerKeys(() => []));
const OLD_ITEMS = `${LEGACY_KEY_PREFIX}items`;

keys("every old key moves to this app's key: written, read back, the old key removed; the app records that it took them", () => {
  localStorage.setItem(OLD_ITEMS, '{"v":1,"items":[]}');
  localStorage.setItem(`${LEGACY_KEY_PREFIX}items:backup`, 'unreadable');
  localStorage.setItem('another-app:items', 'theirs');
  adoptEarlierReleases();
  assert.is(localStorage.getItem(storageKey('items')), '{"v":1,"items":[]}');
  assert.is(localStorage.getItem(storageKey('items:backup')), 'unreadable');
  assert.is(localStorage.getItem(OLD_ITEMS), null, 'the old key is gone');
  assert.is(localStorage.getItem(`${LEGACY_KEY_PREFIX}items:backup`), null);
  assert.is(localStorage.getItem(TAKEN_BY_KEY), APP_ID);
  assert.is(localStorage.getItem('another-app:items'), 'theirs', "another app's keys are left alone");
  assert.is(localStorage.getItem(storageKey('another-app:items')), null);
});

keys('the first app of the name to start takes the old keys; an app at another base never reads them', () => {
  localStorage.setItem(TAKEN_BY_KEY, appId(APP_NAME, '/other-base/'));
  localStorage.setItem(OLD_ITEMS, 'written again by a tab still on the old version');
  sessionStorage.setItem(`${LEGACY_KEY_PREFIX}resume`, "this tab's own");
  adoptEarlierReleases();
  assert.not.ok(takesLegacyKeys(localStorage));
  assert.is(localStorage.getItem(storageKey('items')), null);
  assert.is(localStorage.getItem(OLD_ITEMS), 'written again by a tab still on the old version');
  assert.is(sessionStorage.getItem(storageKey('resume')), "this tab's own", "sessionStorage is the tab's: the app starting in it takes it");
  assert.is(sessionStorage.getItem(`${LEGACY_KEY_PREFIX}resume`), null);
});

keys('a key this version already wrote is never replaced by an old one', () => {
  localStorage.setItem(OLD_ITEMS, 'old');
  localStorage.setItem(storageKey('items'), 'new');
  moveLegacyKeys(localStorage);
  assert.is(localStorage.getItem(storageKey('items')), 'new');
});

keys('a heavy user: when the copy cannot fit beside the original, the old key goes first and the value moves whole', () => {
  const old = 'x'.repeat(300);
  localStorage.setItem(OLD_ITEMS, old);
  // Room for the value once, not twice.
  moveLegacyKeys(tinyStorage(100));
  assert.is(localStorage.getItem(storageKey('items')), old);
  assert.is(localStorage.getItem(OLD_ITEMS), null);
});

/** A device document of this app: a colour theme, the later choice winning. */
interface Theme {
  theme: string;
  at: number;
}
const theme = createDeviceDocument<Theme>({
  key: storageKey('theme'),
  empty: { theme: 'system', at: 0 },
  recover: (data) => {
    const stored = data as Partial<Theme> | undefined;
    return { doc: { theme: String(stored?.theme ?? 'system'), at: Number(stored?.at) || 0 }, lost: false };
  },
  merge: (mine, theirs) => (theirs.at > mine.at ? theirs : mine),
  version: 2,
});
const OLD_THEME = `${LEGACY_KEY_PREFIX}theme`;
const storedTheme = () => JSON.parse(localStorage.getItem(storageKey('theme')) ?? 'null');

keys(
  'a document merges its old key in at start, saves it under its own and removes it; again when a tab on an earlier release writes it',
  async () => {
    adoptEarlierReleases();
    // Written after the move, by a tab still on an earlier release.
    localStorage.setItem(OLD_THEME, JSON.stringify({ v: 1, theme: 'dark', at: 5 }));
    env.stop = theme.start();
    assert.is(theme.getSnapshot().doc.theme, 'dark', "the earlier release's choice is shown");
    assert.equal(storedTheme(), { v: 2, theme: 'dark', at: 5 }, 'and saved under its own key at once');
    assert.is(localStorage.getItem(OLD_THEME), null, 'the old key is removed: nothing kept twice');
    const later = JSON.stringify({ v: 1, theme: 'light', at: 9 });
    localStorage.setItem(OLD_THEME, later);
    env.dom.win.dispatchEvent(new env.dom.win.StorageEvent('storage', { key: OLD_THEME, newValue: later }));
    assert.is(theme.getSnapshot().doc.theme, 'light');
    await env.dom.tick(1000);
    assert.equal(storedTheme(), { v: 2, theme: 'light', at: 9 }, 'saved under its own key after the usual save delay');
    assert.is(localStorage.getItem(OLD_THEME), null);
  },
);

keys('an app at another base than the one that took the old keys never reads them, at start or when a tab writes them', () => {
  localStorage.setItem(TAKEN_BY_KEY, appId(APP_NAME, '/elsewhere/'));
  const theirs = JSON.stringify({ v: 1, theme: 'dark', at: 5 });
  localStorage.setItem(OLD_THEME, theirs);
  adoptEarlierReleases();
  env.stop = theme.start();
  assert.is(theme.getSnapshot().doc.theme, 'system');
  env.dom.win.dispatchEvent(new env.dom.win.StorageEvent('storage', { key: OLD_THEME, newValue: theirs }));
  assert.is(theme.getSnapshot().doc.theme, 'system');
  assert.is(localStorage.getItem(OLD_THEME), theirs);
});
keys.run();

const caches = suite('earlier releases: their offline copy');

caches(
  "activation and the kill switch delete this base's copy of an earlier release (`<name>-<12 hex digits>`), and no other cache",
  async () => {
    for (const killSwitch of [false, true]) {
      const world = new World();
      // The worker under test is the app `app-under-test` at `/` (test/unit/lib/worker-under-test.ts).
      const ours = 'app-under-test-0123456789ab';
      const others = {
        'app-under-test-ba9876543210': '/other-base/precache.json',
        'app-under-test-pro-0123456789ab': '/precache.json',
        'app-under-test-0123456789': '/precache.json',
        'another-app-0123456789ab': '/precache.json',
      };
      for (const [name, url] of Object.entries({ [ours]: '/precache.json', ...others })) {
        await (await world.storage.open(name)).put(url, new Response('{}'));
      }
      const build = await buildWorker(smallSite(), { killSwitch });
      world.host(build);
      const worker = WorkerUnderTest.start(world, build);
      await worker.install();
      await worker.activate();
      const left = await world.storage.keys();
      assert.not.ok(left.includes(ours), `${killSwitch ? 'the kill switch' : 'activation'} deletes this base's earlier copy`);
      for (const name of Object.keys(others)) assert.ok(left.includes(name), `${name} stays: another base's, another app's, no version's`);
    }
  },
);
caches.run();
