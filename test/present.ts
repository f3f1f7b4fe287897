// For every kind of test (unit, browser, end-to-end): a value a test counts on being there (an
// element, a stored item), with a failure that names what was missing, where a non-null assertion
// would fail later as "cannot read properties of null".

/** `value`, or an Error saying that `what` was missing. */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`Expected ${what}, found ${value}`);
  return value;
}
