// The device document's plan (src/stored-data/document-plan.ts) and the store that performs it
// (device-document.ts), in-process: plain in-memory storage areas and a scripted clock
// (lib/memory-host.ts), no DOM. Reading fresh, stored and unreadable data (copied aside, never
// over an earlier copy), a full device (the write refused, the edit kept and carried through a
// reload), storage blocked, another tab's save merged, an earlier release's key taken in.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDeviceDocument, type DeviceDocumentOptions } from '../../src/stored-data/device-document';
import { createPlan, freeBackupKey, shownProblem, type WritePlan } from '../../src/stored-data/document-plan';
import { flushAll } from '../../src/stored-data/flush';
import { MemoryStorage, memoryPage, ScriptedClock } from './lib/memory-host';

/** A kind of stored data that is not notes: a set of tags, merged as the union of both. */
interface Tags {
  tags: string[];
}
const KEY = 'test-app:tags';
const TAGS: DeviceDocumentOptions<Tags> = {
  key: KEY,
  empty: { tags: [] },
  recover(data) {
    const tags = (data as { tags?: unknown } | undefined)?.tags;
    const readable = Array.isArray(tags) && tags.every((tag) => typeof tag === 'string');
    return { doc: { tags: readable ? tags : [] }, lost: data !== undefined && !readable };
  },
  merge: (mine, theirs) => ({ tags: [...new Set([...mine.tags, ...theirs.tags])].sort() }),
};
const tagsPlan = createPlan(TAGS);
const BACKUP = `${KEY}:backup`;
const text = (...tags: string[]) => JSON.stringify({ v: 1, tags });
/** A plan that writes (fails the test if it says the stored format is newer). */
function writing<Doc>(planned: WritePlan<Doc>): Exclude<WritePlan<Doc>, { outdated: true }> {
  if (planned.outdated) throw new Error('expected a write, not outdated');
  return planned;
}

const plan = suite('device document plan: pure functions of the stored texts');

plan('read: nothing stored is the empty document, with nothing to save; stored text is read as it is', () => {
  const fresh = tagsPlan.load({ stored: null, others: [], carried: [] });
  assert.equal(fresh.doc, { tags: [] });
  assert.equal([fresh.outdated, fresh.saveNow, fresh.found.lost], [false, false, false]);
  const stored = tagsPlan.load({ stored: text('a', 'b'), others: [], carried: [] });
  assert.equal(stored.doc, { tags: ['a', 'b'] });
  assert.is(stored.saveNow, false, 'what is stored as this version is not written again');
});

plan('read: unreadable text is lost, saved over only after a copy to the backup key, which never overwrites an earlier copy', () => {
  const loaded = tagsPlan.load({ stored: '{"v":1,"tags":["a', others: [], carried: [] });
  assert.equal([loaded.found.lost, loaded.saveNow], [true, true]);
  const backups = new Map<string, string>();
  const write = () => tagsPlan.write(loaded.doc, loaded.found, null, (key) => backups.get(key) ?? null);
  assert.equal(write(), { copy: { key: BACKUP, text: '{"v":1,"tags":["a' }, merged: { tags: [] }, text: text() });
  backups.set(BACKUP, 'other unreadable text');
  assert.is(writing(write()).copy?.key, `${BACKUP}-2`, 'the earlier copy of other text stays');
  backups.set(`${BACKUP}-2`, '{"v":1,"tags":["a');
  assert.is(
    freeBackupKey(BACKUP, '{"v":1,"tags":["a', (key) => backups.get(key) ?? null),
    `${BACKUP}-2`,
    'the same text is not copied twice',
  );
  const replaced = tagsPlan.write(loaded.doc, loaded.found, '{"v":1,"tags":["a', () => null);
  assert.is(writing(replaced).copy, undefined, 'text whose copy exists is replaced without another');
});

plan('write: merged with what another tab stored meanwhile; a newer format stored is never written over', () => {
  const theirs = tagsPlan.read(text('theirs'));
  assert.equal(
    tagsPlan.write({ tags: ['mine'] }, theirs, null, () => null),
    {
      copy: undefined,
      merged: { tags: ['mine', 'theirs'] },
      text: text('mine', 'theirs'),
    },
  );
  const newer = tagsPlan.read(JSON.stringify({ v: 2, tags: ['x'] }));
  assert.equal(
    tagsPlan.write({ tags: ['mine'] }, newer, null, () => null),
    { outdated: true },
  );
  assert.equal([shownProblem('full'), shownProblem('unavailable'), shownProblem('corrupt')], ['full', 'unavailable', 'unavailable']);
});

plan(
  "another tab's save: merged in, stored back only when it lacks something of ours; other keys and unreadable text change nothing",
  () => {
    const heard = (key: string | null, newValue: string | null, doc = { tags: ['mine'] }) =>
      tagsPlan.heard(doc, key, newValue, ['old:tags']);
    assert.equal(heard(KEY, text('theirs')), { merged: { tags: ['mine', 'theirs'] }, save: true });
    assert.equal(heard(KEY, text('mine', 'theirs')), { merged: { tags: ['mine', 'theirs'] }, save: false }, 'it converges');
    assert.equal(heard('old:tags', text('old')), { merged: { tags: ['mine', 'old'] }, save: true, mergedFrom: 'old:tags' });
    assert.is(heard('another:key', text('x')), undefined);
    assert.is(heard(KEY, null), undefined, 'a removal');
    assert.is(heard(KEY, '{"tags":'), undefined);
    assert.equal(heard(KEY, JSON.stringify({ v: 2, tags: [] })), { outdated: true });
  },
);

plan('carried text from the last page of this tab is put back, merged with what is stored, and saved at once', () => {
  const loaded = tagsPlan.load({ stored: text('saved'), others: [], carried: [text('carried'), text('in history')] });
  assert.equal(loaded.doc, { tags: ['carried', 'in history', 'saved'] });
  assert.equal([loaded.carried, loaded.saveNow], [true, true]);
});
plan.run();

const store = suite('device document store on an in-memory host and a scripted clock');
let stops: (() => void)[] = [];
store.after.each(() => {
  for (const stop of stops) stop();
  stops = [];
});
/** A tags document started on `page` (a new store each time: one page of one tab). */
function open(page: ReturnType<typeof memoryPage>, saveWithinMs = 1000) {
  const document = createDeviceDocument(TAGS, () => page.host);
  stops.push(document.start({ saveWithinMs }));
  const add = (tag: string) => document.change({ tags: [...document.getSnapshot().doc.tags, tag] });
  return { document, add, shown: () => document.getSnapshot().doc.tags };
}

store('read: fresh, stored, and unreadable (each copy kept under <key>:backup, -2, …, never overwritten)', () => {
  const local = new MemoryStorage();
  assert.equal(open(memoryPage({ local })).shown(), []);
  assert.is(local.getItem(KEY), null, 'nothing is written for a fresh start');
  local.setItem(KEY, text('stored'));
  assert.equal(open(memoryPage({ local })).shown(), ['stored']);
  for (const damaged of ['{"tags":["a', '{"tags":["b', '{"tags":["a']) {
    local.setItem(KEY, damaged);
    const { document } = open(memoryPage({ local }));
    assert.is(document.getSnapshot().corrupt, 'copied');
    assert.is(local.getItem(KEY), text(), 'what was recovered is saved');
  }
  assert.equal(
    [`${KEY}:backup`, `${KEY}:backup-2`, `${KEY}:backup-3`].map((key) => local.getItem(key)),
    ['{"tags":["a', '{"tags":["b', null],
  );
});

store(
  'a full device: the write is refused, the edit stays shown and pending, carried through a reload, and saved once there is room',
  () => {
    const local = new MemoryStorage(40);
    const session = new MemoryStorage();
    const clock = new ScriptedClock();
    const first = memoryPage({ local, session, clock });
    const tab = open(first);
    tab.add('short');
    clock.advance(1000);
    assert.is(local.getItem(KEY), text('short'));
    tab.add('a tag far too long for the room left');
    clock.advance(1000);
    assert.is(tab.document.getSnapshot().problem, 'full', 'said on screen');
    assert.is(local.getItem(KEY), text('short'), 'the last good save intact');
    assert.equal(tab.shown(), ['short', 'a tag far too long for the room left']);
    assert.is(session.getItem(`${KEY}:carried`), text('short', 'a tag far too long for the room left'), 'carried for a reload');
    assert.ok(flushAll(), 'a reload now keeps the edit: it is carried');
    stops.pop()?.();
    // The tab reloads, the device still full: the carried edit is back on screen, still said unsaved.
    const stillFull = open(memoryPage({ local, session, clock, historyState: first.historyState }));
    assert.equal(stillFull.shown(), ['a tag far too long for the room left', 'short']);
    assert.is(stillFull.document.getSnapshot().problem, 'full');
    assert.is(local.getItem(KEY), text('short'), 'the last good save still intact');
    stops.pop()?.();
    // Another reload with room: saved, and no longer carried.
    local.room = 1000;
    const reloaded = open(memoryPage({ local, session, clock, historyState: first.historyState }));
    assert.equal(reloaded.shown(), ['a tag far too long for the room left', 'short']);
    assert.is(local.getItem(KEY), text('a tag far too long for the room left', 'short'));
    assert.is(session.getItem(`${KEY}:carried`), null, 'no longer carried once saved');
    assert.is(reloaded.document.getSnapshot().problem, undefined);
  },
);

store('storage blocked: said on screen, the edit carried in the history entry through a reload; flushAll says when even that fails', () => {
  const local = new MemoryStorage();
  const session = new MemoryStorage();
  local.blocked = true;
  session.blocked = true;
  const first = memoryPage({ local, session });
  const tab = open(first);
  assert.is(tab.document.getSnapshot().problem, 'unavailable');
  tab.add('kept');
  tab.document.flush();
  assert.is(tab.document.getSnapshot().problem, 'unavailable');
  assert.is(first.historyState[`${KEY}:carried`], text('kept'));
  stops.pop()?.();
  const reloaded = open(memoryPage({ local, session, historyState: first.historyState }));
  assert.equal(reloaded.shown(), ['kept'], 'put back after the reload');
  stops.pop()?.();
  const refusing = open(memoryPage({ local, session, historyRefuses: true }));
  refusing.add('lost on reload');
  assert.not.ok(flushAll(), 'nothing can keep it: the reload must wait');
});

store("two tabs: another tab's save is merged in and shown; the merge is stored back only when it adds something", () => {
  const local = new MemoryStorage();
  const clock = new ScriptedClock();
  const pageA = memoryPage({ local, clock });
  const pageB = memoryPage({ local, clock });
  const a = open(pageA);
  const b = open(pageB);
  a.add('from a');
  clock.advance(1000);
  pageB.hear(KEY, local.getItem(KEY));
  assert.equal(b.shown(), ['from a']);
  assert.is(clock.pending, 0, 'B has nothing to add: no save');
  b.add('from b');
  // B's save reads what is stored first: A's later edit, not yet heard, is kept.
  a.add('again a');
  a.document.flush();
  b.document.flush();
  assert.is(local.getItem(KEY), text('again a', 'from a', 'from b'));
  pageA.hear(KEY, local.getItem(KEY));
  assert.equal(a.shown(), ['again a', 'from a', 'from b']);
});

store('a key of an earlier release: merged in at start, saved under ours and removed; again when an old tab writes it', () => {
  const local = new MemoryStorage();
  local.setItem('old:tags', text('old'));
  const page = memoryPage({ local, formerKeys: (key) => (key === KEY ? ['old:tags'] : []) });
  const tab = open(page);
  assert.equal(tab.shown(), ['old']);
  assert.equal([local.getItem(KEY), local.getItem('old:tags')], [text('old'), null]);
  local.setItem('old:tags', text('older tab'));
  page.hear('old:tags', text('older tab'));
  tab.document.flush();
  assert.equal([local.getItem(KEY), local.getItem('old:tags')], [text('old', 'older tab'), null]);
});

store('the save is throttled on the scripted clock, and the page leaving saves at once; stop ends both', () => {
  const local = new MemoryStorage();
  const clock = new ScriptedClock();
  const page = memoryPage({ local, clock });
  const tab = open(page, 300);
  tab.add('one');
  clock.advance(200);
  tab.add('two');
  assert.is(local.getItem(KEY), null);
  clock.advance(100);
  assert.is(local.getItem(KEY), text('one', 'two'), 'within 300 ms of the first change, however many follow');
  tab.add('three');
  page.leave();
  assert.is(local.getItem(KEY), text('one', 'three', 'two'));
  assert.is(page.persistAsks > 0, true, 'something worth keeping: the browser is asked to keep it');
  stops.pop()?.();
  assert.not.ok(page.listening());
  tab.add('four');
  page.leave();
  flushAll();
  assert.is(local.getItem(KEY), text('one', 'three', 'two'));
});
store.run();
