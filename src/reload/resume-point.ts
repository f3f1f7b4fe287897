// Where the person was, kept across a reload the app makes itself (reconnect, "Reload to update",
// the kill switch), so the new page puts them back: the same URL, the same scroll, what they had
// typed or chosen in the screen's fields (src/reload/form-state.ts), the same field with the same
// caret. Kept in sessionStorage: it survives a reload of this tab and nothing else. The new page
// puts it back with src/reload/resume-restore.ts, which it loads only then (src/ui/later.ts).
import { storageKey } from '../contract/app-name';
import { changedFields, type SavedField } from './form-state';
import { area, keepInHistory, save } from '../stored-data/storage';

/** sessionStorage key of the resume point. */
export const RESUME_KEY = storageKey('resume');

/** A resume point older than this is ignored: it was saved for a reload that did not happen then. */
export const RESUME_MAX_AGE_MS = 30_000;

/** Whether a resume point is saved: this page was loaded by a reload the app made. */
export const hasResumePoint = (): boolean => !!area('sessionStorage')?.getItem(RESUME_KEY) || !!history.state?.[RESUME_KEY];

/** The focused field and where its caret was. */
export interface FocusPoint {
  id: string;
  selectionStart: number | null;
  selectionEnd: number | null;
  selectionDirection: 'forward' | 'backward' | 'none' | null;
  scrollTop: number;
  scrollLeft: number;
}

/** Everything a reload would otherwise lose of the person's place. */
export interface ResumePoint {
  url: string;
  scrollX: number;
  scrollY: number;
  focus: FocusPoint | null;
  /** The fields the person changed that differ from what the page showed before. */
  fields: SavedField[];
  /** When it was saved (ms since epoch). */
  at: number;
}

/** A field with a caret: the editors, where losing the place costs the most. */
export type TextField = HTMLTextAreaElement | HTMLInputElement;

export const isTextField = (element: Element | null): element is TextField =>
  element instanceof HTMLTextAreaElement || (element instanceof HTMLInputElement && element.selectionStart !== null);

// The last text field that had the focus. Clicking a button ("Reload to update") takes the focus
// from the field being edited; the place worth coming back to is still that field.
let lastTextField: TextField | null = null;
const onFocusIn = (event: FocusEvent) => {
  if (isTextField(event.target as Element | null)) lastTextField = event.target as TextField;
};

/** Starts remembering the last text field that had the focus; returns a stop function. */
export function startFocusMemory(): () => void {
  addEventListener('focusin', onFocusIn, true);
  return () => {
    removeEventListener('focusin', onFocusIn, true);
    lastTextField = null;
  };
}

/** The element to come back to: the focused one, or the last text field when the focus left it for a control without an id. */
function elementToResume(): Element | null {
  const active = document.activeElement;
  if (active?.id && active !== document.body) return active;
  if (lastTextField?.isConnected && lastTextField.id) return lastTextField;
  return null;
}

/** The focus point of an element: its id, and its caret and scroll if it is a text field. */
function focusPointOf(element: Element): FocusPoint {
  const field = isTextField(element) ? element : null;
  return {
    id: element.id,
    selectionStart: field?.selectionStart ?? null,
    selectionEnd: field?.selectionEnd ?? null,
    selectionDirection: field?.selectionDirection ?? null,
    scrollTop: element.scrollTop,
    scrollLeft: element.scrollLeft,
  };
}

/** Saves where the person is now, for the page that a reload is about to load; says whether the fields it holds are kept. */
export function saveResumePoint(): boolean {
  const element = elementToResume();
  const point: ResumePoint = {
    url: location.href,
    scrollX: window.scrollX,
    scrollY: window.scrollY,
    focus: element ? focusPointOf(element) : null,
    fields: changedFields(),
    at: Date.now(),
  };
  // Site data blocked: the history entry carries it (a reload keeps it). Lost only if both refuse.
  return !save(RESUME_KEY, point, area('sessionStorage')) || keepInHistory(RESUME_KEY, point) || point.fields.length === 0;
}
