// The status screen's "Precache check": every file of the build in the cache, its bytes hashed in
// the page, and what the worker says of its repairs.
import { useEffect, useState, type ReactNode } from 'react';
import { verifyPrecache, type PrecacheVerdict } from '../../../worker-client/precache-check';
import type { RepairReport } from '../../../contract/repair-report';
import { formatSize } from '../../../core/format';
import { useAudit } from '../../useFetched';
import { repairText } from './worker-state';

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
export function PrecacheCheck({ workerState, repair, online }: { workerState: string; repair: RepairReport | null; online: boolean }) {
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
