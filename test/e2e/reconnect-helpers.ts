// Shared by the reconnect and notes end-to-end tests: counting reloads, bounded waits, and a
// Chromium whose tabs really become hidden.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROME_ARGS, freePort } from './helpers';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` is truthy, polling every 25 ms; throws after `ms` (uvu has no test timeout). */
export async function until(check: () => unknown, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(25);
  }
}

/** Counts the page's loads from now on: each reload of the document is one. */
export function countLoads(page: Page): { readonly n: number } {
  const c = { n: 0 };
  page.on('load', () => c.n++);
  return c;
}

/** The first note's editor: present once the app has started (and registered its listeners). */
export const firstNote = (page: Page) => page.getByRole('textbox', { name: 'Note 1' });

/** Opens the Notes screen and waits for the app to run. */
export async function openNotes(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await firstNote(page).waitFor({ timeout: 5000 });
}

/** Kinds of the connectivity log entries the page kept in sessionStorage (they survive reloads). */
export const logKinds = (page: Page): Promise<string[]> =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem('offline-shell:log') ?? '[]').map((e: { kind: string }) => e.kind));

/**
 * Chromium with real tabs. Playwright's own launch emulates focus on every page, so all of them
 * stay `visible`; attached over CDP with `noDefaults`, the default context's tabs share one
 * window, and opening or fronting a tab makes the others really `hidden` (visibilitychange).
 */
export async function launchWithTabs(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const port = await freePort();
  const profile = mkdtempSync(path.join(os.tmpdir(), 'offline-shell-tabs-'));
  // Detached: its own process group, so close() ends the renderers and helpers with it.
  const child = spawn(process.env.CHROME_PATH || '/usr/bin/chromium', ['--headless', ...CHROME_ARGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'], { stdio: 'ignore', detached: true });
  const endpoint = `http://127.0.0.1:${port}`;
  await until(() => fetch(endpoint + '/json/version').then((r) => r.ok, () => false), 10_000, 'Chromium to listen for CDP');
  const browser = await chromium.connectOverCDP(endpoint, { noDefaults: true });
  return {
    browser,
    async close() {
      await browser.close().catch(() => {});
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        process.kill(-child.pid!, 'SIGTERM');
        await exited;
      }
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}
