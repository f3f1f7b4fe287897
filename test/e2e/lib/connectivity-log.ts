// The connectivity log (src/offline/connectivity.ts) as a page keeps it, read the same way in every
// engine: its tail lives in sessionStorage under the app's storageKey('log'), so it survives reloads.
import { storageKey } from '../../../src/app-name';
import type { RunsInPage } from './driver';

/** sessionStorage key of the log's tail: src/offline/connectivity.ts LOG_KEY, from the same storageKey(). */
export const LOG_KEY = storageKey('log');

/** One entry of the connectivity log: when (the page's Date.now()) and what. */
export interface LogEntry {
  at: number;
  kind: string;
  detail?: string;
}

/** The connectivity log's tail the page keeps in sessionStorage (it survives reloads), oldest first. */
export const logEntries = (page: RunsInPage): Promise<LogEntry[]> =>
  page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? '[]') as LogEntry[], LOG_KEY);

/** The kinds of the connectivity log's entries (offline, online, probe-ok, probe-failed, reload). */
export const logKinds = async (page: RunsInPage): Promise<string[]> => (await logEntries(page)).map((entry) => entry.kind);
