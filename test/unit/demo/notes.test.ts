// The notes store on happy-dom: throttled saves, flushes, bad storage, and two tabs merging
// through `storage` events. The model's merge is checked on its own first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeBackup } from '../../../src/notes/backup';
import { merge, recover, toStored, withEdit, withoutNote, type Doc } from '../../../src/notes/model';
import {
  BACKUP_KEY,
  NOTES_KEY,
  addNote,
  deleteNote,
  editNote,
  flushNotes,
  notes,
  restoreNotes,
  startNotes,
} from '../../../src/notes/store';
import { flushAll } from '../../../src/stored-data/flush';
import { domPerTest, tinyStorage } from '../dom';

const model = suite('notes model');
/** A notes document; tombstones as [id, time] pairs (ids are never object keys). */
const doc = (notes: Doc['notes'], gone: [string, number][] = []): Doc => ({ notes, gone: new Map(gone) });

model('merge keeps the newer text of each note, whichever side merges', () => {
  const a = doc([
    { id: 'a', text: 'mine, newer', at: 20 },
    { id: 'b', text: 'old b', at: 1 },
  ]);
  const b = doc([
    { id: 'a', text: 'theirs, older', at: 10 },
    { id: 'b', text: 'their b, newer', at: 5 },
    { id: 'c', text: 'their new note', at: 6 },
  ]);
  const expected = doc([
    { id: 'a', text: 'mine, newer', at: 20 },
    { id: 'b', text: 'their b, newer', at: 5 },
    { id: 'c', text: 'their new note', at: 6 },
  ]);
  assert.equal(merge(a, b), expected);
  assert.equal(merge(b, a), expected);
  assert.equal(merge(expected, b), expected, 'merging again changes nothing');
});

model('a deleted note stays deleted against older copies, and comes back only for a newer edit', () => {
  const mine = doc([], [['x', 50]]);
  assert.equal(merge(mine, doc([{ id: 'x', text: 'before the delete', at: 40 }])).notes, []);
  assert.equal(merge(doc([{ id: 'x', text: 'edited after', at: 60 }]), mine).notes, [{ id: 'x', text: 'edited after', at: 60 }]);
});

model('two fresh tabs: the untouched empty note each starts with goes once the other tab typed, never two empty notes', () => {
  const typedThere = doc([{ id: 'm1-there', text: 'typed in the other tab', at: 1000 }]);
  const freshHere = doc([{ id: 'm1-here', text: '', at: 0 }]);
  assert.equal(merge(freshHere, typedThere), typedThere);
  assert.equal(merge(typedThere, freshHere), typedThere);
  // An empty note the person added (stamped when added) is theirs: it stays.
  const added = doc([{ id: 'm2', text: '', at: 2000 }]);
  assert.equal(merge(added, typedThere).notes.length, 2);
});

model('recover keeps every note whose text survived and says when something was dropped', () => {
  const { doc: d, lost } = recover({
    notes: [{ id: 'a', text: 'ok', at: 1 }, { text: 'no id' }, 42, { id: 'c' }],
    gone: { z: 3, bad: 'x' },
  });
  assert.ok(lost);
  assert.equal(d.notes.map((n) => n.text).sort(), ['no id', 'ok']);
  assert.equal(d.gone, new Map([['z', 3]]));
  assert.not.ok(recover({ notes: [], gone: {} }).lost);
  assert.ok(recover({ notes: [], gone: { z: 'yesterday' } }).lost, 'a tombstone without a time is a loss too');
  assert.not.ok(recover(undefined).lost, 'nothing stored is not a loss');
  assert.ok(recover({ something: 'else' }).lost);
});
model('an edit or a delete wins over the version it changes, even stamped a year ahead by another clock', () => {
  const yearAhead = 1_700_000_000_000 + 365 * 24 * 60 * 60 * 1000;
  const restored = doc([{ id: 'a', text: 'from a clock a year fast', at: yearAhead }]);
  const edited = withEdit(restored, 'a', 'edited here', 1_700_000_000_000);
  assert.equal(edited.notes, [{ id: 'a', text: 'edited here', at: yearAhead + 1 }]);
  assert.equal(merge(restored, edited).notes, edited.notes, 'the edit wins the merge');
  const deleted = withoutNote(restored, 'a', 1_700_000_000_000);
  assert.equal(deleted.gone, new Map([['a', yearAhead + 1]]));
  assert.equal(merge(restored, deleted).notes, [], 'the delete wins the merge');
  assert.equal(
    withEdit(doc([{ id: 'a', text: 'old', at: 5 }]), 'a', 'new', 1000).notes[0].at,
    1000,
    'a clock ahead of the version keeps its own time',
  );
});

model('ids named like Object.prototype members are ids like any other: merged, deleted, stored and read back', () => {
  for (const id of ['__proto__', 'constructor', 'toString']) {
    const note = { id, text: `note ${id}`, at: 10 };
    const deleted = withoutNote(doc([note]), id, 20);
    assert.equal(merge(doc([note]), deleted), { notes: [], gone: new Map([[id, 20]]) }, `${id}: the delete survives a merge`);
    assert.equal(merge(deleted, doc([note])), { notes: [], gone: new Map([[id, 20]]) }, `${id}: either way`);
    assert.equal(merge(doc([note]), doc([])).notes, [note], `${id}: a note not deleted is kept`);
    const text = JSON.stringify(toStored(deleted));
    assert.is(text, `{"notes":[],"gone":{"${id}":20}}`, `${id}: stored as an own key`);
    assert.equal(recover(JSON.parse(text)), { doc: deleted, lost: false }, `${id}: read back`);
  }
});
model.run();

const test = suite('notes store');
const env = domPerTest(test);
const stored = () => JSON.parse(localStorage.getItem(NOTES_KEY) ?? 'null');
const texts = () => notes.getSnapshot().notes.map((n) => n.text);
/** The id of the first note (a fresh start's: random, like every note's). */
const firstId = () => notes.getSnapshot().notes[0].id;

test('a new user gets one empty note, ready to type in', () => {
  env.stop = startNotes();
  const id = firstId();
  assert.equal(notes.getSnapshot(), { notes: [{ id, text: '', at: 0 }], outdated: false, loaded: true, problem: undefined });
  assert.match(id, /^[0-9a-z]+-[0-9a-z]{21}$/, 'a random id, never the `0` every fresh profile once shared');
  env.stop();
  env.stop = startNotes();
  assert.not.equal(firstId(), id, "another profile's first note is another note");
});

test('typing is saved about a second after the first unsaved keystroke, even while typing goes on', async () => {
  env.stop = startNotes();
  editNote(firstId(), 'h');
  await env.dom.tick(500);
  editNote(firstId(), 'he');
  assert.is(stored(), null);
  await env.dom.tick(500);
  assert.is(stored().notes[0].text, 'he');
  for (let i = 0; i < 15; i++) {
    editNote(firstId(), 'he' + 'y'.repeat(i + 1));
    await env.dom.tick(100);
  }
  assert.is(stored().notes[0].text, 'he' + 'y'.repeat(10), 'saved during continuous typing');
  await env.dom.tick(1000);
  assert.is(stored().notes[0].text, 'he' + 'y'.repeat(15));
});

test('pending text is saved at once on pagehide, when the tab is hidden, and on flushAll (before any reload)', () => {
  env.stop = startNotes();
  editNote(firstId(), 'one');
  env.dom.pagehide();
  assert.is(stored().notes[0].text, 'one');
  editNote(firstId(), 'two');
  env.dom.setHidden(true);
  assert.is(stored().notes[0].text, 'two');
  editNote(firstId(), 'three');
  flushAll();
  assert.is(stored().notes[0].text, 'three');
});

test('add, edit and delete are saved and come back on the next load, in order', async () => {
  env.stop = startNotes();
  editNote(firstId(), 'first');
  await env.dom.tick(10);
  const b = addNote();
  editNote(b, 'second');
  await env.dom.tick(10);
  const c = addNote();
  editNote(c, 'third');
  deleteNote(b);
  flushNotes();
  env.stop();
  env.stop = startNotes();
  assert.equal(texts(), ['first', 'third']);
});

test('deleting every note leaves an empty list (not a surprise empty note) after a reload', () => {
  env.stop = startNotes();
  deleteNote(firstId());
  flushNotes();
  env.stop();
  env.stop = startNotes();
  assert.equal(texts(), []);
});

test('corrupt stored notes: the raw text is backed up, the user is told, the app starts with an empty note', () => {
  const raw = '{"v":1,"notes":[{"id":"a","text":"half a sent';
  localStorage.setItem(NOTES_KEY, raw);
  env.stop = startNotes();
  assert.is(localStorage.getItem(BACKUP_KEY), raw);
  assert.is(notes.getSnapshot().corrupt, 'copied');
  assert.equal(texts(), ['']);
  assert.equal(stored().notes, [{ id: firstId(), text: '', at: 0 }], 'readable data replaces the broken text (its copy is kept)');
});

test('partly damaged notes: what can be read is kept, the rest is backed up', () => {
  const raw = JSON.stringify({
    v: 1,
    notes: [
      { id: 'a', text: 'keep me', at: 5 },
      { id: 'b', txt: 'broken' },
    ],
    gone: {},
  });
  localStorage.setItem(NOTES_KEY, raw);
  env.stop = startNotes();
  assert.equal(texts(), ['keep me']);
  assert.is(notes.getSnapshot().corrupt, 'copied');
  assert.is(localStorage.getItem(BACKUP_KEY), raw);
});

test('storage full: "full" is reported, the text stays on screen, the last good save is intact', async () => {
  env.stop = startNotes({ storage: tinyStorage(200) });
  editNote(firstId(), 'fits');
  await env.dom.tick(1000);
  assert.is(stored().notes[0].text, 'fits');
  const long = 'a long text that does not fit '.repeat(10);
  editNote(firstId(), long);
  await env.dom.tick(1000);
  assert.is(notes.getSnapshot().problem, 'full');
  assert.equal(texts(), [long]);
  assert.is(stored().notes[0].text, 'fits');
});

test('storage full, then room again in the same session: the pending text is saved on the next flush', async () => {
  let full = true;
  const s = new Proxy(localStorage, {
    get(target, key) {
      if (key === 'setItem')
        return (k: string, v: string) => {
          if (full) throw new DOMException('full', 'QuotaExceededError');
          target.setItem(k, v);
        };
      const v = Reflect.get(target, key);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  env.stop = startNotes({ storage: s });
  editNote(firstId(), 'kept while full');
  await env.dom.tick(1000);
  assert.is(notes.getSnapshot().problem, 'full');
  full = false;
  env.dom.pagehide();
  assert.is(stored().notes[0].text, 'kept while full');
  assert.is(notes.getSnapshot().problem, undefined, 'the notice goes away once saved');
});

test('storage unavailable: a notice, and notes still work for the session', async () => {
  env.stop = startNotes({ storage: null });
  assert.is(notes.getSnapshot().problem, 'unavailable');
  editNote(firstId(), 'only in memory');
  const id = addNote();
  await env.dom.tick(2000);
  assert.equal(texts(), ['only in memory', '']);
  assert.ok(id);
});

test("another tab's save shows up here, and our newer unsaved text is not overwritten", async () => {
  env.stop = startNotes();
  const first = firstId();
  await env.dom.tick(10); // notes sort by creation time: "Add note" comes after the page's load
  const b = addNote();
  editNote(b, 'ours, typed just now');
  const other = {
    v: 1,
    notes: [
      { id: first, text: 'theirs, newer', at: Date.now() + 1 },
      { id: b, text: 'theirs, older', at: 1 },
      { id: 'zz', text: 'their new note', at: Date.now() },
    ],
    gone: {},
  };
  const value = JSON.stringify(other);
  localStorage.setItem(NOTES_KEY, value); // what the other tab wrote
  env.dom.win.dispatchEvent(new env.dom.win.StorageEvent('storage', { key: NOTES_KEY, newValue: value }));
  assert.equal(texts(), ['theirs, newer', 'ours, typed just now', 'their new note']);
  await env.dom.tick(1000);
  assert.equal(
    stored().notes.map((n: { text: string }) => n.text),
    ['theirs, newer', 'ours, typed just now', 'their new note'],
    'the merge is stored for the other tab',
  );
});

test('a note restored from a clock a year fast: an edit and a delete here stick, against the other tab and after a reload', async () => {
  const yearAhead = Date.now() + 365 * 24 * 60 * 60 * 1000;
  env.stop = startNotes();
  const restored = [
    { id: 'edit-me', text: 'written a year ahead', at: yearAhead },
    { id: 'delete-me', text: 'also a year ahead', at: yearAhead },
  ];
  assert.equal(
    restoreNotes((here) => mergeBackup(here, restored, Date.now())),
    { added: 2, updated: 0, broughtBack: 0, newerHere: 0 },
  );
  const otherTab = localStorage.getItem(NOTES_KEY) ?? ''; // what the second tab holds: the restore
  editNote('edit-me', 'edited here, now');
  deleteNote('delete-me');
  env.dom.win.dispatchEvent(new env.dom.win.StorageEvent('storage', { key: NOTES_KEY, newValue: otherTab }));
  await env.dom.tick(1000);
  // The fresh start's untouched empty note went with the restore: the file brought notes.
  assert.equal(texts(), ['edited here, now']);
  env.stop();
  env.stop = startNotes();
  assert.equal(texts(), ['edited here, now']);
});

test('a `__proto__` note deleted here stays deleted when the other tab sends the note back, and the two tabs settle', async () => {
  localStorage.setItem(NOTES_KEY, '{"v":1,"notes":[{"id":"__proto__","text":"odd id","at":5}],"gone":{}}');
  env.stop = startNotes();
  const before = localStorage.getItem(NOTES_KEY) ?? '';
  deleteNote('__proto__');
  flushNotes();
  const afterDelete = localStorage.getItem(NOTES_KEY);
  env.dom.win.dispatchEvent(new env.dom.win.StorageEvent('storage', { key: NOTES_KEY, newValue: before }));
  assert.equal(texts(), []);
  await env.dom.tick(1000);
  assert.is(localStorage.getItem(NOTES_KEY), afterDelete, 'nothing new to store: the tab that sent the note gets the same tombstone back');
  assert.equal(Object.keys(stored().gone), ['__proto__']);
});

test('a note deleted in another tab disappears here; events for other keys are ignored', () => {
  env.stop = startNotes();
  editNote(firstId(), 'to be deleted elsewhere');
  flushNotes();
  const other = JSON.stringify({ v: 1, notes: [], gone: { [firstId()]: Date.now() + 1 } });
  env.dom.win.dispatchEvent(new env.dom.win.StorageEvent('storage', { key: 'something-else', newValue: other }));
  assert.equal(texts(), ['to be deleted elsewhere']);
  env.dom.win.dispatchEvent(new env.dom.win.StorageEvent('storage', { key: NOTES_KEY, newValue: other }));
  assert.equal(texts(), []);
});
test.run();
