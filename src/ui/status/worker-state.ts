// The worker's state named the way users can act on it, from what the page knows: the
// registration (installing, waiting, failed), the worker's last check of its cache, the network.
import type { RegistrationSnapshot } from '../../offline/registration';
import type { RepairReport } from '../../repair-report';
import { formatCount } from '../format';

/** "1 file", "3 files". */
const files = (count: number): string => formatCount(count, 'file');

/** Missing files are waiting for the network: the worker saw none, or the browser says offline. */
const waitsForNetwork = (repair: RepairReport, online: boolean): boolean => repair.offline || !online;

/**
 * One of: ready; installing (n of m files); update waiting; repairing (k missing); offline and
 * incomplete (k missing, will repair when online); error: the reason. '…' before the page has looked.
 */
export function workerStateText({ state, progress, error, repair }: RegistrationSnapshot, online: boolean): string {
  if (state === 'unknown') return '…';
  const missing = repair?.missing.length ?? 0;
  if (state === 'ready' && repair && missing) {
    if (repair.repairing) return `repairing (${missing} missing)`;
    if (waitsForNetwork(repair, online)) return `offline and incomplete (${missing} missing, will repair when online)`;
    return `error: ${files(missing)} missing and not repaired (the server's copy did not arrive intact); the next update check tries again`;
  }
  let text = state.replace('-', ' ');
  if (state === 'installing' && progress) text += ` (${progress.done} of ${progress.total} files)`;
  if (error) text += `: ${error}`;
  return text;
}

/** The sentence about the worker's repairs for the precache check, or '' when there is nothing to say. */
export function repairText(repair: RepairReport | null, online: boolean): string {
  if (!repair) return '';
  const missing = repair.missing.length;
  if (repair.repairing) return `${files(missing)} missing: repairing now.`;
  if (missing && waitsForNetwork(repair, online)) return `${files(missing)} missing: repairing when online.`;
  if (missing) return `${files(missing)} missing: could not be fetched intact, so not repaired.`;
  return repair.repaired ? `Repaired ${files(repair.repaired)}.` : '';
}
