// /status/, "Offline readiness": network, service worker, precache check, storage, connectivity log.
// Its parts are in status/.
import { connectivity } from '../../reload/connectivity';
import { registration } from '../../worker-client/registration-store';
import { checkForUpdate } from '../../worker-client/update-checks';
import { formatTime } from '../../core/format';
import { useStore } from '../useStore';
import { ConnectivityLog } from './status/ConnectivityLog';
import { Facts } from './status/Facts';
import { NetworkFacts } from './status/NetworkFacts';
import { PrecacheCheck } from './status/PrecacheCheck';
import { StorageFacts } from './status/StorageFacts';
import { workerStateText } from './status/worker-state';

export const title = 'Offline readiness';
export const navOrder = 2;

/** The "Offline readiness" screen, below the <h1> that Page renders. */
export default function Status() {
  const worker = useStore(registration);
  const { online } = useStore(connectivity);
  // Before the page has looked (and in the prerendered HTML) nothing about the worker is known.
  const unknownYet = worker.state === 'unknown';
  return (
    <>
      <h2>Network</h2>
      <NetworkFacts />
      <h2>Service worker</h2>
      <Facts
        rows={[
          ['State', workerStateText(worker, online)],
          ['Version', unknownYet ? '…' : (worker.version ?? 'unknown')],
          ['Scope', unknownYet ? '…' : (worker.scope ?? 'none')],
          ['Last update check', unknownYet ? '…' : formatTime(worker.lastCheck)],
        ]}
      />
      <p>
        <button type="button" onClick={checkForUpdate}>
          Check for update
        </button>
      </p>
      <h2>Precache check</h2>
      <PrecacheCheck workerState={worker.state} repair={worker.repair} online={online} />
      <h2>Storage</h2>
      <StorageFacts />
      <h2>Connectivity log</h2>
      <ConnectivityLog />
    </>
  );
}
