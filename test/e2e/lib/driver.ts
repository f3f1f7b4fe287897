// One small interface over three browser engines, so each offline scenario is written once and run
// in Chromium (playwright-core), Firefox ESR (puppeteer-core over WebDriver BiDi) and WebKitGTK
// (selenium-webdriver against WebKitWebDriver). Each launcher maps it onto its engine and says, in
// comments, what its engine cannot do; the scenarios never ask which engine they run in, except to
// read the few facts exposed here (network lag, what console output can be seen).

/** The engines the scenarios run in. */
export type EngineName = 'chromium' | 'firefox' | 'webkit';

/** The engine names, in the order reports list them. */
export const ENGINE_NAMES: readonly EngineName[] = ['chromium', 'firefox', 'webkit'];

/** One running browser (one per test file: launching is the slow part). */
export interface Engine {
  name: EngineName;
  /** The browser's own version, e.g. "chromium 140.0.7339.80", for the test report. */
  version: string;
  /**
   * How long open pages may take to see a setOffline() change (`navigator.onLine` and the
   * online/offline events): immediate in Chromium and Firefox, seconds in WebKit, whose pages follow
   * the system's network monitor. Waits for the page to notice use this as their limit.
   */
  networkLagMs: number;
  /**
   * What Tab.problems() can see: 'console' = every console error and uncaught exception of the
   * page from its first script on; 'after-load' = only those after each load (WebKitWebDriver has
   * no log endpoint and no BiDi, see webkit.ts), so a start-up error shows only as a page that
   * never renders.
   */
  consoleCoverage: 'console' | 'after-load';
  /** A fresh profile: no service worker, no caches, no storage. */
  newProfile(): Promise<Profile>;
  close(): Promise<void>;
}

/** A browser profile: its tabs share the origin's service worker, caches and storage. */
export interface Profile {
  /** Opens a new tab at `url`; resolves at the document's `load` (the app may not have rendered yet). */
  open(url: string): Promise<Tab>;
  /**
   * Takes the browser's network away or gives it back. What else it blocks differs (Firefox keeps
   * the worker's own fetches going; WebKit's loopback stays up): a step that needs the server to be
   * unreachable also pauses the host. Resolves once applied, not once pages noticed: see networkLagMs.
   */
  setOffline(offline: boolean): Promise<void>;
  close(): Promise<void>;
}

/**
 * A page that runs a function in itself: a Tab below, or a Playwright Page (the same shape). The
 * readers of the app's state (lib/screens.ts, notes.ts, caches.ts, connectivity-log.ts,
 * registration.ts) take one, so the engine scenarios and the Chromium-only tests share them.
 */
export interface RunsInPage {
  evaluate<T, A>(fn: (arg: A) => T | Promise<T>, arg: A): Promise<T>;
}

/** One tab: the few things a user does, plus evaluate() to read the page's state. */
export interface Tab {
  /** Navigates to `url`; resolves at `load`. */
  goto(url: string): Promise<void>;
  /**
   * Runs `fn` in the page and resolves with its (awaited, JSON-serialisable) result. `fn` is sent
   * as source text: it may use only its argument and the page's globals. The engines run it
   * outside the page's CSP, which forbids eval for the app itself.
   */
  evaluate<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T>;
  /** The page's visible text (`document.body.innerText`). */
  text(): Promise<string>;
  /** Clicks the button or link whose text is exactly `text` (waiting up to 10 s for it), as a user would. */
  click(text: string): Promise<void>;
  /** Types `text` with the keyboard at the end of the field labelled `label` (waiting up to 10 s for it). */
  type(label: string, text: string): Promise<void>;
  /**
   * Presses the keys of `text` into whatever has the focus, as a person types without looking:
   * nothing is focused for it, so keys that reach a page where nothing has the focus are lost.
   */
  press(text: string): Promise<void>;
  /** Reloads the page; resolves at `load`. */
  reload(): Promise<void>;
  /** Console errors and uncaught exceptions of this tab so far, as far as the engine shows them (Engine.consoleCoverage). */
  problems(): Promise<string[]>;
  close(): Promise<void>;
}

/** XPath of a button or link whose whole text, spaces normalised, is `text` (a quote in it is not supported). */
export function clickableXPath(text: string): string {
  if (text.includes('"')) throw new Error(`clickableXPath: no double quotes, please: ${text}`);
  return `//*[self::button or self::a][normalize-space(.)="${text}"]`;
}

/** XPath of the form field that a `<label for>` with exactly this text names. */
export function labelledXPath(label: string): string {
  if (label.includes('"')) throw new Error(`labelledXPath: no double quotes, please: ${label}`);
  return `//*[@id=//label[normalize-space(.)="${label}"]/@for]`;
}

/** What a Playwright page (Chromium) and a Puppeteer page (Firefox) both have for the Tab parts they share. */
interface ScriptedPage {
  keyboard: { type(text: string): Promise<void> };
  reload(): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * The Tab parts that a Playwright and a Puppeteer page do alike: keys into whatever has the focus,
 * a reload (Chromium's sometimes resolves to null: the page's content is what counts), the
 * problems collected so far, and close.
 */
export function scriptedTabParts(page: ScriptedPage, problems: string[]): Pick<Tab, 'press' | 'reload' | 'problems' | 'close'> {
  return {
    press: (text) => page.keyboard.type(text),
    async reload() {
      await page.reload();
    },
    problems: async () => [...problems],
    close: () => page.close(),
  };
}

/**
 * In the page: focuses the form field `element` with the caret after its text, as for a user who
 * clicks after the text; the drivers' type() then presses real keys. Sent to the page as source text.
 */
export function focusAtEnd(element: Element): void {
  const field = element as HTMLInputElement | HTMLTextAreaElement;
  field.focus();
  field.setSelectionRange(field.value.length, field.value.length);
}

/** Reads a path to an executable from the environment, or its Debian default. */
export const executable = (envName: string, fallback: string): string => process.env[envName] || fallback;
