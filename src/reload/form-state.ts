// What the person typed or chose in a screen's form controls, kept across a reload the app makes
// (src/reload/resume-point.ts carries it; src/reload/field-restore.ts puts it back). Browsers restore form fields after a reload only for
// server-rendered forms; a field that React or Preact renders or controls after hydration starts
// empty, so a builder's `useState` form would lose everything typed. Framework-free: it watches the
// person's own input events, and puts values back through the native setters and the events
// frameworks listen to, so a controlled component's state follows.

/** A builder marks a field (or any element around fields) with this attribute: its contents are never kept. */
export const NO_RESTORE_ATTRIBUTE = 'data-no-restore';

/** Whether an autocomplete token (HTML's autofill field names) names a secret: a password, a one-time code, any card field. */
const isSecretToken = (token: string): boolean => /^(current-password|new-password|one-time-code|cc-.*)$/.test(token);

/**
 * Fields that were a password field at some time: a "Show" toggle switches `type` to text, and
 * what is typed while shown is the same secret. A MutationObserver sees each switch (a framework
 * sets the attribute, or the `type` property, which reflects to it).
 */
const wasPassword = new WeakSet<Element>();
const noteSwitches = (records: MutationRecord[]) => {
  for (const record of records) if (record.oldValue?.toLowerCase() === 'password') wasPassword.add(record.target as Element);
};
/** The observer of type switches, made by startFieldMemory() (prerendering has no DOM to observe). */
let typeSwitches: MutationObserver | undefined;

/** Input types that hold a secret, a file or no state of the person's. */
const NOT_KEPT_INPUT_TYPES = new Set(['password', 'file', 'hidden', 'submit', 'reset', 'button', 'image']);

/** The controls this module reads and restores. */
const CONTROLS = 'input, textarea, select, [contenteditable]:not([contenteditable="false"])';

/** A control's state: text (fields, editable regions), on or off (checkboxes, radio buttons), the chosen options' values (selects). */
export type FieldState = string | boolean | string[];

/** One changed control, as kept for the next page. */
export interface SavedField {
  /** How the control is found again: its kind and its id, name, or label text, with a position where those repeat. */
  key: string;
  /** What the control showed before the person changed it; null when that was not seen (a change with no focus first). */
  before: FieldState | null;
  /** What it held when the page went away. */
  value: FieldState;
}

export type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | HTMLElement;

export const isInput = (element: Element): element is HTMLInputElement => element.localName === 'input';
export const isTextArea = (element: Element): element is HTMLTextAreaElement => element.localName === 'textarea';
export const isSelect = (element: Element): element is HTMLSelectElement => element.localName === 'select';
export const isToggle = (element: Element): element is HTMLInputElement =>
  isInput(element) && (element.type === 'checkbox' || element.type === 'radio');

/** A control whose state may be kept: a form control or the root of an editable region, neither a secret nor marked by the builder. */
function isKeepable(element: Element | null): element is Control {
  // An event's target may be the document or the window (no matches()), not an element.
  if (typeof element?.matches !== 'function' || !element.matches(CONTROLS)) return false;
  // The root of an editable region only: its inner elements are part of its text.
  if (
    !isInput(element) &&
    !isTextArea(element) &&
    !isSelect(element) &&
    element.parentElement?.closest('[contenteditable]:not([contenteditable="false"])')
  )
    return false;
  if (element.closest(`[${NO_RESTORE_ATTRIBUTE}]`)) return false;
  const autocomplete = (element.getAttribute('autocomplete') ?? '').toLowerCase().split(/\s+/);
  if (autocomplete.some(isSecretToken)) return false;
  if (!isInput(element)) return true;
  // Switches not yet delivered to the observer's callback (it runs after this task) count too.
  if (typeSwitches) noteSwitches(typeSwitches.takeRecords());
  // A box of a split one-time code holds one character (and often no autocomplete of its own).
  return !NOT_KEPT_INPUT_TYPES.has(element.type) && !wasPassword.has(element) && element.maxLength !== 1;
}

/** The state a control shows now. */
export function stateOf(control: Control): FieldState {
  if (isToggle(control)) return control.checked;
  if (isSelect(control)) return Array.from(control.options, (option) => (option.selected ? option.value : null)).filter((v) => v !== null);
  if (isInput(control) || isTextArea(control)) return control.value;
  return control.textContent ?? '';
}

export const sameState = (a: FieldState, b: FieldState): boolean =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((value, index) => value === b[index]) : a === b;

/** A label's own text: the label's words, without the text of a select or textarea inside it. */
function ownText(element: Element): string {
  let text = '';
  for (const node of Array.from(element.childNodes)) {
    if (node.nodeType === 3) text += node.textContent;
    else if (node.nodeType === 1 && !(node as Element).matches('select, textarea')) text += ownText(node as Element);
  }
  return text;
}

/** The text that names a control: aria-label, aria-labelledby, or its first <label>. */
function labelOf(control: Control): string {
  const ids = control.getAttribute('aria-labelledby')?.split(/\s+/) ?? [];
  const labelledBy = ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
  const label = 'labels' in control && control.labels?.[0] ? ownText(control.labels[0]) : '';
  return (control.getAttribute('aria-label') || labelledBy || label).replace(/\s+/g, ' ').trim();
}

/** The kind part of a key: a field found again by id or name must still be the same kind of control. */
const kindOf = (control: Control): string => (isInput(control) ? `input[${control.type}]` : control.localName);

/**
 * The keys of every keepable control on the page, in document order: its id; else its name (a
 * radio button's with its value); else its label's text; else its place among the controls. A
 * name or label shared by several controls gets the control's place among them (`#2`).
 */
export function keyedControls(): Map<string, Control> {
  const controls = Array.from(document.querySelectorAll(CONTROLS)).filter(isKeepable);
  const identities = controls.map((control, index) => {
    if (control.id) return `id=${control.id}`;
    const name = control.getAttribute('name');
    if (name) return `name=${name}${isInput(control) && control.type === 'radio' ? `=${control.value}` : ''}`;
    const label = labelOf(control);
    return label ? `label=${label}` : `place=${index}`;
  });
  const seen = new Map<string, number>();
  const keyed = new Map<string, Control>();
  controls.forEach((control, index) => {
    const identity = `${kindOf(control)} ${identities[index]}`;
    const repeat = seen.get(identity) ?? 0;
    seen.set(identity, repeat + 1);
    keyed.set(repeat === 0 ? identity : `${identity} #${repeat + 1}`, control);
  });
  return keyed;
}

// The controls the person changed on this page, each with what it showed before the first change.
const changed = new Map<Control, FieldState | null>();
// What controls showed when the person came to them (focus, pointer, the edit about to happen).
const beforeChange = new WeakMap<Element, FieldState>();

const onApproach = (event: Event) => {
  const target = event.target as Element | null;
  if (isKeepable(target) && !isToggle(target) && !beforeChange.has(target) && !changed.has(target))
    beforeChange.set(target, stateOf(target));
};

// True while a value is put back (src/reload/field-restore.ts): its own events are no change of the person's.
let restoring = false;

/** Runs `restore`, which puts a value back into a control: the events it fires are no change of the person's. */
export function whileRestoring(restore: () => void): void {
  restoring = true;
  try {
    restore();
  } finally {
    restoring = false;
  }
}

/** Notes that `control` holds the person's change, made from `before`: kept again if another reload comes before the app saves it. */
export function markChanged(control: Control, before: FieldState | null): void {
  changed.set(control, before);
}

const onChange = (event: Event) => {
  const target = event.target as Element | null;
  // Untrusted events count too: a password manager or an autofill script fills fields with them.
  if (restoring || !isKeepable(target) || changed.has(target)) return;
  // A checkbox's change toggled it; a radio button's change checked it.
  if (isToggle(target)) changed.set(target, target.type === 'checkbox' ? !target.checked : false);
  else changed.set(target, beforeChange.get(target) ?? null);
};

const APPROACHES = ['focusin', 'pointerdown', 'beforeinput'] as const;
const CHANGES = ['input', 'change'] as const;

/** Starts noting which controls the person changes (and what they showed before); returns a stop function. */
export function startFieldMemory(): () => void {
  for (const type of APPROACHES) addEventListener(type, onApproach, true);
  for (const type of CHANGES) addEventListener(type, onChange, true);
  typeSwitches = new MutationObserver(noteSwitches);
  typeSwitches.observe(document, { subtree: true, attributeFilter: ['type'], attributeOldValue: true });
  return () => {
    typeSwitches?.disconnect();
    typeSwitches = undefined;
    for (const type of APPROACHES) removeEventListener(type, onApproach, true);
    for (const type of CHANGES) removeEventListener(type, onChange, true);
    changed.clear();
  };
}

/** The controls on the screen that the person changed and that now differ from what they showed before, with their keys. */
export function changedFields(): SavedField[] {
  const fields: SavedField[] = [];
  for (const [key, control] of keyedControls()) {
    if (!changed.has(control)) continue;
    const before = changed.get(control) ?? null;
    const value = stateOf(control);
    if (before !== null && sameState(before, value)) continue;
    fields.push({ key, before, value });
  }
  return fields;
}
