// Clocks that move: every delay or age computed from a wall-clock time stays within its own window,
// whatever the jump. The fake DOM runs a setTimeout delay above 2^31-1 ms at once, as browsers do,
// so an unclamped delay shows here as the loop it is in a real page.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isWithinLast, withinWindow } from '../../src/core/clock';
import { startQuietMomentWatch, whenQuiet } from '../../src/reload/quiet-moment';
import { GUARD_KEY, startReconnect } from '../../src/reload/reconnect';
import { claimReload } from '../../src/reload/reload-guard';
import { domPerTest } from './dom';

const test = suite('clocks that move');
const env = domPerTest(test);
const DAY_MS = 86_400_000;

test('a delay is held to [0, window]; an age counts only when it lies in the past', () => {
  assert.equal(
    [-5, 0, 300, 10_000, 30 * DAY_MS, Number.NaN].map((ms) => withinWindow(ms, 10_000)),
    [0, 0, 300, 10_000, 10_000, 0],
  );
  const now = 1_000_000;
  assert.ok(isWithinLast(now - 5, 10, now));
  assert.not.ok(isWithinLast(now - 11, 10, now), 'too old');
  assert.not.ok(isWithinLast(now + 30 * DAY_MS, 10, now), 'in the future: of unknown age');
});

test('a guard record 30 days in the future: one window to wait, not 30 days, then the reload', async () => {
  sessionStorage.setItem('guard', String(Date.now() + 30 * DAY_MS));
  assert.is(claimReload('guard', 10_000), 10_000, 'the window starts again now');
  await env.dom.tick(9_999);
  assert.is(claimReload('guard', 10_000), 1);
  await env.dom.tick(1);
  assert.is(claimReload('guard', 10_000), 0);
});

test('the clock moved back 30 days after a reconnect reload: the next reconnect gives one reload and a few probes', async () => {
  const reloads: number[] = [];
  const probes: number[] = [];
  const t0 = Date.now();
  const options = { check: async () => probes.push(Date.now() - t0) > 0, reload: () => reloads.push(Date.now() - t0) };
  env.stop = startReconnect(options);
  env.dom.setOnline(false);
  env.dom.setOnline(true);
  await env.dom.tick(1000);
  assert.equal(reloads, [1000], 'the first reload');
  env.stop();
  // The page after that reload; then the clock goes back 30 days and the network drops and returns.
  env.stop = startReconnect(options);
  env.dom.moveClock(-30 * DAY_MS);
  const back = -30 * DAY_MS;
  env.dom.setOnline(false);
  env.dom.setOnline(true);
  await env.dom.tick(60_000);
  assert.equal(reloads, [1000, back + 1000 + 1000 + 10_000], 'one reload, one guard window (10 s) after the probe');
  assert.is(probes.length, 3, 'the first reconnect probed once; this one probed, waited out the window, probed again');
  assert.is(
    Number(sessionStorage.getItem(GUARD_KEY)),
    t0 + reloads[1],
    'the guard holds the time of that reload, by the clock as it is now',
  );
});

test('the clock moved back 30 days while typing: the quiet moment comes 2 s after the last key', async () => {
  env.stop = startQuietMomentWatch();
  env.dom.win.dispatchEvent(new env.dom.win.Event('input'));
  env.dom.moveClock(-30 * DAY_MS);
  let quiet = 0;
  const cancel = whenQuiet(() => quiet++);
  await env.dom.tick(1_999);
  assert.is(quiet, 0, 'still typing');
  await env.dom.tick(1);
  assert.is(quiet, 1, 'quiet once, after one window');
  cancel();
});

test.run();
