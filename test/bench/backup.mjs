// Part 6, backup: the largest backup a device makes, notes filling nearly all of localStorage
// (3,300 notes of 1,500 Chinese characters), "Download a backup" clicked -> the file handed over,
// then that file chosen for "Restore from a backup" on a fresh profile -> the page saying it
// restored, and the longest task meanwhile (both measured in the page: the bench's own waiting
// adds nothing). The file is chosen by its path, as a person does.
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listen } from '../../tools/serve/server.mjs';
import { median } from './median.mjs';

const NOTES = 3_300;
const NOTE_LENGTH = 1_500;
const LIMIT = { timeout: 60_000 };

/** @typedef {import('playwright-core').Browser} Browser */
/** @typedef {import('playwright-core').Page} Page */

/**
 * Opens the Notes screen of `url` in a fresh profile without a worker (the backup does not need one).
 * @param {Browser} browser
 * @param {string} url
 */
async function notesPage(browser, url) {
  const context = await browser.newContext({ serviceWorkers: 'block', acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('.notes textarea', LIMIT);
  return { context, page };
}

/**
 * Stores NOTES notes of NOTE_LENGTH characters as the app saves them, made in the page, and shows them.
 * @param {Page} page
 */
async function seedLargest(page) {
  await page.evaluate(
    ([count, length]) => {
      const key = Object.keys(localStorage).find((name) => name.endsWith(':notes')) ?? '';
      const text = (/** @type {number} */ index) => `${index + 1} `.concat('离线笔记保存在设备上'.repeat(length / 10)).slice(0, length);
      const notes = Array.from({ length: count }, (_, index) => ({ id: `n${index + 1}`, text: text(index), at: index + 1 }));
      localStorage.setItem(key, JSON.stringify({ v: 1, notes, gone: {} }));
    },
    [NOTES, NOTE_LENGTH],
  );
  await page.reload();
  await page.waitForFunction((count) => document.querySelectorAll('.notes textarea').length === count, NOTES, LIMIT);
}

/**
 * One round: the download's time and file, then the restore's time and longest task.
 * @param {Browser} browser
 * @param {string} url
 * @param {string} folder where the downloaded file is kept under its own name
 */
async function downloadThenRestore(browser, url, folder) {
  const source = await notesPage(browser, url);
  const fresh = await notesPage(browser, url);
  try {
    // The notes key exists once the app saved once: the first note's edit.
    await source.page.locator('.notes textarea').first().fill('first');
    await source.page.waitForFunction(() => Object.keys(localStorage).some((name) => name.endsWith(':notes')), null, LIMIT);
    await seedLargest(source.page);
    const clicked = performance.now();
    const [download] = await Promise.all([source.page.waitForEvent('download'), source.page.locator('.backup button').click()]);
    const file = path.join(folder, download.suggestedFilename());
    copyFileSync(await download.path(), file);
    const downloadMs = performance.now() - clicked;
    await fresh.page.evaluate(() => {
      const watched = { chosenAt: 0, restoredAt: 0, longest: 0 };
      Object.assign(window, { benchRestore: watched });
      addEventListener('change', () => (watched.chosenAt = performance.now()), true);
      const status = /** @type {Element} */ (document.querySelector('.backup [role="status"]'));
      new MutationObserver(() => {
        if (status.textContent?.startsWith('Restored')) watched.restoredAt = performance.now();
      }).observe(status, { childList: true, subtree: true, characterData: true });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          if (entry.startTime >= watched.chosenAt) watched.longest = Math.max(watched.longest, entry.duration);
      }).observe({ type: 'longtask' });
    });
    await fresh.page.locator('.backup input[type="file"]').setInputFiles(file);
    await fresh.page.waitForFunction(() => /** @type {any} */ (window).benchRestore.restoredAt > 0, null, LIMIT);
    const watched = await fresh.page.evaluate(() => /** @type {any} */ (window).benchRestore);
    return { fileBytes: statSync(file).size, downloadMs, restoreMs: watched.restoredAt - watched.chosenAt, longestTaskMs: watched.longest };
  } finally {
    await source.context.close();
    await fresh.context.close();
  }
}

/**
 * Part 6: the largest backup's download and restore, `runs` rounds, on loopback.
 * @param {Browser} browser
 * @param {string} out
 * @param {number} runs
 */
export async function measureBackup(browser, out, runs) {
  const site = await listen({ root: out, port: 0 });
  const folder = mkdtempSync(path.join(os.tmpdir(), 'offline-shell-bench-backup-'));
  try {
    const rounds = [];
    for (let i = 0; i < runs; i++) rounds.push(await downloadThenRestore(browser, site.url, folder));
    const summary = (/** @type {number[]} */ values) => ({ runs: values, median: median(values) });
    return {
      fileBytes: rounds[0].fileBytes,
      downloadMs: summary(rounds.map((round) => round.downloadMs)),
      restoreMs: summary(rounds.map((round) => round.restoreMs)),
      longestTaskMs: summary(rounds.map((round) => round.longestTaskMs)),
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await site.close();
  }
}
