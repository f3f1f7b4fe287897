// /status, "Offline readiness": network, service worker, precache check, storage, connectivity log.
import { useEffect, useState, type ReactNode } from 'react';
import { connectivity, connectivityLog } from '../../offline/connectivity';
import { verifyPrecache, type PrecacheVerdict } from '../../offline/precache-check';
import { checkForUpdate, registration, type RegistrationSnapshot } from '../../offline/registration';
import { formatSize, formatTime } from '../format';
import { useAudit } from '../useFetched';
import { useStore } from '../useStore';

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
  return (
    <>
      <h2>Network</h2>
      <NetworkFacts />
      <h2>Service worker</h2>
      <Facts
        rows={[
          ['State', workerStateText(worker)],
          ['Version', worker.version ?? 'unknown'],
          ['Scope', worker.scope ?? 'none'],
          ['Last update check', formatTime(worker.lastCheck)],
        ]}
      />
      <p>
        <button type="button" onClick={checkForUpdate}>Check for update</button>
      </p>
      <h2>Precache check</h2>
      <PrecacheCheck workerState={worker.state} />
      <h2>Storage</h2>
      <StorageFacts />
      <h2>Connectivity log</h2>
      <ConnectivityLog />
    </>
  );
}

/** "installing (3 of 13 files): why it failed", as much of it as is known. */
function workerStateText({ state, progress, error }: RegistrationSnapshot): string {
  let text = state.replace('-', ' ');
  if (state === 'installing' && progress) text += ` (${progress.done} of ${progress.total} files)`;
  if (error) text += `: ${error}`;
  return text;
}

/** What the browser says about the network, and what the last probe of the server found. */
function NetworkFacts() {
  const network = useStore(connectivity);
  return (
    <Facts
      rows={[
        ['Browser says', `${network.online ? 'online' : 'offline'} since ${formatTime(network.since)}`],
        ['Last probe', network.probeAt ? `${network.probe} at ${formatTime(network.probeAt)}` : 'none yet'],
      ]}
    />
  );
}

/** The log of offline/online/probe/reload events, newest first. */
function ConnectivityLog() {
  const log = useStore(connectivityLog);
  if (log.length === 0) return <p>No events yet.</p>;
  return (
    <ol className="log">
      {[...log].reverse().map((entry, index) => (
        <li key={index}>
          {formatTime(entry.at)} {entry.kind}
          {entry.detail && `: ${entry.detail}`}
        </li>
      ))}
    </ol>
  );
}

/** Where the precache check stands: checking, nothing cached, failed (why), or its verdict. */
type CheckState = { status: 'checking' } | { status: 'empty' } | { status: 'failed'; message: string } | { status: 'done'; verdict: PrecacheVerdict };

/** Every file of the build in the cache, its bytes hashed in the page; rerun when the worker's state changes. */
function PrecacheCheck({ workerState }: { workerState: string }) {
  const audit = useAudit();
  const [check, setCheck] = useState<CheckState>({ status: 'checking' });
  useEffect(() => {
    if (audit.status !== 'loaded') return;
    verifyPrecache(audit.value).then(
      (verdict) => setCheck(verdict ? { status: 'done', verdict } : { status: 'empty' }),
      (error: Error) => setCheck({ status: 'failed', message: error.message }),
    );
  }, [audit, workerState]);
  return <div role="status">{precacheCheckContent(audit.status === 'failed' ? { status: 'failed', message: audit.message } : check)}</div>;
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

/** Used and quota, and whether the browser keeps our data under storage pressure. */
function StorageFacts() {
  const storage = navigator.storage;
  const [estimate, setEstimate] = useState<StorageEstimate & { persisted?: boolean; askedToPersist?: boolean }>({});
  const read = (askedToPersist?: boolean) =>
    Promise.all([storage.estimate(), storage.persisted()]).then(([usage, persisted]) => setEstimate({ ...usage, persisted, askedToPersist }));
  useEffect(() => {
    if (storage) read();
  }, []);
  if (!storage) return <p>Not reported by this browser.</p>;
  return (
    <>
      <Facts
        rows={[
          ['Used', estimate.quota ? `${formatSize(estimate.usage ?? 0)} of ${formatSize(estimate.quota)}` : '…'],
          ['Persistent', persistenceText(estimate)],
        ]}
      />
      {!estimate.persisted && (
        <p>
          <button type="button" onClick={() => storage.persist().then(() => read(true))}>Keep data on this device</button>
        </p>
      )}
    </>
  );
}

/** Whether storage is persistent, and if not, why it matters or that the browser said no. */
function persistenceText({ persisted, askedToPersist }: { persisted?: boolean; askedToPersist?: boolean }): string {
  if (persisted === undefined) return '…';
  if (persisted) return 'yes';
  if (askedToPersist) return 'no: the browser declined';
  return 'no: may be cleared when space runs low';
}
