// How /status names the worker's state and its repairs, from the registration, the worker's last
// report on its cache, and the network: each state a user can act on has its own words.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RegistrationSnapshot } from '../../src/worker-client/registration-store';
import type { RepairReport } from '../../src/contract/repair-report';
import { repairText, workerStateText } from '../../src/ui/screens/status/worker-state';

const test = suite('status: worker state and repairs');
const worker = (patch: Partial<RegistrationSnapshot>): RegistrationSnapshot => ({
  state: 'ready',
  progress: null,
  version: 'v',
  scope: '/',
  lastCheck: null,
  error: null,
  retryAt: null,
  installFailure: null,
  repair: null,
  ...patch,
});
const report = (patch: Partial<RepairReport>): RepairReport => ({
  missing: [],
  damaged: [],
  repaired: 0,
  repairing: false,
  offline: false,
  storageFailing: false,
  ...patch,
});

test('ready, installing with its progress, update waiting, and an error with its reason', () => {
  assert.is(workerStateText(worker({}), true), 'ready');
  assert.is(workerStateText(worker({ repair: report({ repaired: 2 }) }), true), 'ready');
  assert.is(workerStateText(worker({ state: 'installing', progress: { done: 3, total: 13 } }), true), 'installing (3 of 13 files)');
  assert.is(workerStateText(worker({ state: 'update-waiting' }), true), 'update waiting');
  assert.is(
    workerStateText(worker({ state: 'error', error: 'Could not save the app for offline use.' }), true),
    'error: Could not save the app for offline use.',
  );
  assert.is(workerStateText(worker({ state: 'unknown' }), true), '…');
});

test('missing files: repairing, offline and incomplete (the worker or the browser saw no network), or an error once a repair failed online', () => {
  const missing = ['/about/', '/licenses.txt'];
  assert.is(workerStateText(worker({ repair: report({ missing, repairing: true }) }), true), 'repairing (2 missing)');
  assert.is(
    workerStateText(worker({ repair: report({ missing, offline: true }) }), true),
    'offline and incomplete (2 missing, will repair when online)',
  );
  assert.is(workerStateText(worker({ repair: report({ missing }) }), false), 'offline and incomplete (2 missing, will repair when online)');
  assert.match(workerStateText(worker({ repair: report({ missing: ['/about/'] }) }), true), /^error: 1 file missing and not repaired/);
  // A waiting update is what the user can act on first; the precache check still lists what is missing.
  assert.is(workerStateText(worker({ state: 'update-waiting', repair: report({ missing }) }), true), 'update waiting');
});

test('a failed first install says when it is tried again', () => {
  const retryAt = new Date(2026, 10, 25, 12, 3, 4).getTime();
  assert.is(
    workerStateText(worker({ state: 'error', error: 'Could not save the app for offline use.', retryAt }), true),
    `error: Could not save the app for offline use. Offline use is not ready yet; trying again at ${new Date(retryAt).toLocaleTimeString()}.`,
  );
});

test('a damaged offline copy and failing storage are named in words, before what is missing', () => {
  const damaged = ['/about/', '/precache.json'];
  assert.is(
    workerStateText(worker({ repair: report({ missing: damaged, damaged, repairing: true }) }), true),
    'offline copy damaged: repairing (2 files)',
  );
  assert.is(
    workerStateText(worker({ repair: report({ missing: damaged, damaged, offline: true }) }), false),
    'offline copy damaged: 2 files will be repaired when online',
  );
  assert.is(
    workerStateText(worker({ repair: report({ missing: damaged, storageFailing: true }) }), true),
    "this browser's storage is failing: working online only",
  );
  assert.match(
    repairText(report({ missing: damaged, storageFailing: true }), true),
    /^This browser's storage is failing: every file comes from the network/,
  );
  // Once repaired, the state is ready again and the precache check says what was put back.
  assert.is(workerStateText(worker({ repair: report({ repaired: 2 }) }), true), 'ready');
});

test('the precache check says what the repairs did, and nothing when there is nothing to say', () => {
  assert.is(repairText(null, true), '');
  assert.is(repairText(report({}), true), '');
  assert.is(repairText(report({ missing: ['/a'], offline: true }), true), '1 file missing: repairing when online.');
  assert.is(repairText(report({ missing: ['/a', '/b'] }), false), '2 files missing: repairing when online.');
  assert.is(repairText(report({ missing: ['/a', '/b'], repairing: true }), true), '2 files missing: repairing now.');
  assert.is(repairText(report({ missing: ['/a'] }), true), '1 file missing: could not be fetched intact, so not repaired.');
  assert.is(repairText(report({ repaired: 1 }), true), 'Repaired 1 file.');
  assert.is(repairText(report({ repaired: 3 }), true), 'Repaired 3 files.');
});

test('an install refused for lack of room says so: no room on this device, online meanwhile, what frees room, when it tries again', () => {
  const retryAt = Date.UTC(2026, 0, 1, 12, 0, 0);
  const text = workerStateText(
    worker({ state: 'error', error: 'Could not save the app for offline use.', retryAt, installFailure: 'no-room' }),
    true,
  );
  assert.is(
    text,
    `error: This device has no room to keep the app for offline use; it works online meanwhile. To use it offline, free some space (delete files or apps you no longer need, or other sites' data in the browser's settings): it tries again at ${new Date(retryAt).toLocaleTimeString()}.`,
  );
});

test.run();
