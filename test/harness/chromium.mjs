// Debian's Chromium (the full browser and its headless shell) as every test and the bench launch
// it. Plain JS, so the bench (test/bench/) and test/browser/wtr.config.mjs import it unbundled.

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

/**
 * Chromium's headless shell (Debian's chromium-headless-shell; CHROMIUM_SHELL_PATH overrides): the
 * same Blink, V8 and network service without the browser's own layer (its UI, profile services and
 * helper pages), which headless tests never see: each page and context costs less CPU, on machines
 * where the end-to-end tests are CPU-bound (CHANGELOG.md has the measurements).
 */
export const chromiumShellPath = () => process.env.CHROMIUM_SHELL_PATH || '/usr/bin/chromium-headless-shell';
