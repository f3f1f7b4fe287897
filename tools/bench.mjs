#!/usr/bin/env node
// `npm run bench`: the offline layer's timings in Debian's Chromium against a fresh build served
// by the preview server on loopback. Numbers, not pass/fail: the README quotes them.
//   first load -> "Ready to work offline" (worker installed, every file precached, page controlled)
//   `online` -> the reload it causes (the debounce is 1 s by design)
//   reloads under flapping (8 toggles 100 ms apart)
// Usage: node tools/bench.mjs [--preact] [--runs N]
import { mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROME_ARGS, chromePath } from './chromium.mjs';
import { listen } from './serve.mjs';

const args = process.argv.slice(2);
const preact = args.includes('--preact');
const runs = Number(args[args.indexOf('--runs') + 1]) || 5;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const out = mkdtempSync(path.join(os.tmpdir(), 'offline-shell-bench-'));
const built = spawnSync(process.execPath, ['build.mjs', '--out', out, ...(preact ? ['--preact'] : [])], { encoding: 'utf8' });
if (built.status !== 0) {
  console.error(built.stderr.trim() || 'bench: the build failed');
  process.exit(1);
}
const site = await listen({ root: out, port: 0 });
const browser = await chromium.launch({ executablePath: chromePath(), args: CHROME_ARGS });
const version = browser.version();

/** A fresh profile with the app open and its worker in control; resolves to [context, page, ms to ready]. */
async function firstVisit() {
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  const page = await context.newPage();
  const t0 = Date.now();
  await page.goto(site.url);
  await page.getByText('Ready to work offline').waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  return [context, page, Date.now() - t0];
}

/** Waits until the page has loaded `n` times since `loads` started counting, at most `ms`. */
async function loadsReach(loads, n, ms) {
  for (const end = Date.now() + ms; loads.n < n && Date.now() < end; ) await sleep(20);
}

const ready = [];
const reload = [];
const flapping = [];
try {
  for (let i = 0; i < runs; i++) {
    const [context, page, ms] = await firstVisit();
    ready.push(ms);
    // online -> reload, timed in the browser: the `online` event in the old document against the
    // new document's time origin.
    await page.evaluate(() => addEventListener('online', () => sessionStorage.setItem('t-online', String(performance.timeOrigin + performance.now()))));
    const loads = { n: 0 };
    page.on('load', () => loads.n++);
    await context.setOffline(true);
    await sleep(200);
    await context.setOffline(false);
    await loadsReach(loads, 1, 10_000);
    await page.getByRole('heading', { level: 1 }).waitFor();
    reload.push(await page.evaluate(() => performance.timeOrigin - Number(sessionStorage.getItem('t-online'))));
    await context.close();

    // Flapping in a fresh profile (the reload guard of the run above would hold it back).
    const [ctx2, page2] = await firstVisit();
    const loads2 = { n: 0 };
    page2.on('load', () => loads2.n++);
    for (let t = 0; t < 8; t++) {
      await ctx2.setOffline(t % 2 === 0);
      await sleep(100);
    }
    await ctx2.setOffline(false);
    await sleep(6_000);
    flapping.push(loads2.n);
    await ctx2.close();
  }
} finally {
  await browser.close();
  await site.close();
  rmSync(out, { recursive: true, force: true });
}

const list = (xs) => xs.map((x) => Math.round(x)).join(', ');
console.log(`offline-shell bench (${preact ? 'preact' : 'react'} build, ${runs} runs, preview server on loopback, Chromium ${version})`);
console.log(`first load -> ready to work offline: median ${median(ready)} ms  [${list(ready)}]`);
console.log(`online -> reload:                    median ${Math.round(median(reload))} ms  [${list(reload)}]`);
console.log(`reloads after 8 toggles 100 ms apart: [${flapping.join(', ')}]`);
