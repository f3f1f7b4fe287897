// The device document on its own (src/stored-data/device-document.ts), with a tiny kind of data that
// is not notes: a preference that the later choice wins. Throttled saves, flushes, bad storage,
// two tabs, restore, and a second document beside it, on happy-dom with a fake clock: the page's
// own host (its events, storage and history). The plan's cases (backup copies, a full device
// carried through reloads) run in-process: device-document-plan.test.ts; stored format versions:
// device-document-versions.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDeviceDocument, nextTime } from '../../src/stored-data/device-document';
import { flushAll } from '../../src/stored-data/flush';
import { domPerTest, tinyStorage } from './dom';
import { present } from '../present';

/** The second kind of stored data: a colour theme, and when it was chosen. */
interface Theme {
  theme: string;
  at: number;
}

const THEME_KEY = 'test-app:theme';
const EMPTY: Theme = { theme: 'system', at: 0 };

/** A stored theme, or the empty one; `lost` when something was stored but not a theme. */
function recoverTheme(data: unknown): { doc: Theme; lost: boolean } {
  const stored = (data ?? {}) as Partial<Theme>;
  if (typeof stored.theme !== 'string') return { doc: EMPTY, lost: data !== undefined };
  return { doc: { theme: stored.theme, at: Number(stored.at) || 0 }, lost: false };
}

/** The later choice wins; at equal times the greater name, so both tabs agree. */
const mergeTheme = (mine: Theme, theirs: Theme): Theme =>
  theirs.at > mine.at || (theirs.at === mine.at && theirs.theme > mine.theme) ? theirs : mine;

const theme = createDeviceDocument<Theme>({ key: THEME_KEY, empty: EMPTY, recover: recoverTheme, merge: mergeTheme, version: 2 });

const test = suite('device document');
const env = domPerTest(test);
const stored = () => JSON.parse(localStorage.getItem(THEME_KEY) ?? 'null');
/** A choice made now, stamped after the one it replaces (the device document's clock). */
const choose = (name: string) => theme.change({ theme: name, at: nextTime(theme.getSnapshot().doc.at) });
const shown = () => theme.getSnapshot().doc.theme;

test('before start it holds the empty document, not loaded (the prerendered state); start reads the device', () => {
  assert.equal(theme.getServerSnapshot(), { doc: EMPTY, outdated: false, loaded: false });
  localStorage.setItem(THEME_KEY, JSON.stringify({ v: 2, theme: 'dark', at: 5 }));
  env.stop = theme.start();
  assert.equal(theme.getSnapshot(), { doc: { theme: 'dark', at: 5 }, outdated: false, loaded: true, problem: undefined });
  assert.equal(theme.getServerSnapshot(), { doc: EMPTY, outdated: false, loaded: false }, 'the server snapshot never changes');
});

test('a change is saved once `saveWithinMs` has passed since the first unsaved change, with the format version as `v`', async () => {
  env.stop = theme.start({ saveWithinMs: 300 });
  let notified = 0;
  const unsubscribe = theme.subscribe(() => notified++);
  choose('dark');
  await env.dom.tick(200);
  choose('light');
  assert.is(stored(), null);
  assert.is(shown(), 'light', 'shown at once');
  await env.dom.tick(100);
  assert.equal(stored(), { v: 2, theme: 'light', at: Date.now() - 100 });
  assert.ok(notified >= 2);
  unsubscribe();
});

test('pending changes are saved at once on pagehide, on hiding the tab and on flushAll; after stop, none of them saves', () => {
  env.stop = theme.start();
  choose('one');
  env.dom.pagehide();
  assert.is(stored().theme, 'one');
  choose('two');
  env.dom.setHidden(true);
  assert.is(stored().theme, 'two');
  choose('three');
  flushAll();
  assert.is(stored().theme, 'three');
  env.stop();
  env.stop = undefined;
  choose('four');
  env.dom.pagehide();
  flushAll();
  assert.is(stored().theme, 'three');
});

test('unreadable stored text is copied to the backup key, reported, and the recovered document saved', () => {
  localStorage.setItem(THEME_KEY, '{"v":2,"theme":"da');
  env.stop = theme.start();
  assert.is(theme.backupKey, `${THEME_KEY}:backup`);
  assert.is(localStorage.getItem(theme.backupKey), '{"v":2,"theme":"da');
  assert.ok(theme.getSnapshot().corrupt);
  assert.equal(stored(), { v: 2, ...EMPTY });
});

test('stored data that recover() could not keep whole is also copied aside and reported', () => {
  const raw = JSON.stringify({ v: 2, colour: 'dark' });
  localStorage.setItem(THEME_KEY, raw);
  env.stop = theme.start();
  assert.ok(theme.getSnapshot().corrupt);
  assert.is(localStorage.getItem(theme.backupKey), raw);
});

test('site data blocked (no localStorage, no sessionStorage): carried in the history entry, which a reload keeps; flushAll says when even that fails', () => {
  env.stop = theme.start();
  choose('dark');
  assert.ok(flushAll());
  assert.equal(Object.keys(sessionStorage), [], 'nothing carried while saves succeed');
  env.stop();
  env.stop = theme.start({ storage: null, session: null });
  assert.ok(flushAll(), 'nothing pending: kept');
  choose('light');
  assert.ok(flushAll(), 'carried in history.state');
  // The reload: history.state stays with the entry.
  env.stop();
  env.stop = theme.start({ storage: null, session: null });
  assert.is(shown(), 'light', 'back after the reload');
  // Where replaceState refuses too (Safari and Firefox limit how often it is called), nothing carries it: the reload must wait.
  const replaceState = history.replaceState;
  history.replaceState = () => {
    throw new DOMException('Attempt to use history.replaceState() more than 100 times per 10 seconds', 'SecurityError');
  };
  try {
    choose('sepia');
    assert.not.ok(flushAll(), 'the text can be neither saved nor carried');
  } finally {
    history.replaceState = replaceState;
  }
});

test('no storage at all: reported once started, and changes still work for the session', async () => {
  env.stop = theme.start({ storage: null });
  assert.is(theme.getSnapshot().problem, 'unavailable');
  choose('dark');
  await env.dom.tick(2000);
  assert.is(shown(), 'dark');
  assert.is(theme.getSnapshot().problem, 'unavailable');
});

test("another tab's save is merged in; ours is stored back only when theirs lacks something of ours", async () => {
  env.stop = theme.start();
  const other = (value: Theme) => {
    const text = JSON.stringify({ v: 2, ...value });
    localStorage.setItem(THEME_KEY, text); // what the other tab wrote
    env.dom.win.dispatchEvent(new env.dom.win.StorageEvent('storage', { key: THEME_KEY, newValue: text }));
  };
  other({ theme: 'dark', at: Date.now() + 10 });
  assert.is(shown(), 'dark', 'their newer choice shows here');
  await env.dom.tick(1000);
  assert.equal(stored(), { v: 2, theme: 'dark', at: Date.now() - 990 }, 'nothing stored back: theirs was the merge');
  choose('light');
  other({ theme: 'sepia', at: 1 });
  assert.is(shown(), 'light', 'their older choice does not overwrite ours');
  await env.dom.tick(1000);
  assert.is(stored().theme, 'light', 'the merge is stored for the other tab');
});

test('storage events for other keys, removals (no new value) and unreadable values change nothing', () => {
  env.stop = theme.start();
  choose('mine');
  for (const init of [
    { key: 'something-else', newValue: JSON.stringify({ theme: 'theirs', at: Date.now() + 1 }) },
    { key: THEME_KEY },
    { key: THEME_KEY, newValue: '{"theme":' },
  ]) {
    env.dom.win.dispatchEvent(new env.dom.win.StorageEvent('storage', init));
  }
  assert.is(shown(), 'mine');
});

test('restore writes the whole document at once; storage full refuses it and changes nothing, not even on screen', () => {
  env.stop = theme.start({ storage: tinyStorage(60) });
  choose('typed, pending');
  assert.is(theme.restore({ theme: 'restored', at: 9 }), undefined);
  assert.equal(stored(), { v: 2, theme: 'restored', at: 9 });
  assert.is(shown(), 'restored');
  flushAll();
  assert.equal(stored(), { v: 2, theme: 'restored', at: 9 }, 'the pending change was replaced, not saved after it');
  assert.is(theme.restore({ theme: 'y'.repeat(100), at: 10 }), 'full');
  assert.is(shown(), 'restored');
  assert.is(stored().theme, 'restored');
});

test('without storage a restore changes the document for the session', () => {
  env.stop = theme.start({ storage: null });
  assert.is(theme.restore({ theme: 'restored', at: 9 }), undefined);
  assert.is(shown(), 'restored');
  assert.is(theme.getSnapshot().problem, 'unavailable');
});

test('two kinds of stored data side by side: each its own key, saves and events', async () => {
  const counter = createDeviceDocument<{ count: number }>({
    key: 'test-app:counter',
    empty: { count: 0 },
    recover: (data) => ({ doc: { count: Number((data as { count?: unknown } | undefined)?.count) || 0 }, lost: false }),
    merge: (mine, theirs) => (theirs.count > mine.count ? theirs : mine),
    initial: (found) => (found.count ? found : { count: 1 }),
  });
  env.stop = theme.start();
  const stopCounter = counter.start();
  assert.is(counter.getSnapshot().doc.count, 1, 'initial() gives a new user their starting document');
  counter.change({ count: 2 });
  choose('dark');
  flushAll();
  assert.equal(JSON.parse(present(localStorage.getItem('test-app:counter'), 'the document in localStorage')), { v: 1, count: 2 });
  assert.is(stored().theme, 'dark');
  const text = JSON.stringify({ v: 1, count: 7 });
  env.dom.win.dispatchEvent(new env.dom.win.StorageEvent('storage', { key: 'test-app:counter', newValue: text }));
  assert.is(counter.getSnapshot().doc.count, 7);
  assert.is(shown(), 'dark');
  stopCounter();
});

test.run();

const unreadable = suite('device document: unreadable data and a full storage');
const fullEnv = domPerTest(unreadable);

/** localStorage with room for `room` more characters, and a way to make more room (as deleting other data does). */
function storageWithRoom(room: number): { storage: Storage; makeRoom(characters: number): void } {
  const storage = new Proxy(localStorage, {
    get(target, name) {
      if (name === 'setItem')
        return (key: string, value: string) => {
          const grows = value.length - (target.getItem(key) ?? '').length;
          if (grows > room) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          room -= grows;
          target.setItem(key, value);
        };
      const value = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { storage, makeRoom: (characters) => (room += characters) };
}

const UNREADABLE = `{"v":2,"theme":"a long theme name whose end was lost${' …'.repeat(40)}`;

unreadable(
  'no room for the copy: "not-copied", and the unreadable text is not replaced by saves, flushes or restores; once there is room, the copy comes first',
  async () => {
    localStorage.setItem(THEME_KEY, UNREADABLE);
    const { storage, makeRoom } = storageWithRoom(0);
    fullEnv.stop = theme.start({ storage });
    assert.is(theme.getSnapshot().corrupt, 'not-copied');
    assert.is(theme.getSnapshot().problem, 'full');
    choose('dark');
    await fullEnv.dom.tick(1000);
    fullEnv.dom.pagehide();
    flushAll();
    assert.is(theme.restore({ theme: 'restored', at: 9 }), 'full');
    assert.is(localStorage.getItem(THEME_KEY), UNREADABLE, 'the original is still there');
    assert.is(localStorage.getItem(theme.backupKey), null);
    assert.is(shown(), 'dark', 'the change stays on screen, pending');
    makeRoom(UNREADABLE.length);
    choose('light');
    fullEnv.dom.pagehide();
    assert.is(localStorage.getItem(theme.backupKey), UNREADABLE, 'copied first');
    assert.is(stored().theme, 'light', 'then saved');
    assert.is(theme.getSnapshot().corrupt, 'copied');
    assert.is(theme.getSnapshot().problem, undefined);
  },
);

unreadable('"start over": the person discards the unreadable text that could not be copied, and what is on screen is saved over it', () => {
  localStorage.setItem(THEME_KEY, UNREADABLE);
  fullEnv.stop = theme.start({ storage: storageWithRoom(0).storage });
  choose('dark');
  theme.discardUnreadable();
  assert.is(stored().theme, 'dark');
  assert.is(localStorage.getItem(theme.backupKey), null);
  assert.is(theme.getSnapshot().corrupt, undefined);
  assert.is(theme.getSnapshot().problem, undefined);
});
unreadable.run();
