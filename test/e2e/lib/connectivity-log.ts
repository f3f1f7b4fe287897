// The connectivity log (src/reload/connectivity.ts) as a page keeps it, read the same way in every
// engine: its tail lives in sessionStorage under the app's storageKey('log'), so it survives reloads.
import { storageKey } from '../../../src/contract/app-name';
import type { RunsInPage } from './driver';

/** sessionStorage key of the log's tail: src/reload/connectivity.ts LOG_KEY, from the same storageKey(). */
export const LOG_KEY = storageKey('log');

/** One entry of the connectivity log: when (the page's Date.now()) and what. */
export interface LogEntry {
  at: number;
  kind: string;
  detail?: string;
}

/** The connectivity log's tail the page keeps in sessionStorage (it survives reloads), oldest first; `key`: an app at another base keeps its own. */
export const logEntries = (page: RunsInPage, key = LOG_KEY): Promise<LogEntry[]> =>
  page.evaluate((logKey) => JSON.parse(sessionStorage.getItem(logKey) ?? '[]') as LogEntry[], key);

/** The log's entries as lines, "kind: detail" ("reload-waits: composing"), or the kind alone when it has no detail. */
export const logLines = async (page: RunsInPage): Promise<string[]> =>
  (await logEntries(page)).map((entry) => (entry.detail ? `${entry.kind}: ${entry.detail}` : entry.kind));

/** The kinds of the connectivity log's entries (offline, online, probe-ok, probe-failed, reload). */
export const logKinds = async (page: RunsInPage, key = LOG_KEY): Promise<string[]> =>
  (await logEntries(page, key)).map((entry) => entry.kind);
