// What the suites of one test file share: one Chromium (each launch costs about a second of CPU,
// more where fresh memory is slow; each test takes a fresh context of it) and, for most suites,
// the host of the site under test.
import { appendFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import type { Test } from 'uvu';
import { launchChromium } from './browser';
import { beforeAllTests } from './hooks';
import type { Host } from './hosts';

/** The context uvu hands to each test and hook of a suite that called shareChromium(). */
export interface Shared {
  browser: Browser;
  /** Set only when shareChromium() was given a host to start. */
  host: Host;
}

/** The file's Chromium, once a suite has asked for it. */
let launched: Promise<Browser> | undefined;

/** Suites of this file that share Chromium and have not finished: the last one to finish closes it. */
let suitesOpen = 0;

/** The file's Chromium: launched by the first suite that asks, and again if it has crashed or failed to start. */
async function fileChromium(): Promise<Browser> {
  const browser = await launched?.catch(() => null);
  if (browser?.isConnected()) return browser;
  launched = launchChromium();
  return launched;
}

/**
 * Before the suite's first test, takes the file's Chromium and starts the host `startHost` makes
 * (if any). After its last, stops the host and closes any context a failed test left open, so the
 * next suite starts from a browser with nothing in it; the file's last suite closes Chromium.
 */
export function shareChromium(test: Test<Shared>, startHost?: () => Promise<Host>): void {
  // Every suite of a file is registered when the file is imported, before any of them runs.
  suitesOpen++;
  beforeAllTests(test, async (shared) => {
    shared.browser = await fileChromium();
    if (startHost) shared.host = await startHost();
  });
  timeEachTest(test);
  test.after(async (shared) => {
    // Either may be missing if `before` failed; uvu still runs `after`.
    await shared.host?.close();
    for (const context of shared.browser?.contexts() ?? []) await context.close().catch(() => {});
    if (--suitesOpen > 0) return;
    await (await launched?.catch(() => null))?.close();
  });
}

/**
 * With TEST_TIMES set to a file, appends each test's seconds, suite and name to it (tab-separated):
 * where a run's time goes, for whoever has to make it shorter.
 */
function timeEachTest(test: Test<Shared>): void {
  const file = process.env.TEST_TIMES;
  if (!file) return;
  let started = 0;
  test.before.each(() => {
    started = performance.now();
  });
  test.after.each((shared) => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    appendFileSync(file, `${seconds}\t${shared.__suite__}\t${shared.__test__}\n`);
  });
}
