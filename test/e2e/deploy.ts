// Deploys for the offline-layer tests: hosts that count requests and can switch the directory they
// serve (old version -> new version), and builds of other versions made from a copy of the sources.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { Intercept } from '../../tools/serve.mjs';
import { freePort, preview } from './helpers';

const repo = process.cwd();
const SOURCES = ['build.mjs', 'package.json', 'tsconfig.json', 'sw.ts', 'src', 'static', 'tools'];
const temps: string[] = [];

/** A temporary folder removed by cleanup(). */
function temp(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'offline-shell-sw-'));
  temps.push(dir);
  return dir;
}

/** Removes every folder this module made. */
export function cleanup(): void {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A static host as the tests see it: its URL, every request it got, and deploys. */
export interface Host {
  url: string;
  /** Every request, in order: method and path. */
  log: { method: string; url: string }[];
  /** Serves another directory from now on: a deploy. */
  setRoot(dir: string): void;
  close(): Promise<void>;
}

export type HostKind = 'preview server' | 'python3 -m http.server';
export const HOSTS: HostKind[] = ['preview server', 'python3 -m http.server'];

/** Starts a host of the given kind serving `dir`; `intercept` (preview server only) may answer first. */
export async function host(kind: HostKind, dir: string, intercept?: Intercept): Promise<Host> {
  if (kind === 'preview server') return preview(dir, intercept);
  // python serves a symlink, so a deploy is an atomic swap of the link; requests are counted from
  // its access log on stderr (`"GET /path HTTP/1.1" 200 -`), which it writes before the body.
  const base = temp();
  const link = path.join(base, 'site');
  symlinkSync(path.resolve(dir), link);
  const port = await freePort();
  const child = spawn('python3', ['-u', '-m', 'http.server', '--bind', '127.0.0.1', String(port), '--directory', link], { stdio: ['ignore', 'ignore', 'pipe'] });
  const log: Host['log'] = [];
  let rest = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    const lines = (rest + d).split('\n');
    rest = lines.pop()!;
    for (const l of lines) {
      const m = /"([A-Z]+) (\S+) HTTP\/[\d.]+" \d+/.exec(l);
      if (m) log.push({ method: m[1], url: m[2] });
    }
  });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100 && !(await fetch(url).then(() => true, () => false)); i++) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 100));
  log.length = 0; // forget the readiness probes
  return {
    url,
    log,
    setRoot(next) {
      const tmp = path.join(base, `site-${Date.now()}`);
      symlinkSync(path.resolve(next), tmp);
      renameSync(tmp, link);
    },
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

/** Runs `node build.mjs` in `cwd`; throws with its output when it fails. */
function build(cwd: string, args: string[]): void {
  const r = spawnSync(process.execPath, ['build.mjs', ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
}

/**
 * Builds another version of the site from a copy of the sources: its page title gets ` v2` and its
 * script marks `<html data-variant="v2">`, so the HTML, the hashed JS and the version id all change.
 */
export function buildNewVersion(preact: boolean): string {
  const dir = temp();
  for (const s of SOURCES) cpSync(path.join(repo, s), path.join(dir, s), { recursive: true });
  symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'));
  const edit = (rel: string, f: (s: string) => string) => writeFileSync(path.join(dir, rel), f(readFileSync(path.join(dir, rel), 'utf8')));
  edit('static/index.html', (s) => s.replace('%TITLE%', '%TITLE% v2'));
  edit('src/main.tsx', (s) => s + "\ndocument.documentElement.dataset.variant = 'v2';\n");
  build(dir, ['--out', 'dist', ...(preact ? ['--preact'] : [])]);
  return path.join(dir, 'dist');
}

/** Builds this checkout with `--kill-switch` into a temporary folder. */
export function buildKillSwitch(preact: boolean): string {
  const out = path.join(temp(), 'dist');
  build(repo, ['--kill-switch', '--out', out, ...(preact ? ['--preact'] : [])]);
  return out;
}

/** A copy of a built site to tamper with. */
export function copySite(dir: string): string {
  const out = path.join(temp(), 'dist');
  cpSync(dir, out, { recursive: true });
  return out;
}

/** The built site's audit: version and files. */
export function audit(dir: string): { version: string; files: { path: string; sha384: string }[] } {
  return JSON.parse(readFileSync(path.join(dir, 'audit.json'), 'utf8'));
}

/** The app's hashed JS file of a built site (`assets/app-XXXX.js`). */
export const appScript = (dir: string): string => audit(dir).files.find((f) => /^assets\/app-\w+\.js$/.test(f.path))!.path;

/** A fresh browser profile (no worker, no caches) with service workers allowed. */
export const freshContext = (browser: { newContext(o: object): Promise<BrowserContext> }) => browser.newContext({ serviceWorkers: 'allow' });

/** Waits (bounded) until the first install is done: the banner says so and the page is controlled. */
export async function waitReady(page: Page): Promise<void> {
  await page.getByText('Ready to work offline').waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 5_000 });
}

/** A new page of `context` at `url`, once the app's worker is installed and controls it. */
export async function openInstalled(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await waitReady(page);
  return page;
}

/** Names of the page origin's caches. */
export const cacheNames = (page: Page): Promise<string[]> => page.evaluate(() => caches.keys());

/** The URLs (paths) stored in one cache. */
export const cachedPaths = (page: Page, name: string): Promise<string[]> =>
  page.evaluate(async (n) => (await (await caches.open(n)).keys()).map((r) => new URL(r.url).pathname).sort(), name);

/** The paths of requests a host got since `from` (an index into its log), optionally only some methods. */
export const requestsSince = (h: Host, from: number, method = 'GET'): string[] => h.log.slice(from).filter((r) => r.method === method).map((r) => r.url);

/** Polls `check` until it returns true, at most `ms`; throws naming `what` otherwise. */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
