// The device document on its own (src/offline/device-document.ts), with a tiny kind of data that
// is not notes: a preference that the later choice wins. Throttled saves, flushes, bad storage,
// two tabs, restore, and a second document beside it, on happy-dom with a fake clock.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDeviceDocument, nextTime } from '../../src/offline/device-document';
import { flushAll } from '../../src/offline/flush';
import { EMPTY_DOC, recover, withEdit, withNewNote, type Doc, type Note } from '../../src/notes/model';
import { NOTES_DOCUMENT, NOTES_KEY } from '../../src/notes/store';
import { installDom, tinyStorage, type FakeDom } from './offline-dom';
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
let dom: FakeDom;
let stop: (() => void) | undefined;
const stored = () => JSON.parse(localStorage.getItem(THEME_KEY) ?? 'null');
/** A choice made now, stamped after the one it replaces (the device document's clock). */
const choose = (name: string) => theme.change({ theme: name, at: nextTime(theme.getSnapshot().doc.at) });
const shown = () => theme.getSnapshot().doc.theme;

test.before.each(() => {
  dom = installDom();
});
test.after.each(() => {
  stop?.();
  stop = undefined;
  dom.uninstall();
});

test('before start it holds the empty document, not loaded (the prerendered state); start reads the device', () => {
  assert.equal(theme.getServerSnapshot(), { doc: EMPTY, outdated: false, loaded: false });
  localStorage.setItem(THEME_KEY, JSON.stringify({ v: 2, theme: 'dark', at: 5 }));
  stop = theme.start();
  assert.equal(theme.getSnapshot(), { doc: { theme: 'dark', at: 5 }, outdated: false, loaded: true, problem: undefined });
  assert.equal(theme.getServerSnapshot(), { doc: EMPTY, outdated: false, loaded: false }, 'the server snapshot never changes');
});

test('a change is saved once `saveWithinMs` has passed since the first unsaved change, with the format version as `v`', async () => {
  stop = theme.start({ saveWithinMs: 300 });
  let notified = 0;
  const unsubscribe = theme.subscribe(() => notified++);
  choose('dark');
  await dom.tick(200);
  choose('light');
  assert.is(stored(), null);
  assert.is(shown(), 'light', 'shown at once');
  await dom.tick(100);
  assert.equal(stored(), { v: 2, theme: 'light', at: Date.now() - 100 });
  assert.ok(notified >= 2);
  unsubscribe();
});

test('pending changes are saved at once on pagehide, on hiding the tab and on flushAll; after stop, none of them saves', () => {
  stop = theme.start();
  choose('one');
  dom.pagehide();
  assert.is(stored().theme, 'one');
  choose('two');
  dom.setHidden(true);
  assert.is(stored().theme, 'two');
  choose('three');
  flushAll();
  assert.is(stored().theme, 'three');
  stop();
  stop = undefined;
  choose('four');
  dom.pagehide();
  flushAll();
  assert.is(stored().theme, 'three');
});

test('unreadable stored text is copied to the backup key, reported, and the recovered document saved', () => {
  localStorage.setItem(THEME_KEY, '{"v":2,"theme":"da');
  stop = theme.start();
  assert.is(theme.backupKey, `${THEME_KEY}:backup`);
  assert.is(localStorage.getItem(theme.backupKey), '{"v":2,"theme":"da');
  assert.ok(theme.getSnapshot().corrupt);
  assert.equal(stored(), { v: 2, ...EMPTY });
});

test('stored data that recover() could not keep whole is also copied aside and reported', () => {
  const raw = JSON.stringify({ v: 2, colour: 'dark' });
  localStorage.setItem(THEME_KEY, raw);
  stop = theme.start();
  assert.ok(theme.getSnapshot().corrupt);
  assert.is(localStorage.getItem(theme.backupKey), raw);
});

test('storage full: reported, the change stays shown and pending, the last good save intact; once it fits, the next flush saves it', async () => {
  stop = theme.start({ storage: tinyStorage(60) });
  choose('dark');
  await dom.tick(1000);
  assert.is(stored().theme, 'dark');
  choose('x'.repeat(100));
  await dom.tick(1000);
  assert.is(theme.getSnapshot().problem, 'full');
  assert.is(shown(), 'x'.repeat(100));
  assert.is(stored().theme, 'dark');
  // A shorter choice fits where the long one did not: the next flush saves it.
  choose('light');
  dom.pagehide();
  assert.is(stored().theme, 'light');
  assert.is(theme.getSnapshot().problem, undefined, 'the notice goes away once saved');
});

test('no storage at all: reported once started, and changes still work for the session', async () => {
  stop = theme.start({ storage: null });
  assert.is(theme.getSnapshot().problem, 'unavailable');
  choose('dark');
  await dom.tick(2000);
  assert.is(shown(), 'dark');
  assert.is(theme.getSnapshot().problem, 'unavailable');
});

test("another tab's save is merged in; ours is stored back only when theirs lacks something of ours", async () => {
  stop = theme.start();
  const other = (value: Theme) => {
    const text = JSON.stringify({ v: 2, ...value });
    localStorage.setItem(THEME_KEY, text); // what the other tab wrote
    dom.win.dispatchEvent(new dom.win.StorageEvent('storage', { key: THEME_KEY, newValue: text }));
  };
  other({ theme: 'dark', at: Date.now() + 10 });
  assert.is(shown(), 'dark', 'their newer choice shows here');
  await dom.tick(1000);
  assert.equal(stored(), { v: 2, theme: 'dark', at: Date.now() - 990 }, 'nothing stored back: theirs was the merge');
  choose('light');
  other({ theme: 'sepia', at: 1 });
  assert.is(shown(), 'light', 'their older choice does not overwrite ours');
  await dom.tick(1000);
  assert.is(stored().theme, 'light', 'the merge is stored for the other tab');
});

test('storage events for other keys, removals (no new value) and unreadable values change nothing', () => {
  stop = theme.start();
  choose('mine');
  for (const init of [
    { key: 'something-else', newValue: JSON.stringify({ theme: 'theirs', at: Date.now() + 1 }) },
    { key: THEME_KEY },
    { key: THEME_KEY, newValue: '{"theme":' },
  ]) {
    dom.win.dispatchEvent(new dom.win.StorageEvent('storage', init));
  }
  assert.is(shown(), 'mine');
});

test('restore writes the whole document at once; storage full refuses it and changes nothing, not even on screen', () => {
  stop = theme.start({ storage: tinyStorage(60) });
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
  stop = theme.start({ storage: null });
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
  stop = theme.start();
  const stopCounter = counter.start();
  assert.is(counter.getSnapshot().doc.count, 1, 'initial() gives a new user their starting document');
  counter.change({ count: 2 });
  choose('dark');
  flushAll();
  assert.equal(JSON.parse(present(localStorage.getItem('test-app:counter'), 'the document in localStorage')), { v: 1, count: 2 });
  assert.is(stored().theme, 'dark');
  const text = JSON.stringify({ v: 1, count: 7 });
  dom.win.dispatchEvent(new dom.win.StorageEvent('storage', { key: 'test-app:counter', newValue: text }));
  assert.is(counter.getSnapshot().doc.count, 7);
  assert.is(shown(), 'dark');
  stopCounter();
});

test('what an earlier version kept under a legacy key is merged in at start and saved under ours; the legacy key is never written', async () => {
  const legacy = createDeviceDocument<Theme>({
    key: THEME_KEY,
    legacyKeys: ['test-app-legacy:theme'],
    empty: EMPTY,
    recover: recoverTheme,
    merge: mergeTheme,
    version: 2,
  });
  const legacyText = JSON.stringify({ v: 1, theme: 'dark', at: 5 });
  localStorage.setItem('test-app-legacy:theme', legacyText);
  stop = legacy.start();
  assert.is(legacy.getSnapshot().doc.theme, 'dark', "the earlier version's choice is shown");
  assert.equal(stored(), { v: 2, theme: 'dark', at: 5 }, 'and saved under our key at once');
  // A tab still running the earlier version chooses again: its save reaches this tab.
  const later = JSON.stringify({ v: 1, theme: 'light', at: 9 });
  localStorage.setItem('test-app-legacy:theme', later);
  dom.win.dispatchEvent(new dom.win.StorageEvent('storage', { key: 'test-app-legacy:theme', newValue: later }));
  assert.is(legacy.getSnapshot().doc.theme, 'light');
  await dom.tick(1000);
  assert.equal(stored(), { v: 2, theme: 'light', at: 9 }, 'saved under our key after the usual save delay');
  assert.is(localStorage.getItem('test-app-legacy:theme'), later, 'the legacy key is only read');
});

test.run();

const versions = suite('device document: stored format versions');
let versionDom: FakeDom;
let stopVersioned: (() => void) | undefined;
versions.before.each(() => {
  versionDom = installDom();
});
versions.after.each(() => {
  stopVersioned?.();
  stopVersioned = undefined;
  versionDom.uninstall();
});

/** How the notes would move to a version 2 shape (test only): tombstones stored as a list of { id, at }. */
interface NotesV2 {
  notes: Note[];
  gone: { id: string; at: number }[];
}
let upgrades: number[] = [];
const notesV2 = createDeviceDocument<Doc>({
  ...NOTES_DOCUMENT,
  key: `${NOTES_KEY}-v2-test`,
  version: 2,
  upgrade(data, fromVersion) {
    upgrades.push(fromVersion);
    // Version 1 kept tombstones as { [id]: time }; JSON.parse made each one an own key.
    const v1 = data as { notes?: unknown; gone?: object };
    return { notes: v1.notes, gone: Object.entries(v1.gone ?? {}).map(([id, at]) => ({ id, at })) };
  },
  recover(data) {
    const stored = (data ?? {}) as Partial<NotesV2>;
    const gone = Array.isArray(stored.gone) ? stored.gone : [];
    // The notes' own recover() reads the notes; the tombstones are this version's list.
    const { doc, lost } = recover({ notes: stored.notes ?? [] });
    return {
      doc: { ...doc, gone: new Map(gone.map(({ id, at }) => [id, at])) },
      lost: lost || (data !== undefined && !Array.isArray(stored.notes)),
    };
  },
  toJSON: (doc): NotesV2 => ({
    notes: doc.notes,
    gone: [...doc.gone].map(([id, at]) => ({ id, at })).sort((a, b) => (a.id < b.id ? -1 : 1)),
  }),
});
/** The key of the test-only notes: beside the app's (storageKey()), not it, so nothing else reads it. */
const V2_KEY = `${NOTES_KEY}-v2-test`;
const storedV2 = () => JSON.parse(localStorage.getItem(V2_KEY) ?? 'null');
const v2Texts = () => notesV2.getSnapshot().doc.notes.map((note) => note.text);
/** What another tab of this app stores under `key`, with the `storage` event it sends here. */
function otherTabWrites(key: string, text: string): void {
  localStorage.setItem(key, text);
  versionDom.win.dispatchEvent(new versionDom.win.StorageEvent('storage', { key, newValue: text }));
}

versions('version 1 data is upgraded once: read through upgrade(data, 1), saved as version 2 at load, read as it is after', () => {
  upgrades = [];
  // Written as text: an id `__proto__` stays an own key of the stored object.
  localStorage.setItem(V2_KEY, '{"v":1,"notes":[{"id":"a","text":"kept","at":5}],"gone":{"__proto__":7,"b":9}}');
  stopVersioned = notesV2.start();
  assert.equal(upgrades, [1]);
  assert.equal(v2Texts(), ['kept']);
  assert.equal(storedV2(), {
    v: 2,
    notes: [{ id: 'a', text: 'kept', at: 5 }],
    gone: [
      { id: '__proto__', at: 7 },
      { id: 'b', at: 9 },
    ],
  });
  stopVersioned();
  stopVersioned = notesV2.start();
  assert.equal(upgrades, [1], 'not upgraded again');
  assert.equal([...notesV2.getSnapshot().doc.gone.keys()], ['__proto__', 'b']);
});

versions('a version 1 save from an old tab is upgraded, merged, and stored back as version 2', async () => {
  upgrades = [];
  stopVersioned = notesV2.start();
  otherTabWrites(V2_KEY, JSON.stringify({ v: 1, notes: [{ id: 'x', text: 'from the old tab', at: 3 }], gone: {} }));
  assert.equal(upgrades, [1]);
  assert.equal(v2Texts(), ['', 'from the old tab']);
  await versionDom.tick(1000);
  assert.is(storedV2().v, 2);
  assert.equal(
    storedV2().notes.map((note: Note) => note.text),
    ['', 'from the old tab'],
  );
});

versions(
  'version 3 data is never touched: the tab is outdated, shows nothing of it, and no change, flush, pagehide, restore or event writes',
  async () => {
    upgrades = [];
    const newer = JSON.stringify({ v: 3, notes: { a: 'a shape this code does not know' } });
    localStorage.setItem(V2_KEY, newer);
    stopVersioned = notesV2.start();
    assert.equal(notesV2.getSnapshot(), { doc: EMPTY_DOC, outdated: true, loaded: true, problem: undefined });
    notesV2.change(withNewNote(EMPTY_DOC, 'typed', 1));
    assert.equal(v2Texts(), [], 'an outdated tab takes no change');
    assert.is(notesV2.restore(withNewNote(EMPTY_DOC, 'restored', 1)), 'outdated');
    versionDom.win.dispatchEvent(
      new versionDom.win.StorageEvent('storage', { key: V2_KEY, newValue: JSON.stringify({ v: 1, notes: [], gone: {} }) }),
    );
    flushAll();
    versionDom.pagehide();
    versionDom.setHidden(true);
    notesV2.discardUnreadable();
    await versionDom.tick(2000);
    assert.is(localStorage.getItem(V2_KEY), newer);
    assert.is(localStorage.getItem(notesV2.backupKey), null, 'not copied aside either: it is not unreadable, only newer');
    assert.equal(upgrades, []);
    assert.ok(notesV2.getSnapshot().outdated);
  },
);

versions(
  'a newer format saved by another tab mid-session: the tab turns outdated, keeps showing its notes, and its pending edit is not written',
  async () => {
    stopVersioned = notesV2.start();
    notesV2.change(withEdit(notesV2.getSnapshot().doc, '0', 'typed, not saved yet', Date.now()));
    const newer = JSON.stringify({ v: 3, everything: 'else' });
    otherTabWrites(V2_KEY, newer);
    assert.ok(notesV2.getSnapshot().outdated);
    assert.equal(v2Texts(), ['typed, not saved yet'], 'still shown, to copy by hand');
    await versionDom.tick(2000);
    versionDom.pagehide();
    flushAll();
    assert.is(localStorage.getItem(V2_KEY), newer);
  },
);

versions("a newer format stored before its event arrives: the tab's next save reads it first and writes nothing", async () => {
  stopVersioned = notesV2.start();
  notesV2.change(withEdit(notesV2.getSnapshot().doc, '0', 'typed', Date.now()));
  const newer = JSON.stringify({ v: 3 });
  localStorage.setItem(V2_KEY, newer); // the other tab's event is still on its way
  await versionDom.tick(1000);
  assert.is(localStorage.getItem(V2_KEY), newer);
  assert.ok(notesV2.getSnapshot().outdated);
});

versions('data saved without `v` is read as version 1; an upgrade that throws counts as unreadable data, copied aside', () => {
  upgrades = [];
  localStorage.setItem(V2_KEY, JSON.stringify({ notes: [{ id: 'a', text: 'old', at: 1 }], gone: {} }));
  stopVersioned = notesV2.start();
  assert.equal(upgrades, [1]);
  assert.equal(v2Texts(), ['old']);
  stopVersioned();
  const failing = createDeviceDocument<Doc>({
    ...NOTES_DOCUMENT,
    key: V2_KEY,
    version: 2,
    upgrade() {
      throw new Error('cannot upgrade');
    },
  });
  const raw = JSON.stringify({ v: 1, notes: [{ id: 'a', text: 'old', at: 1 }], gone: {} });
  localStorage.setItem(V2_KEY, raw);
  stopVersioned = failing.start();
  assert.is(failing.getSnapshot().corrupt, 'copied');
  assert.is(localStorage.getItem(failing.backupKey), raw);
});
versions.run();

const unreadable = suite('device document: unreadable data and a full storage');
let fullDom: FakeDom;
let stopFull: (() => void) | undefined;
unreadable.before.each(() => {
  fullDom = installDom();
});
unreadable.after.each(() => {
  stopFull?.();
  stopFull = undefined;
  fullDom.uninstall();
});

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
    stopFull = theme.start({ storage });
    assert.is(theme.getSnapshot().corrupt, 'not-copied');
    assert.is(theme.getSnapshot().problem, 'full');
    choose('dark');
    await fullDom.tick(1000);
    fullDom.pagehide();
    flushAll();
    assert.is(theme.restore({ theme: 'restored', at: 9 }), 'full');
    assert.is(localStorage.getItem(THEME_KEY), UNREADABLE, 'the original is still there');
    assert.is(localStorage.getItem(theme.backupKey), null);
    assert.is(shown(), 'dark', 'the change stays on screen, pending');
    makeRoom(UNREADABLE.length);
    choose('light');
    fullDom.pagehide();
    assert.is(localStorage.getItem(theme.backupKey), UNREADABLE, 'copied first');
    assert.is(stored().theme, 'light', 'then saved');
    assert.is(theme.getSnapshot().corrupt, 'copied');
    assert.is(theme.getSnapshot().problem, undefined);
  },
);

unreadable('"start over": the person discards the unreadable text that could not be copied, and what is on screen is saved over it', () => {
  localStorage.setItem(THEME_KEY, UNREADABLE);
  stopFull = theme.start({ storage: storageWithRoom(0).storage });
  choose('dark');
  theme.discardUnreadable();
  assert.is(stored().theme, 'dark');
  assert.is(localStorage.getItem(theme.backupKey), null);
  assert.is(theme.getSnapshot().corrupt, undefined);
  assert.is(theme.getSnapshot().problem, undefined);
});
unreadable.run();
