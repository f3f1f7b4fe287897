// The worker as it ships, run in-process: sw.js built by the build's own step (the same code, the
// same constants) from a small site held in memory, then evaluated with its outside world passed in:
// `self` (its events, registration and clients), `caches`, `fetch`, `location`, `navigator` and
// BroadcastChannel. Each WorkerUnderTest is one worker's lifetime with its own module state, as
// an engine starts one; several can share one CacheStorage and one host, as versions of one app do.
import path from 'node:path';
import { appIdentity } from '../../../tools/config.mjs';
import { buildServiceWorker } from '../../../tools/pipeline/worker.mjs';
import { MemoryCacheStorage, ORIGIN, ScriptedNetwork, sri } from './worker-world';

/** A site: its files by path from the base (no leading slash), as dist/ holds them. */
export type SiteFiles = Record<string, string>;

/** A small app of this shape: its pages, a script, a stylesheet and audit.json. */
export function smallSite(label = 'v1'): SiteFiles {
  return {
    'index.html': `<!doctype html><title>Home ${label}</title><script src="/assets/app-${label}.js"></script>`,
    'status/index.html': `<!doctype html><title>Status ${label}</title>`,
    '404.html': `<!doctype html><title>Not found ${label}</title>`,
    [`assets/app-${label}.js`]: `console.log(${JSON.stringify(label)});`.repeat(40),
    'assets/app.css': 'body { margin: 0 }',
  };
}

/** The world every worker of a test shares: one origin's caches, one host, the pages' channels. */
export class World {
  readonly storage = new MemoryCacheStorage();
  readonly network = new ScriptedNetwork();
  /** What the workers posted on BroadcastChannels, by channel name. */
  readonly broadcasts = new Map<string, unknown[]>();
  onLine = true;

  /** Puts a built site on the host (and sw.js, audit.json and precache.json with it). */
  host(build: BuiltWorker): void {
    for (const [file, body] of Object.entries(build.files)) this.network.files.set(`/${file}`, body);
  }
}

/** A worker built from a site, with every file the host serves for that version. */
export type BuiltWorker = { code: string; version: string; files: Record<string, string> };

/** Options of the build that matter to the worker. */
export type WorkerOptions = { networkOnly?: string[]; claimedPaths?: string[]; stallSeconds?: number; killSwitch?: boolean };

/** Builds sw.js for `site` with the build's own step; returns it with the files a deploy of it holds. */
export async function buildWorker(site: SiteFiles, options: WorkerOptions = {}): Promise<BuiltWorker> {
  const entries = Object.entries(site).map(([file, body]) => ({ path: file, sha384: sri(body) }));
  const identity = appIdentity({ name: 'app-under-test' });
  const built = await buildServiceWorker({
    root: path.resolve('.'),
    entries,
    appDefines: identity,
    networkOnly: options.networkOnly ?? ['/.well-known/'],
    claimedPaths: options.claimedPaths,
    stallSeconds: options.stallSeconds,
    killSwitch: options.killSwitch,
  });
  const version = built.version;
  const audit = JSON.stringify({ version, files: entries });
  return {
    code: built.worker.toString(),
    version,
    files: { ...site, 'sw.js': built.worker.toString(), 'precache.json': built.manifest.toString(), 'audit.json': audit },
  };
}

type Listener = (event: FakeEvent) => void;

/** The parts of an ExtendableEvent, FetchEvent and ExtendableMessageEvent the worker uses. */
type FakeEvent = {
  request?: Request;
  data?: unknown;
  ports: MessagePort[];
  waitUntil(promise: Promise<unknown>): void;
  respondWith(response: Promise<Response> | Response): void;
};

/** One worker's lifetime: its listeners, its registration's state, and what it did to its pages. */
export class WorkerUnderTest {
  private readonly listeners = new Map<string, Listener[]>();
  skippedWaiting = false;
  claimed = false;
  unregistered = false;
  /** The URLs of the pages the worker navigated (the kill switch reloads its pages so). */
  readonly navigated: string[] = [];
  /** Another version installing or waiting beside this one, as the registration says. */
  newerVersionPresent = false;
  /** Pages the worker sees with clients.matchAll. */
  pages: string[] = [];

  private constructor(
    readonly world: World,
    readonly build: BuiltWorker,
  ) {}

  /** Starts the worker of `build` in `world`: its top-level code runs and adds its listeners. */
  static start(world: World, build: BuiltWorker): WorkerUnderTest {
    const worker = new WorkerUnderTest(world, build);
    worker.evaluate();
    return worker;
  }

  private evaluate(): void {
    const world = this.world;
    const worker = this;
    const self = {
      addEventListener: (type: string, listener: Listener) => this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]),
      skipWaiting: async () => {
        worker.skippedWaiting = true;
      },
      registration: {
        get installing() {
          return worker.newerVersionPresent ? {} : null;
        },
        waiting: null,
        unregister: async () => {
          worker.unregistered = true;
          return true;
        },
      },
      clients: {
        claim: async () => {
          worker.claimed = true;
        },
        matchAll: async () => worker.pages.map((url) => ({ url, navigate: async (to: string) => worker.navigated.push(to) })),
      },
    };
    class Channel {
      constructor(private readonly name: string) {}
      postMessage(message: unknown) {
        world.broadcasts.set(this.name, [...(world.broadcasts.get(this.name) ?? []), structuredClone(message)]);
      }
      close() {}
    }
    const scope = { BroadcastChannel: Channel };
    const navigator = {
      get onLine() {
        return world.onLine;
      },
    };
    const location = new URL(`${ORIGIN}/sw.js`);
    // The worker's own code, with its outside world in place of an engine's globals.
    const run = new Function('self', 'globalThis', 'caches', 'fetch', 'location', 'navigator', 'BroadcastChannel', this.build.code);
    run(self, scope, world.storage, world.network.fetch, location, navigator, Channel);
  }

  /** Dispatches an extendable event to the worker's listeners; resolves when every waitUntil has settled (rejecting with the first failure). */
  private async dispatch(type: string, fields: Partial<FakeEvent> = {}): Promise<{ responded?: Promise<Response> }> {
    const extensions: Promise<unknown>[] = [];
    let responded: Promise<Response> | undefined;
    const event: FakeEvent = {
      ports: [],
      ...fields,
      waitUntil: (promise) => extensions.push(promise),
      respondWith: (response) => {
        if (responded) throw new DOMException('respondWith was called twice', 'InvalidStateError');
        responded = Promise.resolve(response);
      },
    };
    for (const listener of this.listeners.get(type) ?? []) listener(event);
    // A respondWith's promise extends the event too, as in an engine.
    await Promise.all([...extensions, ...(responded ? [responded] : [])]);
    return { responded };
  }

  /** The install event: resolves when the install succeeded, rejects as a failed install does. */
  async install(): Promise<void> {
    await this.dispatch('install');
  }

  /** The activate event. */
  async activate(): Promise<void> {
    await this.dispatch('activate');
  }

  /**
   * A request of a page (a navigation when `navigate`): the worker's answer, or 'network' when the
   * worker left it to the engine (no respondWith), as an engine would then fetch it itself.
   */
  async request(pathname: string, init: RequestInit & { navigate?: boolean } = {}): Promise<Response | 'network'> {
    const request = new Request(new URL(pathname, `${ORIGIN}/`), init);
    // Node's Request cannot be made with mode 'navigate': the worker reads only `mode` of it.
    if (init.navigate) Object.defineProperty(request, 'mode', { value: 'navigate' });
    const { responded } = await this.dispatch('fetch', { request });
    return responded ? await responded : 'network';
  }

  /** Posts `data` to the worker as a page does; resolves once every waitUntil it asked for has settled. */
  async message(data: unknown): Promise<void> {
    await this.dispatch('message', { data });
  }

  /** Posts `data` with a port, as a page asking something does; resolves to what the worker answers on it. */
  async ask(data: unknown): Promise<unknown> {
    const channel = new MessageChannel();
    const answered = new Promise((resolve) => {
      channel.port1.onmessage = (event) => resolve(event.data);
    });
    await this.dispatch('message', { data, ports: [channel.port2] });
    const answer = await answered;
    channel.port1.close();
    return answer;
  }
}

/** The text of a response, or 'network' when the worker left the request alone. */
export async function textOf(answer: Response | 'network'): Promise<string> {
  return answer === 'network' ? 'network' : await answer.text();
}
