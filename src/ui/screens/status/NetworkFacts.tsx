// The status screen's "Network": what the browser says, and what the last probe of the server found.
import { connectivity, type Connectivity } from '../../../reload/connectivity';
import { formatTime } from '../../../core/format';
import { useStore } from '../../useStore';
import { Facts } from './Facts';

/** What the browser says about the network, and what the last probe of the server found. */
export function NetworkFacts() {
  const network = useStore(connectivity);
  return (
    <Facts
      rows={[
        ['Browser says', network.since === null ? '…' : `${network.online ? 'online' : 'offline'} since ${formatTime(network.since)}`],
        ['Last probe', lastProbeText(network)],
      ]}
    />
  );
}

/** What the last probe found and when, "none yet", or "…" before the page has looked. */
function lastProbeText({ since, probe, probeAt }: Connectivity): string {
  if (probeAt) return `${probe} at ${formatTime(probeAt)}`;
  return since === null ? '…' : 'none yet';
}
