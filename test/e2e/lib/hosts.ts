// The static hosts the tests serve built sites from: the project's preview server, the most
// minimal host there is, `python3 -m http.server` (no cache headers, no rewrites), Debian's nginx
// running the shipped deploy/nginx.conf, and Cloudflare Pages' own runtime (`wrangler pages dev`,
// reading the build's `_headers`). Each counts the requests it gets, can switch the folder it
// serves (a deploy), and can stop answering altogether.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { listen, type Intercept, type Pace } from '../../../tools/serve/server.mjs';
import { linkedRoot } from './linked-root';
import { startNginx } from './nginx';
import { freePort, restartable } from './processes';
import { temp, type BuildName } from './site';
import { until } from './wait';
import { startWrangler } from './wrangler';

// nginx runs from nginx.ts; every test takes its hosts from here.
export { type HttpsHost, NGINX, nginxConfig, startNginxHttps, startNginxUnprivileged, type UnprivilegedNginx } from './nginx';

export type HostKind = 'preview' | 'python' | 'nginx' | 'pages';

/** Every kind of host the offline layer must work on. */
export const HOSTS: HostKind[] = ['preview', 'python', 'nginx', 'pages'];

/**
 * The hosts a build's host-by-host suites run on: every host for React; the preview server and
 * nginx (the shipped config) for Preact. A host serves bytes by path, type and encoding; the two
 * builds differ only in the bytes of their files, which the worker verifies the same way, so
 * every host with the second build would repeat the first's checks (Preact on python and Pages was
 * 188 s of test time in a full run on a slow machine, before the hosts' start-up).
 */
export const hostsFor = (build: BuildName): HostKind[] => (build === 'react' ? HOSTS : ['preview', 'nginx']);

/** A static host as the tests see it. */
export interface Host {
  kind: HostKind;
  url: string;
  /** Every request, in order: method and path (and, on the preview server, whether it was a revalidation). */
  log: { method: string; url: string; revalidation?: boolean }[];
  /** Serves another folder from now on: a deploy (resolves once the host serves it). */
  setRoot(dir: string): Promise<void>;
  /**
   * Resolves once every request the host has answered so far is in `log`. The preview server,
   * python and nginx log a request by the time they answer it; wrangler prints its line after the
   * answer, so a count taken right after an install could still see one of the install's requests,
   * and a read right after a page's reload could miss it. Call it before taking a count and before
   * reading what was asked since.
   */
  logged(): Promise<void>;
  /** Stops answering: closes the listening socket and every open connection (connection refused). */
  pause(): Promise<void>;
  /** Listens again on the same port. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

/**
 * What a test may change about a host: the preview server's `intercept` may answer first, and its
 * `pace` makes it a slow HTTP/1.1 link (each answer's body flows at bytesPerSecond);
 * `editServerBlock` rewrites nginx's deploy/nginx.conf (a misconfigured host).
 */
export interface HostOptions {
  intercept?: Intercept;
  pace?: Pace;
  editServerBlock?: (serverBlock: string) => string;
  /** nginx's server block: deploy/nginx.conf unless told (deploy/nginx-subpath.conf). */
  serverBlockFile?: string;
  /** The preview server's security headers for a root, where it is an older release served with those of its time. */
  securityOf?: (root: string) => Record<string, string> | undefined;
}

/** Starts a host of the given kind serving `dir` on a free loopback port. */
export function startHost(
  kind: HostKind,
  dir: string,
  { intercept, pace, editServerBlock, serverBlockFile, securityOf }: HostOptions = {},
): Promise<Host> {
  if ((intercept || pace || securityOf) && kind !== 'preview')
    throw new Error('only the preview server can intercept or pace requests, or send the headers of an older release');
  if ((editServerBlock || serverBlockFile) && kind !== 'nginx') throw new Error('only nginx has a server block to edit');
  if (kind === 'preview') return startPreview(dir, { intercept, pace, securityOf });
  if (kind === 'pages') return startPages(dir);
  return kind === 'nginx' ? startNginx(dir, editServerBlock, serverBlockFile) : startPython(dir);
}

/** A preview-server intercept that can keep a file's GETs waiting, and the switches a test holds it with. */
export interface HeldFile {
  /** The requests for the file waiting right now (their paths). */
  waiting: string[];
  /** From now on, GETs of the file wait until release(). */
  hold(): void;
  /** Lets the waiting GETs (and any later ones) through to the server. */
  release(): void;
  intercept: Intercept;
}

/**
 * Holds GETs of `file` (a path such as /licenses.txt) while a test says so: a held file keeps an
 * install or a repair under way, so a state that would otherwise last a few milliseconds can be
 * watched. The server answers as usual once released.
 */
export function holdFile(file: string): HeldFile {
  let release = () => {};
  let gate = Promise.resolve();
  const waiting: string[] = [];
  return {
    waiting,
    hold() {
      gate = new Promise<void>((resolve) => (release = resolve));
    },
    release: () => release(),
    intercept: async (req: IncomingMessage) => {
      if (req.url !== file || req.method !== 'GET') return false;
      waiting.push(file);
      await gate;
      waiting.splice(waiting.indexOf(file), 1);
      return false;
    },
  };
}

/** Whether a request in a host's log is the page's reconnect probe: a HEAD of /sw.js (src/reload/connectivity.ts). */
export const isProbe = (request: { method: string; url: string }): boolean => request.method === 'HEAD' && request.url === '/sw.js';

/** The paths of the requests a host got since `from` (an index into its log) with `method`. */
export const requestsSince = (host: Host, from: number, method = 'GET'): string[] =>
  host.log
    .slice(from)
    .filter((request) => request.method === method)
    .map((request) => request.url);

/** The project's own preview server (tools/serve/server.mjs), which logs every request itself. */
async function startPreview(dir: string, options: Pick<HostOptions, 'intercept' | 'pace' | 'securityOf'>): Promise<Host> {
  const preview = await listen({ root: dir, port: 0, ...options });
  const { server } = preview;
  const port = Number(new URL(preview.url).port);
  let paused = false;
  return {
    kind: 'preview',
    url: preview.url,
    log: preview.log,
    // Logged by the time it answers (see Host.logged).
    logged: async () => {},
    async setRoot(next) {
      preview.setRoot(next);
    },
    async pause() {
      if (paused) return;
      paused = true;
      await preview.close();
    },
    async resume() {
      if (!paused) return;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
      paused = false;
    },
    close: () => (paused ? Promise.resolve() : preview.close()),
  };
}

/**
 * `python3 -m http.server` on `port` (0: a free one), serving `root`; resolves once it listens, with
 * the port it took. Its access log on stderr (`"GET /path HTTP/1.1" 200 -`, written before the
 * response) is appended to `log`.
 */
function spawnPython(root: string, port: number, log: Host['log']): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn('python3', ['-u', '-m', 'http.server', '--bind', '127.0.0.1', String(port), '--directory', root], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let partial = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const request = /"([A-Z]+) (\S+) HTTP\/[\d.]+" \d+/.exec(line);
      if (request) log.push({ method: request[1], url: request[2] });
    }
  });
  return new Promise((resolve, reject) => {
    let printed = '';
    const failed = (code: number | null) => reject(new Error(`python3 -m http.server exited (${code}) before listening: ${printed}`));
    child.once('exit', failed);
    // It prints `Serving HTTP on 127.0.0.1 port N ...` once bound; connections before it serves are queued.
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      printed += chunk;
      const serving = /Serving HTTP on \S+ port (\d+)/.exec(printed);
      if (!serving) return;
      child.off('exit', failed);
      resolve({ child, port: Number(serving[1]) });
    });
  });
}

/** The minimal host. It serves a symlink, so a deploy is an atomic swap of the link. */
async function startPython(dir: string): Promise<Host> {
  const { link, setRoot } = linkedRoot(dir);
  const log: Host['log'] = [];
  const { child, port } = await spawnPython(link, 0, log);
  return {
    kind: 'python',
    url: `http://127.0.0.1:${port}/`,
    log,
    // Logged by the time it answers (see Host.logged).
    logged: async () => {},
    setRoot,
    // http.server sets SO_REUSEADDR, so the port is free again at once.
    ...restartable(child, async () => (await spawnPython(link, port, log)).child),
  };
}

/** The rules Pages reads from a deploy's folder at start: `_headers` and `_redirects`, as one string ('' for a missing file). */
function pagesRules(dir: string): string {
  return ['_headers', '_redirects']
    .map((file) => (existsSync(path.join(dir, file)) ? readFileSync(path.join(dir, file), 'utf8') : ''))
    .join('\0');
}

/**
 * Cloudflare Pages' runtime (`wrangler pages dev`, test/e2e/lib/wrangler.ts) serving `dir` with its
 * `_headers`, through a symlink. wrangler reads each file when asked for it, but its rules
 * (`_headers`, `_redirects`) once, at start: after a symlink swap it served the new files with the
 * old rules (the new hashed script with Pages' default Cache-Control). So a deploy whose rules
 * differ (a new version) restarts it on the same port, as a new deployment on Pages starts afresh;
 * a copy with the same rules (a file altered or missing) is a swap of the link, which saves a start
 * of about two seconds of CPU.
 */
async function startPages(dir: string): Promise<Host> {
  const prefix = temp();
  const port = await freePort();
  const log: Host['log'] = [];
  const served = linkedRoot(dir);
  let root = path.resolve(dir);
  let rules = pagesRules(root);
  let wrangler = await startWrangler(served.link, port, prefix, log);
  let paused = false;
  let markers = 0;
  return {
    kind: 'pages',
    url: `http://127.0.0.1:${port}/`,
    log,
    async logged() {
      if (paused) return;
      // wrangler prints requests in the order it finished them: once a marker request of our own
      // is in the log, every request answered before it is too. The marker is then taken out.
      const marker = `/__log-marker-${++markers}`;
      await fetch(new URL(marker, `http://127.0.0.1:${port}/`)).then((response) => response.arrayBuffer());
      await until('wrangler to log the marker request', () => log.some((request) => request.url === marker), 5000);
      log.splice(
        log.findIndex((request) => request.url === marker),
        1,
      );
    },
    async setRoot(next) {
      if (path.resolve(next) === root) return;
      root = path.resolve(next);
      await served.setRoot(root);
      const nextRules = pagesRules(root);
      const sameRules = nextRules === rules;
      rules = nextRules;
      if (paused || sameRules) return;
      await wrangler.stop();
      wrangler = await startWrangler(served.link, port, prefix, log);
    },
    async pause() {
      if (paused) return;
      paused = true;
      await wrangler.stop();
    },
    async resume() {
      if (!paused) return;
      wrangler = await startWrangler(served.link, port, prefix, log);
      paused = false;
    },
    close: () => (paused ? Promise.resolve() : wrangler.stop()),
  };
}
