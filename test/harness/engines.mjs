#!/usr/bin/env node
// Runs an end-to-end test file in one browser engine: Chromium and Firefox plainly, WebKitGTK
// inside a network namespace of its own with its own Xvfb. Why a namespace: WebKitGTK's
// `navigator.onLine` follows the system's default route (GLib's network monitor), and no WebDriver
// command can take a page offline, so the tests switch a virtual link of a private namespace and
// leave the machine's network alone.
//
// For the runner (runner.mjs): `missingEngine(name)` and `runEngineTest({ engine, file, ... })`.
// By hand:   node test/harness/engines.mjs <chromium|firefox|webkit>[,...] [react|preact|both] [--parallel] [--grep TEXT]
// bundles test/e2e/engines*.test.ts (or the test files matching --grep) and runs them per engine.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { onPath } from './on-path.mjs';
import { runInGroup } from './process-group.mjs';

/** @typedef {'chromium' | 'firefox' | 'webkit'} EngineName */

/**
 * The engines, as ENGINE names them for the tests.
 * @type {EngineName[]}
 */
export const ENGINES = ['chromium', 'firefox', 'webkit'];

/**
 * Whether a name given on a command line is one of ENGINES.
 * @param {string} name
 * @returns {name is EngineName}
 */
export const isEngine = (name) => ENGINES.some((engine) => engine === name);

/**
 * One executable an engine needs: what it is, the variable that overrides its path, its path,
 * and the command that installs it.
 * @typedef {{ what: string, env: string | null, path: string, install: string }} EngineExecutable
 */

/** The virtual link whose state is "the network" inside the WebKit namespace (its peer is wkv1). */
export const NETNS_LINK = 'wkv0';

const APT_WEBKIT = 'apt-get install -y --no-install-recommends webkit2gtk-driver xvfb xauth';
const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..', '..');
const execFileAsync = promisify(execFile);

/**
 * The executables an engine needs: each with its path (an environment variable overrides Debian's
 * default), the variable, and the command that installs it.
 * @param {EngineName} name
 * @returns {EngineExecutable[]}
 */
export function engineExecutables(name) {
  /**
   * @param {string} what
   * @param {string | null} env
   * @param {string} fallback
   * @param {string} install
   */
  const item = (what, env, fallback, install) => ({ what, env, path: (env && process.env[env]) || fallback, install });
  if (name === 'chromium') return [item('Chromium', 'CHROME_PATH', '/usr/bin/chromium', 'apt-get install -y chromium')];
  if (name === 'firefox') return [item('Firefox ESR', 'FIREFOX_PATH', '/usr/bin/firefox-esr', 'apt-get install -y firefox-esr')];
  if (name === 'webkit')
    return [
      item('MiniBrowser', 'MINIBROWSER_PATH', '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser', APT_WEBKIT),
      item('WebKitWebDriver', 'WEBKIT_DRIVER_PATH', '/usr/bin/WebKitWebDriver', APT_WEBKIT),
      item('Xvfb', null, onPath('Xvfb') ?? 'Xvfb', APT_WEBKIT),
      item('unshare', null, onPath('unshare') ?? 'unshare', 'apt-get install -y util-linux'),
      item('ip', null, onPath('ip') ?? 'ip', 'apt-get install -y iproute2'),
    ];
  throw new Error(`unknown engine ${name} (expected ${ENGINES.join(', ')})`);
}

/**
 * The one line saying what to install (or set) for `name`, or null when everything is there.
 * @param {EngineName} name
 * @returns {string | null}
 */
export function missingEngine(name) {
  for (const exe of engineExecutables(name)) {
    if (existsSync(exe.path)) continue;
    return `${name}: ${exe.what} not found at ${exe.path}; install it with \`${exe.install}\`${exe.env ? ` or set ${exe.env}` : ''}`;
  }
  // A network namespace of our own needs root (or unprivileged user namespaces, not assumed here).
  if (name === 'webkit' && process.getuid?.() !== 0)
    return 'webkit: the WebKit tests need root for their network namespace (unshare --net)';
  return null;
}

/**
 * Turns the namespace's network off (link down: GLib sees no default route) or on (link up, and the
 * default route again, which the kernel dropped with the link). Loopback stays up either way.
 * Only meaningful inside the namespace that runEngineTest() made for WebKit.
 * @param {boolean} online
 * @returns {Promise<void>}
 */
export async function setNamespaceNetwork(online) {
  await execFileAsync('ip', ['link', 'set', NETNS_LINK, online ? 'up' : 'down']);
  if (online) await execFileAsync('ip', ['route', 'replace', 'default', 'dev', NETNS_LINK]);
}

/**
 * True when this process runs in the namespace runEngineTest() made (its veth link exists).
 * @returns {Promise<boolean>}
 */
export async function inEngineNamespace() {
  return execFileAsync('ip', ['link', 'show', NETNS_LINK]).then(
    () => true,
    () => false,
  );
}

/**
 * Runs a command in its own process group, from the project's root.
 * @param {string} cmd
 * @param {string[]} argv
 * @param {Parameters<typeof runInGroup>[2]} [options]
 */
const run = (cmd, argv, options = {}) => runInGroup(cmd, argv, { cwd: root, ...options });

/**
 * Runs one bundled test file (an .mjs made from a test/e2e/*.test.ts, as runner.mjs makes them)
 * for one engine, through uvu-run.mjs; resolves to { code, out } like runner.mjs run().
 * The test reads ENGINE and BUILD from its environment (no `build`: both builds, in one process
 * sharing one browser). WebKit runs inside `unshare --net` with a
 * veth link as its network and an Xvfb of its own; Chromium and Firefox run plainly.
 * A missing browser is one line of output and code 1, never a skip.
 *
 * @param {{ engine: EngineName, file: string, build?: 'react' | 'preact', env?: Record<string, string>, capture?: boolean, timeout?: number }} options
 * @returns {Promise<{ code: number, out: string }>}
 */
export async function runEngineTest({ engine, file, build, env = {}, capture = false, timeout }) {
  const missing = missingEngine(engine);
  if (missing) {
    if (!capture) console.log(missing);
    return { code: 1, out: missing + '\n' };
  }
  const testEnv = { FORCE_COLOR: '0', ...env, ENGINE: engine, BUILD: build ?? '' };
  const uvu = ['--enable-source-maps', path.join(root, 'test/harness/uvu-run.mjs'), file];
  if (engine !== 'webkit') return run(process.execPath, uvu, { env: testEnv, capture, timeout });
  return run('unshare', ['--net', '--', process.execPath, self, '--in-namespace', process.execPath, ...uvu], {
    env: testEnv,
    capture,
    timeout,
  });
}

/** Inside the fresh namespace: loopback up, a veth pair as "the network" with the default route on it. */
async function setUpNamespaceNetwork() {
  const ip = (/** @type {string[]} */ ...args) => execFileAsync('ip', args);
  await ip('link', 'set', 'lo', 'up');
  await ip('link', 'add', NETNS_LINK, 'type', 'veth', 'peer', 'name', 'wkv1');
  await ip('link', 'set', 'wkv1', 'up');
  await ip('link', 'set', NETNS_LINK, 'up');
  await ip('route', 'add', 'default', 'dev', NETNS_LINK);
}

/**
 * Starts Xvfb on the first free display (it writes the number to fd 3: no guessing, no race).
 * `-noreset`: by default an X server resets when its last client leaves, and a client connecting
 * during the reset is refused. Each WebDriver session's MiniBrowser is often the only client, so
 * the next session's MiniBrowser met that window under load: GTK's "cannot open display: :0",
 * about one WebKit run in three. Measured with xdpyinfo connecting 300 times in a row, 3 busy
 * loops beside it: 9 and 11 refusals without -noreset, 0 with it.
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, display: string }>}
 */
function startXvfb() {
  const xvfb = /** @type {EngineExecutable} */ (engineExecutables('webkit').find((e) => e.what === 'Xvfb')).path;
  const child = spawn(xvfb, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp', '-noreset'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  // Both piped above: stderr and fd 3 are streams the child writes.
  const stderr = /** @type {import('node:stream').Readable} */ (child.stdio[2]);
  const displayfd = /** @type {import('node:stream').Readable} */ (child.stdio[3]);
  stderr.on('data', (d) => (errors += d));
  return new Promise((resolve, reject) => {
    displayfd.once('data', (d) => resolve({ child, display: ':' + String(d).trim() }));
    child.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it had a display:\n${errors}`)));
  });
}

/** Xvfb starts a time more before it counts as broken. */
const XVFB_RETRIES = 2;

/**
 * Starts Xvfb, again when it exits before it has a display: under a full run's load its keymap
 * compiler (xkbcomp, run by Xvfb at start) once failed ("XKB: Failed to compile keymap") and the
 * next start worked. The last failure is reported with Xvfb's own words.
 */
async function startXvfbRetrying() {
  for (let attempt = 0; ; attempt++) {
    try {
      return await startXvfb();
    } catch (err) {
      if (attempt >= XVFB_RETRIES) throw err;
      console.log(`Xvfb did not start (${/** @type {Error} */ (err).message.split('\n')[1] ?? 'no reason given'}); starting it again`);
    }
  }
}

/**
 * How WebKit paints under Xvfb: without accelerated compositing. Xvfb has no GPU, so WebKitGTK's
 * compositing runs OpenGL in software (Mesa's llvmpipe), the costliest way to draw a page on a CPU;
 * its web processes used 8.3 s of CPU for engines-versions, 4.4 s without. The scenarios assert what
 * the page says and stores, never how it was composited.
 */
const WEBKIT_PAINTING = { WEBKIT_DISABLE_COMPOSITING_MODE: '1' };

/**
 * `--in-namespace node args...`: network and Xvfb up, then the command with DISPLAY; exits with its code.
 * @param {string[]} command
 */
async function insideNamespace(command) {
  await setUpNamespaceNetwork();
  const xvfb = await startXvfbRetrying();
  let code = 1;
  try {
    const child = spawn(command[0], command.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, DISPLAY: xvfb.display, ...WEBKIT_PAINTING },
    });
    code = await new Promise((/** @type {(code: number) => void} */ resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
    });
  } finally {
    xvfb.child.kill();
  }
  process.exit(code);
}

/**
 * Whether a CLI's build argument is one of react, preact, both.
 * @param {string} name
 * @returns {name is 'react' | 'preact' | 'both'}
 */
const isBuildChoice = (name) => name === 'react' || name === 'preact' || name === 'both';

/**
 * The CLI: bundle, then each engine × file, sequentially unless --parallel; prints wall times.
 * @param {string[]} argv
 */
async function main(argv) {
  const parallel = argv.includes('--parallel');
  const grepAt = argv.indexOf('--grep');
  const grep = grepAt >= 0 ? argv.splice(grepAt, 2)[1] : 'engines';
  const [engineList = '', buildName = 'both'] = argv.filter((a) => !a.startsWith('--'));
  const named = engineList.split(',').filter(Boolean);
  const engines = named.filter(isEngine);
  if (!engines.length || engines.length !== named.length || !isBuildChoice(buildName)) {
    console.log('usage: node test/harness/engines.mjs <chromium|firefox|webkit>[,...] [react|preact|both] [--parallel] [--grep TEXT]');
    process.exit(2);
  }
  // Imported here: the test helpers import this module, and they need no bundler.
  const { bundleTests } = await import('./test-bundle.mjs');
  const files = await bundleTests({ root, dir: 'e2e', outdir: path.join(root, process.env.TEST_CACHE || '.cache', 'engines'), grep });
  if (!files.length) throw new Error(`no test file in test/e2e matches "${grep}"`);
  // "both": one process runs both builds, so they share one browser.
  const build = buildName === 'both' ? undefined : buildName;
  const jobs = engines.flatMap((engine) => files.map((file) => ({ engine, file })));
  /** @param {{ engine: EngineName, file: string }} job */
  const runJob = async ({ engine, file }) => {
    const start = Date.now();
    const { code, out } = await runEngineTest({ engine, build, file, capture: parallel });
    if (parallel) process.stdout.write(out);
    const seconds = ((Date.now() - start) / 1000).toFixed(1);
    console.log(`== ${engine} ${buildName} ${path.basename(file)}: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
    return code;
  };
  const codes = parallel ? await Promise.all(jobs.map(runJob)) : [];
  if (!parallel) for (const job of jobs) codes.push(await runJob(job));
  process.exit(codes.some((c) => c !== 0) ? 1 : 0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  if (argv[0] === '--in-namespace') await insideNamespace(argv.slice(1));
  else await main(argv);
}
