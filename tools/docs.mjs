#!/usr/bin/env node
// `npm run docs`: writes the sizes table of docs/build.md from two builds (React and Preact), made
// in memory with the build's own steps and measured as the build measures its budgets, and the
// budgets in package.json; and the line saying what the React build's scripts are made of, as the
// build prints it. Only the text between the `sizes` and `composition` markers is rewritten.
// `--measure` prints both builds' measures as JSON and writes nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { replaceBetweenMarkers } from './doc-markers.mjs';
import { budgetRows } from './pipeline/budgets.mjs';
import { largestGroups } from './pipeline/composition.mjs';
import { buildSite } from './pipeline/site.mjs';

/** The file holding the sizes table, from the project's root. */
export const SIZES_DOC = 'docs/build.md';

/** The table's rows: the budget key (React's; Preact's for `js` is `js.preact`) and what it guards. */
const ROWS = [
  { key: 'js', label: '`js` / `js.preact`', guards: 'page JS, framework included (what `/` loads)' },
  { key: 'lazy', label: '`lazy`', guards: 'the chunk loaded on use' },
  { key: 'app', label: '`app`', guards: "the app's own code (every script without React/Preact, as shipped)" },
  { key: 'css', label: '`css`', guards: 'the stylesheet' },
  { key: 'assets', label: '`assets`', guards: 'images, fonts and media imported by screens and stylesheets' },
  { key: 'sw.js', label: '`sw.js`', guards: 'the worker, which every update check downloads' },
];

/** @typedef {Record<string, { gzip: number, budget: number | undefined }>} MeasuredBuild keyed by React's budget key */
/** @typedef {{ name: string, percent: string }[]} ScriptShares the largest parts of the shipped scripts, largest first */

/**
 * One production build in memory, measured per budget key as `npm run build` measures it, and its scripts' largest parts.
 * @param {string} root
 * @param {boolean} preact
 * @returns {Promise<{ sizes: MeasuredBuild, shares: ScriptShares }>}
 */
async function measure(root, preact) {
  const opts = { preact, killSwitch: false, check: false, out: 'dist', base: '/' };
  const { audit, budgets, appGzip, pageScripts, composition } = await buildSite(root, opts);
  /** @type {MeasuredBuild} */
  const measured = {};
  for (const [key, gzip, budget] of budgetRows(audit, budgets, preact, appGzip, pageScripts))
    measured[key === 'js.preact' ? 'js' : key] = { gzip, budget };
  return { sizes: measured, shares: scriptShares(composition) };
}

/**
 * The largest parts of the shipped scripts with their share of the raw bytes, as the build prints
 * them (tools/pipeline/budgets.mjs): the four largest, each at least 1 %.
 * @param {import('./pipeline/composition.mjs').Composition} composition
 * @returns {ScriptShares}
 */
function scriptShares(composition) {
  const groups = largestGroups(composition);
  if (!groups) return [];
  return groups.top
    .slice(0, 4)
    .filter((group) => group.bytes / groups.total >= 0.01)
    .map((group) => ({ name: group.name, percent: ((100 * group.bytes) / groups.total).toFixed(1) }));
}

/**
 * Both builds, measured one after the other (each is esbuild's and the CPU's alone).
 * @param {string} root
 */
export async function measureBoth(root) {
  const react = await measure(root, false);
  const preact = await measure(root, true);
  return { react: react.sizes, preact: preact.sizes, reactShares: react.shares };
}

/**
 * The sentence saying what the React build's scripts are made of, largest first.
 * @param {ScriptShares} shares
 */
export function sharesLine(shares) {
  return `React build: ${shares.map(({ name, percent }) => `${name} ${percent} %`).join(', ')}.`;
}

// Thousands grouped by hand, as the build prints them.
/** @param {number} n */
const bytes = (n) => `${String(n).replace(/\B(?=(\d{3})+$)/g, ',')} B`;

/**
 * The markdown table of both builds' sizes against their budgets.
 * @param {{ react: MeasuredBuild, preact: MeasuredBuild }} measured
 */
export function sizesTable({ react, preact }) {
  const lines = ['| budget key | guards | React build | Preact build | budget |', '|---|---|---:|---:|---:|'];
  for (const { key, label, guards } of ROWS) {
    const reactBudget = react[key]?.budget;
    const preactBudget = preact[key]?.budget;
    let budget = reactBudget === undefined ? 'none (set one when you import)' : bytes(reactBudget);
    if (preactBudget !== reactBudget) budget = `${budget} / ${preactBudget === undefined ? 'none' : bytes(preactBudget)}`;
    lines.push(`| ${label} | ${guards} | ${bytes(react[key]?.gzip ?? 0)} | ${bytes(preact[key]?.gzip ?? 0)} | ${budget} |`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Rewrites the sizes table in docs/build.md; returns whether it changed.
 * @param {string} root
 */
export async function writeSizesDoc(root) {
  const file = path.join(root, SIZES_DOC);
  const text = readFileSync(file, 'utf8');
  const measured = await measureBoth(root);
  const withTable = replaceBetweenMarkers(text, 'sizes', sizesTable(measured), SIZES_DOC);
  const written = replaceBetweenMarkers(withTable, 'composition', sharesLine(measured.reactShares), SIZES_DOC);
  if (written === text) return false;
  writeFileSync(file, written);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.argv.includes('--measure')) {
  // What both builds measure, as JSON, writing nothing (the unit test's: a build in a process of its own).
  measureBoth(process.cwd()).then(
    (measured) => console.log(JSON.stringify(measured)),
    (/** @type {Error} */ error) => {
      console.error(`docs: ${error.message}`);
      process.exit(1);
    },
  );
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeSizesDoc(process.cwd()).then(
    (changed) => console.log(changed ? `wrote the sizes in ${SIZES_DOC}` : `${SIZES_DOC}: the sizes are up to date`),
    (/** @type {Error} */ error) => {
      console.error(`docs: ${error.message}`);
      process.exit(1);
    },
  );
}
