// The budgets: gzip bytes per group of files against package.json "budgets", and the size table
// every build prints.
import { ASSET_FILE } from './asset-files.mjs';
import { largestGroups } from './composition.mjs';

/**
 * One budget line: [key, gzip bytes, budget in bytes or undefined for none].
 * @typedef {[key: string, gzip: number, budget: number | undefined]} BudgetRow
 */

/**
 * Sums gzip bytes per budget group; returns rows [key, gzip, budget]. `js` is what every page
 * loads before it runs (`pageScripts`: the entry and the chunks it imports; all a visit to `/`
 * loads), `lazy` the scripts loaded on use (the other screens' chunks, each loaded when first
 * shown), `app` the JS without React/Preact, lazy or not, `assets` the imported images, fonts and media.
 * @param {import('./site.mjs').Audit} audit
 * @param {Record<string, number>} budgets
 * @param {boolean} preact
 * @param {number | null} appGzip
 * @param {string[]} pageScripts
 * @returns {BudgetRow[]}
 */
export function budgetRows(audit, budgets, preact, appGzip, pageScripts) {
  /** @param {(path: string) => boolean} test */
  const sum = (test) => audit.files.filter((f) => test(f.path)).reduce((total, f) => total + f.gzip, 0);
  const isScript = (/** @type {string} */ path) => /^assets\/.*\.js$/.test(path);
  // appGzip is null only in dev builds, which have no budgets.
  const groups = {
    'sw.js': sum((path) => path === 'sw.js'),
    js: sum((path) => pageScripts.includes(path)),
    lazy: sum((path) => isScript(path) && !pageScripts.includes(path)),
    css: sum((path) => /^assets\/.*\.css$/.test(path)),
    app: /** @type {number} */ (appGzip),
    // The images, fonts and media that screens and stylesheets import (their own hashed files).
    assets: audit.files.filter((f) => f.path.startsWith('assets/') && ASSET_FILE.test(f.path)).reduce((total, f) => total + f.gzip, 0),
  };
  /** @param {string} group */
  const keyOf = (group) => (group === 'js' && preact ? 'js.preact' : group);
  return Object.entries(groups).map(([group, gzip]) => [keyOf(group), gzip, budgets[keyOf(group)]]);
}

/**
 * The first row over its budget, or undefined.
 * @param {BudgetRow[]} rows
 */
export const overBudget = (rows) => rows.find(([, gzip, budget]) => budget !== undefined && gzip > budget);

// Thousands grouped by hand: the first toLocaleString() of a process loads ICU's data (≈ 25 ms).
/** @param {number} n */
const number = (n) => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

/**
 * Prints every file's raw, gzip and brotli bytes, what the page's script is made of, then the
 * budgets and the version.
 * @param {import('./site.mjs').Audit} audit
 * @param {BudgetRow[]} rows
 * @param {import('./composition.mjs').Composition} composition
 */
export function printTable(audit, rows, composition) {
  const width = Math.max(...audit.files.map((f) => f.path.length), 8);
  /**
   * @param {string} a
   * @param {string} b
   * @param {string} c
   * @param {string} d
   */
  const line = (a, b, c, d) => console.log(`${a.padEnd(width)}  ${b.padStart(9)}  ${c.padStart(9)}  ${d.padStart(9)}`);
  line('file', 'raw', 'gzip', 'brotli');
  for (const f of audit.files) line(f.path, number(f.bytes), number(f.gzip), number(f.brotli));
  printGroups(composition);
  for (const [key, gzip, budget] of rows) {
    const over = budget !== undefined && gzip > budget ? '  OVER' : '';
    console.log(`budget ${key}: ${number(gzip)} B gzip of ${budget === undefined ? 'no budget' : number(budget) + ' B'}${over}`);
  }
  console.log(`version ${audit.version} (${audit.build})`);
}

/**
 * One line per package of the page's script (the five largest, the app's own code as one), the
 * rest, and what esbuild adds itself: raw bytes in the output and the share of the file.
 * @param {import('./composition.mjs').Composition} composition
 */
function printGroups(composition) {
  const groups = largestGroups(composition);
  if (!groups) return;
  /**
   * @param {string} name
   * @param {number} bytes
   */
  const line = (name, bytes) =>
    console.log(`js ${name.padEnd(34)}  ${number(bytes).padStart(9)} B  ${((100 * bytes) / groups.total).toFixed(1).padStart(5)} %`);
  for (const group of groups.top) line(group.name, group.bytes);
  line(groups.rest ? `the rest (${groups.rest.groups} more)` : 'the rest (none)', groups.rest?.bytes ?? 0);
  line("esbuild's own (banner, wrappers)", groups.esbuild);
}
