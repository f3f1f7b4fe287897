// Shared by the end-to-end tests: Debian's Chromium, the built sites, and the hosts that serve them.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { listen, type Intercept, type Listening } from '../../tools/serve.mjs';

/** Flags from ../shared/browser-testing.md: root needs --no-sandbox; the rest keep Chromium quiet offline. */
export const CHROME_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The two builds every browser-facing test runs against (built by tools/test.mjs). */
export const BUILDS = [
  { name: 'react', dir: process.env.DIST_REACT ?? '.cache/dist/react' },
  { name: 'preact', dir: process.env.DIST_PREACT ?? '.cache/dist/preact' },
];

/** Launches Debian's Chromium headless (CHROME_PATH overrides). */
export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', headless: true, args: CHROME_ARGS });
}

/** Serves a directory with the project's preview server on a free loopback port. */
export function preview(dir: string, intercept?: Intercept): Promise<Listening> {
  return listen({ root: dir, port: 0, intercept });
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** The most minimal static host: `python3 -m http.server`, no cache headers, no rewrites. */
export async function pythonHost(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const port = await freePort();
  const child = spawn('python3', ['-m', 'http.server', '--bind', '127.0.0.1', String(port), '--directory', dir], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    const up = await fetch(url).then(() => true, () => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

/** Collects console errors and warnings, page errors and CSP violations of a page. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    // Playwright's own stand-in for register() under `serviceWorkers: 'block'` warns; not the app's.
    if (m.text() === 'Service Worker registration blocked by Playwright') return;
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}
