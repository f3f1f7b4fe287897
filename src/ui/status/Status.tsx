// /status, "Offline readiness": network, service worker, precache check, storage, connectivity log.
import { useEffect, useState, type ReactNode } from 'react';
import { connectivity, connectivityLog } from '../../offline/connectivity';
import { checkForUpdate, registration } from '../../offline/registration';
import { size, useAudit } from '../about/audit';
import { useStore } from '../useStore';
import { verifyPrecache, type Verdict } from './verify';

const time = (t: number | null) => (t ? new Date(t).toLocaleTimeString() : 'never');

/** A definition list of [term, value] rows. */
const Rows = ({ rows }: { rows: [string, ReactNode][] }) => (
  <dl>
    {rows.map(([k, v]) => (
      <div key={k}>
        <dt>{k}</dt>
        <dd>{v}</dd>
      </div>
    ))}
  </dl>
);

/** The "Offline readiness" screen, below the <h1> that Page renders. */
export function Status() {
  const net = useStore(connectivity);
  const reg = useStore(registration);
  const log = useStore(connectivityLog);
  const p = reg.state === 'installing' && reg.progress;
  return (
    <>
      <h2>Network</h2>
      <Rows
        rows={[
          ['Browser says', `${net.online ? 'online' : 'offline'} since ${time(net.since)}`],
          ['Last probe', net.probeAt ? `${net.probe} at ${time(net.probeAt)}` : 'none yet'],
        ]}
      />
      <h2>Service worker</h2>
      <Rows
        rows={[
          ['State', reg.state.replace('-', ' ') + (p ? ` (${p.done} of ${p.total} files)` : '') + (reg.error ? `: ${reg.error}` : '')],
          ['Version', reg.version ?? 'unknown'],
          ['Scope', reg.scope ?? 'none'],
          ['Last update check', time(reg.lastCheck)],
        ]}
      />
      <p>
        <button type="button" onClick={checkForUpdate}>Check for update</button>
      </p>
      <h2>Precache check</h2>
      <Precache state={reg.state} />
      <h2>Storage</h2>
      <Storage />
      <h2>Connectivity log</h2>
      {log.length ? (
        <ol className="log">
          {[...log].reverse().map((e, i) => (
            <li key={i}>
              {time(e.at)} {e.kind}
              {e.detail && `: ${e.detail}`}
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
  // undefined while checking, null when nothing is cached, or why the check failed.
  const [v, setV] = useState<Verdict | null | string>();
  useEffect(() => {
    if (audit && typeof audit != 'string') verifyPrecache(audit).then(setV, (e: Error) => setV(e.message));
  }, [audit, state]);
  const shown = typeof audit == 'string' ? audit : v === null ? 'Nothing is cached on this device yet.' : v ?? 'Checking…';
  return (
    <div role="status">
      {typeof shown == 'string' ? (
        <p>{shown}</p>
      ) : (
        <>
          <p className={shown.failed.length ? 'bad' : 'good'}>
            {shown.ok} of {shown.total} files verified, {size(shown.bytes)}
          </p>
          <ul>
            {shown.failed.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** Used and quota, and whether the browser keeps our data under storage pressure. */
function Storage() {
  const st = navigator.storage;
  const [s, setS] = useState<StorageEstimate & { persisted?: boolean; asked?: boolean }>({});
  const read = (asked?: boolean) => Promise.all([st.estimate(), st.persisted()]).then(([e, persisted]) => setS({ ...e, persisted, asked }));
  useEffect(() => {
    st && read();
  }, []);
  if (!st) return <p>Not reported by this browser.</p>;
  return (
    <>
      <Rows
        rows={[
          ['Used', s.quota ? `${size(s.usage ?? 0)} of ${size(s.quota)}` : '…'],
          ['Persistent', s.persisted == null ? '…' : s.persisted ? 'yes' : s.asked ? 'no: the browser declined' : 'no: may be cleared when space runs low'],
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
