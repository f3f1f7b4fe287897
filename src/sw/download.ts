// Downloads of this version's files, verified by their SHA-384 and never left waiting forever.
// On a weak signal one connection can stop moving while a new request for the same file would be
// answered at once: a download that makes no progress for STALL_MS is abandoned and asked again,
// a bounded number of times. A slow download that keeps delivering bytes is never a stall.
import { sri } from '../sri';

/**
 * How a fetch goes out. `keepalive` is for the install only: Chromium 156 lets an installing
 * worker's ordinary fetches out a few at a time (measured: three in flight on the bench's slow
 * link; on loopback each file, even one from the HTTP cache, waiting for the one before), while
 * keepalive fetches start at once. A keepalive GET is otherwise the same fetch (its limits are on
 * request bodies, and a worker stopped mid-install fails the install anyway), but Chromium allows
 * 256 of them in flight per renderer (measured: the 257th fails), so the install bounds how many
 * it keeps in flight. A worker that is installed is not held back: repairs fetch plainly.
 */
export type FetchMode = { keepalive: boolean };

/**
 * A download with no progress (no answer yet, or no new bytes) for this long is a stall. Long
 * enough for a phone whose radio wakes up or hands over between cells (a few seconds), short
 * enough that one stalled file among fifteen still leaves the first visit offline-ready within
 * a minute (STALL_MS × DOWNLOAD_TRIES, plus the other files).
 */
export const STALL_MS = 10_000;

/** Tries per download when it stalls: the first, and two more on new requests. */
export const DOWNLOAD_TRIES = 3;

/** A download abandoned because it stopped making progress. */
export class StalledDownload extends Error {}

/**
 * Fetches a file of this version, verified by its SHA-384; resolves to a response holding the
 * verified bytes. The first try may be answered by the HTTP cache, without revalidation: the page
 * has just loaded most of these files, and the hash makes any copy safe, so on a first visit each
 * file crosses the network once. A copy that fails the check (a stale HTTP cache, an old CDN edge),
 * an error answer or a stall is asked of the server itself; a stall again, up to DOWNLOAD_TRIES in
 * all. A file with no hash to check (audit.json) always comes from the server.
 */
export async function fetchVerified(url: string, integrity: string, mode: FetchMode = { keepalive: false }): Promise<Response> {
  let cache: RequestCache = integrity ? 'force-cache' : 'reload';
  for (let attempt = 1; ; attempt++) {
    try {
      return await downloadChecked(url, integrity, cache, mode);
    } catch (error) {
      const askServer = cache === 'force-cache' || (error instanceof StalledDownload && attempt < DOWNLOAD_TRIES);
      if (!askServer) throw error;
      cache = 'reload';
    }
  }
}

/**
 * One download that refuses errors (and a 206: nothing asked for a range), responses from another
 * origin ('basic' means same origin even after redirects, never opaque) and bytes that fail
 * `integrity`. The body is read here rather than checked by fetch's own `integrity` option: that
 * option withholds the response until the whole body is in, so a stalled body could not be told
 * from a slow one. The hash is the same SHA-384, checked before anything is returned.
 */
async function downloadChecked(url: string, integrity: string, cache: RequestCache, { keepalive }: FetchMode): Promise<Response> {
  const watchdog = new StallWatchdog();
  try {
    const response = await fetch(url, { cache, keepalive, signal: watchdog.signal });
    watchdog.progressed();
    if (!response.ok || response.type !== 'basic') throw new Error(`${url}: ${response.status}`);
    const bytes = await readBody(response, () => watchdog.progressed());
    if (integrity && (await sri(bytes)) !== integrity) throw new Error(`${url}: bytes do not match their SHA-384`);
    // A new response of the same bytes and headers: one the host sent through a redirect would
    // be refused for a navigation (its redirect mode is 'manual'; Safari and Chromium refuse it),
    // and this one keeps no record of it.
    return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  } catch (error) {
    if (watchdog.stalled) throw new StalledDownload(`${url}: no progress for ${STALL_MS / 1000} s`);
    throw error;
  } finally {
    watchdog.stop();
  }
}

/** The whole body as bytes, calling `onChunk` each time some arrive. */
async function readBody(response: Response, onChunk: () => void): Promise<Uint8Array<ArrayBuffer>> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
    onChunk();
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Aborts a download (through `signal`) once STALL_MS pass without a call to progressed(). */
class StallWatchdog {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  stalled = false;

  constructor() {
    this.progressed();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Bytes (or the answer's headers) arrived: the stall clock starts again. */
  progressed(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.stalled = true;
      this.controller.abort();
    }, STALL_MS);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
