// The bench's report: the table against the targets, the machine it ran on, test-output/bench.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ENGINE_PROFILES, OTHER_ENGINES } from './engines.mjs';
import { freshMemoryTime } from './fresh-memory.mjs';
import { TYPING_KEYS } from './reconnect.mjs';
import { ROOT } from './root.mjs';

/** Where the numbers are kept; a run with --only replaces just its own parts. */
export const RESULTS_FILE = path.join(ROOT, 'test-output', 'bench.json');

/**
 * Every part the bench measured for one build (a part not measured is absent).
 * @typedef {object} BuildResults
 * @property {Awaited<ReturnType<typeof import('./build.mjs').measureBuild>>} [build]
 * @property {Awaited<ReturnType<typeof import('./dev.mjs').measureDev>>} [dev]
 * @property {Awaited<ReturnType<typeof import('./load.mjs').measureLoad>>} [load]
 * @property {Awaited<ReturnType<typeof import('./engines.mjs').measureEngines>>} [engines]
 * @property {Awaited<ReturnType<typeof import('./reconnect.mjs').measureReconnect>>} [reconnect]
 * @property {Awaited<ReturnType<typeof import('./backup.mjs').measureBackup>>} [backup]
 * @property {(LighthouseNumbers & { error?: undefined }) | { error: string }} [lighthouse]
 */
/** @typedef {Awaited<ReturnType<typeof import('./lighthouse.mjs').measureLighthouse>>} LighthouseNumbers */
/**
 * The parts as a row's pick reads them: as if all were measured; a pick that reaches a part not
 * measured throws, and the table shows no number for it.
 * @typedef {Required<Omit<BuildResults, 'lighthouse'>> & { lighthouse: LighthouseNumbers & { error?: string } }} MeasuredParts
 */
/** @typedef {import('./engines.mjs').EngineSiteSummary} EngineSiteSummary */
/** @typedef {import('./engines.mjs').EngineProfileName} EngineProfileName */
/** How the table names the other engines. */
const ENGINE_LABELS = { firefox: 'Firefox', webkit: 'WebKit' };
/** @typedef {{ limit: number, better: 'lower' | 'higher', text: string }} Target */
/** @typedef {[label: string, react: string, preact: string, target: string, verdict: string]} Row */

/**
 * The targets for the React build; `better` says which way is good.
 * @type {Record<string, Target>}
 */
const TARGETS = {
  buildMs: { limit: 500, better: 'lower', text: '≤ 500 ms' },
  devReloadMs: { limit: 150, better: 'lower', text: '≤ 150 ms' },
  slowFcpMs: { limit: 850, better: 'lower', text: '≤ 850 ms' },
  slowReadyMs: { limit: 2000, better: 'lower', text: '≤ 2,000 ms' },
  firstVisitRatio: { limit: 1.005, better: 'lower', text: '1.00' },
  lighthouseScore: { limit: 100, better: 'higher', text: '100 each' },
  typingKeysLost: { limit: 0, better: 'lower', text: '0' },
};

/**
 * Number formatting for the table: whole ms with thousands separators, or a dash for nothing.
 * @param {number | undefined} value
 */
const formatMs = (value) => (value === undefined ? '—' : `${Math.round(value).toLocaleString('en-US')} ms`);
/** @param {number[] | undefined} values */
const runList = (values) => (values?.length ? values.map((value) => Math.round(value)).join(', ') : '');

/**
 * ✓ or ✗ against a target, or nothing when there is no number.
 * @param {Target} target
 * @param {number | undefined} value
 */
function verdict(target, value) {
  if (value === undefined) return '';
  const met = target.better === 'lower' ? value <= target.limit : value >= target.limit;
  return met ? '✓' : '✗';
}

/**
 * The table's rows: [label, react, preact, target, React meets it].
 * @param {Partial<Record<import('../harness/test-sites.mjs').BuildName, BuildResults>>} results
 * @param {number} runs
 * @returns {Row[]}
 */
export function tableRows(results, runs) {
  /**
   * @template T
   * @param {import('../harness/test-sites.mjs').BuildName} build
   * @param {(parts: MeasuredParts) => T} pick
   * @returns {T | undefined}
   */
  const get = (build, pick) => {
    const parts = results[build];
    if (!parts) return undefined;
    try {
      return pick(/** @type {MeasuredParts} */ (parts));
    } catch {
      return undefined;
    }
  };
  /**
   * @template T
   * @param {string} label
   * @param {(parts: MeasuredParts) => T} pick
   * @param {(value: NoInfer<T> | undefined) => string} format
   * @param {Target} [target]
   * @returns {Row}
   */
  const row = (label, pick, format, target) => {
    const react = get('react', pick);
    return [
      label,
      format(react),
      format(get('preact', pick)),
      target?.text ?? '',
      target ? verdict(target, typeof react === 'number' ? react : undefined) : '',
    ];
  };
  const ratio = (/** @type {number | undefined} */ value) => (value === undefined ? '—' : value.toFixed(2));
  const list = (/** @type {number[] | undefined} */ values) => (values === undefined ? '—' : `[${runList(values)}]`);
  const scores = (/** @type {Record<string, number> | undefined} */ byCategory) =>
    byCategory ? ['performance', 'accessibility', 'best-practices', 'seo'].map((id) => byCategory[id]).join(' / ') : '—';
  const largestResponse = (/** @type {{ bytes: number, encoding: string } | undefined} */ response) =>
    response ? `${response.bytes.toLocaleString('en-US')} B ${response.encoding}` : '—';
  const lighthouseRan = (/** @type {MeasuredParts} */ parts) => (parts.lighthouse.error ? undefined : parts.lighthouse);
  const lowestScore = (/** @type {MeasuredParts} */ parts) => Math.min(...Object.values(parts.lighthouse.scores));
  return [
    row(`production build, median of ${runs}`, (p) => p.build.medianMs, formatMs, TARGETS.buildMs),
    row('  every run', (p) => p.build.runsMs, list),
    row(`dev save -> page reloaded, median of ${runs}`, (p) => p.dev.medianMs, formatMs, TARGETS.devReloadMs),
    row('  every run', (p) => p.dev.runsMs, list),
    row('  of which save -> reload starts', (p) => p.dev.reloadStartMs, list),
    row('  "rebuilt in" the dev server printed', (p) => p.dev.devServerRebuildMs, list),
    row('FCP, loopback', (p) => p.load.loopback.fcpMs.median, formatMs),
    row('navigation -> offline-ready, loopback', (p) => p.load.loopback.readyMs.median, formatMs),
    row('load -> offline-ready, loopback', (p) => p.load.loopback.loadToReadyMs.median, formatMs),
    row('  every run', (p) => p.load.loopback.loadToReadyMs.runs, list),
    row('FCP, slow (150 ms, 200 KiB/s, compressed)', (p) => p.load.slow.fcpMs.median, formatMs, TARGETS.slowFcpMs),
    row('  every run', (p) => p.load.slow.fcpMs.runs, list),
    row('navigation -> offline-ready, slow', (p) => p.load.slow.readyMs.median, formatMs, TARGETS.slowReadyMs),
    row('  every run', (p) => p.load.slow.readyMs.runs, list),
    row('load -> offline-ready, slow', (p) => p.load.slow.loadToReadyMs.median, formatMs),
    row('  page bundle as sent, slow', (p) => p.load.slow.largestResponse, largestResponse),
    row('navigation -> offline-ready, slow uncompressed', (p) => p.load.slowIdentity.readyMs.median, formatMs),
    row('load -> offline-ready, slow uncompressed', (p) => p.load.slowIdentity.loadToReadyMs.median, formatMs),
    row('first visit: bytes sent / distinct files, loopback', (p) => p.load.loopback.firstVisitBytes.ratio, ratio, TARGETS.firstVisitRatio),
    row(
      '  bytes sent (run 1)',
      (p) => p.load.loopback.firstVisitBytes.visits[0],
      (v) => (v ? `${v.sentBytes.toLocaleString('en-US')} / ${v.distinctBytes.toLocaleString('en-US')} B` : '—'),
    ),
    row('first visit: bytes sent / distinct files, slow', (p) => p.load.slow.firstVisitBytes.ratio, ratio),
    row(
      '  URLs asked more than once (any run)',
      (p) => [...new Set([...p.load.loopback.firstVisitBytes.repeatedUrls, ...p.load.slow.firstVisitBytes.repeatedUrls])],
      (urls) => (urls === undefined ? '—' : urls.join(' ') || 'none'),
    ),
    ...OTHER_ENGINES.flatMap((engine) => {
      const name = ENGINE_LABELS[engine];
      const site = (/** @type {MeasuredParts} */ p, /** @type {EngineProfileName} */ profile, /** @type {string} */ label) => {
        const result = p.engines[engine];
        if (!result || 'error' in result) return undefined;
        return result.profiles[profile]?.[label];
      };
      const pair = (/** @type {EngineSiteSummary | undefined} */ summary) =>
        summary ? `${formatMs(summary.readyMs)} / ${formatMs(summary.loadToReadyMs)}` : '—';
      return ENGINE_PROFILES.flatMap(({ name: profile }) => [
        row(`${name}: navigation / load -> offline-ready, ${profile}`, (p) => site(p, profile, 'ours'), pair),
        row('  the --compare site, same rounds', (p) => site(p, profile, 'other'), pair),
      ]);
    }),
    row(`online -> reload, median of ${runs}`, (p) => p.reconnect.onlineReloadMs.median, formatMs),
    row('reloads after 8 toggles 100 ms apart', (p) => p.reconnect.flappingReloads, list),
    row(
      `typing through a reconnect: most keys lost of ${TYPING_KEYS}`,
      (p) => (p.reconnect.typing ? Math.max(...p.reconnect.typing.keysLost) : undefined),
      (v) => (v === undefined ? '—' : String(v)),
      TARGETS.typingKeysLost,
    ),
    row('  each run', (p) => p.reconnect.typing?.keysLost, list),
    row(`  last key -> reload, median of ${runs}`, (p) => p.reconnect.typing?.lastKeyToReloadMs.median, formatMs),
    row(
      `largest backup: download / restore, median of ${runs}`,
      (p) => p.backup,
      (v) => (v ? `${formatMs(v.downloadMs.median)} / ${formatMs(v.restoreMs.median)}` : '—'),
    ),
    row(
      "  its file; the restore's longest task",
      (p) => p.backup,
      (v) => (v ? `${(v.fileBytes / 1e6).toFixed(1)} MB; ${formatMs(v.longestTaskMs.median)}` : '—'),
    ),
    row('Lighthouse (1 run) perf / a11y / best pr. / SEO', (p) => p.lighthouse.scores, scores),
    row(
      '  lowest of the four',
      (p) => lowestScore(p),
      (v) => (v === undefined ? '—' : String(v)),
      TARGETS.lighthouseScore,
    ),
    row('Lighthouse FCP / LCP / TBT (mobile, simulated)', lighthouseRan, (l) =>
      l ? `${formatMs(l.fcpMs)} / ${formatMs(l.lcpMs)} / ${formatMs(l.tbtMs)}` : '—',
    ),
    row(
      'Lighthouse CLS',
      (p) => p.lighthouse.cls,
      (v) => (v === undefined ? '—' : v.toFixed(3)),
    ),
  ];
}

/**
 * Prints the rows as aligned columns under a header line, leaving out rows of parts not measured.
 * @param {Row[]} allRows
 */
export function printTable(allRows) {
  const rows = allRows.filter(([, react, preact]) => ![react, preact].every((cell) => cell === '—' || cell === ''));
  const header = ['', 'React', 'Preact', 'target (React)', ''];
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => String(row[column]).length)));
  const line = (/** @type {string[]} */ row) =>
    row
      .map((cell, column) => (column === 0 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column])))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

/**
 * The machine, its load and its fresh-memory speed the numbers were taken on.
 * @param {string} chromiumVersion
 */
export function machine(chromiumVersion) {
  const cpus = os.cpus();
  return {
    chromium: chromiumVersion,
    cores: cpus.length,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    node: process.version,
    loadAverage: os.loadavg().map((load) => Number(load.toFixed(2))),
    freshMemory: freshMemoryTime(),
  };
}

/**
 * Writes the results to test-output/bench.json; a partial run (--only) replaces only its own parts.
 * @param {Record<string, unknown>} header
 * @param {Partial<Record<import('../harness/test-sites.mjs').BuildName, BuildResults>>} results
 */
export function writeResults(header, results) {
  const previous = existsSync(RESULTS_FILE) ? JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) : { builds: {} };
  const builds = { ...previous.builds };
  for (const [build, parts] of Object.entries(results)) builds[build] = { ...builds[build], ...parts };
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, JSON.stringify({ ...header, date: new Date().toISOString(), builds }, null, 2) + '\n');
}
