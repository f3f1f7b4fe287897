// Downloads of this version's files, verified by their SHA-384 and never left waiting forever.
// On a weak signal one connection can stop moving while a new request for the same file would be
// answered at once: a response whose bytes stop moving for STALL_MS is abandoned and asked again,
// a bounded number of times. A slow download that keeps delivering bytes is never a stall, however
// long it takes in all, and neither is a request still queued for a connection (see ANSWER_MS).
import { isThisVersions } from './this-version';

/**
 * How a fetch goes out. `keepalive` is for the install only: Chromium 156 lets an installing
 * worker's ordinary fetches out a few at a time (measured: three in flight on the bench's slow
 * link; on loopback each file, even one from the HTTP cache, waiting for the one before), while
 * keepalive fetches start at once. A keepalive GET is otherwise the same fetch (its limits are on
 * request bodies, and a worker stopped mid-install fails the install anyway), but Chromium allows
 * 256 of them in flight per renderer (measured: the 257th fails): see DOWNLOADS_AT_ONCE. A worker
 * that is installed is not held back: repairs fetch plainly.
 */
export type FetchMode = { keepalive: boolean };

declare const __STALL_MS__: number;

/**
 * A download whose open response makes no progress (no new bytes) for this long is a stall: 10 s
 * unless package.json `stallSeconds` says otherwise. Long enough for a phone whose radio wakes up
 * or hands over between cells (a few seconds), short enough that one stalled file among fifteen
 * still leaves the first visit offline-ready within about a minute (DOWNLOAD_TRIES × ANSWER_MS at
 * worst). The clock starts when the response's headers arrive: before that the request may
 * still be waiting for a connection (an engine sends six at a time to an HTTP/1.1 host, and the
 * page's own requests share them), and a slow response that keeps moving is never a stall.
 */
export const STALL_MS: number = __STALL_MS__;

/**
 * How long a request may wait for its response's headers while no download of ours moves. A
 * request still queued for a connection (an engine opens six to an HTTP/1.1 host, and the install
 * asks for more at once) has no headers yet, and it waits behind downloads that do move: its clock
 * starts again whenever one of ours receives headers or bytes, so it is never timed while the queue
 * ahead of it moves. Twice the stall limit: the page's own requests, which the worker cannot see,
 * may hold the connections too.
 */
export const ANSWER_MS = 2 * STALL_MS;

/**
 * At most this many downloads of the worker at once. Not to keep them below a connection limit
 * (the engine queues what it cannot send yet, and a queued request is never timed as a stall:
 * ANSWER_MS): every request goes out as soon as the engine can schedule it, the first screens'
 * files first (the manifest lists them first). A cap of 4 cost 14 % on the bench's slow link.
 * The bound is Chromium's 256 keepalive fetches in flight per renderer, with room left for the
 * page's own.
 */
export const DOWNLOADS_AT_ONCE = 64;

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
 * all. A file with no hash to check (audit.json, checked by its version) always comes from the server.
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
    const bytes = await readBody(response, watchdog);
    if (!(await isThisVersions(bytes, integrity)))
      throw new Error(`${url}: bytes are not this version's (SHA-384, or audit.json's version)`);
    // A new response of the same bytes and headers: one the host sent through a redirect would
    // be refused for a navigation (its redirect mode is 'manual'; Safari and Chromium refuse it),
    // and this one keeps no record of it.
    return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  } catch (error) {
    if (watchdog.stalled) throw new StalledDownload(`${url}: no progress for ${watchdog.limitMs() / 1000} s`);
    throw error;
  } finally {
    watchdog.stop();
  }
}

/** The whole body as bytes, telling `watchdog` each time some arrive. */
async function readBody(response: Response, watchdog: StallWatchdog): Promise<Uint8Array<ArrayBuffer>> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
    watchdog.progressed();
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** When a download of ours last received headers or bytes: the clock of every request still waiting for its headers. */
let linkMovedAt = 0;

/**
 * Aborts a download (through `signal`) that stops moving: once its headers have arrived, after
 * STALL_MS without new bytes; before, after ANSWER_MS in which no download of ours moved. Progress
 * only stamps the time (a body arrives in hundreds of chunks); the one timer looks at the stamps
 * when it fires and waits on for what is left.
 */
class StallWatchdog {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly startedAt = Date.now();
  private movedAt = 0;
  stalled = false;

  constructor() {
    this.wait(ANSWER_MS);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The answer's headers or some bytes arrived. */
  progressed(): void {
    this.movedAt = linkMovedAt = Date.now();
  }

  /** The limit that applies now: STALL_MS on an answered request, ANSWER_MS before. */
  limitMs(): number {
    return this.movedAt ? STALL_MS : ANSWER_MS;
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private wait(ms: number): void {
    this.timer = setTimeout(() => {
      const since = this.movedAt || Math.max(this.startedAt, linkMovedAt);
      const left = since + this.limitMs() - Date.now();
      if (left > 0) return this.wait(left);
      this.stalled = true;
      this.controller.abort();
    }, ms);
  }
}

/**
 * Runs `task` on every item, at most `limit` at a time. After a failure no new item starts, and
 * it rejects with that failure only once the tasks under way have settled: a write still running
 * after the caller deleted the cache would create it again.
 */
export async function eachAtMost<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (!failure && next < items.length) {
      const item = items[next++];
      await task(item).catch((error: unknown) => {
        failure ??= { error };
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw failure.error;
}
