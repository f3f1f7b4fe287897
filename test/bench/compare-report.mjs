// `npm run bench -- --compare DIR`: our builds against another built site, each median beside the
// other site's median from the same rounds (visited in turn with that build), their ratio, and the
// goals the offline layer is held to.

/** @typedef {import('./load.mjs').SiteSummary} SiteSummary */
/** @typedef {import('./load.mjs').LoadResults} LoadResults */
/** @typedef {import('../harness/test-sites.mjs').BuildName} BuildName */

/**
 * What a row reads from a site's summary, and the largest ratio to the other site each build may
 * have (no goal: information only).
 * @typedef {{ label: string, pick: (site: SiteSummary) => number | undefined, goals: Partial<Record<BuildName, number>> }} CompareRow
 */

/** @type {CompareRow[]} */
const ROWS = [
  { label: 'FCP, loopback', pick: (site) => site.loopback.fcpMs.median, goals: {} },
  { label: 'navigation -> offline-ready, loopback', pick: (site) => site.loopback.readyMs.median, goals: {} },
  { label: 'load -> offline-ready, loopback', pick: (site) => site.loopback.loadToReadyMs.median, goals: { react: 1 } },
  { label: 'FCP, slow compressed', pick: (site) => site.slow.fcpMs.median, goals: {} },
  { label: 'navigation -> offline-ready, slow compressed', pick: (site) => site.slow.readyMs.median, goals: { react: 1, preact: 0.9 } },
  { label: 'load -> offline-ready, slow compressed', pick: (site) => site.slow.loadToReadyMs.median, goals: {} },
  { label: 'navigation -> offline-ready, slow uncompressed', pick: (site) => site.slowIdentity.readyMs.median, goals: {} },
];

/**
 * The comparison as table rows (header first), or [] when no build was compared.
 * @param {Partial<Record<BuildName, { load?: LoadResults }>>} results
 * @returns {string[][]}
 */
export function compareRows(results) {
  const builds = /** @type {[BuildName, LoadResults][]} */ (
    Object.entries(results)
      .map(([build, parts]) => [build, parts?.load])
      .filter(([, load]) => /** @type {LoadResults | undefined} */ (load)?.compared)
  );
  if (!builds.length) return [];
  const header = ['', ...builds.flatMap(([build]) => [build === 'react' ? 'React' : 'Preact', 'other', 'ratio', 'goal'])];
  const rows = ROWS.map((row) => [
    row.label,
    ...builds.flatMap(([build, load]) => {
      // Only builds whose load results have `compared` are here.
      const other = /** @type {SiteSummary} */ (load.compared);
      const ours = row.pick(load);
      const theirs = row.pick(other);
      const goal = row.goals[build];
      if (ours === undefined || theirs === undefined) return [formatMs(ours), formatMs(theirs), '—', goal ? `≤ ${goal.toFixed(2)}x` : ''];
      const ratio = ours / theirs;
      const verdict = goal === undefined ? '' : `≤ ${goal.toFixed(2)}x ${ratio <= goal ? '✓' : '✗'}`;
      return [formatMs(ours), formatMs(theirs), `${ratio.toFixed(2)}x`, verdict];
    }),
  ]);
  return [header, ...rows];
}

/** @param {number | undefined} value */
const formatMs = (value) => (value === undefined ? '—' : `${Math.round(value).toLocaleString('en-US')} ms`);

/**
 * Prints the comparison under a line naming the other site, when there is one.
 * @param {Partial<Record<BuildName, { load?: LoadResults }>>} results
 * @param {number} runs
 */
export function printComparison(results, runs) {
  const rows = compareRows(results);
  if (!rows.length) return;
  const other = Object.values(results).find((parts) => parts?.load?.compared)?.load?.compared?.dir;
  console.log(`\ncompared with ${other} (the other site), visited in turn with each build, medians of ${runs}:`);
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows)
    console.log(
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
        .join('  ')
        .trimEnd(),
    );
}
