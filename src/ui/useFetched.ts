// Files of the site that the screens show (audit.json, licenses.txt), fetched as the page runs.
import { useEffect, useState } from 'react';
import type { Audit } from '../contract/audit';
import { withBase } from '../contract/base';

/** What a fetch gives a screen: loading, the value, or the sentence to show instead. */
export type Fetched<T> = { status: 'loading' } | { status: 'loaded'; value: T } | { status: 'failed'; message: string };

/**
 * Fetches a file of the site once per mount. A failure (offline before the worker cached it, or
 * a host that does not serve it) becomes a sentence to show. `read` is a function defined once
 * (readText, or one at module level), not an arrow written in the render: a new `read` fetches again.
 */
export function useFetched<T>(url: string, read: (response: Response) => Promise<T>): Fetched<T> {
  const [fetched, setFetched] = useState<Fetched<T>>({ status: 'loading' });
  useEffect(() => {
    fetch(url)
      .then((response) => (response.ok ? read(response) : Promise.reject(new Error(`HTTP ${response.status}`))))
      .then(
        (value) => setFetched({ status: 'loaded', value }),
        () => setFetched({ status: 'failed', message: `Could not load ${url}.` }),
      );
  }, [url, read]);
  return fetched;
}

/** Reads a response as text. */
export const readText = (response: Response): Promise<string> => response.text();

/** Reads a response as the build's audit.json. */
const readAudit = (response: Response): Promise<Audit> => response.json();

/** The audit of the running site. */
export const useAudit = (): Fetched<Audit> => useFetched(withBase('/audit.json'), readAudit);
