// Shared by the ui-*.test.ts files: the screens, axe-core, CSP and console watching, worker states.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

/** Every screen of the app, with the heading it shows. */
export const SCREENS = [
  { name: 'notes', path: '/', h1: 'Notes' },
  { name: 'status', path: '/status/', h1: 'Offline readiness' },
  { name: 'about', path: '/about/', h1: 'What this app ships' },
  { name: 'not-found', path: '/no-such-page', h1: 'Not found' },
];

/** Bounded waits: uvu has no per-test timeout. */
export const WAIT = { timeout: 10_000 };

const axeSource = readFileSync(path.join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core in the page; returns one line per violation. The source goes in through the
 * DevTools protocol (page.evaluate), which CSP does not govern; a <script> tag with inline
 * content would be blocked by `default-src 'self'`, as it should be.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // axe is the global the evaluated source defines; typed loosely on purpose (no @types in the page).
  const result = await page.evaluate(() => (window as unknown as { axe: { run(): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe.run());
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Records every `securitypolicyviolation` of every page of the context, from before any script runs. */
export async function recordCsp(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen: string[] = ((window as unknown as { __csp: string[] }).__csp = []);
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`));
  });
}

/** The CSP violations recorded in the page so far. */
export const cspViolations = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

/**
 * Console errors and warnings, page errors. A host answering an unknown path with 404.html and
 * status 404 makes Chromium log that document's 404: the host telling the truth, not a page
 * problem, so exactly that line (for the document's own URL) is left out.
 */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error' && m.type() !== 'warning') return;
    if (/status of 404/.test(m.text()) && m.location().url === page.url()) return;
    problems.push(`${m.type()}: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

/** Waits until the screen has finished loading what it shows (audit, caches, storage). */
export async function settle(page: Page, h1: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: h1 }).waitFor(WAIT);
  await page.waitForFunction(() => !document.querySelector('main')?.textContent?.includes('…'), null, WAIT);
}

/** Waits until a service worker controls the page (installed, precached, activated). */
export async function workerReady(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, WAIT);
}

/** The audit of a built site, as the test reads it from disk. */
export const auditOf = (dir: string) =>
  JSON.parse(readFileSync(path.join(dir, 'audit.json'), 'utf8')) as { version: string; build: string; files: { path: string; bytes: number; gzip: number; brotli: number; sha384: string }[] };
