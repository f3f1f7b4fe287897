// The network as the browser reports it (`navigator.onLine` and its online/offline events), what
// the last reachability probe found, and a short log of transitions for the status page.
import { withBase } from '../contract/base';
import { createStore, type Store } from '../core/store';
import { storageKey } from '../contract/app-name';
import { area, load, save } from '../stored-data/storage';

/** What the browser says about the network, what the last probe found, and since when. */
export interface Connectivity {
  online: boolean;
  /** When `online` last changed; null until the page has looked (and in the prerendered HTML). */
  since: number | null;
  probe: 'unknown' | 'ok' | 'failed';
  probeAt: number | null;
}

/** One transition, for the status page's log. */
export interface LogEntry {
  at: number;
  kind:
    | 'offline'
    | 'online'
    | 'probe-ok'
    | 'probe-failed'
    | 'reload-waits'
    | 'reload'
    | 'install-failed'
    | 'storage-failing'
    | 'copy-damaged'
    | 'fields-restored';
  detail?: string;
}

/** sessionStorage key of the log's tail, so the entries before a reload are still shown after it. */
export const LOG_KEY = storageKey('log');
/** Entries that survive a reload. */
const KEPT_ACROSS_RELOAD = 8;
/** Entries kept in memory. */
const KEPT_IN_MEMORY = 50;

const state = createStore<Connectivity>({ online: true, since: null, probe: 'unknown', probeAt: null });
// null: not read yet (the log of earlier page loads of this tab is in sessionStorage).
const log = createStore<readonly LogEntry[] | null>(null);

/** The connectivity store. */
export const connectivity: Store<Connectivity> = state;
/** Recent transitions, newest last. */
export const connectivityLog: Store<readonly LogEntry[] | null> = log;

/** Appends a transition to the log (and its tail to sessionStorage). */
export function logTransition(kind: LogEntry['kind'], detail?: string): void {
  const next = [...(log.getSnapshot() ?? []), { at: Date.now(), kind, detail }].slice(-KEPT_IN_MEMORY);
  log.set(next);
  save(LOG_KEY, next.slice(-KEPT_ACROSS_RELOAD), area('sessionStorage'));
}

/** A probe that has had no answer after this long has failed: a lost connection can hang for minutes. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * Asks whether the server is reachable now: `navigator.onLine` only means "some network
 * interface is up". Records the answer in the store and the log.
 */
export async function probe(url = withBase('/sw.js')): Promise<boolean> {
  const failure = await probeFailure(url);
  recordProbe(failure);
  return !failure;
}

/** Records a probe's answer (this tab's, or one another tab shared: `detail` says so) in the store and the log. */
export function recordProbe(failure: string | undefined, detail = failure): void {
  state.update({ probe: failure ? 'failed' : 'ok', probeAt: Date.now() });
  logTransition(failure ? 'probe-failed' : 'probe-ok', detail);
}

/**
 * Why a HEAD of `url` got no 2xx, or undefined when it did. HEAD of a file the worker never
 * caches (it handles GET only) with `cache: 'no-store'`, so neither the worker nor the HTTP
 * cache can answer for the server.
 */
async function probeFailure(url: string): Promise<string | undefined> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), PROBE_TIMEOUT_MS);
  try {
    const response = await fetch(url, { method: 'HEAD', cache: 'no-store', signal: controller.signal });
    return response.ok ? undefined : `HTTP ${response.status}`;
  } catch {
    return 'no answer';
  } finally {
    clearTimeout(timer);
  }
}

/** Starts watching the network; returns a stop function. */
export function startConnectivity(): () => void {
  const saved = load(LOG_KEY, area('sessionStorage')).value;
  log.set(Array.isArray(saved) ? saved : []);
  const update = (event?: Event) => {
    const online = navigator.onLine;
    state.update({ online, since: Date.now() });
    // A page loaded offline gets no `offline` event (it never saw the network go): log it too.
    if (event || !online) logTransition(online ? 'online' : 'offline');
  };
  update();
  addEventListener('online', update);
  addEventListener('offline', update);
  return () => {
    removeEventListener('online', update);
    removeEventListener('offline', update);
  };
}
