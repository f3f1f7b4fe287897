// The reload-loop guard shared by the reconnect and update reloads, on happy-dom's sessionStorage
// and a fake clock: the first reload is allowed and recorded, a second one inside the window
// waits for exactly the time left, and missing or unreadable records never block a reload.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { claimReload } from '../../src/reload/reload-guard';
import { domPerTest } from './dom';

const test = suite('reload guard');
const env = domPerTest(test);

test('the first reload may happen (0) and is recorded; a second within the window gets the ms left', async () => {
  assert.is(claimReload('guard', 10_000), 0);
  await env.dom.tick(4_000);
  assert.is(claimReload('guard', 10_000), 6_000);
  assert.is(claimReload('guard', 10_000), 6_000, 'asking again does not move the window');
  await env.dom.tick(6_000);
  assert.is(claimReload('guard', 10_000), 0, 'the window has passed');
  assert.is(claimReload('guard', 10_000), 10_000, 'and that reload was recorded');
});

test('each key is its own guard (reconnect and update reloads do not hold each other back)', () => {
  assert.is(claimReload('a', 10_000), 0);
  assert.is(claimReload('b', 10_000), 0);
});

test('an unreadable record does not block reloading, and is replaced', () => {
  sessionStorage.setItem('guard', 'not a time');
  assert.is(claimReload('guard', 10_000), 0);
  assert.ok(claimReload('guard', 10_000) > 0);
});

test.run();
