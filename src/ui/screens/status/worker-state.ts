// The worker's state named the way users can act on it, from what the page knows: the
// registration (installing, waiting, failed), the worker's last check of its cache, the network.
import type { RegistrationSnapshot } from '../../../worker-client/registration-store';
import type { RepairReport } from '../../../contract/repair-report';
import { formatCount, formatTime } from '../../../core/format';
import { noRoomForApp } from '../../no-room';

/** "1 file", "3 files". */
const files = (count: number): string => formatCount(count, 'file');

/** Missing files are waiting for the network: the worker saw none, or the browser says offline. */
const waitsForNetwork = (repair: RepairReport, online: boolean): boolean => repair.offline || !online;

/**
 * One of: ready; installing (n of m files); update waiting; repairing (k missing); offline and
 * incomplete (k missing, will repair when online); offline copy damaged; this browser's storage
 * is failing; error: the reason (no room on this device said as such, and when a failed first
 * install is tried again). '…' before the
 * page has looked.
 */
export function workerStateText(
  { state, progress, error, retryAt, installFailure, repair }: RegistrationSnapshot,
  online: boolean,
): string {
  if (state === 'unknown') return '…';
  if (state === 'error' && installFailure === 'no-room') return `error: ${noRoomForApp(retryAt)}`;
  if (state === 'ready' && repair) {
    const cacheText = cacheStateText(repair, online);
    if (cacheText) return cacheText;
  }
  let text = state.replace('-', ' ');
  if (state === 'installing' && progress) text += ` (${progress.done} of ${progress.total} files)`;
  if (error) text += `: ${error}`;
  if (retryAt) text += ` Offline use is not ready yet; trying again at ${formatTime(retryAt)}.`;
  return text;
}

/** What an active worker's last report says of its cache, when it is not simply ready; '' when it is. */
function cacheStateText(repair: RepairReport, online: boolean): string {
  const missing = repair.missing.length;
  const damaged = repair.damaged.length;
  if (repair.storageFailing) return "this browser's storage is failing: working online only";
  if (damaged && repair.repairing) return `offline copy damaged: repairing (${files(damaged)})`;
  if (damaged && waitsForNetwork(repair, online)) return `offline copy damaged: ${files(damaged)} will be repaired when online`;
  if (!missing) return '';
  if (repair.repairing) return `repairing (${missing} missing)`;
  if (waitsForNetwork(repair, online)) return `offline and incomplete (${missing} missing, will repair when online)`;
  return `error: ${files(missing)} missing and not repaired (the server's copy did not arrive intact); the next update check tries again`;
}

/** The sentence about the worker's repairs for the precache check, or '' when there is nothing to say. */
export function repairText(repair: RepairReport | null, online: boolean): string {
  if (!repair) return '';
  const missing = repair.missing.length;
  if (repair.storageFailing)
    return "This browser's storage is failing: every file comes from the network, verified, and nothing is repaired until storage works again.";
  if (repair.repairing) return `${files(missing)} missing: repairing now.`;
  if (missing && waitsForNetwork(repair, online)) return `${files(missing)} missing: repairing when online.`;
  if (missing) return `${files(missing)} missing: could not be fetched intact, so not repaired.`;
  return repair.repaired ? `Repaired ${files(repair.repaired)}.` : '';
}
