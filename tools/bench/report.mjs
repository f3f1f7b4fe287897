// The bench's report: the table against the targets, the machine it ran on, test-output/bench.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './root.mjs';

/** Where the numbers are kept; a run with --only replaces just its own parts. */
export const RESULTS_FILE = path.join(ROOT, 'test-output', 'bench.json');

/** The targets for the React build; `better` says which way is good. */
const TARGETS = {
  buildMs: { limit: 500, better: 'lower', text: '≤ 500 ms' },
  devReloadMs: { limit: 150, better: 'lower', text: '≤ 150 ms' },
  slowFcpMs: { limit: 850, better: 'lower', text: '≤ 850 ms' },
  slowReadyMs: { limit: 2000, better: 'lower', text: '≤ 2,000 ms' },
  firstVisitRatio: { limit: 1.005, better: 'lower', text: '1.00' },
  lighthouseScore: { limit: 100, better: 'higher', text: '100 each' },
};


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
export function tableRows(results, runs) {
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
export function printTable(allRows) {
  const rows = allRows.filter(([, react, preact]) => ![react, preact].every((cell) => cell === '—' || cell === ''));
  const header = ['', 'React', 'Preact', 'target (React)', ''];
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => String(row[column]).length)));
  const line = (row) => row.map((cell, column) => (column === 0 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]))).join('  ').trimEnd();
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

/** The machine and load the numbers were taken on. */
export function machine(chromiumVersion) {
  const cpus = os.cpus();
  return { chromium: chromiumVersion, cores: cpus.length, cpu: cpus[0]?.model.trim() ?? 'unknown', node: process.version, loadAverage: os.loadavg().map((load) => Number(load.toFixed(2))) };
}

/** Writes the results to test-output/bench.json; a partial run (--only) replaces only its own parts. */
export function writeResults(header, results) {
  const previous = existsSync(RESULTS_FILE) ? JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) : { builds: {} };
  const builds = { ...previous.builds };
  for (const [build, parts] of Object.entries(results)) builds[build] = { ...builds[build], ...parts };
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, JSON.stringify({ ...header, date: new Date().toISOString(), builds }, null, 2) + '\n');
}
