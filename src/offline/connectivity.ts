// STUB (issue #4 replaces the body, keeps these exports): the network as the browser reports it,
// and a short log of transitions for the status page.
import { createStore, type Store } from '../store';

/** What the browser says about the network, what the last probe found, and since when. */
export interface Connectivity {
  online: boolean;
  since: number;
  probe: 'unknown' | 'ok' | 'failed';
  probeAt: number | null;
}

/** One transition, for the status page's log. */
export interface LogEntry {
  at: number;
  kind: 'offline' | 'online' | 'probe-ok' | 'probe-failed' | 'reload';
  detail?: string;
}

const state = createStore<Connectivity>({ online: true, since: Date.now(), probe: 'unknown', probeAt: null });
const log = createStore<readonly LogEntry[]>([]);

/** The connectivity store. */
export const connectivity: Store<Connectivity> = state;
/** Recent transitions, newest last. */
export const connectivityLog: Store<readonly LogEntry[]> = log;

/** Starts watching the network; returns a stop function. */
export function startConnectivity(): () => void {
  return () => {};
}
