// The reload-on-reconnect policy as a state machine: fake clock, fake online/offline and
// visibility events, a fake reachability check and reload. Real Chromium runs the same policy
// against a real server in test/e2e/reconnect*.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connectivityLog, startConnectivity } from '../../src/reload/connectivity';
import { createDeviceDocument } from '../../src/stored-data/device-document';
import { startQuietMomentWatch } from '../../src/reload/quiet-moment';
import { GUARD_KEY, startReconnect, type ReconnectOptions } from '../../src/reload/reconnect';
import { installDom, type FakeDom } from './dom';
import { present } from '../present';

const test = suite('reconnect policy');
let dom: FakeDom;
let stop: () => void;
let reloads: number[];
let probes: number[];
let serverUp: boolean;
let stopWatch: () => void;
const t0 = 1_700_000_000_000;

/** One key press in the page, as the browser sends it: keydown, then input. */
function press(): void {
  dom.win.dispatchEvent(new dom.win.KeyboardEvent('keydown', { key: 'a' }));
  dom.win.dispatchEvent(new dom.win.Event('input'));
}

/** Starts the policy with the production defaults (1 s stable, 10 s guard, 1 s first backoff). */
function start(opts: ReconnectOptions = {}) {
  stop = startReconnect({
    check: async () => {
      probes.push(Date.now() - t0);
      return serverUp;
    },
    reload: () => reloads.push(Date.now() - t0),
    ...opts,
  });
}

test.before.each(() => {
  dom = installDom({ start: t0 });
  stopWatch = startQuietMomentWatch();
  reloads = [];
  probes = [];
  serverUp = true;
});
test.after.each(() => {
  stop?.();
  stopWatch();
  dom.uninstall();
});

test('every timing is a parameter: shorter debounce, backoff and guard window', async () => {
  serverUp = false;
  start({ stableMs: 100, backoffMs: 50, maxBackoffMs: 100, guardMs: 500 });
  dom.setOnline(false);
  dom.setOnline(true);
  await dom.tick(100);
  assert.equal(probes, [100], 'probes after 100 ms of stable network');
  await dom.tick(50 + 100 + 100);
  assert.equal(probes, [100, 150, 250, 350], 'backoff 50, 100, then capped at 100');
  serverUp = true;
  await dom.tick(100);
  assert.equal(reloads, [450]);
  dom.setOnline(false);
  dom.setOnline(true);
  await dom.tick(100);
  assert.equal(reloads, [450], 'the guard holds a second reload');
  await dom.tick(400);
  assert.equal(reloads, [450, 950], 'and lets it through 500 ms after the first');
});

test('does not reload when the browser says online without having been offline', async () => {
  start();
  dom.setOnline(true);
  await dom.tick(60_000);
  assert.equal(reloads, []);
  assert.equal(probes, [], 'no probe either: nothing to do');
});

test('reloads once, about a second after the network comes back', async () => {
  start();
  dom.setOnline(false);
  await dom.tick(5000);
  dom.setOnline(true);
  await dom.tick(999);
  assert.equal(reloads, [], 'waits for the network to stay up for a second');
  await dom.tick(1);
  assert.equal(reloads, [6000]);
  await dom.tick(60_000);
  assert.equal(reloads, [6000], 'exactly one reload');
});

test('flapping (8 toggles 100 ms apart) ends in one reload, a second after the last online', async () => {
  start();
  for (let i = 0; i < 8; i++) {
    dom.setOnline(false);
    await dom.tick(100);
    dom.setOnline(true);
    await dom.tick(100);
  }
  // last `online` at 1500 ms
  await dom.tick(60_000);
  assert.equal(reloads, [2500]);
  assert.equal(probes, [2500], 'one probe: the flapping never lasted a second');
});

test('a page loaded offline reloads once when the network comes back', async () => {
  dom.uninstall();
  dom = installDom({ start: t0, online: false });
  start();
  await dom.tick(3000);
  assert.equal(reloads, []);
  dom.setOnline(true);
  await dom.tick(60_000);
  assert.equal(reloads, [4000]);
});

test('no reload while the probe fails (backoff, no loop); one reload once it succeeds', async () => {
  start();
  serverUp = false;
  dom.setOnline(false);
  dom.setOnline(true);
  await dom.tick(20_000);
  assert.equal(reloads, []);
  // stable 1 s, then retries after 1, 2, 4, 8 s
  assert.equal(probes, [1000, 2000, 4000, 8000, 16000]);
  serverUp = true;
  await dom.tick(100_000);
  assert.equal(probes, [1000, 2000, 4000, 8000, 16000, 32000]);
  assert.equal(reloads, [32000]);
});

test('the probe backoff stops growing at 30 s: a dead network is asked twice a minute, never reloaded', async () => {
  start();
  serverUp = false;
  dom.setOnline(false);
  dom.setOnline(true);
  await dom.tick(10 * 60_000);
  const gaps = probes.slice(1).map((p, i) => p - probes[i]);
  assert.equal(gaps.slice(0, 5), [1000, 2000, 4000, 8000, 16000]);
  assert.ok(
    gaps.slice(5).every((g) => g === 30_000),
    `gaps ${gaps}`,
  );
  assert.equal(reloads, []);
});

test('going offline again while the probe is on its way cancels that reload', async () => {
  let answer!: (ok: boolean) => void;
  start({ check: () => new Promise<boolean>((r) => (answer = r)) });
  dom.setOnline(false);
  dom.setOnline(true);
  await dom.tick(1000);
  dom.setOnline(false);
  answer(true);
  await dom.tick(60_000);
  assert.equal(reloads, [], 'the probe answered for a network that is gone again');
});

test('a hidden tab does not reload; it reloads when shown', async () => {
  start();
  dom.setHidden(true);
  dom.setOnline(false);
  dom.setOnline(true);
  await dom.tick(60_000);
  assert.equal(reloads, []);
  assert.equal(probes, [], 'a hidden tab does not even probe');
  dom.setHidden(false);
  await dom.tick(0);
  assert.equal(reloads, [60_000], 'reloads as soon as it is shown');
});

test('a tab hidden while the probe runs reloads only when shown', async () => {
  let answer!: (ok: boolean) => void;
  start({ check: () => new Promise<boolean>((r) => (answer = r)) });
  dom.setOnline(false);
  dom.setOnline(true);
  await dom.tick(1000);
  dom.setHidden(true);
  answer(true);
  await dom.tick(30_000);
  assert.equal(reloads, []);
  dom.setHidden(false);
  await dom.tick(0);
  answer(true); // the tab probes again when shown: the network may have changed meanwhile
  await dom.tick(0);
  assert.equal(reloads, [31_000]);
});

test('the sessionStorage guard blocks a second reload within 10 s, then lets it happen', async () => {
  start();
  dom.setOnline(false);
  dom.setOnline(true);
  await dom.tick(1000);
  assert.equal(reloads, [1000]);
  assert.is(sessionStorage.getItem(GUARD_KEY), String(t0 + 1000));
  // The page after that reload: a fresh policy, same sessionStorage.
  stop();
  start();
  dom.setOnline(false);
  await dom.tick(2000);
  dom.setOnline(true);
  await dom.tick(7999); // just under 10 s after the first reload
  assert.equal(reloads, [1000], 'no second reload within 10 s');
  await dom.tick(1);
  assert.equal(reloads, [1000, 11_000], 'once the window has passed, the reconnect still gets its reload');
});

test('someone typing when the network returns: no reload while keys arrive, one reload 2 s after the last key', async () => {
  start();
  dom.setOnline(false);
  await dom.tick(3000);
  // A key every 90 ms for 6 s; the network returns after 11 of them (990 ms), so keys keep
  // coming for 5 s after it.
  for (let key = 0; key < 67; key++) {
    if (key === 11) dom.setOnline(true);
    press();
    await dom.tick(90);
  }
  // The last key at 3000 + 66 × 90 = 8940 ms.
  assert.equal(reloads, [], 'no reload while the keys keep coming');
  assert.equal(probes, [], 'no probe either: the moment is not quiet yet');
  await dom.tick(60_000);
  assert.equal(reloads, [8940 + 2000], 'one reload, 2 s after the last key');
  assert.equal(probes, [8940 + 2000], 'after one probe, at the quiet moment');
});

test('the log says why the reload waits (typing, then a hidden tab) and when it happens', async () => {
  const stopConnectivity = startConnectivity();
  start();
  dom.setOnline(false);
  dom.setOnline(true);
  press();
  await dom.tick(1000);
  dom.setHidden(true);
  await dom.tick(5000);
  dom.setHidden(false);
  await dom.tick(0);
  const entries = (connectivityLog.getSnapshot() ?? []).map((entry) => (entry.detail ? `${entry.kind}: ${entry.detail}` : entry.kind));
  assert.equal(
    entries.filter((entry) => entry.startsWith('reload-waits')),
    ['reload-waits: typing', 'reload-waits: hidden tab'],
  );
  assert.equal(entries.at(-1), 'reload');
  assert.equal(reloads, [6000]);
  stopConnectivity();
});

/** An app's own stored data, as a builder declares it: one text kept on the device by the shell's device document. */
const DRAFT_KEY = 'reconnect-test:draft';
const draft = createDeviceDocument<{ text: string }>({
  key: DRAFT_KEY,
  empty: { text: '' },
  recover: (data) => ({ doc: { text: String((data as { text?: unknown } | undefined)?.text ?? '') }, lost: false }),
  // The longer text wins: the same whichever side merges (a test needs no more).
  merge: (mine, theirs) => (theirs.text.length > mine.text.length ? theirs : mine),
});

test('saves what the user typed (a save still pending) before it reloads', async () => {
  // A save delay far longer than the stable period makes the race explicit: without the
  // flush, the reload would come before the save.
  const stopDraft = draft.start({ saveWithinMs: 60_000 });
  let storedAtReload: string | null = null;
  // The default reload (reloadAfterFlush), with happy-dom's location.reload replaced so the test
  // can look at storage at the moment of the reload.
  Object.defineProperty(dom.win.location, 'reload', {
    configurable: true,
    value: () => (storedAtReload = localStorage.getItem(DRAFT_KEY)),
  });
  stop = startReconnect({ check: async () => true });
  dom.setOnline(false);
  draft.change({ text: 'typed offline' });
  await dom.tick(100);
  draft.change({ text: 'typed offline, up to the last keystroke' });
  assert.is(localStorage.getItem(DRAFT_KEY), null, 'nothing saved yet');
  dom.setOnline(true);
  await dom.tick(1000);
  stopDraft();
  assert.ok(storedAtReload, 'reloaded, with the text in storage');
  assert.is(JSON.parse(present(storedAtReload, 'the text stored at the reload')).text, 'typed offline, up to the last keystroke');
});

test.run();
