// The status screen's "Connectivity log": offline, online, probes, reloads and the worker's bad news.
import { connectivityLog, type LogEntry } from '../../../reload/connectivity';
import { formatTime } from '../../../core/format';
import { useStore } from '../../useStore';

/** How the log names a kind of entry where its id does not read as words. */
const LOG_LABELS: Partial<Record<LogEntry['kind'], string>> = {
  'reload-waits': 'reload waits',
  'install-failed': 'install failed',
  'storage-failing': "this browser's storage is failing",
  'copy-damaged': 'offline copy damaged',
  'fields-restored': 'fields after the reload',
};

/** The log of offline/online/probe/reload events, newest first. */
export function ConnectivityLog() {
  const log = useStore(connectivityLog);
  if (log === null) return <p>Loading…</p>;
  if (log.length === 0) return <p>No events yet.</p>;
  return (
    <ol className="log">
      {[...log].reverse().map((entry, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id (two can share time and kind) and a line holds no state
        <li key={index}>
          {formatTime(entry.at)} {LOG_LABELS[entry.kind] ?? entry.kind}
          {entry.detail && `: ${entry.detail}`}
        </li>
      ))}
    </ol>
  );
}
