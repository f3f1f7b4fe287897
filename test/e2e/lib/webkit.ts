// The engine-neutral driver (driver.ts) over WebKitGTK: selenium-webdriver as the client of
// WebKitWebDriver, which starts one MiniBrowser per session (≈ 0.3 s; each session a fresh
// ephemeral profile with service workers and CacheStorage on). There is no headless mode: the test
// runs under its own Xvfb, inside the network namespace that test/harness/engines.mjs makes, where
// "offline" is a virtual link going down.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { Builder, By, until as seleniumUntil, type WebDriver, type WebElement } from 'selenium-webdriver';
import type { Command } from 'selenium-webdriver/lib/command';
import { engineExecutables, inEngineNamespace, missingEngine, setNamespaceNetwork } from '../../harness/engines.mjs';
import { clickableXPath, labelledXPath, type Engine, type Profile, type Tab } from './driver';
import { freePort, stopProcess } from './processes';
import { until } from './wait';

const HOW_TO_RUN =
  'the WebKit tests run inside the network namespace and Xvfb that test/harness/engines.mjs sets up: node test/harness/engines.mjs webkit react';

/**
 * Starts WebKitWebDriver (WEBKIT_DRIVER_PATH overrides) for MiniBrowser (MINIBROWSER_PATH
 * overrides); throws one line when something is not installed or the namespace is missing.
 */
export async function launchWebKit(): Promise<Engine> {
  const missing = missingEngine('webkit');
  if (missing) throw new Error(missing);
  if (!process.env.DISPLAY || !(await inEngineNamespace())) throw new Error(`webkit: ${HOW_TO_RUN}`);
  const [miniBrowser, webDriverPath] = engineExecutables('webkit').map((e) => e.path);
  const version = execFileSync(miniBrowser, ['--version'], { encoding: 'utf8' }).trim();
  const driver = await startDriver(webDriverPath);
  const sessions = new Set<WebDriver>();
  /** A new session (one MiniBrowser), or a one-line error after SESSION_LIMIT_MS. */
  const newSession = () =>
    withinLimit(
      // usingServer(): selenium-manager never runs (it would try to download a driver).
      new Builder()
        .usingServer(driver.server)
        .withCapabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: miniBrowser, args: ['--automation'] } })
        .build(),
      SESSION_LIMIT_MS,
      'webkit: no MiniBrowser session',
    );
  return {
    name: 'webkit',
    version: version.replace(/^WebKitGTK\s*/i, 'webkitgtk '),
    // GLib's network monitor reports a link change 3-5 s later (measured), sometimes more on a busy machine.
    networkLagMs: 15_000,
    consoleCoverage: 'after-load',
    async newProfile() {
      let session: WebDriver;
      try {
        session = await newSession();
      } catch (error) {
        // MiniBrowser's own complaints (a display it cannot open) go to the driver's stderr.
        throw new Error(
          `${(error as Error).message}; WebKitWebDriver said: ${driver.errors().trim().split('\n').slice(-3).join(' | ') || 'nothing'}`,
        );
      }
      boundCommands(session);
      sessions.add(session);
      return webkitProfile(session, () => sessions.delete(session));
    },
    async close() {
      for (const session of sessions) await session.quit().catch(() => {});
      sessions.clear();
      await stopProcess(driver.process);
    },
  };
}

/** A running WebKitWebDriver: its process, its URL and what it printed on stderr. */
interface Driver {
  process: ChildProcess;
  server: string;
  errors: () => string;
}

/** Starts WebKitWebDriver on a free port and waits until it answers /status. */
async function startDriver(webDriverPath: string): Promise<Driver> {
  const port = await freePort();
  const child = spawn(webDriverPath, [`--port=${port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (data) => {
    errors += data;
  });
  const server = `http://127.0.0.1:${port}`;
  try {
    await until('WebKitWebDriver to answer', async () => {
      if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited (${child.exitCode}):\n${errors}`);
      return fetch(`${server}/status`).then(
        (r) => r.ok,
        () => false,
      );
    });
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { process: child, server, errors: () => errors };
}

/** A new session starts MiniBrowser: well under a second when healthy, a few seconds under load. */
const SESSION_LIMIT_MS = 30_000;

/** Resolves or rejects as `promise` does, or rejects with `message` after `ms`. */
function withinLimit<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} in ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** No WebDriver command takes longer than this; the slowest healthy one (a first install's page load) takes a few seconds. */
const COMMAND_LIMIT_MS = 60_000;

/**
 * Makes every command of the session fail after COMMAND_LIMIT_MS with one line naming it, instead
 * of waiting for the suite's timeout; WEBKIT_TRACE=1 prints each command with its duration.
 */
function boundCommands(session: WebDriver): void {
  const execute = session.execute.bind(session);
  const trace = !!process.env.WEBKIT_TRACE;
  // Typed Promise<void> by @types/selenium-webdriver; it resolves to the command's value.
  session.execute = (command: Command): Promise<void> => {
    const name = command.getName();
    const started = Date.now();
    return withinLimit(execute(command), COMMAND_LIMIT_MS, `webkit: the WebDriver command ${name} got no answer`).finally(() => {
      if (trace) console.log(`  webkit: ${name} ${Date.now() - started} ms`);
    });
  };
}

/**
 * A WebDriver session as a Profile. Its tabs are the session's windows; WebDriver has one current
 * window per session, so each Tab switches to its own first (only when another was current).
 * Offline is the namespace's link: it applies to every session at once, which is fine because the
 * scenarios use one profile at a time.
 */
function webkitProfile(session: WebDriver, forget: () => void): Profile {
  let current = '';
  let unused = true; // the window the session starts with, until the first open()
  const focus = async (handle: string) => {
    if (handle === current) return;
    await session.switchTo().window(handle);
    current = handle;
  };
  return {
    async open(url) {
      if (!unused) await session.switchTo().newWindow('tab');
      unused = false;
      current = await session.getWindowHandle();
      const tab = webkitTab(session, current, focus);
      await tab.goto(url);
      return tab;
    },
    setOffline: (offline) => setNamespaceNetwork(!offline),
    async close() {
      forget();
      await session.quit();
    },
  };
}

/** sessionStorage key where the page-side hooks keep what they saw: it survives the tab's reloads. */
const PROBLEMS_KEY = 'engine-test:problems';

/**
 * Runs in the page, once per document: records console.error calls, uncaught exceptions, unhandled
 * rejections and CSP violations in sessionStorage. WebKitGTK gives a WebDriver client no console:
 * WebKitWebDriver has no log endpoint and no BiDi (a session asking for `webSocketUrl` is refused),
 * and MiniBrowser's --enable-write-console-messages-to-stdout prints nothing for the ephemeral
 * profiles that automation sessions use. Scripts run by WebDriver share the page's JS world and
 * are not subject to its CSP, so these hooks work, but only from the first command after each load.
 */
function installProblemHooks(key: string): void {
  const page = window as Window & { __engineTestHooks?: boolean };
  if (page.__engineTestHooks) return;
  page.__engineTestHooks = true;
  const note = (text: string) => {
    try {
      sessionStorage.setItem(key, JSON.stringify([...JSON.parse(sessionStorage.getItem(key) ?? '[]'), text]));
    } catch {}
  };
  const original = console.error;
  console.error = (...args: unknown[]) => {
    note(`console.error: ${args.map(String).join(' ')}`);
    original.apply(console, args);
  };
  addEventListener('error', (e) => note(`uncaught: ${e.message}`));
  addEventListener('unhandledrejection', (e) => note(`unhandled rejection: ${String(e.reason)}`));
  document.addEventListener('securitypolicyviolation', (e) => note(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
}

/** A session window as a Tab. Every script it runs first installs the problem hooks in a new document. */
function webkitTab(session: WebDriver, handle: string, focus: (handle: string) => Promise<void>): Tab {
  const prelude = `(${installProblemHooks.toString()})(${JSON.stringify(PROBLEMS_KEY)});`;
  /** Runs a function in the page (WebDriver awaits a returned promise), hooks first. */
  const run = async <T>(fn: string, arg?: unknown): Promise<T> => {
    await focus(handle);
    const args = arg === undefined ? [] : [arg];
    return session.executeScript<T>(`${prelude} return (${fn}).apply(null, arguments);`, ...args);
  };
  /** The element at `xpath`, waiting up to 10 s for it. */
  const find = async (xpath: string): Promise<WebElement> => {
    await focus(handle);
    return session.wait(seleniumUntil.elementLocated(By.xpath(xpath)), 10_000, `waiting for ${xpath}`);
  };
  const tab: Tab = {
    async goto(url) {
      await focus(handle);
      // Resolves at `load` (pageLoadStrategy "normal"), before React has rendered.
      await session.get(url);
      await run('() => undefined');
    },
    evaluate: <T, A>(fn: (arg: A) => T | Promise<T>, arg?: A) => run<T>(fn.toString(), arg),
    text: () => run<string>('() => document.body.innerText'),
    async click(text) {
      // WebDriver's Element Click: scrolled into view, hit-tested, real pointer events.
      await (await find(clickableXPath(text))).click();
    },
    async type(label, text) {
      // Element Send Keys focuses the field with the caret after its text, then types key by key.
      await (await find(labelledXPath(label))).sendKeys(text);
    },
    async press(text) {
      await focus(handle);
      // WebDriver's Perform Actions: key events sent to the document's focused element, whatever it is.
      await session.actions().sendKeys(text).perform();
    },
    async reload() {
      await focus(handle);
      await session.navigate().refresh();
      await run('() => undefined');
    },
    problems: () => run<string[]>(`(key) => JSON.parse(sessionStorage.getItem(key) ?? '[]')`, PROBLEMS_KEY),
    async close() {
      await focus(handle);
      // Closing the session's last window would end the session: leave that one on a blank page.
      const others = (await session.getAllWindowHandles()).filter((h) => h !== handle);
      if (!others.length) return session.get('about:blank');
      await session.close();
      await focus(others[0]);
    },
  };
  return tab;
}
