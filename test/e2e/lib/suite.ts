// What the tests of one uvu suite share: one Chromium (a launch per test would dominate the run
// time; each test takes a fresh context of it) and, for most suites, the host of the site under test.
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

/** Before the suite's first test, launches Chromium and starts the host `startHost` makes (if any); closes both after its last. */
export function shareChromium(test: Test<Shared>, startHost?: () => Promise<Host>): void {
  beforeAllTests(test, async (shared) => {
    shared.browser = await launchChromium();
    if (startHost) shared.host = await startHost();
  });
  test.after(async (shared) => {
    // Either may be missing if `before` failed; uvu still runs `after`.
    await shared.host?.close();
    await shared.browser?.close();
  });
}
