// The static hosts the tests serve built sites from: the project's preview server, the most
// minimal host there is, `python3 -m http.server` (no cache headers, no rewrites), Debian's nginx
// running the shipped deploy/nginx.conf, and Cloudflare Pages' own runtime (`wrangler pages dev`,
// reading the build's `_headers`). Each counts the requests it gets, can switch the folder it
// serves (a deploy), and can stop answering altogether.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { listen, type Intercept, type Pace } from '../../../tools/serve/server.mjs';
import { accepting, freePort, restartable, stopProcess } from './processes';
import { temp, type BuildName } from './site';
import { until } from './wait';
import { startWrangler } from './wrangler';

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

/** Debian's nginx (`apt-get install -y nginx`); NGINX_PATH overrides. */
export const NGINX = process.env.NGINX_PATH || '/usr/sbin/nginx';

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

/** A folder `site` linking to `dir`, and setRoot() swapping the link atomically: a deploy. */
function linkedRoot(dir: string): { link: string; setRoot(next: string): Promise<void> } {
  const base = temp();
  const link = path.join(base, 'site');
  symlinkSync(path.resolve(dir), link);
  return {
    link,
    async setRoot(next) {
      const swap = path.join(base, `site-${Date.now()}`);
      symlinkSync(path.resolve(next), swap);
      renameSync(swap, link);
    },
  };
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

/** nginx's temporary folders, each set under the test's own prefix (the compiled-in ones are root's). */
const NGINX_TEMP_FOLDERS = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'];

/**
 * The main configuration of a test's nginx: everything of its own under `prefix` (pid, logs,
 * temporary files), one access log line of JSON per request, and the shipped server block
 * (deploy/nginx.conf) with its `listen` and `root` filled in. One process, no workers: it runs as
 * whoever runs the tests and reads what they can read; with `workersAs` (`nobody nogroup`), its
 * workers run as that user, as on a host.
 */
export function nginxConfig(
  prefix: string,
  root: string,
  port: number,
  editServerBlock = (serverBlock: string) => serverBlock,
  workersAs?: string,
  serverBlockFile = 'deploy/nginx.conf',
): string {
  const shipped = editServerBlock(readFileSync(path.join(process.cwd(), serverBlockFile), 'utf8'));
  const server = shipped.replace(/^(\s*)listen [^;]+;/m, `$1listen 127.0.0.1:${port};`).replace(/^(\s*)root [^;]+;/m, `$1root ${root};`);
  if (!server.includes(`listen 127.0.0.1:${port};`) || !server.includes(`root ${root};`))
    throw new Error(`${serverBlockFile} has no \`listen\` or no \`root\` line to fill in`);
  return nginxMainConfig(prefix, server, workersAs);
}

/**
 * The main configuration around the server blocks `servers`: everything of nginx's own under
 * `prefix`. Without `workersAs`, one process and no workers; with it, nginx as a host runs it:
 * a master (whoever runs the tests, root here) and one worker process as that user and group.
 */
function nginxMainConfig(prefix: string, servers: string, workersAs?: string): string {
  const temps = NGINX_TEMP_FOLDERS.map((name) => `  ${name}_temp_path ${path.join(prefix, name)};`);
  return [
    'daemon off;',
    ...(workersAs ? [`user ${workersAs};`, 'worker_processes 1;'] : ['master_process off;']),
    `pid ${path.join(prefix, 'nginx.pid')};`,
    `error_log ${path.join(prefix, 'error.log')};`,
    'events {}',
    'http {',
    '  include /etc/nginx/mime.types;',
    '  default_type application/octet-stream;',
    `  log_format tests escape=json '{"method":"$request_method","url":"$request_uri","inm":"$http_if_none_match","ims":"$http_if_modified_since"}';`,
    `  access_log ${path.join(prefix, 'access.log')} tests;`,
    ...temps,
    servers,
    '}',
    '',
  ].join('\n');
}

/** Starts nginx with the configuration under `prefix`; resolves once it accepts connections. */
async function spawnNginx(prefix: string, port: number): Promise<ChildProcess> {
  if (!existsSync(NGINX)) throw new Error(`nginx not found at ${NGINX}; install it with \`apt-get install -y nginx\` or set NGINX_PATH`);
  // -e: the error log from the very start (before the configuration is read, nginx opens its
  // compiled-in /var/log/nginx/error.log, which a test must not need).
  const child = spawn(NGINX, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', path.join(prefix, 'error.log')], {
    stdio: 'ignore',
  });
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  await until(`nginx to listen on port ${port}`, async () => exited() || (await accepting(port)), 5000);
  if (exited())
    throw new Error(
      `nginx exited (${child.exitCode ?? child.signalCode}): ${readFileSync(path.join(prefix, 'error.log'), 'utf8').trim().split('\n').pop()}`,
    );
  return child;
}

/** The requests in nginx's access log (one JSON object a line, written as each response ends). */
function nginxLog(file: string): Host['log'] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const entry = JSON.parse(line) as { method: string; url: string; inm: string; ims: string };
      return { method: entry.method, url: entry.url, revalidation: Boolean(entry.inm || entry.ims) };
    });
}

/** Debian's nginx with the shipped server block, serving a symlink (a deploy swaps it). */
async function startNginx(dir: string, editServerBlock?: (serverBlock: string) => string, serverBlockFile?: string): Promise<Host> {
  const { link, setRoot } = linkedRoot(dir);
  const prefix = temp();
  for (const name of NGINX_TEMP_FOLDERS) mkdirSync(path.join(prefix, name));
  const port = await freePort();
  writeFileSync(path.join(prefix, 'nginx.conf'), nginxConfig(prefix, link, port, editServerBlock, undefined, serverBlockFile));
  const child = await spawnNginx(prefix, port);
  const accessLog = path.join(prefix, 'access.log');
  return {
    kind: 'nginx',
    url: `http://127.0.0.1:${port}/`,
    get log() {
      return nginxLog(accessLog);
    },
    // Logged by the time it answers (see Host.logged).
    logged: async () => {},
    setRoot,
    ...restartable(child, () => spawnNginx(prefix, port)),
  };
}

/**
 * Cloudflare Pages' runtime (`wrangler pages dev`, test/e2e/lib/wrangler.ts) serving `dir` with its
 * `_headers`. A deploy restarts it on the same port with the new folder: wrangler reads `_headers`
 * once, at start (after a symlink swap it served the new files with the old rules: the new hashed
 * script with Pages' default Cache-Control), and a new deployment on Pages is a new start too.
 */
async function startPages(dir: string): Promise<Host> {
  const prefix = temp();
  const port = await freePort();
  const log: Host['log'] = [];
  let root = path.resolve(dir);
  let wrangler = await startWrangler(root, port, prefix, log);
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
      if (paused) return;
      await wrangler.stop();
      wrangler = await startWrangler(root, port, prefix, log);
    },
    async pause() {
      if (paused) return;
      paused = true;
      await wrangler.stop();
    },
    async resume() {
      if (!paused) return;
      wrangler = await startWrangler(root, port, prefix, log);
      paused = false;
    },
    close: () => (paused ? Promise.resolve() : wrangler.stop()),
  };
}

/** nginx as a host runs it: the master as root, the workers as an unprivileged user. */
export interface UnprivilegedNginx {
  url: string;
  /** The users the worker processes run as (from `ps`), to prove they are not root. */
  workerUsers(): string[];
  close(): Promise<void>;
}

/**
 * Debian's nginx with the shipped deploy/nginx.conf serving `dir`, its master as the caller (root)
 * and its worker as `nobody:nogroup` (`user nobody nogroup;`, as Debian's www-data): the worker
 * reads the files, so it answers 403 for any file or folder on the way that others may not read.
 */
export async function startNginxUnprivileged(dir: string): Promise<UnprivilegedNginx> {
  const prefix = temp();
  for (const name of NGINX_TEMP_FOLDERS) mkdirSync(path.join(prefix, name));
  const port = await freePort();
  writeFileSync(path.join(prefix, 'nginx.conf'), nginxConfig(prefix, path.resolve(dir), port, undefined, 'nobody nogroup'));
  const child = await spawnNginx(prefix, port);
  return {
    url: `http://127.0.0.1:${port}/`,
    workerUsers: () => {
      const ps = spawnSync('ps', ['-o', 'user=', '--ppid', String(child.pid)], { encoding: 'utf8' });
      return ps.stdout
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
    },
    close: () => stopProcess(child),
  };
}

/** nginx over HTTPS on loopback ports, as the tests see it. */
export interface HttpsHost {
  httpPort: number;
  httpsPort: number;
  close(): Promise<void>;
}

/** Fills `pattern`'s match in `text` with `replacement`; throws when the shipped file has no such line. */
function fill(text: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(text)) throw new Error(`deploy/nginx-https.conf has no line matching ${pattern}`);
  return text.replace(pattern, replacement);
}

/**
 * Debian's nginx running the shipped deploy/nginx-https.conf on two free loopback ports, serving
 * `dir` with the given certificate: the plain-HTTP block redirects to the HTTPS port (its
 * `return 301 https://$host...` gets the port, since the test's is not 443).
 */
export async function startNginxHttps(dir: string, { certificate, key }: { certificate: string; key: string }): Promise<HttpsHost> {
  const prefix = temp();
  for (const name of NGINX_TEMP_FOLDERS) mkdirSync(path.join(prefix, name));
  const httpPort = await freePort();
  const httpsPort = await freePort();
  let servers = readFileSync(path.join(process.cwd(), 'deploy/nginx-https.conf'), 'utf8');
  servers = fill(servers, /^(\s*)listen 80;/m, `$1listen 127.0.0.1:${httpPort};`);
  servers = fill(servers, /^(\s*)listen 443 ([^;]+);/m, `$1listen 127.0.0.1:${httpsPort} $2;`);
  servers = fill(servers, /return 301 https:\/\/\$host\$request_uri;/, `return 301 https://$host:${httpsPort}$request_uri;`);
  servers = fill(servers, /^(\s*)root [^;]+;/m, `$1root ${path.resolve(dir)};`);
  servers = fill(servers, /^(\s*)ssl_certificate [^;]+;/m, `$1ssl_certificate ${certificate};`);
  servers = fill(servers, /^(\s*)ssl_certificate_key [^;]+;/m, `$1ssl_certificate_key ${key};`);
  writeFileSync(path.join(prefix, 'nginx.conf'), nginxMainConfig(prefix, servers));
  const child = await spawnNginx(prefix, httpsPort);
  return { httpPort, httpsPort, close: () => stopProcess(child) };
}
