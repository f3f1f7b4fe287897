// /status, "Offline readiness": network, service worker, precache check, storage, connectivity log.
import { useEffect, useState, type ReactNode } from 'react';
import { connectivity, connectivityLog } from '../../offline/connectivity';
import { checkForUpdate, registration, type RegistrationSnapshot } from '../../offline/registration';
import { kb, num, useAudit } from '../about/audit';
import { useStore } from '../useStore';
import { verifyPrecache, type Verdict } from './verify';

const time = (t: number | null) => (t ? new Date(t).toLocaleTimeString() : 'never');

/** A definition list of [term, value] rows. */
export const Rows = ({ rows }: { rows: [string, ReactNode][] }) => (
  <dl>
    {rows.map(([k, v]) => (
      <div key={k}>
        <dt>{k}</dt>
        <dd>{v}</dd>
      </div>
    ))}
  </dl>
);

const WORKER: Record<RegistrationSnapshot['state'], string> = {
  unsupported: 'Not running',
  registering: 'Registering',
  installing: 'Installing',
  ready: 'Ready: works offline',
  'update-waiting': 'New version waiting',
  error: 'Failed',
};

const EVENT = { offline: 'Offline', online: 'Online', 'probe-ok': 'Server reached', 'probe-failed': 'Server not reached', reload: 'Reloaded' };

/** The "Offline readiness" screen. */
export function Status() {
  const net = useStore(connectivity);
  const reg = useStore(registration);
  const log = useStore(connectivityLog);
  const [note, setNote] = useState('');
  const check = () => {
    setNote('Checking…');
    checkForUpdate().then(
      () => setNote(''),
      (e: Error) => setNote(`Failed: ${e.message}`),
    );
  };
  const p = reg.progress;
  return (
    <>
      <h1>Offline readiness</h1>
      <h2>Network</h2>
      <Rows
        rows={[
          ['Browser says', `${net.online ? 'Online' : 'Offline'} since ${time(net.since)}`],
          ['Last probe', net.probe === 'unknown' ? 'none yet' : `${EVENT[`probe-${net.probe}`]} at ${time(net.probeAt)}`],
        ]}
      />
      <h2>Service worker</h2>
      <Rows
        rows={[
          ['State', WORKER[reg.state] + (p ? ` (${p.done} of ${p.total} files)` : '') + (reg.error ? `: ${reg.error}` : '')],
          ['Version', reg.version ?? 'unknown'],
          ['Scope', reg.scope ?? 'none'],
          ['Last update check', time(reg.lastCheck)],
        ]}
      />
      <p>
        <button type="button" onClick={check}>Check for update</button> <span role="status">{note}</span>
      </p>
      <h2>Precache check</h2>
      <Precache state={reg.state} />
      <h2>Storage</h2>
      <Storage />
      <h2>Connectivity log</h2>
      {log.length ? (
        <ol className="log">
          {[...log].reverse().map((e, i) => (
            <li key={log.length - i}>
              {time(e.at)} {EVENT[e.kind]}
              {e.detail ? `: ${e.detail}` : ''}
            </li>
          ))}
        </ol>
      ) : (
        <p>No events yet.</p>
      )}
    </>
  );
}

/** Every file of the build in the cache, its bytes hashed in the page; rerun when the worker's state changes. */
function Precache({ state }: { state: string }) {
  const audit = useAudit();
  const [v, setV] = useState<Verdict | null | Error>();
  useEffect(() => {
    let live = true;
    if (audit && !(audit instanceof Error)) verifyPrecache(audit).then((r) => live && setV(r), (e: Error) => live && setV(e));
    return () => {
      live = false;
    };
  }, [audit, state]);
  return (
    <div role="status">
      {v && !(v instanceof Error) ? (
        <>
          <p className={v.failed.length ? 'bad' : 'good'}>
            {v.ok} of {v.total} files verified, {kb(v.bytes)}
          </p>
          {v.failed.length > 0 && (
            <ul>
              {v.failed.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <p>
          {audit instanceof Error || v instanceof Error
            ? (audit instanceof Error ? audit : (v as Error)).message
            : v === null
              ? 'Nothing is cached on this device yet.'
              : 'Checking…'}
        </p>
      )}
    </div>
  );
}

/** Used and quota, and whether the browser keeps our data under storage pressure. */
function Storage() {
  const [s, setS] = useState<{ usage?: number; quota?: number; persisted?: boolean; asked?: boolean }>({});
  const st = navigator.storage;
  const read = (asked?: boolean) => Promise.all([st.estimate(), st.persisted()]).then(([e, persisted]) => setS({ ...e, persisted, asked }));
  useEffect(() => {
    if (st) read();
  }, []);
  if (!st) return <p>Not reported by this browser.</p>;
  return (
    <>
      <Rows
        rows={[
          ['Used', s.usage == null ? '…' : `${num(s.usage)} B of ${num(s.quota ?? 0)} B`],
          ['Persistent', s.persisted == null ? '…' : s.persisted ? 'Yes' : s.asked ? 'No: the browser declined' : 'No: may be cleared when space runs low'],
        ]}
      />
      {!s.persisted && (
        <p>
          <button type="button" onClick={() => st.persist().then(() => read(true))}>Keep data on this device</button>
        </p>
      )}
    </>
  );
}
