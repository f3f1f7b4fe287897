// `npm run bench -- --compare DIR [--before REF]`: the options it takes, and the comparison table's
// ratios and goals (the offline layer's own cost no more than the other site's; on the slow link
// React at most 0.9x, Preact 0.8x), with our site before and after when --before names a commit.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compareRows } from '../bench/compare-report.mjs';
import type { LoadResults, SiteSummary } from '../bench/load.mjs';
import { parseArgs } from '../bench/options.mjs';

const test = suite('bench --compare');

/** A site's medians, every profile alike: the summary fields the table reads. */
function summary(readyMs: number, loadToReadyMs: number): SiteSummary {
  const profile = {
    fcpMs: { runs: [], median: 100 },
    readyMs: { runs: [], median: readyMs },
    loadToReadyMs: { runs: [], median: loadToReadyMs },
    largestResponse: undefined,
    firstVisitBytes: { ratio: 1, ratios: [], repeatedUrls: [], visits: [] },
  };
  return { loopback: profile, slow: profile, slowIdentity: profile };
}

/** Our results with the other site's beside them. */
const compared = (ours: SiteSummary, other: SiteSummary): LoadResults => ({ ...ours, compared: { ...other, dir: '/tmp/other/dist' } });

/** The row whose label is `label`. */
function row(rows: string[][], label: string): string[] {
  const found = rows.find((cells) => cells[0] === label);
  if (!found) throw new Error(`no row ${label}`);
  return found;
}

test('--compare takes a folder and needs the load or engines part', () => {
  assert.is(parseArgs(['--compare', '../other/dist']).compare, '../other/dist');
  assert.throws(() => parseArgs(['--compare']), /--compare needs the folder of a built site/);
  assert.throws(() => parseArgs(['--compare', '--runs']), /--compare needs the folder/);
  assert.throws(() => parseArgs(['--only', 'build', '--compare', 'x']), /add one to --only/);
  assert.not.throws(() => parseArgs(['--only', 'engines', '--compare', 'x']));
});

test('each build beside the other site, the ratio, and the goal met or missed', () => {
  const rows = compareRows({
    react: { load: compared(summary(1_200, 300), summary(1_500, 200)) },
    preact: { load: compared(summary(1_400, 150), summary(1_500, 200)) },
  });
  assert.equal(rows[0], ['', 'React', 'other', 'ratio', 'goal', 'Preact', 'other', 'ratio', 'goal']);
  // React's own cost 300 ms against 200: 1.50x, over its goal of 1.00x.
  assert.equal(row(rows, 'load -> offline-ready, loopback').slice(1, 5), ['300 ms', '200 ms', '1.50x', '≤ 1.00x ✗']);
  // The slow link: React 0.80x (goal 0.90x), Preact 0.93x (goal 0.80x).
  const slow = row(rows, 'navigation -> offline-ready, slow compressed');
  assert.equal(slow.slice(1), ['1,200 ms', '1,500 ms', '0.80x', '≤ 0.90x ✓', '1,400 ms', '1,500 ms', '0.93x', '≤ 0.80x ✗']);
});

test('--before takes a commit, with --compare and the load part', () => {
  assert.is(parseArgs(['--compare', 'x', '--before', 'main']).before, 'main');
  assert.throws(() => parseArgs(['--compare', 'x', '--before']), /--before needs a git commit/);
  assert.throws(() => parseArgs(['--before', 'main']), /goes with --compare/);
  assert.throws(() => parseArgs(['--only', 'engines', '--compare', 'x', '--before', 'main']), /add it to --only/);
});

test('with --before, each row has our site before and now, each with its ratio to the other site', () => {
  const withBefore = (ours: SiteSummary, before: SiteSummary, other: SiteSummary): LoadResults => ({ ...compared(ours, other), before });
  const rows = compareRows({ react: { load: withBefore(summary(1_200, 300), summary(1_600, 400), summary(1_500, 200)) } });
  assert.equal(rows[0], ['', 'React before', 'ratio', 'React now', 'other', 'ratio', 'goal']);
  const slow = row(rows, 'navigation -> offline-ready, slow compressed');
  assert.equal(slow.slice(1), ['1,600 ms', '1.07x', '1,200 ms', '1,500 ms', '0.80x', '≤ 0.90x ✓']);
  assert.equal(row(rows, 'load -> offline-ready, loopback').slice(1), ['400 ms', '2.00x', '300 ms', '200 ms', '1.50x', '≤ 1.00x ✗']);
});

test('no table without a compared site', () => {
  assert.equal(compareRows({ react: { load: summary(1, 1) } }), []);
  assert.equal(compareRows({}), []);
});

test.run();
