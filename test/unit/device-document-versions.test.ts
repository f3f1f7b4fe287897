// The device document's stored format versions (src/offline/device-document.ts), on a test-only
// version 2 of the notes: an older format upgraded once, a newer one never written over, on
// happy-dom with a fake clock. test/unit/device-document.test.ts has the rest of the document.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDeviceDocument } from '../../src/offline/device-document';
import { flushAll } from '../../src/offline/flush';
import { EMPTY_DOC, recover, withEdit, withNewNote, type Doc, type Note } from '../../src/notes/model';
import { NOTES_DOCUMENT, NOTES_KEY } from '../../src/notes/store';
import { domPerTest } from './dom';

const versions = suite('device document: stored format versions');
const env = domPerTest(versions);

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
  env.dom.win.dispatchEvent(new env.dom.win.StorageEvent('storage', { key, newValue: text }));
}

versions('version 1 data is upgraded once: read through upgrade(data, 1), saved as version 2 at load, read as it is after', () => {
  upgrades = [];
  // Written as text: an id `__proto__` stays an own key of the stored object.
  localStorage.setItem(V2_KEY, '{"v":1,"notes":[{"id":"a","text":"kept","at":5}],"gone":{"__proto__":7,"b":9}}');
  env.stop = notesV2.start();
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
  env.stop();
  env.stop = notesV2.start();
  assert.equal(upgrades, [1], 'not upgraded again');
  assert.equal([...notesV2.getSnapshot().doc.gone.keys()], ['__proto__', 'b']);
});

versions('a version 1 save from an old tab is upgraded, merged, and stored back as version 2', async () => {
  upgrades = [];
  env.stop = notesV2.start();
  otherTabWrites(V2_KEY, JSON.stringify({ v: 1, notes: [{ id: 'x', text: 'from the old tab', at: 3 }], gone: {} }));
  assert.equal(upgrades, [1]);
  assert.equal(v2Texts(), ['', 'from the old tab']);
  await env.dom.tick(1000);
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
    env.stop = notesV2.start();
    assert.equal(notesV2.getSnapshot(), { doc: EMPTY_DOC, outdated: true, loaded: true, problem: undefined });
    notesV2.change(withNewNote(EMPTY_DOC, 'typed', 1));
    assert.equal(v2Texts(), [], 'an outdated tab takes no change');
    assert.is(notesV2.restore(withNewNote(EMPTY_DOC, 'restored', 1)), 'outdated');
    env.dom.win.dispatchEvent(
      new env.dom.win.StorageEvent('storage', { key: V2_KEY, newValue: JSON.stringify({ v: 1, notes: [], gone: {} }) }),
    );
    flushAll();
    env.dom.pagehide();
    env.dom.setHidden(true);
    notesV2.discardUnreadable();
    await env.dom.tick(2000);
    assert.is(localStorage.getItem(V2_KEY), newer);
    assert.is(localStorage.getItem(notesV2.backupKey), null, 'not copied aside either: it is not unreadable, only newer');
    assert.is(localStorage.getItem(`${V2_KEY}:unsaved-v2`), null, 'nothing was typed here to keep');
    assert.equal(upgrades, []);
    assert.ok(notesV2.getSnapshot().outdated);
  },
);

versions(
  'a newer format saved by another tab mid-session: the tab turns outdated, keeps showing its notes, and keeps its pending edit aside, never under the key',
  async () => {
    env.stop = notesV2.start();
    notesV2.change(withEdit(notesV2.getSnapshot().doc, '0', 'typed, not saved yet', Date.now()));
    const newer = JSON.stringify({ v: 3, everything: 'else' });
    otherTabWrites(V2_KEY, newer);
    assert.ok(notesV2.getSnapshot().outdated);
    assert.is(notesV2.getSnapshot().unsaved, 'kept');
    assert.equal(v2Texts(), ['typed, not saved yet'], 'still shown');
    await env.dom.tick(2000);
    env.dom.pagehide();
    flushAll();
    assert.is(localStorage.getItem(V2_KEY), newer);
    const aside = JSON.parse(localStorage.getItem(`${V2_KEY}:unsaved-v2`) ?? 'null');
    assert.equal(
      aside.notes.map((note: Note) => note.text),
      ['typed, not saved yet'],
      "kept aside in this tab's own format",
    );
    assert.is(aside.v, 2);
  },
);

versions(
  'two tabs on two formats: the newer one merges what the older one kept aside, at its start and as it is kept, and removes it',
  async () => {
    // The newer code: version 3 of the same notes (test only), which reads version 2 as it is.
    const notesV3 = createDeviceDocument<Doc>({ ...NOTES_DOCUMENT, key: V2_KEY, version: 3, recover: (data) => recover(data) });
    localStorage.setItem(
      `${V2_KEY}:unsaved-v2`,
      JSON.stringify({ v: 2, notes: [{ id: 'a', text: 'typed in the old tab', at: 5 }], gone: [] }),
    );
    localStorage.setItem(V2_KEY, JSON.stringify({ v: 3, notes: [{ id: 'b', text: 'saved by the new tab', at: 6 }], gone: {} }));
    env.stop = notesV3.start();
    const texts = () => notesV3.getSnapshot().doc.notes.map((note) => note.text);
    assert.equal(texts(), ['typed in the old tab', 'saved by the new tab']);
    assert.equal(
      JSON.parse(localStorage.getItem(V2_KEY) ?? 'null').notes.map((note: Note) => note.text),
      ['typed in the old tab', 'saved by the new tab'],
      'stored in the new format',
    );
    assert.is(localStorage.getItem(`${V2_KEY}:unsaved-v2`), null, 'and removed: kept once');
    // Another old tab turns outdated while this one is open: its edit arrives with its storage event.
    otherTabWrites(`${V2_KEY}:unsaved-v2`, JSON.stringify({ v: 2, notes: [{ id: 'c', text: 'from a second old tab', at: 7 }], gone: [] }));
    assert.equal(texts(), ['typed in the old tab', 'saved by the new tab', 'from a second old tab']);
    await env.dom.tick(1000);
    assert.is(localStorage.getItem(`${V2_KEY}:unsaved-v2`), null);
    assert.is(JSON.parse(localStorage.getItem(V2_KEY) ?? 'null').notes.length, 3);
  },
);

versions("a newer format stored before its event arrives: the tab's next save reads it first and writes nothing", async () => {
  env.stop = notesV2.start();
  notesV2.change(withEdit(notesV2.getSnapshot().doc, '0', 'typed', Date.now()));
  const newer = JSON.stringify({ v: 3 });
  localStorage.setItem(V2_KEY, newer); // the other tab's event is still on its way
  await env.dom.tick(1000);
  assert.is(localStorage.getItem(V2_KEY), newer);
  assert.ok(notesV2.getSnapshot().outdated);
});

versions('data saved without `v` is read as version 1; an upgrade that throws counts as unreadable data, copied aside', () => {
  upgrades = [];
  localStorage.setItem(V2_KEY, JSON.stringify({ notes: [{ id: 'a', text: 'old', at: 1 }], gone: {} }));
  env.stop = notesV2.start();
  assert.equal(upgrades, [1]);
  assert.equal(v2Texts(), ['old']);
  env.stop();
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
  env.stop = failing.start();
  assert.is(failing.getSnapshot().corrupt, 'copied');
  assert.is(localStorage.getItem(failing.backupKey), raw);
});
versions.run();
