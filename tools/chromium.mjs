// Debian's Chromium as every test and the bench launch it. Plain JS,
// so the bench (tools/bench/) and test/browser/wtr.config.mjs import it without bundling.

/**
 * As root Chromium needs --no-sandbox (Playwright adds it, web-test-runner does not); the rest keep
 * it from flooding a closed network with background lookups and updates.
 */
export const CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The Chromium binary: CHROME_PATH, or Debian's package. */
export const chromePath = () => process.env.CHROME_PATH || '/usr/bin/chromium';
