// Puts back the fields a person changed before a reload the app made (src/reload/form-state.ts
// noted them, src/reload/resume-point.ts carried them): only after such a reload, so the page
// loads it on use (src/ui/later.ts). Values go back through the native setters and the events
// frameworks listen to, so a controlled component's state follows.
import { logTransition } from './connectivity';
import {
  type Control,
  type FieldState,
  isInput,
  isSelect,
  isTextArea,
  isToggle,
  keyedControls,
  markChanged,
  type SavedField,
  sameState,
  stateOf,
  whileRestoring,
} from './form-state';

/** What came of the saved fields after a reload. */
export interface RestoreOutcome {
  /** Put back by this module. */
  restored: number;
  /** Already showing the saved value (the app restored it itself). */
  held: number;
  /** Showing something else than before the change (the app's own newer value, or the person's): left alone. */
  kept: number;
  /** Not on the screen (the screen changed in an update). */
  missing: number;
  /** The keys of the fields not put back (kept as the page shows them, or not on the screen): what a dev reload names. */
  notPutBack: string[];
}

/** The state the markup gave the control (its default): what it shows when nothing was changed. */
function defaultStateOf(control: Control): FieldState {
  if (isToggle(control)) return control.defaultChecked;
  if (isSelect(control)) {
    const chosen = Array.from(control.options, (option) => (option.defaultSelected ? option.value : null)).filter((v) => v !== null);
    // A single select with no `selected` option shows its first.
    return chosen.length > 0 || control.multiple || control.options.length === 0 ? chosen : [control.options[0].value];
  }
  if (isInput(control) || isTextArea(control)) return control.defaultValue;
  return '';
}

const isState = (value: unknown): value is FieldState =>
  typeof value === 'string' || typeof value === 'boolean' || (Array.isArray(value) && value.every((item) => typeof item === 'string'));

/** The well-formed saved fields of whatever was stored; anything else is dropped. */
export function readSavedFields(stored: unknown): SavedField[] {
  if (!Array.isArray(stored)) return [];
  return stored.filter(
    (field): field is SavedField =>
      typeof field?.key === 'string' && isState(field.value) && (field.before === null || isState(field.before)),
  );
}

/** Sets a text control's value through the native setter, past the copy React keeps on the element. */
function setNativeValue(control: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  for (let proto = Object.getPrototypeOf(control); proto; proto = Object.getPrototypeOf(proto)) {
    const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
    if (setter) {
      setter.call(control, value);
      return;
    }
  }
}

/** Announces a new value the way the browser does for the person's edits: React and Preact listen to these. */
function dispatchEdit(control: Control): void {
  control.dispatchEvent(new Event('input', { bubbles: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Puts `value` into the control so that a framework's state for it follows. */
function applyState(control: Control, value: FieldState): void {
  whileRestoring(() => applyStateNow(control, value));
}

function applyStateNow(control: Control, value: FieldState): void {
  // React keeps its own copy of a control's value and checkedness on the element (its "value
  // tracker"), updated by the element's own setter and not by the native one, and calls onChange
  // only for an event that finds the control differing from that copy. Setting the copy to another
  // state first makes the restored state a change whatever React saw before: the control may
  // already show it (Firefox restores prerendered fields itself, before hydration).
  if (isToggle(control)) {
    // A click is what the frameworks listen to for these (React's onChange of a checkbox is its click).
    if (control.type === 'radio' && value === false) return;
    control.checked = !value;
    control.click();
    return;
  }
  if (isSelect(control) && Array.isArray(value)) {
    for (const option of Array.from(control.options)) option.selected = value.includes(option.value);
  } else if ((isInput(control) || isTextArea(control)) && typeof value === 'string') {
    control.value = value === '' ? ' ' : '';
    setNativeValue(control, value);
  } else if (typeof value === 'string' && control.textContent !== value) {
    control.textContent = value;
  }
  dispatchEdit(control);
}

/**
 * Restores saved fields into a page as its controls appear. A control gets its saved value only
 * while it shows what it showed before the person's change (or its default, when that was not
 * seen): one that shows anything else holds the app's own value (its own saving wins) or what the
 * person typed since, and is left alone. Call restoreShown() each time the page changes, finish() once.
 */
export function fieldRestorer(saved: readonly SavedField[]) {
  const pending = new Map(saved.map((field) => [field.key, field]));
  const outcome: RestoreOutcome = { restored: 0, held: 0, kept: 0, missing: 0, notPutBack: [] };
  let finished = false;
  return {
    /** Saved fields still waiting for their control. */
    get pending(): number {
      return pending.size;
    },
    /** Restores each saved field whose control is now on the screen. */
    restoreShown(): void {
      if (pending.size === 0) return;
      for (const [key, control] of keyedControls()) {
        const field = pending.get(key);
        if (!field) continue;
        pending.delete(key);
        const now = stateOf(control);
        if (!sameState(now, field.value) && !sameState(now, field.before ?? defaultStateOf(control))) {
          outcome.kept++;
          outcome.notPutBack.push(key);
          continue;
        }
        // A control already showing the value (the app's own restore, or the browser's form
        // restoration on a reload, which Firefox does for prerendered fields) gets it announced
        // all the same: a framework that hydrated over the browser's value has not heard of it.
        applyState(control, field.value);
        if (sameState(now, field.value)) outcome.held++;
        else outcome.restored++;
        // Still the person's change: kept again if another reload comes before the app saves it.
        markChanged(control, field.before);
      }
    },
    /** Stops waiting: fields not seen by now are missing; logs the outcome when fields were saved. */
    finish(): RestoreOutcome {
      if (finished) return outcome;
      finished = true;
      outcome.missing += pending.size;
      outcome.notPutBack.push(...pending.keys());
      pending.clear();
      if (saved.length > 0) logTransition('fields-restored', describeOutcome(outcome));
      return outcome;
    },
  };
}

/** "3 of 4 came back, 1 not on the screen": the log line's detail. */
export function describeOutcome({ restored, held, kept, missing }: RestoreOutcome): string {
  const parts = [`${restored + held} of ${restored + held + kept + missing} came back`];
  if (missing) parts.push(`${missing} not on the screen`);
  if (kept) parts.push(`${kept} left as the page shows ${kept === 1 ? 'it' : 'them'}`);
  return parts.join(', ');
}
