// Tabs of the app share one reachability probe at a time. When the network returns, every open
// tab wants to ask the server whether it is really back; one asking is enough. A Web Lock makes
// the tabs ask one after another, and each that gets the lock first reads the answer the previous
// holder left in localStorage: a server that answered after this tab saw the network return is
// as good as its own answer. Only answers are shared, not failures: a tab retrying after its
// backoff must reach the server again, not read the failure it stored itself. A tab that closes
// (or reloads) while it holds the lock releases it (Web Locks: a lock ends with its document),
// so the next tab asks for itself.
import { storageKey } from '../contract/app-name';
import { isWithinLast } from '../core/clock';
import { probe, recordProbe } from './connectivity';
import { area, load, save } from '../stored-data/storage';

/** The Web Lock the tabs' probes take turns on. */
export const PROBE_LOCK = storageKey('probe');
/** localStorage key of the last probe's answer, for the other tabs. */
export const LAST_PROBE_KEY = storageKey('last-probe');

/** An answer older than this is not shared, however recent the network change. */
const SHARED_ANSWER_MAX_AGE_MS = 10_000;

/** A probe's answer as the tabs share it. */
interface SharedAnswer {
  /** When the server answered (ms since epoch). */
  at: number;
}

/** Whether a tab's probe reached the server after `onlineSince`, recently enough to count. */
function answeredSince(onlineSince: number): boolean {
  const { value } = load(LAST_PROBE_KEY);
  if (!value || typeof value !== 'object') return false;
  const { at } = value as SharedAnswer;
  if (typeof at !== 'number' || at < onlineSince) return false;
  // An answer stamped in the future (the clock moved back since) is of unknown age: not shared.
  return isWithinLast(at, SHARED_ANSWER_MAX_AGE_MS);
}

/**
 * Resolves true when the server is reachable: it answered another tab after this one saw the
 * network return at `onlineSince`, or it answers this tab's probe now. Without Web Locks (Safari
 * before 15.4) each tab asks.
 */
export async function sharedProbe(onlineSince: number): Promise<boolean> {
  if (!navigator.locks) return probe();
  // A refused lock (site data blocked: Web Locks are storage) is no failed probe: this tab asks.
  return navigator.locks
    .request(PROBE_LOCK, async () => {
      if (answeredSince(onlineSince)) {
        recordProbe(undefined, 'answered in another tab');
        return true;
      }
      const ok = await probe();
      // A failed write (storage full or off) only means the other tabs ask for themselves.
      if (ok) save(LAST_PROBE_KEY, { at: Date.now() } satisfies SharedAnswer, area());
      return ok;
    })
    .catch(() => probe());
}
