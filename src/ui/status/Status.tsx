// /status, "Offline readiness": network, service worker, precache check, storage, connectivity log.
import { useEffect, useState, type ReactNode } from 'react';
import { connectivity, connectivityLog, type Connectivity, type LogEntry } from '../../offline/connectivity';
import { verifyPrecache, type PrecacheVerdict } from '../../offline/precache-check';
import { askToPersist, persistence, type PersistAsk } from '../../offline/persistence';
import { registration } from '../../offline/registration/registration-store';
import { checkForUpdate } from '../../offline/registration/update-checks';
import type { RepairReport } from '../../repair-report';
import { formatSize, formatTime } from '../format';
import { useAudit } from '../useFetched';
import { useStore } from '../useStore';
import { repairText, workerStateText } from './worker-state';

/** A definition list of [term, value] rows. */
function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl>
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The "Offline readiness" screen, below the <h1> that Page renders. */
export function Status() {
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

/** What the browser says about the network, and what the last probe of the server found. */
function NetworkFacts() {
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

/** How the log names a kind of entry where its id does not read as words. */
const LOG_LABELS: Partial<Record<LogEntry['kind'], string>> = {
  'reload-waits': 'reload waits',
  'install-failed': 'install failed',
  'storage-failing': "this browser's storage is failing",
  'copy-damaged': 'offline copy damaged',
};

/** The log of offline/online/probe/reload events, newest first. */
function ConnectivityLog() {
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

/** Where the precache check stands: checking, nothing cached, failed (why), or its verdict. */
type CheckState =
  | { status: 'checking' }
  | { status: 'empty' }
  | { status: 'failed'; message: string }
  | { status: 'done'; verdict: PrecacheVerdict };

/**
 * Every file of the build in the cache, its bytes hashed in the page, and what the worker says of
 * its repairs; rerun when the worker's state or its cache changes.
 */
function PrecacheCheck({ workerState, repair, online }: { workerState: string; repair: RepairReport | null; online: boolean }) {
  const audit = useAudit();
  const [check, setCheck] = useState<CheckState>({ status: 'checking' });
  // biome-ignore lint/correctness/useExhaustiveDependencies(workerState): not read, a trigger: a new worker state can mean a new cache to check
  // biome-ignore lint/correctness/useExhaustiveDependencies(repair): not read, a trigger: a repair report can mean files were put back
  useEffect(() => {
    if (audit.status !== 'loaded') return;
    // Checks can overlap when reports come quickly: only the latest one may show its verdict.
    let latest = true;
    verifyPrecache(audit.value).then(
      (verdict) => latest && setCheck(verdict ? { status: 'done', verdict } : { status: 'empty' }),
      (error: Error) => latest && setCheck({ status: 'failed', message: error.message }),
    );
    return () => {
      latest = false;
    };
  }, [audit, workerState, repair]);
  const repairs = repairText(repair, online);
  return (
    <div role="status">
      {precacheCheckContent(audit.status === 'failed' ? { status: 'failed', message: audit.message } : check)}
      {repairs && <p className={repair?.missing.length ? 'bad' : 'good'}>{repairs}</p>}
    </div>
  );
}

/** The precache check's sentence, or its verdict with the files that failed. */
function precacheCheckContent(check: CheckState): ReactNode {
  if (check.status === 'checking') return <p>Checking…</p>;
  if (check.status === 'empty') return <p>Nothing is cached on this device yet.</p>;
  if (check.status === 'failed') return <p>{check.message}</p>;
  const { verified, total, bytes, failed } = check.verdict;
  return (
    <>
      <p className={failed.length ? 'bad' : 'good'}>
        {verified} of {total} files verified, {formatSize(bytes)}
      </p>
      <ul>
        {failed.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </>
  );
}

/** What the page knows of the device's storage: nothing yet, not reported, or an estimate. */
type StorageReport =
  | { status: 'unknown' }
  | { status: 'unsupported' }
  | { status: 'known'; usage: number; quota: number; persisted: boolean };

/** Used and quota, and whether the browser keeps our data under storage pressure. */
function StorageFacts() {
  const [report, setReport] = useState<StorageReport>({ status: 'unknown' });
  const asked = useStore(persistence);
  // Read in an effect, never while rendering: the prerendered HTML (no navigator at build time)
  // and the first render in the page must be the same neutral rows. Read again after each ask.
  // biome-ignore lint/correctness/useExhaustiveDependencies(asked): not read, a trigger: an answer to the ask can change what the browser reports
  useEffect(() => {
    const storage = navigator.storage;
    if (!storage) {
      setReport({ status: 'unsupported' });
      return;
    }
    Promise.all([storage.estimate(), storage.persisted()]).then(([estimate, persisted]) =>
      setReport({ status: 'known', usage: estimate.usage ?? 0, quota: estimate.quota ?? 0, persisted }),
    );
  }, [asked]);
  if (report.status === 'unsupported') return <p>Not reported by this browser.</p>;
  const known = report.status === 'known' ? report : undefined;
  return (
    <>
      <Facts
        rows={[
          ['Used', known?.quota ? `${formatSize(known.usage)} of ${formatSize(known.quota)}` : '…'],
          ['Persistent', known ? persistenceText(known.persisted, asked) : '…'],
        ]}
      />
      {known && !known.persisted && (
        <p>
          <button type="button" onClick={() => askToPersist().catch(() => {})}>
            Keep data on this device
          </button>
        </p>
      )}
      <p>Whatever the browser decides, a backup file (on the Notes screen) is what keeps your notes safe.</p>
    </>
  );
}

/** Whether storage is persistent, and if not, why it matters or that the browser said no. */
function persistenceText(persisted: boolean, asked: PersistAsk): string {
  if (persisted) return 'yes';
  if (asked === 'declined') return 'no: the browser declined';
  return 'no: may be cleared when space runs low';
}
