// The status screen's "Storage": used and quota, and whether the browser keeps the app's data.
import { useEffect, useState } from 'react';
import { APP_NAME, storageKey } from '../../../contract/app-name';
import { askToPersist, persistence, type PersistAsk } from '../../../stored-data/persistence';
import { area, loadText } from '../../../stored-data/storage';
import { downloadText } from '../../download';
import { formatSize } from '../../../core/format';
import { useStore } from '../../useStore';
import { Facts } from './Facts';

/** What the page knows of the device's storage: nothing yet, not reported, or an estimate. */
type StorageReport =
  | { status: 'unknown' }
  | { status: 'unsupported' }
  | { status: 'known'; usage: number; quota: number; persisted: boolean };

/** Used and quota, and whether the browser keeps our data under storage pressure. */
export function StorageFacts() {
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
  const copies = useUnreadableCopies();
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
      <p>Whatever the browser decides, only a copy kept off this device, such as a backup file, keeps what you saved here safe.</p>
      {copies.length > 0 && (
        <>
          <p>Saved data this app could not read was kept as it was, to download:</p>
          <ul>
            {copies.map(([key, name]) => (
              <li key={key}>
                <button type="button" onClick={() => downloadText(name, loadText(key).raw ?? '', 'text/plain')}>
                  Download {name}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

/**
 * The copies of unreadable stored data (device-document.ts: `<key>:backup`, `-2`, …) of this app,
 * each with the file name it downloads as; read after hydration (the server has no storage).
 */
function useUnreadableCopies(): [string, string][] {
  const [copies, setCopies] = useState<[string, string][]>([]);
  useEffect(() => {
    const prefix = storageKey('');
    const keys = Object.keys(area() ?? {}).filter((key) => key.startsWith(prefix) && /:backup(-\d+)?$/.test(key));
    setCopies(keys.sort().map((key) => [key, `${APP_NAME}-${key.slice(prefix.length).replace(/\W+/g, '-')}.txt`]));
  }, []);
  return copies;
}

/** Whether storage is persistent, and if not, why it matters or that the browser said no. */
function persistenceText(persisted: boolean, asked: PersistAsk): string {
  if (persisted) return 'yes';
  if (asked === 'declined') return 'no: the browser declined';
  return 'no: may be cleared when space runs low';
}
