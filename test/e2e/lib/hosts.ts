// The static hosts the tests serve built sites from: the project's preview server and the most
// minimal host there is, `python3 -m http.server` (no cache headers, no rewrites). Each counts the
// requests it gets, can switch the folder it serves (a deploy), and can stop answering altogether.
import { spawn, type ChildProcess } from 'node:child_process';
import { renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { listen, type Intercept } from '../../../tools/serve.mjs';
import { temp } from './site';

export type HostKind = 'preview' | 'python';

/** Every kind of host the offline layer must work on. */
export const HOSTS: HostKind[] = ['preview', 'python'];

/** A static host as the tests see it. */
export interface Host {
  kind: HostKind;
  url: string;
  /** Every request, in order: method and path (and, on the preview server, whether it was a revalidation). */
  log: { method: string; url: string; revalidation?: boolean }[];
  /** Serves another folder from now on: a deploy. */
  setRoot(dir: string): void;
  /** Stops answering: closes the listening socket and every open connection (connection refused). */
  pause(): Promise<void>;
  /** Listens again on the same port. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a host of the given kind serving `dir` on a free loopback port; `intercept` (preview only) may answer first. */
export function startHost(kind: HostKind, dir: string, { intercept }: { intercept?: Intercept } = {}): Promise<Host> {
  if (kind === 'preview') return startPreview(dir, intercept);
  if (intercept) throw new Error('only the preview server can intercept requests');
  return startPython(dir);
}

/** The paths of the requests a host got since `from` (an index into its log) with `method`. */
export const requestsSince = (host: Host, from: number, method = 'GET'): string[] =>
  host.log
    .slice(from)
    .filter((request) => request.method === method)
    .map((request) => request.url);

/** The project's own preview server (tools/serve.mjs), which logs every request itself. */
async function startPreview(dir: string, intercept?: Intercept): Promise<Host> {
  const preview = await listen({ root: dir, port: 0, intercept });
  const { server } = preview;
  const port = Number(new URL(preview.url).port);
  let paused = false;
  return {
    kind: 'preview',
    url: preview.url,
    log: preview.log,
    setRoot: preview.setRoot,
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
  const child = spawn('python3', ['-u', '-m', 'http.server', '--bind', '127.0.0.1', String(port), '--directory', root], { stdio: ['ignore', 'pipe', 'pipe'] });
  let partial = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
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
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      printed += chunk;
      const serving = /Serving HTTP on \S+ port (\d+)/.exec(printed);
      if (!serving) return;
      child.off('exit', failed);
      resolve({ child, port: Number(serving[1]) });
    });
  });
}

/** Ends a python host's process; resolves once it has exited (its sockets are closed by then). */
function stopPython(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill();
  });
}

/** The minimal host. It serves a symlink, so a deploy is an atomic swap of the link. */
async function startPython(dir: string): Promise<Host> {
  const base = temp();
  const link = path.join(base, 'site');
  symlinkSync(path.resolve(dir), link);
  const log: Host['log'] = [];
  let { child, port } = await spawnPython(link, 0, log);
  let paused = false;
  return {
    kind: 'python',
    url: `http://127.0.0.1:${port}/`,
    log,
    setRoot(next) {
      const swap = path.join(base, `site-${Date.now()}`);
      symlinkSync(path.resolve(next), swap);
      renameSync(swap, link);
    },
    async pause() {
      paused = true;
      await stopPython(child);
    },
    async resume() {
      if (!paused) return;
      // http.server sets SO_REUSEADDR, so the port is free again at once.
      ({ child } = await spawnPython(link, port, log));
      paused = false;
    },
    close: () => stopPython(child),
  };
}
