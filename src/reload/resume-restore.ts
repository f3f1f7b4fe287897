// Puts the person back where they were before a reload the app made (src/reload/resume-point.ts
// saved the place): the fields, the focused one's caret, the scroll. Only after such a reload, so
// the page loads this on use (src/ui/later.ts).
import { isWithinLast } from '../core/clock';
import { fieldRestorer, type RestoreOutcome, readSavedFields } from './field-restore';
import { type FocusPoint, isTextField, RESUME_KEY, RESUME_MAX_AGE_MS, type ResumePoint, saveResumePoint } from './resume-point';
import { area, keepInHistory, load, save } from '../stored-data/storage';

/**
 * How long the new page waits for the saved field (or enough height to scroll to) to appear. The
 * screens render their data right after hydration, within a frame or two; a field still missing
 * then was deleted (in another tab, say), and the place no longer exists.
 */
const WAIT_FOR_CONTENT_MS = 3000;

/**
 * How long a restored page passes its place on to a page that replaces it before the person acts:
 * the kill switch navigates its pages while each may be reloading itself onto the new worker, so a
 * second load can follow the first within moments.
 */
const PASS_ON_MS = 10_000;

/** What counts as the person acting on the new page before it was restored: from then on, the place is theirs to choose. */
const ACTIONS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/** Reads and forgets the saved resume point: it is used once, or not at all. */
function takeResumePoint(): ResumePoint | null {
  const storage = area('sessionStorage');
  const value = load(RESUME_KEY, storage).value ?? history.state?.[RESUME_KEY];
  storage?.removeItem(RESUME_KEY);
  if (history.state?.[RESUME_KEY]) keepInHistory(RESUME_KEY, undefined);
  if (!value || typeof value !== 'object') return null;
  const point = value as ResumePoint;
  // A time in the future (the clock moved back) is no recent save: every age goes through clock.ts.
  if (typeof point.at !== 'number' || !isWithinLast(point.at, RESUME_MAX_AGE_MS)) return null;
  if (point.url !== location.href) return null;
  return { ...point, fields: readSavedFields(point.fields) };
}

/** Puts the focus, caret and the field's own scroll back. */
function restoreFocus(element: HTMLElement, focus: FocusPoint): void {
  // preventScroll: the window's scroll is restored exactly, right after.
  element.focus({ preventScroll: true });
  if (isTextField(element) && focus.selectionStart !== null && focus.selectionEnd !== null) {
    element.setSelectionRange(focus.selectionStart, focus.selectionEnd, focus.selectionDirection ?? undefined);
  }
  element.scrollTop = focus.scrollTop;
  element.scrollLeft = focus.scrollLeft;
}

/**
 * After a reload the app made, once the first render is in the page: puts the saved fields back as
 * their controls appear (src/reload/form-state.ts says which), and, once the saved field is there
 * and the page is tall enough for the saved scroll, the scroll and the focus, once. The focus and
 * scroll are left alone if the person acted first (a click, a key, a wheel or touch), so no focus
 * they moved is stolen; the fields are still restored, except one the person already typed into.
 * What never appears within a few seconds is not restored (a field that no longer exists). A page
 * replaced again within seconds, before the person acted, passes the point on to the next.
 * `report` (the dev loop's) hears once what came back: the fields' outcome, and whether the
 * focused field was gone. Returns a stop function.
 */
export function resumeAfterReload(report?: (outcome: RestoreOutcome & { focusLost: string | null }) => void): () => void {
  const point = takeResumePoint();
  if (!point) return () => {};
  const fields = fieldRestorer(point.fields);
  let placePending = true;
  let finished = false;
  // Replaced before the restore finished: the point as it came; after: the place as it is now.
  const passOn = () => (finished ? saveResumePoint() : save(RESUME_KEY, point, area('sessionStorage')));
  const stopPassingOn = () => {
    removeEventListener('pagehide', passOn);
    for (const type of ACTIONS) removeEventListener(type, stopPassingOn, true);
  };
  addEventListener('pagehide', passOn);
  for (const type of ACTIONS) addEventListener(type, stopPassingOn, true);
  const passOnTimer = setTimeout(stopPassingOn, PASS_ON_MS);
  const stopWaitingForAction = () => {
    for (const type of ACTIONS) removeEventListener(type, personActed, true);
  };
  const stop = () => {
    if (finished) return;
    finished = true;
    observer.disconnect();
    clearTimeout(timer);
    stopWaitingForAction();
    const outcome = fields.finish();
    const focusLost = placePending && point.focus && !document.getElementById(point.focus.id) ? point.focus.id : null;
    report?.({ ...outcome, focusLost });
  };
  const personActed = () => {
    placePending = false;
    stopWaitingForAction();
    if (fields.pending === 0) stop();
  };
  const placeReady = () => {
    const field = point.focus ? document.getElementById(point.focus.id) : null;
    if (point.focus && !field) return false;
    // The most the window can scroll: the page's height less the viewport's (without scrollbars).
    const root = document.documentElement;
    return root.scrollHeight - root.clientHeight >= point.scrollY;
  };
  const restorePlace = () => {
    placePending = false;
    stopWaitingForAction();
    const field = point.focus ? document.getElementById(point.focus.id) : null;
    if (field && point.focus) restoreFocus(field, point.focus);
    window.scrollTo(point.scrollX, point.scrollY);
  };
  // Each time the page changes: the fields first, so the caret is set in the restored text. A field
  // restored just now makes its framework render again (React and Preact after the event, in a
  // microtask) and write the value once more, which puts the caret at the end of the text: the
  // place then waits for the next task.
  const restoreShown = () => {
    if (finished) return;
    const waiting = fields.pending;
    fields.restoreShown();
    if (placePending && placeReady()) {
      if (fields.pending < waiting) setTimeout(restoreShown, 0);
      else restorePlace();
    }
    if (!placePending && fields.pending === 0) stop();
  };
  // The screen renders its data after hydration: watch the page until it is there.
  const observer = new MutationObserver(restoreShown);
  const timer = setTimeout(stop, WAIT_FOR_CONTENT_MS);
  for (const type of ACTIONS) addEventListener(type, personActed, true);
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  restoreShown();
  return () => {
    stop();
    clearTimeout(passOnTimer);
    stopPassingOn();
  };
}
