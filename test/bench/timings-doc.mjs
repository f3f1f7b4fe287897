// The bench's numbers in docs/: docs/timings.json keeps the numbers docs/testing.md's timing table
// shows, and the table between its `timings` markers is rendered from that file alone, so a unit
// test can check the two agree. A run replaces the numbers it measured and keeps the others: those
// of parts it did not run (--only, the demo's parts after remove-demo). The ratios to Vite come from
// `--compare` runs against one of two peer sites (`vite-peer.mjs`, with or without `--same-files`),
// which tells them apart by the stamp it leaves in the site (PEER_STAMP); a compared site without
// one (not our peer) leaves the ratios as they were.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { replaceBetweenMarkers } from '../../tools/doc-markers.mjs';

/** The numbers, from the project's root. */
export const TIMINGS_JSON = 'docs/timings.json';
/** The document holding the table, from the project's root. */
export const TIMINGS_DOC = 'docs/testing.md';
/** The file vite-peer.mjs leaves in the site it builds: `{ "peer": "vite", "sameFiles": boolean }`. */
export const PEER_STAMP = 'vite-peer.json';

/**
 * One build's numbers as the table shows them (a number absent: "—"; lighthouse null: "not run").
 * @typedef {object} BuildTimings
 * @property {number} [buildMs] @property {number} [devReloadMs]
 * @property {number} [fcpLoopbackMs] @property {number} [fcpSlowMs]
 * @property {number} [readyLoopbackMs] @property {number} [readySlowMs] @property {number} [readySlowUncompressedMs]
 * @property {number} [loadToReadyLoopbackMs] @property {number} [loadToReadySlowMs]
 * @property {number} [viteFirstPaintSlow] @property {number} [viteReadySlow] @property {number} [viteLoadToReadyLoopback]
 * @property {number} [viteSameFilesLoadToReadyLoopback] @property {number} [viteSameFilesReadySlow]
 * @property {number} [firefoxReadyLoopbackMs] @property {number} [webkitReadyLoopbackMs]
 * @property {number} [firstVisitRatio]
 * @property {number} [onlineReloadMs] @property {number} [flappingReloads]
 * @property {number} [typingKeysLost] @property {number} [typingLastKeyToReloadMs]
 * @property {number} [backupMegabytes] the file, in MB (10^6 bytes) @property {number} [backupDownloadMs] @property {number} [backupRestoreMs] @property {number} [backupLongestTaskMs]
 * @property {{ performance: number, accessibility: number, bestPractices: number, seo: number } | null} [lighthouse]
 */
/**
 * @typedef {object} Timings
 * @property {string} source where the numbers came from
 * @property {{ chromium: string, firefox: string, webkit: string, lighthouse: string }} versions as the labels name them
 * @property {number} typingKeys keys typed through a reconnect
 * @property {{ react: BuildTimings, preact: BuildTimings }} builds
 */

/** @param {number | undefined} n */
const ms = (n) => (n === undefined ? '—' : Math.round(n).toLocaleString('en-US'));
/** @param {number | undefined} n */
const withMs = (n) => (n === undefined ? '—' : `${ms(n)} ms`);
/** @param {number | undefined} n */
const ratio = (n) => (n === undefined ? '—' : n.toFixed(2));

/**
 * The rows: a label and how each build's cell is made.
 * @param {Timings} timings
 * @returns {[string, (t: BuildTimings) => string][]}
 */
function rows(timings) {
  const { versions } = timings;
  const megabytes = timings.builds.react.backupMegabytes ?? timings.builds.preact.backupMegabytes;
  return [
    ['production build (`node build.mjs`) / dev save to page reloaded', (t) => `${withMs(t.buildMs)} / ${withMs(t.devReloadMs)}`],
    ['first contentful paint, loopback / slow', (t) => `${withMs(t.fcpLoopbackMs)} / ${withMs(t.fcpSlowMs)}`],
    [
      'navigation → offline-ready, loopback / slow / slow without compression',
      (t) => `${ms(t.readyLoopbackMs)} / ${ms(t.readySlowMs)} / ${ms(t.readySlowUncompressedMs)} ms`,
    ],
    [
      "`load` → offline-ready (the offline layer's own cost), loopback / slow",
      (t) => `${withMs(t.loadToReadyLoopbackMs)} / ${withMs(t.loadToReadySlowMs)}`,
    ],
    [
      'ours / Vite: first paint, slow; navigation → offline-ready, slow; `load` → ready, loopback',
      (t) => `${ratio(t.viteFirstPaintSlow)}; ${ratio(t.viteReadySlow)}; ${ratio(t.viteLoadToReadyLoopback)}`,
    ],
    [
      'ours / Vite, same files: `load` → ready, loopback; navigation → ready, slow',
      (t) => `${ratio(t.viteSameFilesLoadToReadyLoopback)}; ${ratio(t.viteSameFilesReadySlow)}`,
    ],
    [
      `navigation → offline-ready in Firefox ${versions.firefox} / WebKitGTK ${versions.webkit}, loopback`,
      (t) => `${withMs(t.firefoxReadyLoopbackMs)} / ${withMs(t.webkitReadyLoopbackMs)}`,
    ],
    ['bytes sent on a first visit / bytes of the distinct files', (t) => ratio(t.firstVisitRatio)],
    [
      '`online` to reload (1 s is the debounce); reloads after 8 toggles 100 ms apart',
      (t) => `${withMs(t.onlineReloadMs)}; ${t.flappingReloads ?? '—'}`,
    ],
    [
      `typing through a reconnect: keys lost of ${timings.typingKeys}; last key to reload`,
      (t) => `${t.typingKeysLost ?? '—'}; ${withMs(t.typingLastKeyToReloadMs)}`,
    ],
    [
      `largest backup (${megabytes === undefined ? '—' : megabytes.toFixed(1)} MB): download / restore on a fresh profile; its longest task`,
      (t) => `${ms(t.backupDownloadMs)} / ${withMs(t.backupRestoreMs)}; ${withMs(t.backupLongestTaskMs)}`,
    ],
    [
      `Lighthouse ${versions.lighthouse} (mobile): performance / accessibility / best practices / SEO`,
      (t) =>
        t.lighthouse
          ? [t.lighthouse.performance, t.lighthouse.accessibility, t.lighthouse.bestPractices, t.lighthouse.seo].join(' / ')
          : 'not run',
    ],
  ];
}

/**
 * The markdown table docs/testing.md shows, from the numbers alone.
 * @param {Timings} timings
 */
export function renderTimings(timings) {
  const lines = ['| | React | Preact |', '|---|---:|---:|'];
  for (const [label, cell] of rows(timings)) lines.push(`| ${label} | ${cell(timings.builds.react)} | ${cell(timings.builds.preact)} |`);
  return `${lines.join('\n')}\n`;
}

/**
 * The value `pick` reads from a run's results, or undefined when that part was not measured.
 * @template T
 * @param {() => T} pick
 * @returns {T | undefined}
 */
function measured(pick) {
  try {
    return pick();
  } catch {
    return undefined;
  }
}

/**
 * One build's numbers from a run (bench.json's `builds.<name>`), over the ones it did not measure.
 * @param {import('./report.mjs').BuildResults | undefined} parts
 * @param {BuildTimings} previous
 * @returns {BuildTimings}
 */
export function buildTimingsFrom(parts, previous) {
  if (!parts) return previous;
  const p = /** @type {import('./report.mjs').MeasuredParts} */ (parts);
  /** @param {'firefox' | 'webkit'} engine */
  const engineReady = (engine) => {
    const result = p.engines[engine];
    return result && !('error' in result) ? result.profiles.loopback?.ours?.readyMs : undefined;
  };
  const lighthouse = measured(() => (p.lighthouse.error ? null : p.lighthouse.scores));
  /** @type {BuildTimings} */
  const fresh = {
    buildMs: measured(() => p.build.medianMs),
    devReloadMs: measured(() => p.dev.medianMs),
    fcpLoopbackMs: measured(() => p.load.loopback.fcpMs.median),
    fcpSlowMs: measured(() => p.load.slow.fcpMs.median),
    readyLoopbackMs: measured(() => p.load.loopback.readyMs.median),
    readySlowMs: measured(() => p.load.slow.readyMs.median),
    readySlowUncompressedMs: measured(() => p.load.slowIdentity.readyMs.median),
    loadToReadyLoopbackMs: measured(() => p.load.loopback.loadToReadyMs.median),
    loadToReadySlowMs: measured(() => p.load.slow.loadToReadyMs.median),
    firefoxReadyLoopbackMs: measured(() => engineReady('firefox')),
    webkitReadyLoopbackMs: measured(() => engineReady('webkit')),
    firstVisitRatio: measured(() => p.load.loopback.firstVisitBytes.ratio),
    onlineReloadMs: measured(() => p.reconnect.onlineReloadMs.median),
    flappingReloads: measured(() => Math.max(...p.reconnect.flappingReloads)),
    typingKeysLost: measured(() => (p.reconnect.typing ? Math.max(...p.reconnect.typing.keysLost) : undefined)),
    typingLastKeyToReloadMs: measured(() => p.reconnect.typing?.lastKeyToReloadMs.median),
    backupMegabytes: measured(() => p.backup.fileBytes / 1e6),
    backupDownloadMs: measured(() => p.backup.downloadMs.median),
    backupRestoreMs: measured(() => p.backup.restoreMs.median),
    backupLongestTaskMs: measured(() => p.backup.longestTaskMs.median),
    lighthouse:
      lighthouse === undefined || lighthouse === null
        ? lighthouse
        : {
            performance: lighthouse.performance,
            accessibility: lighthouse.accessibility,
            bestPractices: lighthouse['best-practices'],
            seo: lighthouse.seo,
          },
  };
  /** @type {Record<string, unknown>} */
  const merged = { ...previous };
  for (const [key, value] of Object.entries({ ...fresh, ...peerRatios(p) })) {
    if (value === undefined || Number.isNaN(value)) continue;
    // Milliseconds to the millisecond, ratios to the hundredth: what the table shows, no float noise.
    merged[key] = typeof value !== 'number' ? value : key.endsWith('Ms') ? Math.round(value) : Math.round(value * 100) / 100;
  }
  return /** @type {BuildTimings} */ (merged);
}

/**
 * The ratios to the Vite peer from a `--compare` run against a site vite-peer.mjs built (its stamp
 * says which of the two), or none.
 * @param {import('./report.mjs').MeasuredParts} parts
 * @returns {Partial<BuildTimings>}
 */
function peerRatios(parts) {
  const load = measured(() => parts.load);
  const compared = load?.compared;
  if (!load || !compared) return {};
  const stampFile = path.join(compared.dir, PEER_STAMP);
  if (!existsSync(stampFile)) return {};
  const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  /** @param {(site: import('./load.mjs').SiteSummary) => number | undefined} pick */
  const ratioTo = (pick) => {
    const ours = pick(load);
    const theirs = pick(compared);
    return ours === undefined || !theirs ? undefined : ours / theirs;
  };
  const readySlow = ratioTo((site) => site.slow.readyMs.median);
  const loadToReadyLoopback = ratioTo((site) => site.loopback.loadToReadyMs.median);
  if (stamp.sameFiles) return { viteSameFilesLoadToReadyLoopback: loadToReadyLoopback, viteSameFilesReadySlow: readySlow };
  return {
    viteFirstPaintSlow: ratioTo((site) => site.slow.fcpMs.median),
    viteReadySlow: readySlow,
    viteLoadToReadyLoopback: loadToReadyLoopback,
  };
}

/**
 * Writes a run's numbers to docs/timings.json (over those it did not measure) and the table
 * rendered from them between the markers of docs/testing.md; false when there are no such files
 * (a project that deleted them) and nothing was written.
 * @param {string} root
 * @param {Partial<Record<'react' | 'preact', import('./report.mjs').BuildResults>>} results
 * @param {{ chromium: string }} machine
 */
export function writeTimingsDoc(root, results, machine) {
  const jsonFile = path.join(root, TIMINGS_JSON);
  if (!existsSync(jsonFile) || !existsSync(path.join(root, TIMINGS_DOC))) return false;
  /** @type {Timings} */
  const previous = JSON.parse(readFileSync(jsonFile, 'utf8'));
  /** @type {Timings} */
  const timings = {
    ...previous,
    source: `npm run bench, ${new Date().toISOString().slice(0, 10)} (numbers not measured by that run are kept from the one before)`,
    versions: { ...previous.versions, chromium: machine.chromium.split('.')[0] ?? previous.versions.chromium },
    builds: {
      react: buildTimingsFrom(results.react, previous.builds.react),
      preact: buildTimingsFrom(results.preact, previous.builds.preact),
    },
  };
  writeFileSync(jsonFile, `${JSON.stringify(timings, null, 2)}\n`);
  const docFile = path.join(root, TIMINGS_DOC);
  writeFileSync(docFile, replaceBetweenMarkers(readFileSync(docFile, 'utf8'), 'timings', renderTimings(timings), TIMINGS_DOC));
  return true;
}
