// What `npm test` needs from the machine besides npm packages: Debian's browsers (Chromium,
// Firefox ESR, WebKitGTK's MiniBrowser and driver under Xvfb) and the static hosts the tests serve
// the app with (nginx, python3). The README's two commands are all a new user runs, so `npm test`
// installs what is missing itself where it can: as root, with apt-get. Where it cannot, it prints
// one line per missing program with the command to run, and the suites that need it fail with
// their own one line (never pass silently). `.ci/run` relies on this too: it only runs npm ci and
// npm test. Cloudflare Pages' local runtime (npm `wrangler`, about 195 MB) and the MDN HTTP
// Observatory's scanner are no dev dependencies: ensureWrangler() and ensureObservatory() install
// them into the test cache on first use (install-on-first-use.mjs), so `npm ci` stays small.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromePath, chromiumShellPath } from './chromium.mjs';
import { installOnFirstUse } from './install-on-first-use.mjs';
import { onPath } from './on-path.mjs';

/**
 * One program the tests need: what it is, where it is looked for, the Debian package that brings
 * it, whether that package is installed without its recommends, and the suites that need it.
 * @typedef {object} Requirement
 * @property {string} what
 * @property {string} path
 * @property {string} debianPackage
 * @property {boolean} [withoutRecommends] WebKit's and nginx's recommends are a desktop and a web server's extras the tests never use
 * @property {string} neededBy
 */

/**
 * Where the tests run a command from PATH: its full path, or its bare name when it is not there
 * (a path that then does not exist, so it counts as missing).
 * @param {string} command
 */
const commandPath = (command) => onPath(command) ?? command;

/**
 * The programs the browser and end-to-end suites need, each where the tests look for it. An
 * environment variable overrides Debian's path, as the tests read it: CHROME_PATH and
 * CHROMIUM_SHELL_PATH (chromium.mjs), FIREFOX_PATH, MINIBROWSER_PATH, WEBKIT_DRIVER_PATH,
 * NGINX_PATH, and WRANGLER_PATH for Pages' runtime (ensureWrangler below).
 * @returns {Requirement[]}
 */
export function requirements() {
  const env = process.env;
  return [
    { what: 'Chromium', path: chromePath(), debianPackage: 'chromium', neededBy: 'browser and end-to-end tests' },
    {
      what: "Chromium's headless shell",
      path: chromiumShellPath(),
      debianPackage: 'chromium-headless-shell',
      withoutRecommends: true,
      neededBy: 'most end-to-end tests, which run faster in it (without it they run the full Chromium)',
    },
    {
      what: 'Firefox ESR',
      path: env.FIREFOX_PATH || '/usr/bin/firefox-esr',
      debianPackage: 'firefox-esr',
      neededBy: 'the Firefox engine tests',
    },
    {
      what: "WebKitGTK's MiniBrowser",
      path: env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
      debianPackage: 'webkit2gtk-driver',
      withoutRecommends: true,
      neededBy: 'the WebKit engine tests',
    },
    {
      what: 'WebKitWebDriver',
      path: env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver',
      debianPackage: 'webkit2gtk-driver',
      withoutRecommends: true,
      neededBy: 'the WebKit engine tests',
    },
    {
      what: 'Xvfb',
      path: commandPath('Xvfb'),
      debianPackage: 'xvfb',
      withoutRecommends: true,
      neededBy: 'the WebKit engine tests (a display for MiniBrowser)',
    },
    {
      what: 'xauth',
      path: commandPath('xauth'),
      debianPackage: 'xauth',
      withoutRecommends: true,
      neededBy: 'the WebKit engine tests (Xvfb)',
    },
    {
      what: 'ip',
      path: commandPath('ip'),
      debianPackage: 'iproute2',
      withoutRecommends: true,
      neededBy: "the WebKit engine tests (their network namespace's link)",
    },
    {
      what: 'nginx',
      path: env.NGINX_PATH || '/usr/sbin/nginx',
      debianPackage: 'nginx',
      withoutRecommends: true,
      neededBy: 'the tests of deploy/nginx.conf',
    },
    {
      what: 'rsync',
      path: commandPath('rsync'),
      debianPackage: 'rsync',
      withoutRecommends: true,
      neededBy: 'the test of a deploy copied with rsync -a',
    },
    {
      what: 'python3',
      path: commandPath('python3'),
      debianPackage: 'python3',
      neededBy: 'the tests on the most minimal host, python3 -m http.server',
    },
  ];
}

/**
 * The requirements whose program is not where the tests look for it.
 * @param {Requirement[]} wanted
 * @param {(file: string) => boolean} [exists]
 */
export const missingRequirements = (wanted, exists = existsSync) => wanted.filter((requirement) => !exists(requirement.path));

/**
 * The apt-get installs that bring the missing programs: packages with their recommends, and
 * packages without (each package once, in the order first needed).
 * @param {Requirement[]} missing
 * @returns {{ withRecommends: string[], withoutRecommends: string[] }}
 */
export function installPlan(missing) {
  /** @param {boolean} without */
  const packages = (without) => [
    ...new Set(
      missing.filter((requirement) => !!requirement.withoutRecommends === without).map((requirement) => requirement.debianPackage),
    ),
  ];
  return { withRecommends: packages(false), withoutRecommends: packages(true) };
}

/**
 * One line per missing program, for a machine where this runner cannot install: what, where it
 * was looked for, who needs it, and the command to run.
 * @param {Requirement[]} missing
 * @returns {string[]}
 */
export function instructions(missing) {
  return missing.map((requirement) => {
    const flags = requirement.withoutRecommends ? '--no-install-recommends ' : '';
    return `${requirement.what} not found at ${requirement.path} (${requirement.neededBy}): install it with \`sudo apt-get install -y ${flags}${requirement.debianPackage}\``;
  });
}

/** Whether this runner may install Debian packages itself: root, with apt-get on PATH. */
const canInstall = () => process.getuid?.() === 0 && onPath('apt-get') !== null;

/**
 * Runs apt-get with `args`, its output shown as it goes; resolves to whether it succeeded.
 * @param {string[]} args
 */
function aptGet(args) {
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return result.status === 0;
}

// Debian starts an installed nginx service on port 80, which the tests do not want (they start
// their own nginx on a free loopback port). A policy-rc.d answering 101 ("action forbidden") keeps
// invoke-rc.d from starting it; it is removed afterwards unless it was there before.
const POLICY_RC = '/usr/sbin/policy-rc.d';

/**
 * Installs `packages` without their recommends; nginx's service is kept from starting.
 * @param {string[]} packages
 */
function installWithoutRecommends(packages) {
  const ownPolicy = packages.includes('nginx') && !existsSync(POLICY_RC);
  if (ownPolicy) writeFileSync(POLICY_RC, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    return aptGet(['install', '-y', '--no-install-recommends', ...packages]);
  } finally {
    if (ownPolicy) unlinkSync(POLICY_RC);
  }
}

/**
 * Installs what the browser and end-to-end suites need and the machine lacks, where this runner
 * can (root with apt-get): says once what it installs and why. Elsewhere prints one line per
 * missing program. Never throws: a suite that still lacks its program fails with its own line.
 * @param {(line: string) => void} [say]
 */
export function ensureTestMachine(say = console.log) {
  const missing = missingRequirements(requirements());
  if (missing.length === 0) return;
  if (!canInstall()) {
    for (const line of instructions(missing)) say(line);
    return;
  }
  const plan = installPlan(missing);
  say(
    `npm test: installing ${[...plan.withRecommends, ...plan.withoutRecommends].join(', ')} with apt-get, for ${[...new Set(missing.map((requirement) => requirement.neededBy))].join('; ')}`,
  );
  if (!aptGet(['update'])) {
    say('npm test: apt-get update failed; the suites that need these programs will say what is missing');
    return;
  }
  const installed = [
    plan.withRecommends.length === 0 || aptGet(['install', '-y', ...plan.withRecommends]),
    plan.withoutRecommends.length === 0 || installWithoutRecommends(plan.withoutRecommends),
  ].every(Boolean);
  if (!installed) say('npm test: apt-get install failed; the suites that need these programs will say what is missing');
}

/**
 * The wrangler the tests run Cloudflare Pages' runtime with (`wrangler pages dev`), pinned: its
 * workerd carries a compatibility date, and a newer one changes what Pages does.
 */
export const WRANGLER_VERSION = '4.86.0';

/**
 * Where ensureWrangler() installs wrangler under the test cache, and the launcher the tests run
 * with Node.
 * @param {string} cache
 */
export function wranglerInstall(cache) {
  const dir = path.join(cache, 'wrangler');
  return { dir, launcher: path.join(dir, 'node_modules', 'wrangler', 'bin', 'wrangler.js') };
}

/**
 * The folder the tests keep what they build and install in: TEST_CACHE (relative to `root`), which
 * lets two checkouts (or two people) run the suites side by side without clobbering, or `.cache`.
 * @param {string} root
 */
export const testCache = (root) => path.resolve(root, process.env.TEST_CACHE || '.cache');

/**
 * Makes sure the end-to-end tests on Cloudflare Pages have wrangler: WRANGLER_PATH when set (used
 * as it is), else WRANGLER_VERSION in `<cache>/wrangler`, installed there with npm the first time
 * (install-on-first-use.mjs). Returns the launcher's path; never throws: when the install fails,
 * the suites on Pages fail with their own line.
 * @param {string} cache
 * @param {(line: string) => void} [say]
 */
export function ensureWrangler(cache, say = console.log) {
  const given = process.env.WRANGLER_PATH;
  if (given) {
    // uvu does not print a failed `before` hook's error, so the reason is said here, once.
    if (!existsSync(given)) say(`wrangler not found at ${given} (WRANGLER_PATH): the tests on Cloudflare Pages will fail`);
    return given;
  }
  const { dir, launcher } = wranglerInstall(cache);
  installOnFirstUse(
    {
      dir,
      name: 'wrangler',
      version: WRANGLER_VERSION,
      dependencies: { wrangler: WRANGLER_VERSION },
      by: 'npm test',
      about: "Cloudflare Pages' local runtime, about 195 MB",
      neededBy: 'the tests on Cloudflare Pages',
      instead: 'set WRANGLER_PATH',
    },
    say,
  );
  return launcher;
}

/**
 * What in a test file starts Cloudflare Pages' runtime: running on every kind of host
 * (lib/hosts.ts `hostsFor()`, `HOSTS`) or on Pages by name.
 */
const STARTS_PAGES = /\bhostsFor\(|\bHOSTS\b|['"]pages['"]/;

/**
 * Whether any of the test files (their sources) runs on Cloudflare Pages' runtime: only then is
 * wrangler (about 195 MB) installed. The quick run's engines.test.ts runs on python alone.
 * @param {string[]} sources
 */
export const needsPagesRuntime = (sources) => sources.some((file) => STARTS_PAGES.test(readFileSync(file, 'utf8')));

/** Google's CSP Evaluator (npm csp_evaluator), which test/e2e/csp-evaluator.test.ts asks about the policies, pinned. */
export const CSP_EVALUATOR_VERSION = '1.1.8';

/**
 * Makes sure the CSP Evaluator is there: CSP_EVALUATOR_PATH when set (its package folder, used as
 * it is), else CSP_EVALUATOR_VERSION in `<cache>/csp-evaluator`, installed there with npm the first
 * time (it has no dependencies and no install script). Returns the package's folder; never throws:
 * when the install fails, its test fails with its own line.
 * @param {string} cache
 * @param {(line: string) => void} [say]
 */
export function ensureCspEvaluator(cache, say = console.log) {
  const given = process.env.CSP_EVALUATOR_PATH;
  if (given) return given;
  const dir = path.join(cache, 'csp-evaluator');
  installOnFirstUse(
    {
      dir,
      name: 'csp_evaluator',
      version: CSP_EVALUATOR_VERSION,
      dependencies: { csp_evaluator: CSP_EVALUATOR_VERSION },
      by: 'npm test',
      about: "Google's CSP Evaluator, about 1 MB",
      neededBy: 'the CSP Evaluator test',
      instead: 'set CSP_EVALUATOR_PATH',
    },
    say,
  );
  return path.join(dir, 'node_modules', 'csp_evaluator');
}

/** The MDN HTTP Observatory's scanner the tests score the hosts' headers with (observatory.mjs), pinned. */
export const OBSERVATORY_VERSION = '1.4.8';

/**
 * Makes sure the Observatory's scanner is there: OBSERVATORY_PATH when set (its package folder,
 * used as it is), else OBSERVATORY_VERSION in `<cache>/observatory`, installed there with npm the
 * first time. Its install script (which downloads Chromium's HSTS preload list) never runs: an
 * empty list is written in its place, which is true of any loopback test host. Returns the
 * package's folder; never throws: when the install fails, the scans fail with their own line.
 * @param {string} cache
 * @param {(line: string) => void} [say]
 */
export function ensureObservatory(cache, say = console.log) {
  const given = process.env.OBSERVATORY_PATH;
  if (given) return given;
  const dir = path.join(cache, 'observatory');
  const name = '@mdn/mdn-http-observatory';
  const installed = installOnFirstUse(
    {
      dir,
      name,
      version: OBSERVATORY_VERSION,
      dependencies: { [name]: OBSERVATORY_VERSION },
      by: 'npm test',
      about: "the MDN HTTP Observatory's scanner, about 130 MB",
      neededBy: 'the Observatory tests',
      instead: 'set OBSERVATORY_PATH',
    },
    say,
  );
  const packageDir = path.join(dir, 'node_modules', ...name.split('/'));
  const preloadList = path.join(packageDir, 'conf', 'hsts-preload.json');
  if (installed && !existsSync(preloadList)) writeFileSync(preloadList, '{}\n');
  return packageDir;
}
