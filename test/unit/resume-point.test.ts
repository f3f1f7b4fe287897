// The resume point: saved before a reload the app makes, restored once after it (the same field,
// caret and selection direction), forgotten after use, never stealing a focus the person already
// moved, and silent when its field is gone. The scroll is proven in real Chromium
// (test/e2e/reconnect-quiet.test.ts): happy-dom has no layout to scroll.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RESUME_KEY, RESUME_MAX_AGE_MS, saveResumePoint, startFocusMemory } from '../../src/reload/resume-point';
import { resumeAfterReload } from '../../src/reload/resume-restore';
import { installDom, type FakeDom } from './dom';

const test = suite('resume point');
let dom: FakeDom;
let stopMemory: () => void;
let stopResume: (() => void) | undefined;

/** The page as the app renders it: two notes and a button. */
function render(): void {
  dom.win.document.body.innerHTML =
    '<textarea id="note-a">first note</textarea><textarea id="note-b">second note, longer</textarea><button>Reload to update</button>';
}

const field = (id: string) => dom.win.document.getElementById(id) as unknown as HTMLTextAreaElement;
const active = () => dom.win.document.activeElement?.id || dom.win.document.activeElement?.tagName;

/** What a reload does to the page: a new document (the same sessionStorage), rendered again. */
async function reload(renderAfter = true): Promise<void> {
  stopResume?.();
  dom.win.document.body.innerHTML = '';
  (dom.win.document.activeElement as unknown as HTMLElement | null)?.blur?.();
  stopResume = resumeAfterReload();
  if (renderAfter) render();
  await dom.settle();
}

test.before.each(() => {
  dom = installDom();
  stopMemory = startFocusMemory();
  render();
});
test.after.each(() => {
  stopResume?.();
  stopResume = undefined;
  stopMemory();
  dom.uninstall();
});

test('the focused field, its selection and direction come back after the reload, once the screen rendered it', async () => {
  field('note-b').focus();
  field('note-b').setSelectionRange(3, 9, 'backward');
  saveResumePoint();
  await reload();
  assert.is(active(), 'note-b');
  assert.equal([field('note-b').selectionStart, field('note-b').selectionEnd, field('note-b').selectionDirection], [3, 9, 'backward']);
});

test('used once: a second load of the page restores nothing', async () => {
  field('note-a').focus();
  saveResumePoint();
  await reload();
  assert.is(active(), 'note-a');
  assert.is(sessionStorage.getItem(RESUME_KEY), null, 'forgotten once read');
  await reload();
  assert.is.not(active(), 'note-a');
});

test('after "Reload to update" took the focus, the note being edited is where the person comes back', async () => {
  field('note-a').focus();
  field('note-a').setSelectionRange(5, 5);
  (dom.win.document.querySelector('button') as unknown as HTMLButtonElement).focus();
  saveResumePoint();
  await reload();
  assert.is(active(), 'note-a');
  assert.equal([field('note-a').selectionStart, field('note-a').selectionEnd], [5, 5]);
});

test('never steals a focus the person already moved: a click before the restore wins', async () => {
  field('note-b').focus();
  saveResumePoint();
  await reload(false);
  // The person clicks into the first note before the screen rendered the second.
  dom.win.dispatchEvent(new dom.win.PointerEvent('pointerdown'));
  render();
  field('note-a').focus();
  await dom.settle();
  assert.is(active(), 'note-a');
});

test('a field that no longer exists restores nothing and raises nothing', async () => {
  field('note-b').focus();
  saveResumePoint();
  await reload(false);
  dom.win.document.body.innerHTML = '<textarea id="note-a">first note</textarea>';
  await dom.tick(10_000);
  assert.is(active(), 'BODY');
  // It gave up: the field appearing much later is not focused behind the person's back.
  render();
  await dom.settle();
  assert.is(active(), 'BODY');
});

test('a resume point saved long before the reload (one that did not happen then) is ignored', async () => {
  field('note-a').focus();
  saveResumePoint();
  await dom.tick(RESUME_MAX_AGE_MS + 1);
  await reload();
  assert.is(active(), 'BODY');
});

test('a resume point stamped in the future (the clock moved back since it was saved) is no recent one: ignored', async () => {
  field('note-a').focus();
  saveResumePoint();
  // Saved, not used then; the clock is set back an hour: by the clock, that point is from the future.
  dom.moveClock(-60 * 60 * 1000);
  await reload();
  assert.is(active(), 'BODY');
});

test('site data blocked (no sessionStorage): the resume point crosses the reload in the history entry, once', async () => {
  Object.defineProperty(dom.win, 'sessionStorage', {
    configurable: true,
    get() {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    },
  });
  field('note-b').focus();
  field('note-b').setSelectionRange(3, 7);
  assert.ok(saveResumePoint(), 'kept');
  await reload();
  assert.is(active(), 'note-b');
  assert.equal([field('note-b').selectionStart, field('note-b').selectionEnd], [3, 7]);
  await reload();
  assert.is(active(), 'BODY', 'used once');
});

test('unreadable stored text is ignored', async () => {
  sessionStorage.setItem(RESUME_KEY, '{not json');
  await reload();
  assert.is(active(), 'BODY');
  assert.is(sessionStorage.getItem(RESUME_KEY), null);
});

test.run();
