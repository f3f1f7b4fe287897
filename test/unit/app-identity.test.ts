// One app is its name and its base: every cache, key, channel and lock carries both, so two apps
// on one origin never read or delete each other's, and what the versions before stored under the
// name alone is carried over once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { APP_NAME, appId, CACHE_PREFIX, cachePrefixOf, isLegacyCacheName, LEGACY_KEY_PREFIX, storageKey } from '../../src/app-name';
import { adoptLegacyKeys } from '../../src/offline/legacy-storage';
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

const legacy = suite('legacy storage: carried over once');
domPerTest(legacy);

legacy("every old key is copied to this app's key; the old keys stay for the other bases", () => {
  localStorage.setItem(`${LEGACY_KEY_PREFIX}notes`, '{"v":1,"notes":[]}');
  localStorage.setItem(`${LEGACY_KEY_PREFIX}notes:backup`, 'unreadable');
  localStorage.setItem('another-app:notes', 'theirs');
  adoptLegacyKeys(localStorage);
  assert.is(localStorage.getItem(storageKey('notes')), '{"v":1,"notes":[]}');
  assert.is(localStorage.getItem(storageKey('notes:backup')), 'unreadable');
  assert.is(localStorage.getItem(`${LEGACY_KEY_PREFIX}notes`), '{"v":1,"notes":[]}', 'the old key stays');
  assert.is(localStorage.getItem(storageKey('another-app:notes')), null, "another app's keys are not ours");
});

legacy('a key this version already wrote is never replaced, and a key cleared later does not come back', () => {
  localStorage.setItem(`${LEGACY_KEY_PREFIX}notes`, 'old');
  localStorage.setItem(storageKey('notes'), 'new');
  adoptLegacyKeys(localStorage);
  assert.is(localStorage.getItem(storageKey('notes')), 'new');
  localStorage.removeItem(storageKey('notes'));
  adoptLegacyKeys(localStorage);
  assert.is(localStorage.getItem(storageKey('notes')), null, 'carried over once only');
});

legacy('a copy that does not fit is tried again at the next start, and nothing is lost meanwhile', () => {
  const old = 'x'.repeat(200);
  localStorage.setItem(`${LEGACY_KEY_PREFIX}notes`, old);
  adoptLegacyKeys(tinyStorage(50));
  assert.is(localStorage.getItem(storageKey('notes')), null);
  assert.is(localStorage.getItem(`${LEGACY_KEY_PREFIX}notes`), old);
  adoptLegacyKeys(localStorage);
  assert.is(localStorage.getItem(storageKey('notes')), old);
});
legacy.run();
