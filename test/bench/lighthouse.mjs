// Part 6, lighthouse: Lighthouse 12's scores and paint metrics for the React build. Lighthouse is
// the bench's own package (test/bench/package.json and its lock), installed on first use.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROME_ARGS, chromePath } from '../harness/chromium.mjs';
import { installOnFirstUse } from '../harness/install-on-first-use.mjs';
import { startInGroup } from '../harness/process-group.mjs';
import { listen } from '../../tools/serve/server.mjs';
import { BENCH } from './root.mjs';

const LIGHTHOUSE_LIMIT_MS = 180_000;

/**
 * Installs the bench's own packages (Lighthouse and what it needs) from test/bench/package-lock.json
 * into test/bench/node_modules the first time the bench runs, saying so in one line, and whenever
 * the lock pins another Lighthouse. Returns whether Lighthouse is there.
 * @param {(line: string) => void} [say]
 */
export function ensureBenchPackages(say = console.error) {
  const lock = JSON.parse(readFileSync(path.join(BENCH, 'package-lock.json'), 'utf8'));
  return installOnFirstUse(
    {
      dir: BENCH,
      name: 'lighthouse',
      version: lock.packages['node_modules/lighthouse'].version,
      by: 'npm run bench',
      about: "the bench's own packages, from test/bench/package-lock.json",
      neededBy: 'the Lighthouse part',
    },
    say,
  );
}

/**
 * The parts of Lighthouse's JSON report the bench reads.
 * @typedef {object} LighthouseReport
 * @property {string} lighthouseVersion
 * @property {Record<string, { score: number }>} categories
 * @property {Record<string, { numericValue?: number }>} audits
 * @property {{ benchmarkIndex?: number }} [environment]
 * @property {string[]} runWarnings
 */

/**
 * Runs the Lighthouse 12 CLI on `url` (Debian's Chromium, headless) and resolves to its JSON report.
 * @param {string} url
 * @returns {Promise<LighthouseReport>}
 */
async function runLighthouse(url) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'offline-shell-bench-lighthouse-'));
  const report = path.join(dir, 'report.json');
  const cli = path.join(BENCH, 'node_modules', 'lighthouse', 'cli', 'index.js');
  try {
    if (!existsSync(cli)) throw new Error('bench: lighthouse is not installed (npm run bench installs it into test/bench/node_modules)');
    const chromeFlags = `--headless=new ${CHROME_ARGS.join(' ')}`;
    const lighthouse = startInGroup(
      process.execPath,
      [cli, url, '--output=json', `--output-path=${report}`, '--quiet', `--chrome-flags=${chromeFlags}`],
      { env: { CHROME_PATH: chromePath() } },
    );
    const timer = setTimeout(() => lighthouse.killGroup(), LIGHTHOUSE_LIMIT_MS);
    const { code, signal } = await lighthouse.closed;
    clearTimeout(timer);
    if (code !== 0)
      throw new Error(
        `bench: lighthouse ${signal === 'SIGKILL' ? `took longer than ${LIGHTHOUSE_LIMIT_MS} ms` : `failed (${signal ?? `exit ${code}`})`}:\n${lighthouse.output.text.trim()}`,
      );
    return JSON.parse(readFileSync(report, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
/**
 * Part 6: Lighthouse's four category scores (0-100) and FCP/LCP/TBT/CLS for the site in `out`.
 * @param {string} out
 */
export async function measureLighthouse(out) {
  const site = await listen({ root: out, port: 0 });
  try {
    const report = await runLighthouse(site.url);
    const scores = Object.fromEntries(Object.entries(report.categories).map(([id, category]) => [id, Math.round(category.score * 100)]));
    const metric = (/** @type {string} */ id) => report.audits[id]?.numericValue;
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
