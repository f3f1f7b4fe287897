// uvu as the test files see it: test-bundle.mjs points their `uvu` imports here. The same suites,
// each of which says where it is (setting up, which test, tearing down) in globalThis.UVU_WHERE,
// so that uvu-run.mjs's time limit, when it fires, can name the test it stopped.
import { suite as uvuSuite } from 'uvu';

export * from 'uvu';

/** Where the running suite is: its name and its step (`"a test's name"`, setting up, tearing down). */
const where = /** @type {typeof globalThis & { UVU_WHERE?: { suite: string, step: string } }} */ (globalThis);

/**
 * uvu's suite(), reporting each step to UVU_WHERE before the suite's own hooks run.
 * @type {typeof uvuSuite}
 */
export const suite = (name = '', state) => {
  const test = uvuSuite(name, state);
  test.before(() => {
    where.UVU_WHERE = { suite: name, step: 'setting up the suite (before)' };
  });
  test.before.each((context) => {
    where.UVU_WHERE = { suite: name, step: `"${context.__test__}"` };
  });
  test.after(() => {
    where.UVU_WHERE = { suite: name, step: 'tearing down the suite (after)' };
  });
  return test;
};

/** uvu's unnamed suite, reporting its steps too. */
export const test = suite();
