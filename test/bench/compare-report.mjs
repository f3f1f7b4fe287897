// `npm run bench -- --compare DIR`: our builds against another built site, each median beside the
// other site's median from the same rounds (visited in turn with that build), their ratio, and the
// goals the offline layer is held to. With `--before REF`, each row also has our site as it was at
// that commit, measured in the same rounds: before and after, each with its ratio to the other site.

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
  { label: 'navigation -> offline-ready, slow compressed', pick: (site) => site.slow.readyMs.median, goals: { react: 0.9, preact: 0.8 } },
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
  const withBefore = builds.some(([, load]) => load.before);
  const header = [
    '',
    ...builds.flatMap(([build]) => {
      const name = build === 'react' ? 'React' : 'Preact';
      return withBefore ? [`${name} before`, 'ratio', `${name} now`, 'other', 'ratio', 'goal'] : [name, 'other', 'ratio', 'goal'];
    }),
  ];
  const rows = ROWS.map((row) => [
    row.label,
    ...builds.flatMap(([build, load]) => {
      // Only builds whose load results have `compared` are here.
      const theirs = row.pick(/** @type {SiteSummary} */ (load.compared));
      const ours = row.pick(load);
      const goal = row.goals[build];
      const verdict =
        goal === undefined
          ? ''
          : `≤ ${goal.toFixed(2)}x${ours === undefined || theirs === undefined ? '' : ours / theirs <= goal ? ' ✓' : ' ✗'}`;
      const now = [formatMs(ours), formatMs(theirs), formatRatio(ours, theirs), verdict];
      if (!withBefore) return now;
      const before = load.before ? row.pick(load.before) : undefined;
      return [formatMs(before), formatRatio(before, theirs), ...now];
    }),
  ]);
  return [header, ...rows];
}

/**
 * `ours / theirs` as "0.86x", or a dash when either is missing.
 * @param {number | undefined} ours
 * @param {number | undefined} theirs
 */
const formatRatio = (ours, theirs) => (ours === undefined || theirs === undefined ? '—' : `${(ours / theirs).toFixed(2)}x`);

/** @param {number | undefined} value */
const formatMs = (value) => (value === undefined ? '—' : `${Math.round(value).toLocaleString('en-US')} ms`);

/**
 * Prints the comparison under a line naming the other site, when there is one.
 * @param {Partial<Record<BuildName, { load?: LoadResults }>>} results
 * @param {number} runs
 * @param {string} [before] the commit --before named, when it did
 */
export function printComparison(results, runs, before) {
  const rows = compareRows(results);
  if (!rows.length) return;
  const other = Object.values(results).find((parts) => parts?.load?.compared)?.load?.compared?.dir;
  const sites = before ? `ours as at ${before} ("before") and ${other} (the other site)` : `${other} (the other site)`;
  console.log(`\ncompared with ${sites}, visited in turn with each build, medians of ${runs}:`);
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows)
    console.log(
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
        .join('  ')
        .trimEnd(),
    );
}
