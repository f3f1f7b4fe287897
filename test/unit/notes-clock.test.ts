// The notes' clock and merge under random interleavings (property-style, with a seeded PRNG so a
// failure names the seed that reproduces it). Three tabs, one with a clock a year fast and one a
// year slow, edit, add, delete, take backups, restore them into any tab and merge with each other
// in random order. Checked at every run: every tab converges to the same notes whatever the order
// of merges, and no edit is lost.
//
// "Lost", precisely: for each note, take the last operation on it (add, edit or delete, in real
// time). If the tab that made it had by then seen every earlier operation on that note (through
// merges, or a backup that held the note), that operation is what every tab ends with: the
// note's text for an edit, no note for a delete. Operations that no tab saw before another
// changed the note are concurrent, and either may win; a restore carries each note it holds and
// no deletions.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeBackup } from '../../src/notes/backup';
import { EMPTY_DOC, merge, toStored, withEdit, withNewNote, withoutNote, type Doc, type Note } from '../../src/notes/model';

const YEAR = 365 * 24 * 60 * 60 * 1000;

/** mulberry32: a small seeded PRNG, so every run of a seed is the same run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One operation a tab made on one note, in real-time order; `informed`: its tab had seen every earlier operation on that note. */
interface Operation {
  serial: number;
  noteId: string;
  kind: 'add' | 'edit' | 'delete';
  text: string;
  informed: boolean;
  /** Its tab's clock was behind the time of the version it changed (the wall-clock rule would have lost it). */
  clockBehind: boolean;
}

/** A tab: its notes, its clock's offset from real time, and the operations it has seen. */
interface Tab {
  doc: Doc;
  skew: number;
  seen: Set<number>;
}

/** A backup file: the notes of a tab at one moment, and the operations on those notes that tab had seen. */
interface BackupFile {
  notes: Note[];
  seen: Set<number>;
}

/** Ids that are the names of Object.prototype's members come first: ids are data. */
const SPECIAL_IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

/** The same notes and tombstones, as JSON (what a tab stores). */
const stored = (doc: Doc): string => JSON.stringify(toStored(doc));

/** Runs one random history; returns how many last operations it checked, and how many of those a wall clock would have lost. */
function runHistory(seed: number, steps: number): { checked: number; clockBehind: number } {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  let realTime = 1_700_000_000_000;
  const tabs: Tab[] = [0, YEAR, -YEAR].map((skew) => ({ doc: EMPTY_DOC, skew, seen: new Set() }));
  const operations = new Map<string, Operation[]>();
  const backups: BackupFile[] = [];
  let serial = 0;
  let idsUsed = 0;
  const fail = (what: string) => `seed ${seed}: ${what}`;

  /** Records an operation of `tab` on `noteId`, judged against what the tab had seen. */
  function record(tab: Tab, noteId: string, kind: Operation['kind'], text: string, clockBehind: boolean): void {
    const earlier = operations.get(noteId) ?? [];
    const informed = earlier.every((operation) => tab.seen.has(operation.serial));
    const operation = { serial: ++serial, noteId, kind, text, informed, clockBehind };
    operations.set(noteId, [...earlier, operation]);
    tab.seen.add(operation.serial);
  }

  /** Tab `into` merges what tab `from` stored (a `storage` event). */
  function mergeTabs(into: Tab, from: Tab): void {
    into.doc = merge(into.doc, from.doc);
    for (const operation of from.seen) into.seen.add(operation);
  }

  for (let step = 0; step < steps; step++) {
    realTime += Math.floor(next() * 2000);
    const tab = pick(tabs);
    const now = realTime + tab.skew;
    const roll = next();
    const visible = tab.doc.notes;
    if (roll < 0.12 || (roll < 0.45 && visible.length === 0)) {
      const id = SPECIAL_IDS[idsUsed] ?? `n${idsUsed}`;
      idsUsed++;
      tab.doc = withNewNote(tab.doc, id, now);
      record(tab, id, 'add', '', false);
    } else if (roll < 0.35) {
      const note = pick(visible);
      const text = `${note.id} by tab ${tabs.indexOf(tab)} at step ${step}`;
      tab.doc = withEdit(tab.doc, note.id, text, now);
      record(tab, note.id, 'edit', text, now <= note.at);
    } else if (roll < 0.45) {
      const note = pick(visible);
      tab.doc = withoutNote(tab.doc, note.id, now);
      record(tab, note.id, 'delete', '', now <= note.at);
    } else if (roll < 0.75) {
      mergeTabs(tab, pick(tabs));
    } else if (roll < 0.85) {
      const heldIds = new Set(tab.doc.notes.map((note) => note.id));
      const seen = [...operations.values()].flat().filter((operation) => heldIds.has(operation.noteId) && tab.seen.has(operation.serial));
      backups.push({ notes: tab.doc.notes, seen: new Set(seen.map((operation) => operation.serial)) });
    } else if (backups.length) {
      const backup = pick(backups);
      tab.doc = mergeBackup(tab.doc, backup.notes).doc;
      for (const operation of backup.seen) tab.seen.add(operation);
    }
    const [a, b, c] = [pick(tabs).doc, pick(tabs).doc, pick(tabs).doc];
    assert.is(stored(merge(a, b)), stored(merge(b, a)), fail(`merge is commutative at step ${step}`));
    assert.is(stored(merge(merge(a, b), c)), stored(merge(a, merge(b, c))), fail(`merge is associative at step ${step}`));
    assert.is(stored(merge(merge(a, b), b)), stored(merge(a, b)), fail(`merging again changes nothing at step ${step}`));
    assert.is(stored(merge(a, a)), stored(merge(a, EMPTY_DOC)), fail(`a merge with itself only sorts, at step ${step}`));
  }

  // The tabs exchange storage events in a random order until each has merged every other.
  for (let round = 0; round < 3; round++) for (const into of tabs) mergeTabs(into, pick(tabs.filter((tab) => tab !== into)));
  for (const into of tabs) for (const from of tabs) mergeTabs(into, from);
  const final = stored(tabs[0].doc);
  for (const tab of tabs) assert.is(stored(tab.doc), final, fail('every tab converges to the same notes'));
  const finalNotes = new Map(tabs[0].doc.notes.map((note) => [note.id, note.text]));

  let checked = 0;
  let clockBehind = 0;
  for (const [noteId, history] of operations) {
    const last = history[history.length - 1];
    if (!last.informed) continue;
    checked++;
    if (last.clockBehind) clockBehind++;
    if (last.kind === 'delete') assert.not.ok(finalNotes.has(noteId), fail(`note ${noteId} stays deleted (serial ${last.serial})`));
    else assert.is(finalNotes.get(noteId), last.text, fail(`note ${noteId} keeps its last edit (serial ${last.serial})`));
  }
  return { checked, clockBehind };
}

const test = suite('notes clock and merge (random histories)');

test('three tabs, one a year fast and one a year slow: all converge, and the last informed edit or delete of each note wins', () => {
  let checked = 0;
  let clockBehind = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const run = runHistory(seed, 80);
    checked += run.checked;
    clockBehind += run.clockBehind;
  }
  // The runs really exercise the claim: many last operations were checked, and in many of them
  // the tab's clock was behind the version it changed (a wall-clock time would have lost those).
  assert.ok(checked > 1000, `${checked} last operations checked`);
  assert.ok(clockBehind > 100, `${clockBehind} of them made on a clock behind the version they changed`);
});

test.run();
