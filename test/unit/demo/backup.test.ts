// The notes backup file: what is written, what is refused (one sentence each, nothing taken), and
// how a backup merges into this device's notes. Restoring through the store: one write or none.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { APP_NAME } from '../../../src/contract/app-name';
import {
  backupFileName,
  backupText,
  BACKUP_FORMAT,
  MAX_BACKUP_BYTES,
  limitProblem,
  mergeBackup,
  readBackup,
  sizeProblem,
  type Backup,
} from '../../../src/notes/backup';
import { MAX_NOTES, merge, newId, type Doc, type Note } from '../../../src/notes/model';
import { editNote, NOTES_KEY, notes, restoreNotes, startNotes } from '../../../src/notes/store';
import { domPerTest, tinyStorage } from '../dom';
import { present } from '../../present';

const format = suite('notes backup format');
const NOTES: Note[] = [
  { id: 'a', text: 'groceries', at: 1_700_000_000_000 },
  { id: 'b', text: 'line one\nline two "quoted" ünïcödé', at: 1_700_000_000_500 },
];
const valid = (patch: Partial<Record<keyof Backup, unknown>> = {}) =>
  JSON.stringify({ format: BACKUP_FORMAT, version: 1, app: APP_NAME, savedAt: '2026-01-02T03:04:05.000Z', notes: NOTES, ...patch });

format('a backup is versioned JSON with every note id, text and edit time, and reads back to the same notes', () => {
  const text = backupText(NOTES, new Date('2026-01-02T03:04:05Z'));
  const data = JSON.parse(text);
  assert.equal(data, { format: 'notes-backup', version: 1, app: APP_NAME, savedAt: '2026-01-02T03:04:05.000Z', notes: NOTES });
  assert.equal(readBackup(text), { notes: NOTES });
  assert.equal(readBackup(backupText([], new Date())), { notes: [] }, 'no notes is a valid backup');
});

format('the file is named <app-name>-notes-YYYY-MM-DD.json by the local date', () => {
  assert.is(backupFileName(new Date(2026, 0, 2, 23, 59)), `${APP_NAME}-notes-2026-01-02.json`);
  assert.is(backupFileName(new Date(2026, 10, 23, 0, 1)), `${APP_NAME}-notes-2026-11-23.json`);
});

format('a note keeps only its id, text and time: anything else in the file is not taken', () => {
  const read = readBackup(valid({ notes: [{ ...NOTES[0], script: '<img onerror>' }] }));
  assert.equal(read, { notes: [NOTES[0]] });
});

format('refuses, with one sentence each: not JSON, not a backup, another version, no list, a note of wrong types, too large', () => {
  const refused = (text: string) => {
    const read = readBackup(text);
    assert.ok('refused' in read, `refused: ${text.slice(0, 60)}`);
    return 'refused' in read ? read.refused : '';
  };
  assert.is(refused('{"format": "notes-backup", '), 'This file is not a notes backup: it is not valid JSON.');
  assert.is(refused(''), 'This file is not a notes backup: it is not valid JSON.');
  for (const other of ['null', '42', '"text"', '[]', '{}', JSON.stringify({ notes: NOTES }), valid({ format: 'other' })])
    assert.is(refused(other), 'This file is not a notes backup.', other);
  assert.is(refused(valid({ version: 2 })), 'This backup has format version 2; this app reads version 1.');
  assert.is(refused(valid({ notes: 'groceries' })), 'This backup is damaged: it has no list of notes.');
  assert.is(refused(valid({ notes: [NOTES[0], { id: 'b', text: 7, at: 1 }] })), 'This backup is damaged: note 2 has no text.');
  assert.is(refused(valid({ notes: [{ text: 'x', at: 1 }] })), 'This backup is damaged: note 1 has no id.');
  assert.is(refused(valid({ notes: [{ id: '', text: 'x', at: 1 }] })), 'This backup is damaged: note 1 has no id.');
  assert.is(
    refused(valid({ notes: [{ id: 'a', text: 'x', at: '2026-01-01' }] })),
    'This backup is damaged: note 1 has no valid edit time.',
  );
  assert.is(refused(valid({ notes: [{ id: 'a', text: 'x', at: -1 }] })), 'This backup is damaged: note 1 has no valid edit time.');
  assert.is(refused(valid({ notes: [null] })), 'This backup is damaged: note 1 is not a note.');
  const tooLarge = 'This file is larger than 16 MB, more than any device keeps of notes, so it is not a notes backup.';
  assert.is(refused(valid({ notes: [{ id: 'a', text: 'x'.repeat(MAX_BACKUP_BYTES), at: 1 }] })), tooLarge);
  assert.is(sizeProblem(MAX_BACKUP_BYTES), undefined, 'exactly 16 MB is read');
  assert.is(sizeProblem(MAX_BACKUP_BYTES + 1), tooLarge);
});
format(
  'takes whatever a device can hold: 16 MB, any note length; more than 10,000 notes (the editor stops at it) is refused in one sentence',
  () => {
    // localStorage's 5,242,880 code units of notes, every one of them 3 bytes of UTF-8 (Chinese): the largest backup a device makes.
    const largest = Array.from({ length: 512 }, (_, index) => ({ id: `n${index}`, text: '汉'.repeat(10_000), at: index + 1 }));
    const text = backupText(largest, new Date());
    assert.ok(new Blob([text]).size > 15_000_000 && new Blob([text]).size <= MAX_BACKUP_BYTES);
    assert.equal(readBackup(text), { notes: largest });
    const oneNote = [{ id: 'long', text: 'x'.repeat(5_000_000), at: 1 }];
    assert.equal(readBackup(backupText(oneNote, new Date())), { notes: oneNote }, 'one note as long as the device holds');
    const many = Array.from({ length: MAX_NOTES + 1 }, (_, index) => ({ id: `n${index}`, text: '', at: 1 }));
    assert.equal(readBackup(valid({ notes: many })), { refused: 'This backup has 10,001 notes; this app keeps at most 10,000.' });
    assert.ok('notes' in readBackup(valid({ notes: many.slice(1) })), 'exactly 10,000 notes are taken');
    assert.is(limitProblem(many.slice(1)), undefined);
    assert.equal(readBackup(valid({ notes: [NOTES[0], NOTES[1], { ...NOTES[0], text: 'again' }] })), {
      refused: 'This backup is damaged: notes 1 and 3 have the same id.',
    });
  },
);

format('ids named like Object.prototype members are read and merged as any other id', () => {
  const odd: Note[] = ['__proto__', 'constructor', 'toString'].map((id, index) => ({ id, text: `note ${id}`, at: index + 1 }));
  const read = readBackup(backupText(odd, new Date()));
  assert.equal(read, { notes: odd });
  const { doc: merged, added, newerHere } = mergeBackup(doc([{ id: 'constructor', text: 'newer here', at: 50 }]), odd, 100);
  assert.equal([added, newerHere], [2, 1]);
  assert.equal(
    merged.notes.map((note) => `${note.id}: ${note.text}`),
    ['__proto__: note __proto__', 'constructor: newer here', 'toString: note toString'],
  );
});
format.run();

const merging = suite('notes backup merge');
/** A notes document; tombstones as [id, time] pairs (ids are never object keys). */
const doc = (list: Note[], gone: [string, number][] = []): Doc => ({ notes: list, gone: new Map(gone) });

merging('merges by id: the newer edit wins either way, notes only on this device stay, new ones are added', () => {
  const here = doc([
    { id: 'a', text: 'newer here', at: 20 },
    { id: 'b', text: 'older here', at: 5 },
    { id: 'only-here', text: 'kept', at: 1 },
  ]);
  const backup: Note[] = [
    { id: 'a', text: 'older in the backup', at: 10 },
    { id: 'b', text: 'newer in the backup', at: 15 },
    { id: 'c', text: 'only in the backup', at: 3 },
  ];
  const { doc: merged, ...counts } = mergeBackup(here, backup, 100);
  assert.equal(merged.notes, [
    { id: 'a', text: 'newer here', at: 20 },
    { id: 'b', text: 'newer in the backup', at: 15 },
    { id: 'c', text: 'only in the backup', at: 3 },
    { id: 'only-here', text: 'kept', at: 1 },
  ]);
  assert.equal(
    counts,
    { added: 1, updated: 1, broughtBack: 0, newerHere: 1 },
    'the older text of a note edited here is counted, not silent',
  );
  assert.equal(
    mergeBackup(merged, backup, 200),
    { doc: merged, added: 0, updated: 0, broughtBack: 0, newerHere: 1 },
    'restoring the same file again changes nothing',
  );
});

merging('a restore is an undo: a note deleted here after the backup was made comes back, and stays back against the deletion', () => {
  const here = doc([{ id: 'a', text: 'a', at: 1 }], [['gone', 50]]);
  const { doc: merged, ...counts } = mergeBackup(here, [{ id: 'gone', text: 'from before the delete', at: 40 }], 30);
  assert.equal(counts, { added: 0, updated: 0, broughtBack: 1, newerHere: 0 });
  // Stamped after its deletion (the clock here is behind it): the tombstone any tab still holds loses to it.
  assert.equal(merged.notes, [
    { id: 'a', text: 'a', at: 1 },
    { id: 'gone', text: 'from before the delete', at: 51 },
  ]);
  assert.equal(merge(merged, here), merged, 'a tab that still has the deletion keeps the note back once it merges');
  assert.equal(mergeBackup(doc([], [['gone', 50]]), [{ id: 'gone', text: 'edited after', at: 60 }], 70).broughtBack, 1);
});

merging('two devices: first notes that share the id `0` of versions before random ids, with other texts, stay two notes', () => {
  // Both devices ran a version that gave every fresh profile's first note the id `0`.
  const here = doc([{ id: '0', text: 'typed on this device', at: 1_700_000_500_000 }]);
  const fileNotes: Note[] = [{ id: '0', text: 'typed on the other device', at: 1_700_000_000_000 }];
  const { doc: merged, ...counts } = mergeBackup(here, fileNotes, 1_700_000_900_000);
  assert.equal(
    merged.notes.map((note) => note.text),
    ['typed on this device', 'typed on the other device'],
  );
  assert.equal(counts, { added: 1, updated: 0, broughtBack: 0, newerHere: 0 });
  assert.equal(mergeBackup(merged, fileNotes, 1_700_000_900_001).doc, merged, 'the same file again: the same two notes, no third');
  // The same text under `0` is the same note.
  assert.equal(mergeBackup(here, [{ ...here.notes[0], at: 5 }], 1_700_000_900_000).doc, here);
});

merging('new ids are random, unique across devices, and still sort by creation time', () => {
  const ids = Array.from({ length: 1000 }, () => newId());
  assert.is(new Set(ids).size, ids.length);
  assert.ok(
    ids.every((id) => id !== '0' && /^[0-9a-z]+-[0-9a-z]{21}$/.test(id)),
    ids[0],
  );
  // Two profiles started in the same millisecond still differ in 96 random bits.
  assert.not.equal(ids[0].split('-')[1], ids[1].split('-')[1]);
});
merging.run();

const restoring = suite('notes restore (store)');
const env = domPerTest(restoring);
restoring.before.each(() => {
  localStorage.setItem(NOTES_KEY, JSON.stringify({ v: 1, notes: [{ id: 'a', text: 'here', at: 5 }], gone: {} }));
});

/** The device's storage, counting the writes of `key`. */
function countingWrites(storage: Storage, key: string): { storage: Storage; writes: () => number } {
  let writes = 0;
  const counted = new Proxy(storage, {
    get(target, name) {
      if (name === 'setItem')
        return (k: string, v: string) => {
          if (k === key) writes++;
          target.setItem(k, v);
        };
      const value = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { storage: counted, writes: () => writes };
}

restoring('the merged notes are written in one setItem, with the pending edits, and shown', () => {
  const { storage, writes } = countingWrites(localStorage, NOTES_KEY);
  env.stop = startNotes({ storage });
  editNote('a', 'typed, not saved yet');
  assert.equal(
    restoreNotes((here) => mergeBackup(here, [{ id: 'b', text: 'restored', at: 3 }], Date.now())),
    { added: 1, updated: 0, broughtBack: 0, newerHere: 0 },
  );
  assert.is(writes(), 1);
  assert.equal(
    JSON.parse(present(localStorage.getItem(NOTES_KEY), 'the notes in localStorage')).notes.map((note: Note) => note.text),
    ['typed, not saved yet', 'restored'],
  );
  assert.equal(
    notes.getSnapshot().notes.map((note) => note.text),
    ['typed, not saved yet', 'restored'],
  );
});

restoring('storage full: refused, and nothing changes, stored or on screen', () => {
  const before = localStorage.getItem(NOTES_KEY);
  env.stop = startNotes({ storage: tinyStorage(50) });
  assert.equal(
    restoreNotes((here) => mergeBackup(here, [{ id: 'b', text: 'x'.repeat(100), at: 3 }], Date.now())),
    { problem: 'full' },
  );
  assert.is(localStorage.getItem(NOTES_KEY), before);
  assert.equal(
    notes.getSnapshot().notes.map((note) => note.text),
    ['here'],
  );
});
restoring.run();
