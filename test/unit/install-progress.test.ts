// The first install's "n of m files" on a fake clock: the first count at once, then at most one
// per interval (the newest), the last count at once, and nothing after the install stops.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PROGRESS_INTERVAL_MS, throttledProgress } from '../../src/sw/install-progress';
import { domPerTest } from './dom';

const test = suite('install progress');
const env = domPerTest(test);
/** What the pages were sent, in order. */
let posted: number[];

test.before.each(() => {
  posted = [];
});

/** A reporter for an install of `total` files that records what it posts. */
const reporterOf = (total: number) => throttledProgress(total, (done) => posted.push(done));

test('the first count shows at once; counts within the interval wait for its end, and only the newest is sent', async () => {
  const progress = reporterOf(16);
  progress.report(1);
  assert.equal(posted, [1]);
  await env.dom.tick(100);
  progress.report(2);
  progress.report(3);
  assert.equal(posted, [1], 'nothing more before the interval ends');
  await env.dom.tick(PROGRESS_INTERVAL_MS - 100);
  assert.equal(posted, [1, 3]);
});

test('a slow install shows every count that stays for a whole interval', async () => {
  const progress = reporterOf(16);
  for (const done of [1, 2, 3, 4]) {
    progress.report(done);
    await env.dom.tick(PROGRESS_INTERVAL_MS);
  }
  assert.equal(posted, [1, 2, 3, 4]);
});

test('the last count is sent at once, and nothing comes after it', async () => {
  const progress = reporterOf(5);
  progress.report(1);
  progress.report(2);
  progress.report(5);
  assert.equal(posted, [1, 5]);
  await env.dom.tick(10 * PROGRESS_INTERVAL_MS);
  assert.equal(posted, [1, 5]);
});

test('a count after a quiet interval is sent at once', async () => {
  const progress = reporterOf(16);
  progress.report(1);
  await env.dom.tick(PROGRESS_INTERVAL_MS);
  assert.equal(posted, [1], 'an unchanged count is not sent again');
  progress.report(2);
  assert.equal(posted, [1, 2]);
});

test('a stopped install (it failed) sends no count it was holding', async () => {
  const progress = reporterOf(16);
  progress.report(1);
  progress.report(2);
  progress.stop();
  await env.dom.tick(10 * PROGRESS_INTERVAL_MS);
  assert.equal(posted, [1]);
});

test.run();
