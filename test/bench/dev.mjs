// Part 2, dev: a saved source file -> the reloaded page showing the change, in a copy of the
// project with `node build.mjs --watch` running.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startInGroup, stopInGroup } from '../harness/process-group.mjs';
import { copySources } from '../harness/test-sites.mjs';
import { median } from './median.mjs';
import { freshContext } from './page-probes.mjs';
import { ROOT } from './root.mjs';
import { poll, sleep, wallNow, within } from './waits.mjs';

/** The dev part edits this file's footer text: a change every build sees. */
const DEV_EDIT_FILE = 'src/ui/App.tsx';
const DEV_FOOTER_TEXT = 'Works offline. Nothing leaves your device.';

// Every wait has a limit; these are generous for a loaded 2-core machine.
const DEV_START_LIMIT_MS = 30_000;
const DEV_RELOAD_LIMIT_MS = 15_000;
const CHILD_EXIT_LIMIT_MS = 5_000;
/** A developer does not save twice a second; the pause also lets dev's type checker finish its run. */
const DEV_PAUSE_BETWEEN_SAVES_MS = 1_500;

/** @typedef {import('../harness/process-group.mjs').GroupChild} GroupChild */
/** @typedef {import('./page-probes.mjs').ProbedWindow} ProbedWindow */
/** @typedef {import('./page-probes.mjs').ShownReport} ShownReport */
/** @typedef {import('playwright-core').Page} Page */

/**
 * Waits until the dev server prints `serving … on http://…/` and resolves to that URL; rejects if it exits first.
 * @param {GroupChild} dev
 * @returns {Promise<string>}
 */
function devServerUrl({ child, output }) {
  return new Promise((resolve, reject) => {
    const onData = () => {
      const found = output.text.match(/serving .* on (http:\/\/\S+\/)/);
      if (found) resolve(found[1]);
    };
    child.stdout.on('data', onData);
    child.once('exit', (code, signal) =>
      reject(new Error(`bench: the dev server exited (${signal ?? `exit ${code}`}) before serving:\n${output.text.trim()}`)),
    );
  });
}

/**
 * Resolves once the dev server's type checker has reported both its programs (`type check (app): …`, `type check (sw): …`).
 * @param {GroupChild} dev
 * @returns {Promise<void>}
 */
function typecheckReported({ child, output }) {
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

/**
 * Starts `node build.mjs --watch` on a free port in `cwd`; resolves to { dev, url }.
 * @param {string} cwd
 * @param {boolean} preact
 */
async function startDevServer(cwd, preact) {
  const dev = startInGroup(process.execPath, ['build.mjs', '--watch', ...(preact ? ['--preact'] : [])], {
    cwd,
    env: { PORT: '0', HOST: '127.0.0.1' },
  });
  try {
    const url = await within(devServerUrl(dev), DEV_START_LIMIT_MS, 'the dev server starting');
    // A developer's first save comes after the tools are up: the type checker's first full run
    // (both programs reported) would otherwise share the 2 cores with the first measured save.
    await within(typecheckReported(dev), DEV_START_LIMIT_MS, "the dev type checker's first report");
    return { dev, url };
  } catch (error) {
    await stopInGroup(dev, CHILD_EXIT_LIMIT_MS);
    throw error;
  }
}

/**
 * Waits until the page's live-reload EventSource is connected, so the next rebuild reaches it.
 * @param {Page} page
 */
async function liveReloadConnected(page) {
  await poll(() => page.evaluate(() => (/** @type {ProbedWindow} */ (window).__benchEventSource?.readyState === 1 ? true : undefined)), {
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
 * @param {Page} page
 * @param {string} copy
 * @param {string} text
 * @param {ReturnType<typeof reportsByText>} shownReports
 */
async function timeOneSave(page, copy, text, shownReports) {
  await page.evaluate((expected) => sessionStorage.setItem('bench-expect', expected), text);
  const file = path.join(copy, DEV_EDIT_FILE);
  const changed = readFileSync(file, 'utf8').replace(
    /<footer className="foot">[^<]*<\/footer>/,
    `<footer className="foot">${text}</footer>`,
  );
  // Only the document that was told to expect this text counts: the previous one showed the previous text.
  const shown = within(shownReports.next(text), DEV_RELOAD_LIMIT_MS, `the dev page reloading with "${text}"`);
  const savedAt = wallNow();
  writeFileSync(file, changed);
  const reloaded = await shown;
  if (reloaded.startedAt < savedAt)
    throw new Error(`bench: a document that started before "${text}" was saved showed it: the dev measurement is broken`);
  return { totalMs: reloaded.doneAt - savedAt, reloadStartMs: reloaded.startedAt - savedAt };
}

/** The pages' reports ({ expected, … }), awaited by the text they expected: next(text) resolves to the first one for it. */
function reportsByText() {
  /** @type {ShownReport[]} */
  const reports = [];
  /** @type {Map<string | null, (report: ShownReport) => void>} */
  const waiting = new Map();
  return {
    /** @param {ShownReport} report */
    add(report) {
      reports.push(report);
      waiting.get(report.expected)?.(report);
    },
    /**
     * @param {string} text
     * @returns {Promise<ShownReport>}
     */
    next(text) {
      const found = reports.find((report) => report.expected === text);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiting.set(text, resolve));
    },
  };
}

/**
 * Part 2: dev save -> page reloaded, `runs` saves in a temporary copy of the project.
 * @param {import('playwright-core').Browser} browser
 * @param {boolean} preact
 * @param {number} runs
 */
export async function measureDev(browser, preact, runs) {
  const copy = copySources(ROOT, mkdtempSync(path.join(os.tmpdir(), 'offline-shell-bench-dev-')));
  const source = readFileSync(path.join(copy, DEV_EDIT_FILE), 'utf8');
  if (!source.includes(DEV_FOOTER_TEXT))
    throw new Error(`bench: ${DEV_EDIT_FILE} no longer has the footer text "${DEV_FOOTER_TEXT}" the dev part edits`);
  let server;
  const context = await freshContext(browser);
  const shownReports = reportsByText();
  await context.exposeBinding('__benchShown', (_source, /** @type {ShownReport} */ report) => shownReports.add(report));
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
    const rebuilds = [...server.dev.output.text.matchAll(/rebuilt in (\d+) ms/g)].map((found) => Number(found[1]));
    return { runsMs: times, medianMs: median(times), reloadStartMs: saves.map((save) => save.reloadStartMs), devServerRebuildMs: rebuilds };
  } finally {
    await context.close();
    if (server) await stopInGroup(server.dev, CHILD_EXIT_LIMIT_MS);
    rmSync(copy, { recursive: true, force: true });
  }
}
