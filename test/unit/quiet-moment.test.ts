// The quiet-moment rule on a fake clock: a reload the app makes on its own waits while keys,
// input or an IME composition keep coming, while a pointer is held, a file chooser is open or
// text is dragged, and while the tab is hidden; it follows the first quiet moment.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { QUIET_AFTER_INPUT_MS, startQuietMomentWatch, whenQuiet, type BusyReason } from '../../src/reload/quiet-moment';
import { installDom, type FakeDom } from './dom';

const test = suite('quiet moment');
let dom: FakeDom;
let stopWatch: () => void;
let cancel: (() => void) | undefined;
/** When (ms after the start) the quiet moment came; one entry per call, so a second call would show. */
let quietAt: number[];
let waits: BusyReason[];
const t0 = 1_700_000_000_000;

/** Waits for the quiet moment from now, recording when it comes and what it waited for. */
function waitForQuiet(): void {
  cancel = whenQuiet(
    () => quietAt.push(Date.now() - t0),
    (reason) => waits.push(reason),
  );
}

/** One key press as the browser sends it: keydown, then input at the field. */
function press(): void {
  dom.win.dispatchEvent(new dom.win.KeyboardEvent('keydown', { key: 'a' }));
  dom.win.dispatchEvent(new dom.win.Event('input'));
}

const pointer = (type: 'pointerdown' | 'pointerup', pointerId = 1) => dom.win.dispatchEvent(new dom.win.PointerEvent(type, { pointerId }));

test.before.each(() => {
  dom = installDom({ start: t0 });
  stopWatch = startQuietMomentWatch();
  quietAt = [];
  waits = [];
});
test.after.each(() => {
  cancel?.();
  stopWatch();
  dom.uninstall();
});

test('a page nobody touched is quiet at once', () => {
  waitForQuiet();
  assert.equal(quietAt, [0]);
  assert.equal(waits, []);
});

test('typing that never pauses for 2 s is never quiet; the quiet moment comes 2 s after the last key', async () => {
  press();
  waitForQuiet();
  // A key every 1.5 s for a minute: never 2 s without one.
  for (let elapsed = 0; elapsed < 60_000; elapsed += 1500) {
    await dom.tick(1500);
    press();
  }
  assert.equal(quietAt, [], 'no quiet moment while the keys keep coming');
  assert.equal(waits, ['typing'], 'one wait, for typing');
  await dom.tick(QUIET_AFTER_INPUT_MS - 1);
  assert.equal(quietAt, []);
  await dom.tick(1);
  assert.equal(quietAt, [62_000], 'quiet exactly 2 s after the last key, pressed at 60 s');
});

test('an IME composition holds it until it ends, then 2 s more', async () => {
  dom.win.dispatchEvent(new dom.win.CompositionEvent('compositionstart'));
  waitForQuiet();
  await dom.tick(30_000);
  assert.equal(quietAt, [], 'a composition open for 30 s, no keys: still not quiet');
  dom.win.dispatchEvent(new dom.win.CompositionEvent('compositionend'));
  await dom.tick(QUIET_AFTER_INPUT_MS);
  assert.equal(quietAt, [32_000]);
  assert.equal(waits, ['composing', 'typing']);
});

test('a pointer held down holds it, however long; releasing it makes the moment quiet', async () => {
  pointer('pointerdown');
  waitForQuiet();
  await dom.tick(45_000);
  assert.equal(quietAt, []);
  pointer('pointerup');
  await dom.settle();
  assert.equal(quietAt, [45_000]);
  assert.equal(waits, ['pointer held']);
});

test('two fingers: quiet only once both are lifted; a lost window focus ends every press', async () => {
  pointer('pointerdown', 1);
  pointer('pointerdown', 2);
  waitForQuiet();
  pointer('pointerup', 1);
  await dom.tick(1000);
  assert.equal(quietAt, [], 'one finger still down');
  pointer('pointerup', 2);
  assert.equal(quietAt, [1000]);
  pointer('pointerdown', 3);
  waitForQuiet();
  // Released outside the window: no pointerup ever comes.
  dom.win.dispatchEvent(new dom.win.Event('blur'));
  assert.equal(quietAt, [1000, 1000]);
});

test('an open file chooser holds it until a file is chosen (then 2 s for reading it) or the chooser is dismissed', async () => {
  const input = dom.win.document.createElement('input');
  input.type = 'file';
  dom.win.document.body.appendChild(input);
  input.dispatchEvent(new dom.win.MouseEvent('click', { bubbles: true }));
  waitForQuiet();
  await dom.tick(20_000);
  assert.equal(quietAt, [], 'the chooser is open');
  input.dispatchEvent(new dom.win.Event('cancel', { bubbles: true }));
  assert.equal(quietAt, [20_000], 'dismissed: quiet');
  input.dispatchEvent(new dom.win.MouseEvent('click', { bubbles: true }));
  waitForQuiet();
  await dom.tick(5000);
  // A file chosen: the input fires `input`, then `change`, and the app reads the file.
  input.dispatchEvent(new dom.win.Event('input', { bubbles: true }));
  input.dispatchEvent(new dom.win.Event('change', { bubbles: true }));
  await dom.tick(QUIET_AFTER_INPUT_MS - 1);
  assert.equal(quietAt, [20_000]);
  await dom.tick(1);
  assert.equal(quietAt, [20_000, 27_000]);
  assert.equal(waits, ['file chooser open', 'file chooser open', 'typing']);
});

test('dragging text holds it until the drop', async () => {
  dom.win.dispatchEvent(new dom.win.Event('dragstart'));
  waitForQuiet();
  await dom.tick(10_000);
  assert.equal(quietAt, []);
  dom.win.dispatchEvent(new dom.win.Event('drop'));
  assert.equal(quietAt, [10_000]);
  assert.equal(waits, ['dragging']);
});

test('a chooser dismissed where no `cancel` event comes, or a drag whose element was removed, holds it only until the person is back', async () => {
  const input = dom.win.document.createElement('input');
  input.type = 'file';
  dom.win.document.body.appendChild(input);
  input.dispatchEvent(new dom.win.MouseEvent('click', { bubbles: true }));
  waitForQuiet();
  await dom.tick(5000);
  assert.equal(quietAt, []);
  // Dismissed in a browser without `cancel`: the window gets its focus back, and nothing else.
  dom.win.dispatchEvent(new dom.win.FocusEvent('focus'));
  assert.equal(quietAt, [5000]);
  // A drag whose source was removed mid-drag: its dragend goes to a detached element, never to the window.
  const source = dom.win.document.createElement('p');
  dom.win.document.body.appendChild(source);
  source.dispatchEvent(new dom.win.Event('dragstart', { bubbles: true }));
  source.remove();
  source.dispatchEvent(new dom.win.Event('dragend', { bubbles: true }));
  waitForQuiet();
  await dom.tick(5000);
  assert.equal(quietAt, [5000], 'still dragging, as far as the window heard');
  dom.win.dispatchEvent(new dom.win.PointerEvent('pointermove', { pointerId: 1 }));
  assert.equal(quietAt, [5000, 10_000], 'the pointer moves over the page again: the drag is over');
  assert.equal(waits, ['file chooser open', 'dragging']);
});

test('a hidden tab waits until it is shown', async () => {
  dom.setHidden(true);
  waitForQuiet();
  await dom.tick(60_000);
  assert.equal(quietAt, []);
  dom.setHidden(false);
  assert.equal(quietAt, [60_000]);
  assert.equal(waits, ['hidden tab']);
});

test('cancelled, it never fires', async () => {
  press();
  waitForQuiet();
  cancel?.();
  await dom.tick(60_000);
  assert.equal(quietAt, []);
});

test.run();
