// The worker's reports on its cache (src/sw/repair.ts): files missing, being repaired, repaired,
// damaged copies, failing storage. The status page shows the last one and logs the bad news.
import { REPAIR_CHANNEL } from '../contract/app-name';
import type { RepairReport } from '../contract/repair-report';
import { logTransition } from '../reload/connectivity';
import { listenWhileShown } from './channel-while-shown';
import { registrationState } from './registration-store';

/** Keeps the worker's last report on its cache in the store. */
export function listenForCacheRepairs(): void {
  listenWhileShown<RepairReport>(REPAIR_CHANNEL, (repair) => {
    logCacheFaults(registrationState.getSnapshot().repair, repair);
    registrationState.update({ repair });
  });
}

/** Logs the moment the worker finds its storage failing, or damaged entries in its cache. */
function logCacheFaults(before: RepairReport | null, now: RepairReport): void {
  if (now.storageFailing && !before?.storageFailing) logTransition('storage-failing', 'working online only');
  if (now.damaged.length && !before?.damaged.length) logTransition('copy-damaged', `${now.damaged.join(', ')}: repairing`);
}
