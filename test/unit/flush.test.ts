// The one way the shell reloads (src/stored-data/flush.ts reloadAfterFlush): everything saved, or
// carried through the reload, before it; while something can be neither, the reload waits, says so
// in the log, tries again each quiet second, and goes ahead after UNSAVED_WAIT_MS at most.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connectivityLog } from '../../src/reload/connectivity';
import { onFlush } from '../../src/stored-data/flush';
import { reloadAfterFlush, UNSAVED_WAIT_MS } from '../../src/reload/reload-after-flush';
import { domPerTest } from './dom';

const test = suite('reload after flush');
const env = domPerTest(test);
let reloads: number[];
let t0: number;

test.before.each(() => {
  reloads = [];
  t0 = Date.now();
  Object.defineProperty(env.dom.win.location, 'reload', { configurable: true, value: () => reloads.push(Date.now() - t0) });
});

const waits = () => (connectivityLog.getSnapshot() ?? []).filter((entry) => entry.kind === 'reload-waits').map((entry) => entry.detail);

test('everything kept: the reload happens at once, after the saves', () => {
  let reloadsAtSave = -1;
  env.stop = onFlush(() => {
    reloadsAtSave = reloads.length;
    return true;
  });
  reloadAfterFlush();
  assert.is(reloadsAtSave, 0, 'saved before the reload');
  assert.equal(reloads, [0]);
  assert.equal(waits(), []);
});

test('a save that can be neither made nor carried holds the reload until it can, and the log says why', async () => {
  let kept = false;
  env.stop = onFlush(() => kept);
  reloadAfterFlush();
  assert.equal(reloads, []);
  assert.equal(waits(), ['unsaved text']);
  await env.dom.tick(5000);
  assert.equal(reloads, [], 'still waiting: every second the save is tried again, and fails');
  kept = true;
  await env.dom.tick(1000);
  assert.equal(reloads.length, 1, 'saved: the reload goes ahead');
  assert.ok(reloads[0] <= 6000);
});

test('bounded: a save that never succeeds holds the reload for UNSAVED_WAIT_MS, not for good', async () => {
  env.stop = onFlush(() => false);
  reloadAfterFlush();
  await env.dom.tick(UNSAVED_WAIT_MS - 1000);
  assert.equal(reloads, []);
  await env.dom.tick(2000);
  assert.equal(reloads.length, 1);
  assert.ok(reloads[0] >= UNSAVED_WAIT_MS && reloads[0] <= UNSAVED_WAIT_MS + 1000, String(reloads[0]));
});

test('a clock moved back during the wait does not stretch it', async () => {
  env.stop = onFlush(() => false);
  reloadAfterFlush();
  await env.dom.tick(2000);
  env.dom.moveClock(-30 * 24 * 60 * 60 * 1000);
  await env.dom.tick(3000);
  assert.is(reloads.length, 1, 'a wait start in the future is no recent start: the reload goes ahead');
});

test.run();
