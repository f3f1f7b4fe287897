// One app is its name and its base: every cache, key, channel and lock carries both, so two apps
// on one origin never read or delete each other's, and what the versions before stored under the
// name alone moves to the new keys.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  APP_ID,
  APP_NAME,
  appId,
  CACHE_PREFIX,
  cachePrefixOf,
  isLegacyCacheName,
  LEGACY_KEY_PREFIX,
  storageKey,
} from '../../src/contract/app-name';
import { adoptLegacyStorage, moveLegacyKeys, TAKEN_BY_KEY, takesLegacyKeys, writeReplacing } from '../../src/stored-data/legacy-storage';
import { domPerTest, tinyStorage } from './dom';

const identity = suite('app identity: name and base');

identity('the id joins name and base with a character neither can hold', () => {
  assert.is(appId('offline-shell', '/'), 'offline-shell@/');
  assert.is(appId('notes', '/my-app/'), 'notes@/my-app/');
  assert.is(storageKey('notes'), `${APP_NAME}@/:notes`);
  assert.is(storageKey('notes', appId('notes', '/a/')), 'notes@/a/:notes');
});

identity('no app\'s cache names start with another\'s: other bases, longer names, and the old "<name>-" rule', () => {
  const caches = {
    a: cachePrefixOf(appId('notes', '/a/')),
    nested: cachePrefixOf(appId('notes', '/a/b/')),
    pro: cachePrefixOf(appId('notes-pro', '/a/')),
    root: cachePrefixOf(appId('notes', '/')),
  };
  for (const [mine, prefix] of Object.entries(caches)) {
    for (const [theirs, other] of Object.entries(caches)) {
      if (mine !== theirs) assert.not.ok((other + 'v1').startsWith(prefix), `${theirs}'s caches are not ${mine}'s`);
    }
  }
  // The versions before deleted every cache starting with `<name>-`: a neighbour still on one
  // of them never matches ours.
  for (const prefix of Object.values(caches)) assert.not.ok(prefix.startsWith('notes-'));
  assert.ok(CACHE_PREFIX.startsWith(`[${APP_NAME}@/] `));
});

identity('the caches the versions before named are told by their form: the name, a dash, 12 hex digits', () => {
  assert.ok(isLegacyCacheName(`${APP_NAME}-0123456789ab`));
  assert.not.ok(isLegacyCacheName(`${APP_NAME}-pro-0123456789ab`), 'another app whose name starts with ours');
  assert.not.ok(isLegacyCacheName(`${APP_NAME}-0123456789`), 'not a version id');
  assert.not.ok(isLegacyCacheName(`${CACHE_PREFIX}0123456789ab`), "this version's own");
});
identity.run();

const legacy = suite('legacy storage: moved, never doubled');
domPerTest(legacy);
const OLD_NOTES = `${LEGACY_KEY_PREFIX}notes`;

legacy("every old key moves to this app's key: written, read back, the old key removed; the app records that it took them", () => {
  localStorage.setItem(OLD_NOTES, '{"v":1,"notes":[]}');
  localStorage.setItem(`${LEGACY_KEY_PREFIX}notes:backup`, 'unreadable');
  localStorage.setItem('another-app:notes', 'theirs');
  adoptLegacyStorage();
  assert.is(localStorage.getItem(storageKey('notes')), '{"v":1,"notes":[]}');
  assert.is(localStorage.getItem(storageKey('notes:backup')), 'unreadable');
  assert.is(localStorage.getItem(OLD_NOTES), null, 'the old key is gone');
  assert.is(localStorage.getItem(`${LEGACY_KEY_PREFIX}notes:backup`), null);
  assert.is(localStorage.getItem(TAKEN_BY_KEY), APP_ID);
  assert.is(localStorage.getItem('another-app:notes'), 'theirs', "another app's keys are left alone");
  assert.is(localStorage.getItem(storageKey('another-app:notes')), null);
});

legacy('the first app of the name to start takes the old keys; an app at another base never reads them', () => {
  localStorage.setItem(TAKEN_BY_KEY, appId(APP_NAME, '/other-base/'));
  localStorage.setItem(OLD_NOTES, 'written again by a tab still on the old version');
  sessionStorage.setItem(`${LEGACY_KEY_PREFIX}resume`, "this tab's own");
  adoptLegacyStorage();
  assert.not.ok(takesLegacyKeys(localStorage));
  assert.is(localStorage.getItem(storageKey('notes')), null);
  assert.is(localStorage.getItem(OLD_NOTES), 'written again by a tab still on the old version');
  assert.is(sessionStorage.getItem(storageKey('resume')), "this tab's own", "sessionStorage is the tab's: the app starting in it takes it");
  assert.is(sessionStorage.getItem(`${LEGACY_KEY_PREFIX}resume`), null);
});

legacy('a key this version already wrote is never replaced by an old one', () => {
  localStorage.setItem(OLD_NOTES, 'old');
  localStorage.setItem(storageKey('notes'), 'new');
  moveLegacyKeys(localStorage);
  assert.is(localStorage.getItem(storageKey('notes')), 'new');
});

legacy('a heavy user: when the copy cannot fit beside the original, the old key goes first and the value moves whole', () => {
  const old = 'x'.repeat(300);
  localStorage.setItem(OLD_NOTES, old);
  // Room for the value once, not twice.
  moveLegacyKeys(tinyStorage(100));
  assert.is(localStorage.getItem(storageKey('notes')), old);
  assert.is(localStorage.getItem(OLD_NOTES), null);
});

legacy('a value that fits nowhere, even with the old key gone: the old key is written back, whole', () => {
  const old = 'x'.repeat(300);
  localStorage.setItem(OLD_NOTES, old);
  assert.is(writeReplacing(tinyStorage(50), storageKey('notes'), 'y'.repeat(400), [OLD_NOTES]), 'full');
  assert.is(localStorage.getItem(storageKey('notes')), null);
  assert.is(localStorage.getItem(OLD_NOTES), old);
});
legacy.run();
