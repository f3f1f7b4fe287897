// The unit tests' one DOM: a happy-dom window installed as the globals that the offline core, the
// notes and the router read (window, document, navigator, location, history, storage, events),
// with switches for what happy-dom cannot change by itself (`navigator.onLine`, `document.hidden`),
// and a fake clock for setTimeout/Date.now. Browser tests mount into a real page instead
// (test/browser/mount.ts); end-to-end tests read built pages (test/e2e/lib/).
// Install per test (domPerTest) or in a suite's hook, not at import: test/harness/uvu-run.mjs
// imports every unit test file into one process before any suite runs.
import { Window } from 'happy-dom';
import type { Test } from 'uvu';

export interface FakeDom {
  win: Window;
  /** Flips `navigator.onLine` and fires `online`/`offline` on window, as Chromium does. */
  setOnline(online: boolean): void;
  /** Flips `document.hidden` / `visibilityState` and fires `visibilitychange`. */
  setHidden(hidden: boolean): void;
  /** Fires `pagehide` on window. */
  pagehide(): void;
  /** Advances the fake clock by `ms`, running due timers in order and settling promises after each. */
  tick(ms: number): Promise<void>;
  /** Moves the wall clock (Date.now) by `ms`, forward or back, as a person setting the time does: pending timers keep their delays. */
  moveClock(ms: number): void;
  /** Lets pending promise callbacks run without moving the clock. */
  settle(): Promise<void>;
  uninstall(): void;
}

const GLOBALS = [
  'window',
  'document',
  'navigator',
  'localStorage',
  'sessionStorage',
  'location',
  'StorageEvent',
  'Event',
  'HTMLInputElement',
  'HTMLTextAreaElement',
  'MutationObserver',
  // The router's (src/ui/router.ts).
  'history',
  'HTMLAnchorElement',
  'MouseEvent',
  'PopStateEvent',
] as const;
const METHODS = ['addEventListener', 'removeEventListener', 'dispatchEvent', 'scrollTo'] as const;

/**
 * Installs a fresh window at `url` (empty storage) and a fake clock starting at `start`: Date.now
 * and, unless `nodeTimers`, setTimeout. With `nodeTimers` the timers stay Node's, for code that goes
 * through Node's own networking: Node's fetch (undici, Node 24) arms its timers with the global
 * setTimeout and calls `.unref()` on what it returns, so a fake one fails every request.
 */
export function installDom({
  online = true,
  hidden = false,
  start = 1_700_000_000_000,
  url = 'http://localhost:8080/',
  nodeTimers = false,
} = {}): FakeDom {
  const win = new Window({ url });
  Object.defineProperty(win.navigator, 'onLine', { configurable: true, get: () => online });
  Object.defineProperty(win.document, 'hidden', { configurable: true, get: () => hidden });
  Object.defineProperty(win.document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });

  // Node's own globals are put back on uninstall. A record: globalThis has no index signature.
  const g = globalThis as unknown as Record<string, unknown>;
  const saved = new Map<string, PropertyDescriptor | undefined>();
  const put = (name: string, value: unknown) => {
    saved.set(name, Object.getOwnPropertyDescriptor(g, name));
    Object.defineProperty(g, name, { configurable: true, writable: true, value });
  };
  for (const name of GLOBALS) put(name, win[name]);
  for (const name of METHODS) put(name, win[name].bind(win));

  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  if (!nodeTimers) {
    put('setTimeout', (fn: () => void, ms = 0) => {
      // As browsers do (HTML timer initialisation: a 32-bit signed delay), a delay above 2^31-1 ms runs at once.
      const delay = ms > 2 ** 31 - 1 ? 0 : Math.max(0, ms);
      timers.set(++seq, { at: now + delay, fn });
      return seq;
    });
    put('clearTimeout', (id?: number) => id !== undefined && timers.delete(id));
  }
  const realNow = Date.now;
  Date.now = () => now;

  const settle = async () => {
    for (let i = 0; i < 10; i++) await new Promise<void>((r) => setImmediate(r));
  };
  return {
    win,
    setOnline(value) {
      online = value;
      win.dispatchEvent(new win.Event(value ? 'online' : 'offline'));
    },
    setHidden(value) {
      hidden = value;
      win.document.dispatchEvent(new win.Event('visibilitychange'));
    },
    pagehide() {
      win.dispatchEvent(new win.Event('pagehide'));
    },
    async tick(ms) {
      const end = now + ms;
      for (;;) {
        let next: [number, { at: number; fn: () => void }] | undefined;
        for (const t of timers) if (t[1].at <= end && (!next || t[1].at < next[1].at)) next = t;
        if (!next) break;
        timers.delete(next[0]);
        now = next[1].at;
        next[1].fn();
        await settle();
      }
      now = end;
      await settle();
    },
    moveClock(ms) {
      now += ms;
      for (const timer of timers.values()) timer.at += ms;
    },
    settle,
    uninstall() {
      Date.now = realNow;
      for (const [name, d] of saved) {
        if (d) Object.defineProperty(g, name, d);
        else delete g[name];
      }
      void win.happyDOM.close();
    },
  };
}

/** The DOM of the test under way, and what it started: `stop`, when a test sets it, runs after the test. */
export interface DomPerTest {
  readonly dom: FakeDom;
  stop?: () => void;
  /** Replaces this test's DOM with a fresh one made with `options` (a page loaded offline, say). */
  reinstall(options: Parameters<typeof installDom>[0]): void;
}

/**
 * A fresh DOM (installDom()) for each test of `test`; after each, the test's `stop` (if it set
 * one: a store or watch it started), then the DOM is uninstalled.
 */
export function domPerTest(test: Test, options?: Parameters<typeof installDom>[0]): DomPerTest {
  let dom: FakeDom | undefined;
  const each: DomPerTest = {
    get dom() {
      if (!dom) throw new Error('domPerTest: no test is running');
      return dom;
    },
    reinstall(next) {
      dom?.uninstall();
      dom = installDom(next);
    },
  };
  test.before.each(() => {
    dom = installDom(options);
  });
  test.after.each(() => {
    each.stop?.();
    each.stop = undefined;
    dom?.uninstall();
    dom = undefined;
  });
  return each;
}

/** localStorage with room for `room` more characters, as a browser with a quota behaves. */
export function tinyStorage(room: number): Storage {
  const s = localStorage;
  return new Proxy(s, {
    get(target, key) {
      if (key === 'setItem')
        return (k: string, v: string) => {
          const used = (target.getItem(k) ?? '').length;
          if (v.length - used > room) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          room -= v.length - used;
          target.setItem(k, v);
        };
      if (key === 'removeItem')
        return (k: string) => {
          room += (target.getItem(k) ?? '').length;
          target.removeItem(k);
        };
      const v = Reflect.get(target, key);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}
