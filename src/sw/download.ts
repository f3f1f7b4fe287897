// Downloads of this version's files, verified by their SHA-384 and never left waiting forever.
// On a weak signal one connection can stop moving while a new request for the same file would be
// answered at once: a response whose bytes stop moving for STALL_MS is abandoned and asked again,
// a bounded number of times. A slow download that keeps delivering bytes is never a stall, however
// long it takes in all, and neither is a request still queued for a connection (see ANSWER_MS).
import { isThisVersions } from './this-version';

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
 * How long a request may wait for its response's headers while no download of ours moves (or
 * starts). A
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

/**
 * Fetches a file of this version, verified by its SHA-384; resolves to a response holding the
 * verified bytes. The first try may be answered by the HTTP cache, without revalidation: the page
 * has just loaded most of these files, and the hash makes any copy safe, so on a first visit each
 * file crosses the network once. A copy that fails the check (a stale HTTP cache, an old CDN edge),
 * an error answer or a stall is asked of the server itself; a stall again, up to DOWNLOAD_TRIES in
 * all. A file with no hash to check (audit.json, checked by its version) always comes from the server.
 * `init.keepalive` is for the install only: Chromium 156 lets an installing worker's ordinary fetches
 * out a few at a time (measured: three in flight on the bench's slow link; on loopback each file,
 * even one from the HTTP cache, waiting for the one before), while keepalive fetches start at once.
 * A keepalive GET is otherwise the same fetch (its limits are on request bodies, and a worker
 * stopped mid-install fails the install anyway), but Chromium allows 256 of them in flight per
 * renderer (measured: the 257th fails): see DOWNLOADS_AT_ONCE. A worker that is installed is not
 * held back: repairs fetch plainly.
 */
export async function fetchVerified(url: string, integrity: string, init: Pick<RequestInit, 'keepalive'> = {}): Promise<Response> {
  let cache: RequestCache = integrity ? 'force-cache' : 'reload';
  for (let attempt = 1; ; attempt++) {
    let downloaded: Response | typeof STALLED;
    try {
      downloaded = await downloadChecked(url, integrity, { ...init, cache });
    } catch (error) {
      // The HTTP cache's copy failing is no failure yet: the server is asked.
      if (cache === 'reload') throw error;
      cache = 'reload';
      continue;
    }
    if (downloaded !== STALLED) return downloaded;
    if (attempt === DOWNLOAD_TRIES) throw new Error(`${url}: stalled`);
    cache = 'reload';
  }
}

/** What a download that stopped moving resolves to. */
const STALLED = null;

/** When a download of ours last received headers or bytes: the clock of every request still waiting for its headers. */
let linkMovedAt = 0;

/**
 * One download that refuses errors (and a 206: nothing asked for a range), responses from another
 * origin ('basic' means same origin even after redirects, never opaque) and bytes that fail
 * `integrity`. The body is read here rather than checked by fetch's own `integrity` option: that
 * option withholds the response until the whole body is in, so a stalled body could not be told
 * from a slow one. The hash is the same SHA-384, checked before anything is returned.
 * It is abandoned, resolving to STALLED, once it stops moving: answered, after STALL_MS without new bytes; before, after
 * ANSWER_MS in which no download of ours moved. Progress only stamps the time (a body arrives in
 * hundreds of chunks); a timer reads the stamps a few times per stall limit. `init` is the fetch's
 * (its HTTP cache mode, keepalive), but for the signal, which is this download's own.
 */
async function downloadChecked(url: string, integrity: string, init: RequestInit): Promise<Response | typeof STALLED> {
  const controller = new AbortController();
  // A request starting is the link's news too: the clock of this one starts now, and no request
  // waiting for its headers is abandoned while new ones are still being sent.
  linkMovedAt = Date.now();
  let movedAt = 0;
  const progressed = () => {
    movedAt = linkMovedAt = Date.now();
  };
  // An eighth of the stall limit late at most: far within what the limit is for.
  const timer = setInterval(() => {
    if (Date.now() - (movedAt || linkMovedAt) > (movedAt ? STALL_MS : ANSWER_MS)) controller.abort();
  }, STALL_MS / 8);
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    progressed();
    if (!response.ok || response.type !== 'basic') throw new Error(`${url}: ${response.status}`);
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    const reader = response.body?.getReader();
    for (;;) {
      const read = await reader?.read();
      if (!read || read.done) break;
      chunks.push(read.value);
      progressed();
    }
    // The bytes are checked as one array, joined here: read back from the Blob, they would cross
    // to the browser's blob store and back (Chromium).
    const body = new Blob(chunks);
    const bytes = new Uint8Array(body.size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    if (!(await isThisVersions(bytes, integrity))) throw new Error(`${url}: not this version's bytes`);
    // A new response of the same bytes, status and headers (the response is read as the init:
    // Fetch takes those three members of it): one the host sent through a redirect would be
    // refused for a navigation (its redirect mode is 'manual'; Safari and Chromium refuse it),
    // and this one keeps no record of it. Its body is a Blob: Chromium's Cache API stores a Blob
    // body by its handle, where it copies a body of bytes into a new blob first (Chromium 156 on
    // loopback: the install's downloads and writes take 108 ms, against 117 with a body of bytes).
    return new Response(body, response);
  } catch (error) {
    if (controller.signal.aborted) return STALLED;
    throw error;
  } finally {
    clearInterval(timer);
  }
}

/**
 * Runs `task` on every item, at most `limit` at a time. After a failure no new item starts, and
 * it rejects with that failure only once the tasks under way have settled: a write still running
 * after the caller deleted the cache would create it again.
 */
export async function eachAtMost<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  const queue = items.slice();
  const failures: unknown[] = [];
  // A lane takes the next item until none is left or one failed (a lane with nothing to take ends at once).
  const lane = async () => {
    while (queue.length > 0 && failures.length === 0) await task(queue.shift() as T).catch((error: unknown) => failures.push(error));
  };
  await Promise.all(Array.from({ length: limit }, lane));
  if (failures.length > 0) throw failures[0];
}
