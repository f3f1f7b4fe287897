// The build's audit (dist/audit.json) and licences (dist/licenses.txt), as the page reads them.
import { useEffect, useState } from 'react';

/** One shipped file: bytes raw, gzip and brotli, and its SRI hash. */
export interface AuditFile {
  path: string;
  bytes: number;
  gzip: number;
  brotli: number;
  sha384: string;
}

/** dist/audit.json. `name` is also the prefix of the worker's cache names. */
export interface Audit {
  name: string;
  version: string;
  build: 'react' | 'preact';
  files: AuditFile[];
}

/** Bytes with thousands separators, the same on every machine. */
export const num = (n: number): string => n.toLocaleString('en-US');

/** Bytes as a short size: "512 B", "82.3 KB", "10 GB". */
export function size(n: number): string {
  const i = n < 1 ? 0 : Math.min(3, Math.floor(Math.log2(n) / 10));
  return `${+(n / 1024 ** i).toFixed(1)} ${['B', 'KB', 'MB', 'GB'][i]}`;
}

/**
 * Fetches a file of the site once per mount: null while loading, the value, or the sentence to
 * show instead (offline before the worker cached it, or a host that does not serve it).
 */
export function useFetched<T>(url: string, read: (r: Response) => Promise<T>): T | string | null {
  const [value, setValue] = useState<T | string | null>(null);
  useEffect(() => {
    fetch(url)
      .then((r) => (r.ok ? read(r) : Promise.reject()))
      .catch(() => `Could not load ${url}.`)
      .then(setValue);
  }, [url]);
  return value;
}

/** The audit of the running site. */
export const useAudit = () => useFetched<Audit>('/audit.json', (r) => r.json());
