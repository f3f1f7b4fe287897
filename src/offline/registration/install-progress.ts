// The first install's "n of m files", which the worker broadcasts as it precaches
// (src/sw/install-progress.ts is the worker's side).
import { PROGRESS_CHANNEL } from '../../app-name';
import { listenWhileShown } from './channel-while-shown';
import { registrationState } from './registration-store';

/** Shows the first install's progress while the worker is installing. */
export function listenForInstallProgress(): void {
  listenWhileShown<[number, number]>(PROGRESS_CHANNEL, ([done, total]) => {
    if (registrationState.getSnapshot().state !== 'installing') return;
    registrationState.update({ progress: { done, total } });
  });
}
