// When a reload the app makes on its own may happen: at a moment the person is not in the middle
// of something. A reload while keys are arriving sends the next keystrokes into a page that is
// going away, or into the new page where nothing has the focus: measured before this rule, 45 of
// 60 keys typed through a reconnect reload were lost in Chromium. So every automatic reload waits
// until the tab is visible, no key, `input` or IME composition came for QUIET_AFTER_INPUT_MS, and
// no pointer is held down, no file chooser is open and nothing is being dragged.
import { withinWindow } from '../core/clock';

/** How long after the last key, `input` or end of an IME composition the page counts as quiet. */
export const QUIET_AFTER_INPUT_MS = 2000;

/** What the person is in the middle of, as the connectivity log names it ("reload waits: typing"). */
export type BusyReason = 'hidden tab' | 'typing' | 'composing' | 'pointer held' | 'file chooser open' | 'dragging';

// Activity as the listeners of startQuietMomentWatch() record it. Module state: one page, one person.
let lastInputAt = Number.NEGATIVE_INFINITY;
let composing = false;
const pointersDown = new Set<number>();
let fileChooserOpen = false;
let dragging = false;
/** Called when a busy state ends by an event (pointer up, composition end, chooser closed, drag end). */
const releaseListeners = new Set<() => void>();

const notifyRelease = () => {
  for (const listener of [...releaseListeners]) listener();
};

/** What keeps the page from being quiet now, or undefined when a reload may happen. */
export function busyReason(now = Date.now()): BusyReason | undefined {
  // The clock moved back since the last input: count that input as now, so the wait is one
  // QUIET_AFTER_INPUT_MS, never the size of the jump.
  if (lastInputAt > now) lastInputAt = now;
  if (document.hidden) return 'hidden tab';
  if (composing) return 'composing';
  if (pointersDown.size > 0) return 'pointer held';
  if (fileChooserOpen) return 'file chooser open';
  if (dragging) return 'dragging';
  if (now - lastInputAt < QUIET_AFTER_INPUT_MS) return 'typing';
  return undefined;
}

/**
 * Calls `onQuiet` once, at the first quiet moment (at once when the page is quiet now), and
 * `onWait` with each new reason it waits for. Returns a cancel function.
 */
export function whenQuiet(onQuiet: () => void, onWait: (reason: BusyReason) => void = () => {}): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastReason: BusyReason | undefined;
  const stop = () => {
    clearTimeout(timer);
    releaseListeners.delete(check);
    document.removeEventListener('visibilitychange', check);
  };
  function check(): void {
    clearTimeout(timer);
    const now = Date.now();
    const reason = busyReason(now);
    if (!reason) {
      stop();
      onQuiet();
      return;
    }
    if (reason !== lastReason) onWait(reason);
    lastReason = reason;
    // Typing ends by the clock; every other state ends with an event that calls check() again.
    if (reason === 'typing') timer = setTimeout(check, withinWindow(lastInputAt + QUIET_AFTER_INPUT_MS - now, QUIET_AFTER_INPUT_MS));
  }
  releaseListeners.add(check);
  document.addEventListener('visibilitychange', check);
  check();
  return stop;
}

const onInput = () => {
  lastInputAt = Date.now();
};
const onCompositionStart = () => {
  composing = true;
};
const onCompositionEnd = () => {
  composing = false;
  lastInputAt = Date.now();
  notifyRelease();
};
const onPointerDown = (event: PointerEvent) => {
  pointersDown.add(event.pointerId);
};
const onPointerUp = (event: PointerEvent) => {
  if (!pointersDown.delete(event.pointerId)) return;
  notifyRelease();
};
// A file input's click opens the browser's chooser (also from the keyboard: Enter and Space click).
const onClick = (event: MouseEvent) => {
  const target = event.target;
  if (!(target instanceof HTMLInputElement) || target.type !== 'file') return;
  fileChooserOpen = true;
};
// The chooser closes with `change` (a file was chosen; `input` fired too, so the restore that
// reads the file gets its quiet time) or `cancel` (HTML: fired at the input when the user
// dismisses it; Chromium 113, Firefox 91, Safari 16.4).
const onChooserClosed = (event: Event) => {
  const target = event.target;
  if (!fileChooserOpen || !(target instanceof HTMLInputElement) || target.type !== 'file') return;
  fileChooserOpen = false;
  notifyRelease();
};
const onDragStart = () => {
  dragging = true;
};
const onDragEnd = () => {
  if (!dragging) return;
  dragging = false;
  notifyRelease();
};
// A browser without the `cancel` event (Safari before 16.4) says nothing when the chooser is
// dismissed, and a drag whose source element was removed gets its `dragend` at a detached node,
// which never reaches this window: either would hold every reload for good. Neither state
// outlives the page having the person back: the window's focus returns when the chooser closes,
// and no pointer moves or key goes to the page during a chooser or a drag (HTML's drag-and-drop
// suppresses pointer events), so any of these ends both.
const onPersonBack = () => {
  if (!fileChooserOpen && !dragging) return;
  fileChooserOpen = false;
  dragging = false;
  notifyRelease();
};
// A pointer released outside the window, or a tab switched away mid-press, sends no pointerup:
// losing the window's focus ends every press, so a missed release cannot hold a reload forever.
const onWindowBlur = () => {
  if (pointersDown.size === 0) return;
  pointersDown.clear();
  notifyRelease();
};

/** Starts recording the person's activity (keys, input, composition, pointers, file chooser, drag); returns a stop function. */
export function startQuietMomentWatch(): () => void {
  // Capture on window: the app's own handlers cannot hide an event from this record.
  const listeners: [string, EventListener][] = [
    ['keydown', onInput],
    ['input', onInput],
    ['compositionstart', onCompositionStart],
    ['compositionend', onCompositionEnd],
    ['pointerdown', onPointerDown as EventListener],
    ['pointerup', onPointerUp as EventListener],
    ['pointercancel', onPointerUp as EventListener],
    ['click', onClick as EventListener],
    ['change', onChooserClosed],
    ['cancel', onChooserClosed],
    ['dragstart', onDragStart],
    ['dragend', onDragEnd],
    ['drop', onDragEnd],
    ['focus', onPersonBack],
    ['pointermove', onPersonBack],
    ['keydown', onPersonBack],
  ];
  for (const [type, listener] of listeners) addEventListener(type, listener, true);
  addEventListener('blur', onWindowBlur);
  return () => {
    for (const [type, listener] of listeners) removeEventListener(type, listener, true);
    removeEventListener('blur', onWindowBlur);
    lastInputAt = Number.NEGATIVE_INFINITY;
    composing = false;
    pointersDown.clear();
    fileChooserOpen = false;
    dragging = false;
  };
}
