#!/usr/bin/env node
// `npm run bench`: the numbers the README quotes, for both builds (React, Preact), in Debian's
// Chromium against the preview server on loopback. Numbers, not pass/fail; the React column is
// compared with the project's targets. Parts (each N runs, median shown, every run in the JSON):
//   build       wall time of `node build.mjs --out <tmp>`
//   dev         dev loop: a saved source file -> the reloaded page showing the change
//   load        first visit in a fresh profile, on loopback and on a slow link (150 ms per answer,
//               200 KiB/s): first contentful paint and "Ready to work offline" (banner shown, page
//               controlled by the worker), both from the navigation's start; and the body bytes
//               the server sent until then against the bytes of the distinct files
//   reconnect   `online` -> the reload it causes, and reloads under flapping (8 toggles 100 ms apart)
//   lighthouse  Lighthouse 12 scores and paint metrics (React build only; about 30 s)
// Usage: node tools/bench.mjs [--runs N] [--only build,dev,load,reconnect,lighthouse]
//                             [--react | --preact] [--no-lighthouse]
// Writes the numbers to test-output/bench.json too; a run with --only replaces just those parts.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROME_ARGS, chromePath } from './chromium.mjs';
import { listen } from './serve/server.mjs';
import { BUILDS, copySources } from './test-sites.mjs';

/** The checkout this bench measures: the one it sits in (a copy of the project measures the copy). */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PARTS = ['build', 'dev', 'load', 'reconnect', 'lighthouse'];
const RESULTS_FILE = path.join(ROOT, 'test-output', 'bench.json');

/** The slow profile: a link with 150 ms of latency per answer and 200 KiB/s of bandwidth. */
const SLOW_PACE = { delayMs: 150, bytesPerSecond: 200 * 1024 };
const PROFILES = [
  { name: 'loopback', pace: undefined },
  { name: 'slow', pace: SLOW_PACE },
];

/** What the page says once the first install is done. */
const READY_TEXT = 'Ready to work offline';
/** The dev part edits this file's footer text: a change every build sees. */
const DEV_EDIT_FILE = 'src/ui/App.tsx';
const DEV_FOOTER_TEXT = 'Works offline. Nothing leaves your device.';

/** The targets for the React build; `better` says which way is good. */
const TARGETS = {
  buildMs: { limit: 500, better: 'lower', text: '≤ 500 ms' },
  devReloadMs: { limit: 150, better: 'lower', text: '≤ 150 ms' },
  slowFcpMs: { limit: 850, better: 'lower', text: '≤ 850 ms' },
  slowReadyMs: { limit: 2000, better: 'lower', text: '≤ 2,000 ms' },
  firstVisitRatio: { limit: 1.005, better: 'lower', text: '1.00' },
  lighthouseScore: { limit: 100, better: 'higher', text: '100 each' },
};

// Every wait has a limit; these are generous for a loaded 2-core machine.
const BUILD_LIMIT_MS = 60_000;
const DEV_START_LIMIT_MS = 30_000;
const DEV_RELOAD_LIMIT_MS = 15_000;
const READY_LIMIT_MS = 30_000;
const RELOAD_LIMIT_MS = 10_000;
const LIGHTHOUSE_LIMIT_MS = 180_000;
const CHILD_EXIT_LIMIT_MS = 5_000;
/** A developer does not save twice a second; the pause also lets dev's type checker finish its run. */
const DEV_PAUSE_BETWEEN_SAVES_MS = 1_500;
/** How long flapping gets to settle before its reloads are counted (debounce 1 s, plus margin). */
const FLAPPING_SETTLE_MS = 6_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Wall-clock time in ms with sub-millisecond precision, comparable with the browser's timeOrigin + now(). */
const wallNow = () => performance.timeOrigin + performance.now();

/** The middle value (the lower middle for an even count); undefined for no values. */
function median(values) {
  if (!values.length) return undefined;
  return [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
}

/** Parses argv strictly: an unknown option is an error, not a silent default. */
function parseArgs(argv) {
  const options = { runs: 5, parts: [...PARTS], builds: BUILDS.map((build) => build.name) };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--runs') options.runs = positiveInteger(argv[++i], '--runs');
    else if (arg === '--only') options.parts = partList(argv[++i]);
    else if (arg === '--preact') options.builds = ['preact'];
    else if (arg === '--react') options.builds = ['react'];
    else if (arg === '--no-lighthouse') options.noLighthouse = true;
    else throw new Error(`bench: unknown option ${arg} (expected --runs N, --only ${PARTS.join(',')}, --react, --preact, --no-lighthouse)`);
  }
  if (options.noLighthouse) options.parts = options.parts.filter((part) => part !== 'lighthouse');
  return options;
}

/** A whole number ≥ 1, or an error naming the option. */
function positiveInteger(text, option) {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`bench: ${option} needs a whole number ≥ 1, got ${text ?? 'nothing'}`);
  return value;
}

/** The comma-separated part names of --only, each checked. */
function partList(text) {
  const parts = String(text ?? '').split(',').filter(Boolean);
  const unknown = parts.filter((part) => !PARTS.includes(part));
  if (!parts.length || unknown.length) throw new Error(`bench: --only takes a comma-separated list of ${PARTS.join(', ')}; got ${text ?? 'nothing'}`);
  return parts;
}

/** Rejects with `bench: <what> took longer than <ms> ms` if the promise has not settled by then. */
async function within(promise, ms, what) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`bench: ${what} took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Calls `check` every `intervalMs` until it returns something other than undefined, at most
 * `limitMs`. A check that throws counts as "not yet" (a page between two documents does).
 */
async function poll(check, { limitMs, what, intervalMs = 25 }) {
  let lastError;
  for (const end = Date.now() + limitMs; Date.now() < end; await sleep(intervalMs)) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
  }
  throw new Error(`bench: ${what} did not happen within ${limitMs} ms${lastError ? ` (last error: ${lastError.message.split('\n')[0]})` : ''}`);
}

/** Detached children still running (their own process groups): ended with the bench, however it ends. */
const children = new Set();
process.on('exit', () => {
  for (const child of children) killGroup(child, 'SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => process.exit(130));

/** Spawns `node <args>` detached (so its own children can be ended with it) and tracks it until it exits. */
function spawnNode(args, options) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...options });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Kills a detached child's whole process group (its own children too); already gone is fine. */
function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {}
}

/** Ends a detached child: SIGTERM, then SIGKILL to its group if it has not exited within the limit. */
async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  try {
    await within(exited, CHILD_EXIT_LIMIT_MS, `pid ${child.pid} exiting after SIGTERM`);
  } catch {
    killGroup(child, 'SIGKILL');
  }
}

/** Runs `node build.mjs --out <out>` in `cwd` and resolves to its wall time in ms; rejects with its output on failure. */
function timedBuild(cwd, out, preact) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawnNode(['build.mjs', '--out', out, ...(preact ? ['--preact'] : [])], { cwd });
    let output = '';
    let exitedAt;
    child.stdout.on('data', (data) => (output += data));
    child.stderr.on('data', (data) => (output += data));
    // The wall time ends when the process exits; its output may finish arriving a little later.
    child.once('exit', () => (exitedAt = performance.now()));
    const timer = setTimeout(() => {
      killGroup(child, 'SIGKILL');
      reject(new Error(`bench: node build.mjs took longer than ${BUILD_LIMIT_MS} ms in ${cwd}`));
    }, BUILD_LIMIT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(exitedAt - started);
      else reject(new Error(`bench: node build.mjs --out ${out}${preact ? ' --preact' : ''} failed (${signal ?? `exit ${code}`}):\n${output.trim()}`));
    });
  });
}

/** Part 1: `runs` production builds into `out`; resolves to every run's wall time. The last build stays in `out`. */
async function measureBuild(preact, out, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await timedBuild(ROOT, out, preact));
  return { runsMs: times, medianMs: median(times) };
}

/**
 * In every new document: records when the page was both showing "Ready to work offline" and
 * controlled by the worker (ms from the navigation's start) in window.__benchReadyAt, and, when
 * sessionStorage names an expected text, when the page first showed it in window.__benchShownAt;
 * once it has also fired `load`, it reports { expected, startedAt, doneAt } (wall-clock ms) to the
 * bench's binding window.__benchShown, where the dev part exposes one.
 */
function installPageProbes() {
  let expected = null;
  try {
    expected = sessionStorage.getItem('bench-expect');
  } catch {
    return; // about:blank has no storage, and nothing to measure
  }
  let reported = false;
  const reportShown = () => {
    // loadEventEnd is set once the load event's listeners have run: hence the timeout after `load`.
    const navigation = performance.getEntriesByType('navigation')[0];
    if (reported || window.__benchShownAt === undefined || !navigation?.loadEventEnd || !window.__benchShown) return;
    reported = true;
    window.__benchShown({ expected, startedAt: performance.timeOrigin, doneAt: performance.timeOrigin + Math.max(window.__benchShownAt, navigation.loadEventEnd) });
  };
  const check = () => {
    const text = document.body?.textContent ?? '';
    if (window.__benchReadyAt === undefined && navigator.serviceWorker?.controller && text.includes('Ready to work offline')) window.__benchReadyAt = performance.now();
    if (expected && window.__benchShownAt === undefined && text.includes(expected)) {
      window.__benchShownAt = performance.now();
      reportShown();
    }
  };
  addEventListener('load', () => setTimeout(reportShown));
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
  navigator.serviceWorker?.addEventListener('controllerchange', check);
  // The dev page's EventSource, so the bench can wait until it is connected before saving.
  const NativeEventSource = window.EventSource;
  window.EventSource = class extends NativeEventSource {
    constructor(...args) {
      super(...args);
      window.__benchEventSource = this;
    }
  };
}

/** A fresh profile (no worker, no caches) with the page probes installed. */
async function freshContext(browser) {
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  await context.addInitScript(installPageProbes);
  return context;
}

/** Waits until the dev server prints `serving … on http://…/` and resolves to that URL; rejects if it exits first. */
function devServerUrl(child, output) {
  return new Promise((resolve, reject) => {
    const onData = () => {
      const found = output.text.match(/serving .* on (http:\/\/\S+\/)/);
      if (found) resolve(found[1]);
    };
    child.stdout.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`bench: the dev server exited (${signal ?? `exit ${code}`}) before serving:\n${output.text.trim()}`)));
  });
}

/** Resolves once the dev server's type checker has reported both its programs (`type check (app): …`, `type check (sw): …`). */
function typecheckReported(child, output) {
  return new Promise((resolve) => {
    const reported = () => /type check \(app\)/.test(output.text) && /type check \(sw\)/.test(output.text);
    if (reported()) return resolve();
    const onData = () => {
      if (!reported()) return;
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
      resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
}

/** Starts `node build.mjs --watch` on a free port in `cwd`; resolves to { child, url, output }. */
async function startDevServer(cwd, preact) {
  const child = spawnNode(['build.mjs', '--watch', ...(preact ? ['--preact'] : [])], { cwd, env: { ...process.env, PORT: '0', HOST: '127.0.0.1' } });
  const output = { text: '' };
  child.stdout.on('data', (data) => (output.text += data));
  child.stderr.on('data', (data) => (output.text += data));
  try {
    const url = await within(devServerUrl(child, output), DEV_START_LIMIT_MS, 'the dev server starting');
    // A developer's first save comes after the tools are up: the type checker's first full run
    // (both programs reported) would otherwise share the 2 cores with the first measured save.
    await within(typecheckReported(child, output), DEV_START_LIMIT_MS, "the dev type checker's first report");
    return { child, url, output };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** Waits until the page's live-reload EventSource is connected, so the next rebuild reaches it. */
async function liveReloadConnected(page) {
  await poll(() => page.evaluate(() => (window.__benchEventSource?.readyState === 1 ? true : undefined)), {
    limitMs: DEV_RELOAD_LIMIT_MS,
    what: 'the dev page connecting to /esbuild',
  });
}

/**
 * One dev save: writes `text` into the footer of the copy's App.tsx and resolves to
 * { totalMs, reloadStartMs }: from just before the write until the new document had both fired
 * `load` and shown `text`, and until that document's navigation started (rebuild + notify).
 * The page reports itself (`shownReports`, fed by the page's binding): asking it every few ms
 * instead would put the bench's own work on the page's main thread during the reload it
 * measures (10-15 ms more per save, measured).
 */
async function timeOneSave(page, copy, text, shownReports) {
  await page.evaluate((expected) => sessionStorage.setItem('bench-expect', expected), text);
  const file = path.join(copy, DEV_EDIT_FILE);
  const changed = readFileSync(file, 'utf8').replace(/<footer className="foot">[^<]*<\/footer>/, `<footer className="foot">${text}</footer>`);
  // Only the document that was told to expect this text counts: the previous one showed the previous text.
  const shown = within(shownReports.next(text), DEV_RELOAD_LIMIT_MS, `the dev page reloading with "${text}"`);
  const savedAt = wallNow();
  writeFileSync(file, changed);
  const reloaded = await shown;
  if (reloaded.startedAt < savedAt) throw new Error(`bench: a document that started before "${text}" was saved showed it: the dev measurement is broken`);
  return { totalMs: reloaded.doneAt - savedAt, reloadStartMs: reloaded.startedAt - savedAt };
}

/** The pages' reports ({ expected, … }), awaited by the text they expected: next(text) resolves to the first one for it. */
function reportsByText() {
  const reports = [];
  const waiting = new Map();
  return {
    add(report) {
      reports.push(report);
      waiting.get(report.expected)?.(report);
    },
    next(text) {
      const found = reports.find((report) => report.expected === text);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiting.set(text, resolve));
    },
  };
}

/** Part 2: dev save -> page reloaded, `runs` saves in a temporary copy of the project. */
async function measureDev(browser, preact, runs) {
  const copy = copySources(ROOT, mkdtempSync(path.join(os.tmpdir(), 'offline-shell-bench-dev-')));
  const source = readFileSync(path.join(copy, DEV_EDIT_FILE), 'utf8');
  if (!source.includes(DEV_FOOTER_TEXT)) throw new Error(`bench: ${DEV_EDIT_FILE} no longer has the footer text "${DEV_FOOTER_TEXT}" the dev part edits`);
  let server;
  const context = await freshContext(browser);
  const shownReports = reportsByText();
  await context.exposeBinding('__benchShown', (_source, report) => shownReports.add(report));
  try {
    server = await startDevServer(copy, preact);
    const page = await context.newPage();
    await page.goto(server.url, { timeout: DEV_RELOAD_LIMIT_MS });
    await page.getByText(DEV_FOOTER_TEXT).waitFor({ timeout: DEV_RELOAD_LIMIT_MS });
    const saves = [];
    for (let i = 1; i <= runs; i++) {
      await liveReloadConnected(page);
      await sleep(DEV_PAUSE_BETWEEN_SAVES_MS);
      saves.push(await timeOneSave(page, copy, `${DEV_FOOTER_TEXT} Bench save ${i}.`, shownReports));
    }
    const times = saves.map((save) => save.totalMs);
    const rebuilds = [...server.output.text.matchAll(/rebuilt in (\d+) ms/g)].map((found) => Number(found[1]));
    return { runsMs: times, medianMs: median(times), reloadStartMs: saves.map((save) => save.reloadStartMs), devServerRebuildMs: rebuilds };
  } finally {
    await context.close();
    if (server) await stopChild(server.child);
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * Counts the body bytes the preview server hands to each response (after Content-Encoding: the
 * bytes that cross the network). `take()` returns what was recorded since the last take().
 */
function countResponses(server) {
  let responses = [];
  // Prepended: the server's own handler may answer synchronously, before a later listener ran.
  server.prependListener('request', (request, response) => {
    const record = { method: request.method, url: request.url, status: 0, encoding: '', bytes: 0 };
    responses.push(record);
    const count = (chunk, encoding) => {
      if (chunk && typeof chunk !== 'function') record.bytes += Buffer.byteLength(chunk, typeof encoding === 'string' ? encoding : undefined);
    };
    const write = response.write.bind(response);
    const end = response.end.bind(response);
    response.write = (chunk, ...rest) => {
      count(chunk, rest[0]);
      return write(chunk, ...rest);
    };
    response.end = (chunk, ...rest) => {
      count(chunk, rest[0]);
      record.status = response.statusCode;
      record.encoding = String(response.getHeader('content-encoding') ?? '');
      return end(chunk, ...rest);
    };
  });
  return {
    take() {
      const taken = responses;
      responses = [];
      return taken;
    },
  };
}

/**
 * Sums one visit's responses: bytes sent in all, bytes of the distinct files (each URL once, at
 * the largest body sent for it), their ratio, and the GET URLs asked more than once.
 */
function summarizeBytes(responses) {
  const sent = responses.reduce((total, response) => total + response.bytes, 0);
  const largest = new Map();
  const asked = new Map();
  for (const response of responses) {
    largest.set(response.url, Math.max(largest.get(response.url) ?? 0, response.bytes));
    if (response.method !== 'GET') continue;
    asked.set(response.url, [...(asked.get(response.url) ?? []), response.status]);
  }
  const distinct = [...largest.values()].reduce((total, bytes) => total + bytes, 0);
  const repeated = [...asked].filter(([, statuses]) => statuses.length > 1).map(([url, statuses]) => ({ url, statuses }));
  return { sentBytes: sent, distinctBytes: distinct, ratio: distinct ? sent / distinct : undefined, repeated, responses };
}

/**
 * One first visit in a fresh profile: resolves to FCP and offline-ready (ms from the navigation's
 * start, both measured by the page) and the bytes the server sent until offline-ready.
 */
async function firstVisitTimings(browser, site, counter) {
  const context = await freshContext(browser);
  try {
    const page = await context.newPage();
    counter.take();
    await page.goto(site.url, { timeout: READY_LIMIT_MS });
    const readyMs = await poll(() => page.evaluate(() => window.__benchReadyAt), { limitMs: READY_LIMIT_MS, what: `"${READY_TEXT}" with the page controlled by the worker` });
    const bytes = summarizeBytes(counter.take());
    const fcpMs = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime);
    if (fcpMs === undefined) throw new Error('bench: the page has no first-contentful-paint entry (paint timing missing in this Chromium?)');
    return { fcpMs, readyMs, bytes };
  } finally {
    await context.close();
  }
}

/** Part 3 and 4: `runs` first visits on each profile (loopback, slow) of the site in `out`. */
async function measureLoad(browser, out, runs) {
  const results = {};
  for (const profile of PROFILES) {
    const site = await listen({ root: out, port: 0, pace: profile.pace });
    const counter = countResponses(site.server);
    try {
      const visits = [];
      for (let i = 0; i < runs; i++) visits.push(await firstVisitTimings(browser, site, counter));
      results[profile.name] = summarizeVisits(visits);
    } finally {
      await site.close();
    }
  }
  return results;
}

/** Medians of a profile's visits, every run kept, and every URL any run asked more than once. */
function summarizeVisits(visits) {
  const fcp = visits.map((visit) => visit.fcpMs);
  const ready = visits.map((visit) => visit.readyMs);
  const ratios = visits.map((visit) => visit.bytes.ratio);
  const repeated = [...new Set(visits.flatMap((visit) => visit.bytes.repeated.map((entry) => entry.url)))];
  return {
    fcpMs: { runs: fcp, median: median(fcp) },
    readyMs: { runs: ready, median: median(ready) },
    firstVisitBytes: { ratio: median(ratios), ratios, repeatedUrls: repeated, visits: visits.map((visit) => visit.bytes) },
  };
}

/** A fresh profile with the app open, installed and controlled: resolves to { context, page }. */
async function installedPage(browser, site) {
  const context = await freshContext(browser);
  const page = await context.newPage();
  await page.goto(site.url, { timeout: READY_LIMIT_MS });
  await poll(() => page.evaluate(() => window.__benchReadyAt), { limitMs: READY_LIMIT_MS, what: `"${READY_TEXT}" with the page controlled by the worker` });
  return { context, page };
}

/** ms from the `online` event in the old document to the reloaded document's start, measured in the browser. */
async function timeOnlineReload(browser, site) {
  const { context, page } = await installedPage(browser, site);
  try {
    await page.evaluate(() => addEventListener('online', () => sessionStorage.setItem('t-online', String(performance.timeOrigin + performance.now()))));
    const loads = { count: 0 };
    page.on('load', () => loads.count++);
    await context.setOffline(true);
    await sleep(200);
    await context.setOffline(false);
    await poll(() => (loads.count >= 1 ? true : undefined), { limitMs: RELOAD_LIMIT_MS, what: 'the reload after `online`' });
    await page.getByRole('heading', { level: 1 }).waitFor({ timeout: RELOAD_LIMIT_MS });
    return await page.evaluate(() => performance.timeOrigin - Number(sessionStorage.getItem('t-online')));
  } finally {
    await context.close();
  }
}

/** The reloads 8 offline/online toggles 100 ms apart cause, counted once things have settled. */
async function countFlappingReloads(browser, site) {
  // A fresh profile: the reload guard of an earlier reload would hold this one back.
  const { context, page } = await installedPage(browser, site);
  try {
    const loads = { count: 0 };
    page.on('load', () => loads.count++);
    for (let toggle = 0; toggle < 8; toggle++) {
      await context.setOffline(toggle % 2 === 0);
      await sleep(100);
    }
    await context.setOffline(false);
    // Counting what happens in a window: a sleep is the measurement here, not a wait for a state.
    await sleep(FLAPPING_SETTLE_MS);
    return loads.count;
  } finally {
    await context.close();
  }
}

/** Part 5: `online` -> reload and flapping reloads, `runs` of each, on loopback. */
async function measureReconnect(browser, out, runs) {
  const site = await listen({ root: out, port: 0 });
  try {
    const reload = [];
    const flapping = [];
    for (let i = 0; i < runs; i++) {
      reload.push(await timeOnlineReload(browser, site));
      flapping.push(await countFlappingReloads(browser, site));
    }
    return { onlineReloadMs: { runs: reload, median: median(reload) }, flappingReloads: flapping };
  } finally {
    await site.close();
  }
}

/** Runs the Lighthouse 12 CLI on `url` (Debian's Chromium, headless) and resolves to its JSON report. */
function runLighthouse(url) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'offline-shell-bench-lighthouse-'));
  const report = path.join(dir, 'report.json');
  const cli = path.join(ROOT, 'node_modules', 'lighthouse', 'cli', 'index.js');
  if (!existsSync(cli)) return Promise.reject(new Error('bench: lighthouse is not installed (npm ci installs the pinned lighthouse@12)'));
  const chromeFlags = `--headless=new ${CHROME_ARGS.join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawnNode([cli, url, '--output=json', `--output-path=${report}`, '--quiet', `--chrome-flags=${chromeFlags}`], { env: { ...process.env, CHROME_PATH: chromePath() } });
    let output = '';
    child.stdout.on('data', (data) => (output += data));
    child.stderr.on('data', (data) => (output += data));
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), LIGHTHOUSE_LIMIT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      try {
        if (code !== 0) throw new Error(`bench: lighthouse ${signal === 'SIGKILL' ? `took longer than ${LIGHTHOUSE_LIMIT_MS} ms` : `failed (${signal ?? `exit ${code}`})`}:\n${output.trim()}`);
        resolve(JSON.parse(readFileSync(report, 'utf8')));
      } catch (error) {
        reject(error);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

/** Part 6: Lighthouse's four category scores (0-100) and FCP/LCP/TBT/CLS for the site in `out`. */
async function measureLighthouse(out) {
  const site = await listen({ root: out, port: 0 });
  try {
    const report = await runLighthouse(site.url);
    const scores = Object.fromEntries(Object.entries(report.categories).map(([id, category]) => [id, Math.round(category.score * 100)]));
    const metric = (id) => report.audits[id]?.numericValue;
    return {
      version: report.lighthouseVersion,
      scores,
      fcpMs: metric('first-contentful-paint'),
      lcpMs: metric('largest-contentful-paint'),
      tbtMs: metric('total-blocking-time'),
      cls: metric('cumulative-layout-shift'),
      // Lighthouse's own CPU benchmark: a low index on a busy machine explains a high TBT.
      benchmarkIndex: report.environment?.benchmarkIndex,
      runWarnings: report.runWarnings,
    };
  } finally {
    await site.close();
  }
}

/** Measures the selected parts for one build; resolves to { part: result }. */
async function measureOneBuild(browser, { name, preact }, options) {
  const wants = (part) => options.parts.includes(part);
  const out = mkdtempSync(path.join(os.tmpdir(), `offline-shell-bench-${name}-`));
  const results = {};
  const progress = (part) => console.error(`bench: ${name} build: ${part}…`);
  try {
    progress('build');
    if (wants('build')) results.build = await measureBuild(preact, out, options.runs);
    // The served parts need a build even when its time is not wanted.
    else await timedBuild(ROOT, out, preact);
    if (wants('dev')) {
      progress('dev');
      results.dev = await measureDev(browser, preact, options.runs);
    }
    if (wants('load')) {
      progress('load');
      results.load = await measureLoad(browser, out, options.runs);
    }
    if (wants('reconnect')) {
      progress('reconnect');
      results.reconnect = await measureReconnect(browser, out, options.runs);
    }
    // Lighthouse is slow and the targets are the React build's: it runs on that one only.
    if (wants('lighthouse') && name === 'react') {
      progress('lighthouse');
      // Lighthouse failing (not installed, Chromium refusing) must not cost the other parts' numbers.
      results.lighthouse = await measureLighthouse(out).catch((error) => ({ error: error.message }));
    }
    return results;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Number formatting for the table: whole ms with thousands separators, or a dash for nothing. */
const formatMs = (value) => (value === undefined ? '—' : `${Math.round(value).toLocaleString('en-US')} ms`);
const runList = (values) => (values?.length ? values.map((value) => Math.round(value)).join(', ') : '');

/** ✓ or ✗ against a target, or nothing when there is no number. */
function verdict(target, value) {
  if (value === undefined) return '';
  const met = target.better === 'lower' ? value <= target.limit : value >= target.limit;
  return met ? '✓' : '✗';
}

/** The table's rows: [label, react, preact, target, React meets it]. */
function tableRows(results, runs) {
  const get = (build, pick) => {
    const parts = results[build];
    if (!parts) return undefined;
    try {
      return pick(parts);
    } catch {
      return undefined;
    }
  };
  const row = (label, pick, format, target) => {
    const react = get('react', pick);
    return [label, format(react), format(get('preact', pick)), target?.text ?? '', target ? verdict(target, typeof react === 'number' ? react : undefined) : ''];
  };
  const ratio = (value) => (value === undefined ? '—' : value.toFixed(2));
  const list = (values) => (values === undefined ? '—' : `[${runList(values)}]`);
  const scores = (byCategory) => (byCategory ? ['performance', 'accessibility', 'best-practices', 'seo'].map((id) => byCategory[id]).join(' / ') : '—');
  const lighthouseRan = (parts) => (parts.lighthouse.error ? undefined : parts.lighthouse);
  const lowestScore = (parts) => Math.min(...Object.values(parts.lighthouse.scores));
  return [
    row(`production build, median of ${runs}`, (p) => p.build.medianMs, formatMs, TARGETS.buildMs),
    row('  every run', (p) => p.build.runsMs, list),
    row(`dev save -> page reloaded, median of ${runs}`, (p) => p.dev.medianMs, formatMs, TARGETS.devReloadMs),
    row('  every run', (p) => p.dev.runsMs, list),
    row('  of which save -> reload starts', (p) => p.dev.reloadStartMs, list),
    row('  "rebuilt in" the dev server printed', (p) => p.dev.devServerRebuildMs, list),
    row('FCP, loopback', (p) => p.load.loopback.fcpMs.median, formatMs),
    row('offline-ready, loopback', (p) => p.load.loopback.readyMs.median, formatMs),
    row('FCP, slow (150 ms, 200 KiB/s)', (p) => p.load.slow.fcpMs.median, formatMs, TARGETS.slowFcpMs),
    row('  every run', (p) => p.load.slow.fcpMs.runs, list),
    row('offline-ready, slow', (p) => p.load.slow.readyMs.median, formatMs, TARGETS.slowReadyMs),
    row('  every run', (p) => p.load.slow.readyMs.runs, list),
    row('first visit: bytes sent / distinct files, loopback', (p) => p.load.loopback.firstVisitBytes.ratio, ratio, TARGETS.firstVisitRatio),
    row('  bytes sent (run 1)', (p) => p.load.loopback.firstVisitBytes.visits[0], (v) => (v ? `${v.sentBytes.toLocaleString('en-US')} / ${v.distinctBytes.toLocaleString('en-US')} B` : '—')),
    row('first visit: bytes sent / distinct files, slow', (p) => p.load.slow.firstVisitBytes.ratio, ratio),
    row('  URLs asked more than once (any run)', (p) => [...new Set([...p.load.loopback.firstVisitBytes.repeatedUrls, ...p.load.slow.firstVisitBytes.repeatedUrls])], (urls) => (urls === undefined ? '—' : urls.join(' ') || 'none')),
    row(`online -> reload, median of ${runs}`, (p) => p.reconnect.onlineReloadMs.median, formatMs),
    row('reloads after 8 toggles 100 ms apart', (p) => p.reconnect.flappingReloads, list),
    row('Lighthouse (1 run) perf / a11y / best pr. / SEO', (p) => p.lighthouse.scores, scores),
    row('  lowest of the four', (p) => lowestScore(p), (v) => (v === undefined ? '—' : String(v)), TARGETS.lighthouseScore),
    row('Lighthouse FCP / LCP / TBT (mobile, simulated)', lighthouseRan, (l) => (l ? `${formatMs(l.fcpMs)} / ${formatMs(l.lcpMs)} / ${formatMs(l.tbtMs)}` : '—')),
    row('Lighthouse CLS', (p) => p.lighthouse.cls, (v) => (v === undefined ? '—' : v.toFixed(3))),
  ];
}

/** Prints the rows as aligned columns under a header line, leaving out rows of parts not measured. */
function printTable(allRows) {
  const rows = allRows.filter(([, react, preact]) => ![react, preact].every((cell) => cell === '—' || cell === ''));
  const header = ['', 'React', 'Preact', 'target (React)', ''];
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => String(row[column]).length)));
  const line = (row) => row.map((cell, column) => (column === 0 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]))).join('  ').trimEnd();
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

/** The machine and load the numbers were taken on. */
function machine(chromiumVersion) {
  const cpus = os.cpus();
  return { chromium: chromiumVersion, cores: cpus.length, cpu: cpus[0]?.model.trim() ?? 'unknown', node: process.version, loadAverage: os.loadavg().map((load) => Number(load.toFixed(2))) };
}

/** Writes the results to test-output/bench.json; a partial run (--only) replaces only its own parts. */
function writeResults(header, results) {
  const previous = existsSync(RESULTS_FILE) ? JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) : { builds: {} };
  const builds = { ...previous.builds };
  for (const [build, parts] of Object.entries(results)) builds[build] = { ...builds[build], ...parts };
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, JSON.stringify({ ...header, date: new Date().toISOString(), builds }, null, 2) + '\n');
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const browser = await chromium.launch({ executablePath: chromePath(), args: CHROME_ARGS });
  const results = {};
  let startedOn;
  try {
    startedOn = machine(browser.version());
    for (const build of BUILDS.filter((b) => options.builds.includes(b.name))) results[build.name] = await measureOneBuild(browser, build, options);
  } finally {
    await browser.close();
  }
  const loadAtEnd = os.loadavg().map((load) => load.toFixed(2));
  console.log(`offline-shell bench: Chromium ${startedOn.chromium}, ${startedOn.cores} cores (${startedOn.cpu}), Node ${startedOn.node}, ${options.runs} runs, parts: ${options.parts.join(', ')}`);
  console.log(`load average (1, 5, 15 min): ${startedOn.loadAverage.join(', ')} at the start, ${loadAtEnd.join(', ')} at the end`);
  printTable(tableRows(results, options.runs));
  for (const [build, parts] of Object.entries(results)) if (parts.lighthouse?.error) console.log(`Lighthouse (${build}) did not run: ${parts.lighthouse.error}`);
  writeResults({ ...startedOn, loadAverageAtEnd: loadAtEnd.map(Number), runs: options.runs }, results);
  console.log(`numbers in ${path.relative(process.cwd(), RESULTS_FILE)}`);
}

main().catch((error) => {
  console.error(error?.message?.startsWith('bench:') ? error.message : (error?.stack ?? error));
  process.exit(1);
});
