// The first install's "n of m files", which the worker broadcasts as it precaches, and why an
// install failed when the person can act on it (src/sw/install-progress.ts is the worker's side).
import { PROGRESS_CHANNEL } from '../contract/app-name';
import type { InstallReport } from '../contract/install-report';
import { listenWhileShown } from './channel-while-shown';
import { registrationState } from './registration-store';

/** Shows the first install's progress while the worker is installing, and keeps why it failed. */
export function listenForInstallProgress(): void {
  listenWhileShown<InstallReport>(PROGRESS_CHANNEL, (report) => {
    if (!Array.isArray(report)) {
      registrationState.update({ installFailure: report.failed });
      return;
    }
    if (registrationState.getSnapshot().state !== 'installing') return;
    const [done, total] = report;
    registrationState.update({ progress: { done, total } });
  });
}
