// Debian's nginx as the tests run it: under the test's own prefix, with the shipped server block
// (deploy/), as the calling user, with its workers as an unprivileged user, or over HTTPS.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Host } from './hosts';
import { linkedRoot } from './linked-root';
import { accepting, freePort, restartable, stopProcess } from './processes';
import { temp } from './site';
import { until } from './wait';

/** Debian's nginx (`apt-get install -y nginx`); NGINX_PATH overrides. */
export const NGINX = process.env.NGINX_PATH || '/usr/sbin/nginx';

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
export async function startNginx(dir: string, editServerBlock?: (serverBlock: string) => string, serverBlockFile?: string): Promise<Host> {
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
