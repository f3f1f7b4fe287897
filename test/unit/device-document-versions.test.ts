// The device document's stored format versions (src/stored-data/device-document.ts), on a test-only
// document declared here as a builder would (a list of items with tombstones) at version 2: an older
// format upgraded once, a newer one never written over, what an outdated tab could not save kept
// aside and merged by the newer one, on happy-dom with a fake clock.
// test/unit/device-document.test.ts has the rest of the document.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDeviceDocument, type DeviceDocumentOptions } from '../../src/stored-data/device-document';
import { flushAll } from '../../src/stored-data/flush';
import { domPerTest } from './dom';

const versions = suite('device document: stored format versions');
const env = domPerTest(versions);

/** One item of the test document: `at` is the time of its last edit. */
interface Item {
  id: string;
  text: string;
  at: number;
}
/** The test document: items by id, and when each deleted item was deleted (a tombstone), by id. */
interface Items {
  items: Item[];
  gone: ReadonlyMap<string, number>;
}
/** Version 2 as stored: the tombstones a list of { id, at } (version 1 kept them as { [id]: time }). */
interface StoredItemsV2 {
  items: Item[];
  gone: { id: string; at: number }[];
}
const EMPTY: Items = { items: [], gone: new Map() };

/** Item by item, the later edit wins (at equal times the greater text); an item deleted at or after its last edit stays deleted; sorted by id. */
function mergeItems(mine: Items, theirs: Items): Items {
  const gone = new Map(mine.gone);
  for (const [id, at] of theirs.gone) gone.set(id, Math.max(gone.get(id) ?? at, at));
  const newest = new Map<string, Item>();
  for (const item of [...mine.items, ...theirs.items]) {
    const known = newest.get(item.id);
    if (!known || item.at > known.at || (item.at === known.at && item.text > known.text)) newest.set(item.id, item);
  }
  const items = [...newest.values()].filter((item) => (gone.get(item.id) ?? -1) < item.at);
  return { items: items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)), gone };
}

/** What is usable of stored version 2 data: the items with a text, the tombstones with a time. */
function recoverItems(data: unknown): { doc: Items; lost: boolean } {
  const stored = (data ?? {}) as Partial<StoredItemsV2>;
  const storedItems: Partial<Item>[] = Array.isArray(stored.items) ? stored.items : [];
  const items = storedItems
    .filter((item) => typeof item?.id === 'string' && typeof item.text === 'string')
    .map((item) => ({ id: String(item.id), text: String(item.text), at: Number(item.at) || 0 }));
  const gone = (Array.isArray(stored.gone) ? stored.gone : []).filter((entry) => typeof entry?.at === 'number');
  return {
    doc: mergeItems({ items, gone: new Map(gone.map(({ id, at }) => [id, at])) }, EMPTY),
    lost: data !== undefined && (!Array.isArray(stored.items) || items.length < storedItems.length),
  };
}

/** `doc` with item `id` holding `text` (added if it is new), stamped `now`. */
function withItem(doc: Items, id: string, text: string, now: number): Items {
  return mergeItems(doc, { items: [{ id, text, at: now }], gone: new Map() });
}

/** The key of the test document. */
const KEY = 'versions-test:items';
/** The versions upgrade() was called from, in order. */
let upgrades: number[] = [];
/** The test document at version 2, which upgrades version 1's tombstones. */
const ITEMS_V2: DeviceDocumentOptions<Items> = {
  key: KEY,
  empty: EMPTY,
  version: 2,
  upgrade(data, fromVersion) {
    upgrades.push(fromVersion);
    // Version 1 kept tombstones as { [id]: time }; JSON.parse made each one an own key.
    const v1 = data as { items?: unknown; gone?: object };
    return { items: v1.items, gone: Object.entries(v1.gone ?? {}).map(([id, at]) => ({ id, at })) };
  },
  recover: recoverItems,
  merge: mergeItems,
  toJSON: (doc): StoredItemsV2 => ({
    items: doc.items,
    gone: [...doc.gone].map(([id, at]) => ({ id, at })).sort((a, b) => (a.id < b.id ? -1 : 1)),
  }),
};
const itemsV2 = createDeviceDocument(ITEMS_V2);
const storedV2 = () => JSON.parse(localStorage.getItem(KEY) ?? 'null');
const v2Texts = () => itemsV2.getSnapshot().doc.items.map((item) => item.text);
/** What another tab of this app stores under `key`, with the `storage` event it sends here. */
function otherTabWrites(key: string, text: string): void {
  localStorage.setItem(key, text);
  env.dom.win.dispatchEvent(new env.dom.win.StorageEvent('storage', { key, newValue: text }));
}

versions('version 1 data is upgraded once: read through upgrade(data, 1), saved as version 2 at load, read as it is after', () => {
  upgrades = [];
  // Written as text: an id `__proto__` stays an own key of the stored object.
  localStorage.setItem(KEY, '{"v":1,"items":[{"id":"a","text":"kept","at":5}],"gone":{"__proto__":7,"b":9}}');
  env.stop = itemsV2.start();
  assert.equal(upgrades, [1]);
  assert.equal(v2Texts(), ['kept']);
  assert.equal(storedV2(), {
    v: 2,
    items: [{ id: 'a', text: 'kept', at: 5 }],
    gone: [
      { id: '__proto__', at: 7 },
      { id: 'b', at: 9 },
    ],
  });
  env.stop();
  env.stop = itemsV2.start();
  assert.equal(upgrades, [1], 'not upgraded again');
  assert.equal([...itemsV2.getSnapshot().doc.gone.keys()], ['__proto__', 'b']);
});

versions('a version 1 save from an old tab is upgraded, merged, and stored back as version 2', async () => {
  upgrades = [];
  localStorage.setItem(KEY, JSON.stringify({ v: 2, items: [{ id: 'a', text: 'here', at: 2 }], gone: [] }));
  env.stop = itemsV2.start();
  otherTabWrites(KEY, JSON.stringify({ v: 1, items: [{ id: 'x', text: 'from the old tab', at: 3 }], gone: {} }));
  assert.equal(upgrades, [1]);
  assert.equal(v2Texts(), ['here', 'from the old tab']);
  await env.dom.tick(1000);
  assert.is(storedV2().v, 2);
  assert.equal(
    storedV2().items.map((item: Item) => item.text),
    ['here', 'from the old tab'],
  );
});

versions(
  'version 3 data is never touched: the tab is outdated, shows nothing of it, and no change, flush, pagehide, restore or event writes',
  async () => {
    upgrades = [];
    const newer = JSON.stringify({ v: 3, items: { a: 'a shape this code does not know' } });
    localStorage.setItem(KEY, newer);
    env.stop = itemsV2.start();
    assert.equal(itemsV2.getSnapshot(), { doc: EMPTY, outdated: true, loaded: true, problem: undefined });
    itemsV2.change(withItem(EMPTY, 'a', 'typed', 1));
    assert.equal(v2Texts(), [], 'an outdated tab takes no change');
    assert.is(itemsV2.restore(withItem(EMPTY, 'a', 'restored', 1)), 'outdated');
    env.dom.win.dispatchEvent(
      new env.dom.win.StorageEvent('storage', { key: KEY, newValue: JSON.stringify({ v: 1, items: [], gone: {} }) }),
    );
    flushAll();
    env.dom.pagehide();
    env.dom.setHidden(true);
    itemsV2.discardUnreadable();
    await env.dom.tick(2000);
    assert.is(localStorage.getItem(KEY), newer);
    assert.is(localStorage.getItem(itemsV2.backupKey), null, 'not copied aside either: it is not unreadable, only newer');
    assert.is(localStorage.getItem(`${KEY}:unsaved-v2`), null, 'nothing was typed here to keep');
    assert.equal(upgrades, []);
    assert.ok(itemsV2.getSnapshot().outdated);
  },
);

versions(
  'a newer format saved by another tab mid-session: the tab turns outdated, keeps showing its items, and keeps its pending edit aside, never under the key',
  async () => {
    env.stop = itemsV2.start();
    itemsV2.change(withItem(itemsV2.getSnapshot().doc, 'a', 'typed, not saved yet', Date.now()));
    const newer = JSON.stringify({ v: 3, everything: 'else' });
    otherTabWrites(KEY, newer);
    assert.ok(itemsV2.getSnapshot().outdated);
    assert.is(itemsV2.getSnapshot().unsaved, 'kept');
    assert.equal(v2Texts(), ['typed, not saved yet'], 'still shown');
    await env.dom.tick(2000);
    env.dom.pagehide();
    flushAll();
    assert.is(localStorage.getItem(KEY), newer);
    const aside = JSON.parse(localStorage.getItem(`${KEY}:unsaved-v2`) ?? 'null');
    assert.equal(
      aside.items.map((item: Item) => item.text),
      ['typed, not saved yet'],
      "kept aside in this tab's own format",
    );
    assert.is(aside.v, 2);
  },
);

versions(
  'two tabs on two formats: the newer one merges what the older one kept aside, at its start and as it is kept, and removes it',
  async () => {
    // The newer code: version 3 of the same items (test only), which reads version 2 as it is.
    const itemsV3 = createDeviceDocument<Items>({ ...ITEMS_V2, version: 3, upgrade: undefined });
    localStorage.setItem(
      `${KEY}:unsaved-v2`,
      JSON.stringify({ v: 2, items: [{ id: 'a', text: 'typed in the old tab', at: 5 }], gone: [] }),
    );
    localStorage.setItem(KEY, JSON.stringify({ v: 3, items: [{ id: 'b', text: 'saved by the new tab', at: 6 }], gone: [] }));
    env.stop = itemsV3.start();
    const texts = () => itemsV3.getSnapshot().doc.items.map((item) => item.text);
    assert.equal(texts(), ['typed in the old tab', 'saved by the new tab']);
    assert.equal(
      JSON.parse(localStorage.getItem(KEY) ?? 'null').items.map((item: Item) => item.text),
      ['typed in the old tab', 'saved by the new tab'],
      'stored in the new format',
    );
    assert.is(localStorage.getItem(`${KEY}:unsaved-v2`), null, 'and removed: kept once');
    // Another old tab turns outdated while this one is open: its edit arrives with its storage event.
    otherTabWrites(`${KEY}:unsaved-v2`, JSON.stringify({ v: 2, items: [{ id: 'c', text: 'from a second old tab', at: 7 }], gone: [] }));
    assert.equal(texts(), ['typed in the old tab', 'saved by the new tab', 'from a second old tab']);
    await env.dom.tick(1000);
    assert.is(localStorage.getItem(`${KEY}:unsaved-v2`), null);
    assert.is(JSON.parse(localStorage.getItem(KEY) ?? 'null').items.length, 3);
  },
);

versions("a newer format stored before its event arrives: the tab's next save reads it first and writes nothing", async () => {
  env.stop = itemsV2.start();
  itemsV2.change(withItem(itemsV2.getSnapshot().doc, 'a', 'typed', Date.now()));
  const newer = JSON.stringify({ v: 3 });
  localStorage.setItem(KEY, newer); // the other tab's event is still on its way
  await env.dom.tick(1000);
  assert.is(localStorage.getItem(KEY), newer);
  assert.ok(itemsV2.getSnapshot().outdated);
});

versions('data saved without `v` is read as version 1; an upgrade that throws counts as unreadable data, copied aside', () => {
  upgrades = [];
  localStorage.setItem(KEY, JSON.stringify({ items: [{ id: 'a', text: 'old', at: 1 }], gone: {} }));
  env.stop = itemsV2.start();
  assert.equal(upgrades, [1]);
  assert.equal(v2Texts(), ['old']);
  env.stop();
  const failing = createDeviceDocument<Items>({
    ...ITEMS_V2,
    upgrade() {
      throw new Error('cannot upgrade');
    },
  });
  const raw = JSON.stringify({ v: 1, items: [{ id: 'a', text: 'old', at: 1 }], gone: {} });
  localStorage.setItem(KEY, raw);
  env.stop = failing.start();
  assert.is(failing.getSnapshot().corrupt, 'copied');
  assert.is(localStorage.getItem(failing.backupKey), raw);
});
versions.run();
