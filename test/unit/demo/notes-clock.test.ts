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
// no deletions, and brings back (an edit of the restoring tab's) each held note that tab deleted. Then the same on the device documents themselves, with their storage events.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeBackup } from '../../../src/notes/backup';
import { EMPTY_DOC, merge, recover, toStored, withEdit, withNewNote, withoutNote, type Doc, type Note } from '../../../src/notes/model';
import { NOTES_DOCUMENT, NOTES_KEY } from '../../../src/notes/store';
import { createDeviceDocument, type DeviceDocument } from '../../../src/stored-data/device-document';
import { domPerTest } from '../dom';

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
      // A restore is an undo: each note of the file that this tab deleted comes back, with the file's text (an edit of this tab's).
      const broughtBack = backup.notes.filter((note) => tab.doc.gone.has(note.id) && !tab.doc.notes.some((here) => here.id === note.id));
      tab.doc = mergeBackup(tab.doc, backup.notes, now).doc;
      for (const operation of backup.seen) tab.seen.add(operation);
      for (const note of broughtBack) record(tab, note.id, 'edit', note.text, now <= (tab.doc.gone.get(note.id) ?? 0));
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
  for (let seed = 1; seed <= 150; seed++) {
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

const tabs = suite('notes in three tabs of one browser (device documents, storage events)');
const env = domPerTest(tabs);

/**
 * Three device documents of the notes on one localStorage, as three tabs are. Each write queues
 * a `storage` event, delivered later in a random order. (Here a tab also gets its own events,
 * which browsers do not send; merging what it wrote itself changes nothing.)
 */
function openTabs(next: () => number): {
  documents: DeviceDocument<Doc>[];
  stops: (() => void)[];
  deliver(all: boolean): void;
  pending(): number;
} {
  const queue: { key: string; newValue: string }[] = [];
  const storage = new Proxy(localStorage, {
    get(target, name) {
      if (name === 'setItem')
        return (key: string, value: string) => {
          const before = target.getItem(key);
          target.setItem(key, value);
          // As browsers do: no event when the value did not change.
          if (before !== value) queue.push({ key, newValue: value });
        };
      const value = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const documents = [0, 1, 2].map(() => createDeviceDocument(NOTES_DOCUMENT));
  const stops = documents.map((document) => document.start({ storage }));
  const deliver = (all: boolean) => {
    while (queue.length) {
      const [event] = queue.splice(Math.floor(next() * queue.length), 1);
      env.dom.win.dispatchEvent(new env.dom.win.StorageEvent('storage', event));
      if (!all) return;
    }
  };
  return { documents, stops, deliver, pending: () => queue.length };
}

tabs('random edits, deletes and restores on skewed clocks: the tabs and the stored notes converge, and then stop writing', async () => {
  for (let seed = 1; seed <= 20; seed++) {
    localStorage.clear();
    const next = random(seed);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
    const { documents, stops, deliver, pending } = openTabs(next);
    const skews = [0, YEAR, -YEAR];
    const backups: Note[][] = [];
    let idsUsed = 0;
    for (let step = 0; step < 60; step++) {
      const tab = Math.floor(next() * 3);
      const document = documents[tab];
      const doc = document.getSnapshot().doc;
      const now = Date.now() + skews[tab];
      const roll = next();
      if (roll < 0.15 || (roll < 0.5 && !doc.notes.length)) document.change(withNewNote(doc, SPECIAL_IDS[idsUsed++] ?? `n${idsUsed}`, now));
      else if (roll < 0.4) document.change(withEdit(doc, pick(doc.notes).id, `seed ${seed} step ${step}`, now));
      else if (roll < 0.5) document.change(withoutNote(doc, pick(doc.notes).id, now));
      else if (roll < 0.55) backups.push(doc.notes);
      else if (roll < 0.6 && backups.length) document.restore(mergeBackup(doc, pick(backups), now).doc);
      else if (roll < 0.8) deliver(false);
      else if (roll < 0.9) await env.dom.tick(Math.floor(next() * 1500));
      else document.flush(); // pagehide, a hidden tab, a reload
    }
    // Quiet: events delivered, saves run, until no tab writes any more (a few rounds at most).
    let rounds = 0;
    for (; rounds < 10 && (pending() || rounds === 0); rounds++) {
      deliver(true);
      await env.dom.tick(1000);
    }
    assert.ok(rounds < 10, `seed ${seed}: the tabs stopped writing after ${rounds} rounds`);
    const storedText = JSON.stringify(recover(JSON.parse(localStorage.getItem(NOTES_KEY) ?? 'null')).doc.notes);
    for (const document of documents)
      assert.is(JSON.stringify(document.getSnapshot().doc.notes), storedText, `seed ${seed}: every tab shows what is stored`);
    for (const stop of stops) stop();
  }
});

tabs.run();
