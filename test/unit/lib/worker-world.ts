// The worker's world, in-process: the Cache API in memory and a scripted network, installed as
// the globals the worker's code reads (`caches`, `fetch`), so src/sw/ runs in Node in
// milliseconds. The seam is the web platform's own interface: the worker calls `caches` and
// `fetch` and nothing else of the outside world, so nothing is added to sw.js for the tests
// (Angular's service worker is tested the same way, with SwTestHarness's Adapter, MockCacheStorage
// and MockServerState). What only a real engine shows (HTTP caching, keepalive, a stalled socket,
// Safari's redirected-navigation rule) is proven in test/e2e/.
import { createHash } from 'node:crypto';

/** The origin the in-process worker runs at. */
export const ORIGIN = 'http://app.test';

/** An absolute URL for `input`, resolved against ORIGIN as a worker resolves it against its own. */
export function absolute(input: RequestInfo | URL): string {
  if (input instanceof Request) return input.url;
  return new URL(String(input), `${ORIGIN}/`).href;
}

/** A DOMException as a failing Cache API throws it (Chromium's damaged profile: UnknownError). */
export const cacheFailure = () => new DOMException('Unexpected internal error.', 'UnknownError');

type Stored = { status: number; statusText: string; headers: [string, string][]; body: Uint8Array };

/** One cache of MemoryCacheStorage: URL -> a stored response, as Cache keeps it. */
export class MemoryCache {
  readonly entries = new Map<string, Stored>();
  constructor(private readonly storage: MemoryCacheStorage) {}

  /** Cache.put: refuses a partial response and a used body, as the spec says; stores the bytes. */
  async put(request: RequestInfo | URL, response: Response): Promise<void> {
    this.storage.check('put', request);
    if (response.status === 206) throw new TypeError('Cache.put: a partial response (206) cannot be stored');
    if (response.bodyUsed) throw new TypeError('Cache.put: the body was already used');
    const body = new Uint8Array(await response.arrayBuffer());
    this.storage.check('put', request);
    this.entries.set(absolute(request), {
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers],
      body,
    });
  }

  /** Cache.match by URL (the query included, as the default options compare it). */
  async match(request: RequestInfo | URL): Promise<Response | undefined> {
    this.storage.check('match');
    const stored = this.entries.get(absolute(request));
    if (!stored) return undefined;
    return new Response(stored.body.slice(), { status: stored.status, statusText: stored.statusText, headers: stored.headers });
  }

  async delete(request: RequestInfo | URL): Promise<boolean> {
    this.storage.check('delete');
    return this.entries.delete(absolute(request));
  }

  async keys(): Promise<Request[]> {
    this.storage.check('keys');
    return [...this.entries.keys()].map((url) => new Request(url));
  }

  /** What a test does to the stored copy of `path` behind the worker's back: evicts or alters it. */
  alter(path: string, body: string | null): void {
    const url = absolute(path);
    if (body === null) {
      this.entries.delete(url);
      return;
    }
    const stored = this.entries.get(url);
    if (!stored) throw new Error(`${path} is not cached`);
    stored.body = new TextEncoder().encode(body);
  }
}

/** CacheStorage in memory, whose every call can be made to fail as a damaged profile's does. */
export class MemoryCacheStorage {
  readonly caches = new Map<string, MemoryCache>();
  /**
   * Set to make every call reject (as Chromium's UnknownError), or only the named operations, or an
   * operation on one path only (`put /assets/app.css`).
   */
  failing: boolean | Set<string> = false;
  /** What a failing call throws: Chromium's UnknownError unless told (a full device's QuotaExceededError). */
  failure: () => DOMException = cacheFailure;

  /** Throws when the test made `operation` (on `request`, when given) fail. */
  check(operation: string, request?: RequestInfo | URL): void {
    if (this.failing === true) throw this.failure();
    if (!(this.failing instanceof Set)) return;
    const onPath = request ? `${operation} ${new URL(absolute(request)).pathname}` : '';
    if (this.failing.has(operation) || this.failing.has(onPath)) throw this.failure();
  }

  async open(name: string): Promise<MemoryCache> {
    this.check('open');
    let cache = this.caches.get(name);
    if (!cache) {
      cache = new MemoryCache(this);
      this.caches.set(name, cache);
    }
    return cache;
  }

  async has(name: string): Promise<boolean> {
    this.check('has');
    return this.caches.has(name);
  }

  async delete(name: string): Promise<boolean> {
    this.check('delete');
    return this.caches.delete(name);
  }

  async keys(): Promise<string[]> {
    this.check('keys');
    return [...this.caches.keys()];
  }

  /** CacheStorage.match: in one named cache (which it never creates), or in each in order. */
  async match(request: RequestInfo | URL, options: { cacheName?: string } = {}): Promise<Response | undefined> {
    this.check('match');
    const names = options.cacheName ? [options.cacheName] : [...this.caches.keys()];
    for (const name of names) {
      const found = await this.caches.get(name)?.match(request);
      if (found) return found;
    }
    return undefined;
  }
}

/** What the scripted network answers one request with. */
export type Answer =
  | {
      body: string | Uint8Array<ArrayBuffer>;
      status?: number;
      headers?: Record<string, string>;
      type?: ResponseType;
      /** The headers come once this settles (a request queued behind others for a connection). */
      headersAfter?: Promise<unknown>;
      /** The body comes in this many chunks, one every `chunkMs` (a slow link that keeps moving). */
      chunks?: number;
      chunkMs?: number;
    }
  | 'offline'
  | 'stall-headers'
  | 'stall-body';

/** One request as the host saw it. */
export type SeenRequest = { path: string; cache: RequestCache | undefined; range: string | null };

/**
 * A host in memory: files by path, answers a test scripts per path, and every request counted, so a
 * test proves "served from cache" as the end-to-end tests do, by the requests the host saw.
 */
export class ScriptedNetwork {
  readonly files = new Map<string, string | Uint8Array<ArrayBuffer>>();
  readonly scripted = new Map<string, Answer[]>();
  readonly seen: SeenRequest[] = [];
  /** Everything fails as with no network (fetch rejects with a TypeError). */
  offline = false;
  /** Bodies held open by 'stall-body', to end when the test is over. */
  private readonly held: ReadableStreamDefaultController<Uint8Array>[] = [];

  /** The next answers for `path`, in order, before its file is served again. */
  script(path: string, ...answers: Answer[]): void {
    this.scripted.set(path, [...(this.scripted.get(path) ?? []), ...answers]);
  }

  /** How many requests for `path` the host saw. */
  count(path: string): number {
    return this.seen.filter((request) => request.path === path).length;
  }

  /** The fetch the worker calls: a Response of type 'basic' for our origin, as an engine gives it. */
  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(absolute(input));
    const headers = new Headers(input instanceof Request ? input.headers : init.headers);
    const path = url.pathname;
    this.seen.push({ path, cache: init.cache ?? (input instanceof Request ? input.cache : undefined), range: headers.get('range') });
    const answer = this.scripted.get(path)?.shift() ?? this.fileAnswer(path);
    if (this.offline || answer === 'offline') throw new TypeError('Failed to fetch');
    const signal = init.signal ?? undefined;
    if (answer === 'stall-headers') return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
    if (answer === 'stall-body') {
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => {
          this.held.push(controller);
          controller.enqueue(new TextEncoder().encode('a first chunk'));
          signal?.addEventListener('abort', () => controller.error(signal.reason));
        },
      });
      return basic(new Response(body, { status: 200 }), url.origin === ORIGIN ? 'basic' : 'opaque');
    }
    if (answer.headersAfter) await answer.headersAfter;
    const body = answer.chunks && answer.chunkMs ? trickle(answer.body, answer.chunks, answer.chunkMs, signal) : answer.body;
    const response = new Response(answer.status === 204 || answer.status === 304 ? null : body, {
      status: answer.status ?? 200,
      headers: answer.headers,
    });
    return basic(response, answer.type ?? (url.origin === ORIGIN ? 'basic' : 'opaque'));
  };

  private fileAnswer(path: string): Answer {
    // As a static host: a folder's path answers with its index.html.
    const file = this.files.get(path.endsWith('/') ? `${path}index.html` : path);
    if (file === undefined) return { body: 'Not found', status: 404 };
    return { body: file };
  }

  /** Ends every held body: call when a test is over. */
  release(): void {
    for (const controller of this.held.splice(0)) {
      try {
        controller.close();
      } catch {
        // already errored by its abort
      }
    }
  }
}

/** `body` as a stream of `chunks` parts, one every `everyMs`, ending early with an error when aborted. */
function trickle(
  body: string | Uint8Array<ArrayBuffer>,
  chunks: number,
  everyMs: number,
  signal?: AbortSignal,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const size = Math.ceil(bytes.length / chunks);
  let sent = 0;
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      if (signal?.aborted) return controller.error(signal.reason);
      controller.enqueue(bytes.slice(sent, sent + size));
      sent += size;
      if (sent >= bytes.length) controller.close();
    },
  });
}

/** `response` with the type an engine gives it (Node's Response is always 'default'). */
function basic(response: Response, type: ResponseType): Response {
  Object.defineProperty(response, 'type', { value: type });
  return response;
}

/** The SRI hash (sha384-…) of `body`, as the build writes it in precache.json. */
export function sri(body: string | Uint8Array): string {
  return `sha384-${createHash('sha384').update(body).digest('base64')}`;
}

/** Installs `storage` and `network` as the globals the worker reads; returns the undo. */
export function installWorkerWorld(storage: MemoryCacheStorage, network: ScriptedNetwork): () => void {
  const global = globalThis as unknown as { caches?: unknown; fetch: typeof fetch };
  const before = { caches: global.caches, fetch: global.fetch };
  global.caches = storage;
  global.fetch = network.fetch;
  return () => {
    network.release();
    global.caches = before.caches;
    global.fetch = before.fetch;
  };
}
