// A failed first install is tried again by the page: after 10 s, then three times longer each
// time up to 10 minutes, and only while online (an offline page waits for the network).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { retryDelay, scheduleInstallRetry } from '../../src/worker-client/install-retry';
import { domPerTest } from './dom';

const test = suite('install retry');
const env = domPerTest(test);

test('the waits grow from 10 s by three times up to 10 minutes', () => {
  assert.equal([1, 2, 3, 4, 5, 9].map(retryDelay), [10_000, 30_000, 90_000, 270_000, 600_000, 600_000]);
});

test('the retry runs when due, and the time it is due is what the page shows', async () => {
  let retries = 0;
  const due = scheduleInstallRetry(2, () => retries++);
  assert.is(due, Date.now() + 30_000);
  await env.dom.tick(29_999);
  assert.is(retries, 0);
  await env.dom.tick(1);
  assert.is(retries, 1);
});

test('an offline page waits for the network before it retries', async () => {
  let retries = 0;
  env.dom.setOnline(false);
  scheduleInstallRetry(1, () => retries++);
  await env.dom.tick(60_000);
  assert.is(retries, 0, 'not while offline');
  env.dom.setOnline(true);
  assert.is(retries, 1, 'as soon as the network returns');
  env.dom.setOnline(false);
  env.dom.setOnline(true);
  assert.is(retries, 1, 'once');
});

test.run();
