// One app is its name and its base: every cache, key, channel and lock carries both, so two apps
// on one origin never read or delete each other's (what earlier releases stored under the name
// alone: test/unit/migrations/).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { APP_NAME, appId, CACHE_PREFIX, cachePrefixOf, storageKey } from '../../src/contract/app-name';

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
  // Earlier releases deleted every cache starting with `<name>-`: a neighbour still on one of them
  // never matches ours.
  for (const prefix of Object.values(caches)) assert.not.ok(prefix.startsWith('notes-'));
  assert.ok(CACHE_PREFIX.startsWith(`[${APP_NAME}@/] `));
});

identity.run();
