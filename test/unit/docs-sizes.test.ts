// docs/build.md's sizes table and its line of what the scripts are made of are what the build
// measures: both builds are made in memory with the build's own steps (as `npm run docs` makes
// them) and each row of the table is compared; a row that differs fails naming it, with the
// command that rewrites it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { betweenMarkers, replaceBetweenMarkers } from '../../tools/doc-markers.mjs';

const test = suite('docs: sizes');
const root = process.cwd();
// Loaded from its file, not bundled into the test: it builds the site with the build's own modules.
const docs: typeof import('../../tools/docs.mjs') = await import(pathToFileURL(path.join(root, 'tools/docs.mjs')).href);

/** Both builds' measures, made in a process of their own (the prerender loads React; a test file before may have loaded another). */
function measureBoth(): Awaited<ReturnType<typeof docs.measureBoth>> {
  const run = spawnSync(process.execPath, ['tools/docs.mjs', '--measure'], { cwd: root, encoding: 'utf8' });
  assert.is(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

/** The rows of `actual` that are not in `expected`, by their first cell, with both versions. */
function differingRows(expected: string, actual: string): string[] {
  const expectedRows = expected.trim().split('\n');
  const actualRows = actual.trim().split('\n');
  const differing: string[] = [];
  for (let index = 0; index < Math.max(expectedRows.length, actualRows.length); index++) {
    if (expectedRows[index] === actualRows[index]) continue;
    const name = (expectedRows[index] ?? actualRows[index] ?? '').split('|')[1]?.trim();
    differing.push(`row ${name}: docs say "${actualRows[index] ?? '(none)'}", the build measures "${expectedRows[index] ?? '(none)'}"`);
  }
  return differing;
}

test("docs/build.md's sizes table is what both builds measure, against package.json's budgets", () => {
  const measured = measureBoth();
  const written = betweenMarkers(readFileSync(path.join(root, docs.SIZES_DOC), 'utf8'), 'sizes', docs.SIZES_DOC);
  const differing = differingRows(docs.sizesTable(measured), written);
  assert.equal(differing, [], `${differing.join('\n')}\nrun \`npm run docs\` to write the table`);
  const budgets = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).budgets;
  assert.ok(written.includes(`${budgets.js.toLocaleString('en-US')} B`), "the table shows package.json's js budget");
  const shares = betweenMarkers(readFileSync(path.join(root, docs.SIZES_DOC), 'utf8'), 'composition', docs.SIZES_DOC).trim();
  assert.is(shares, docs.sharesLine(measured.reactShares), `what the scripts are made of differs: run \`npm run docs\``);
  assert.match(shares, /^React build: react-dom [\d.]+ [\d.]+ %/, 'the largest part first');
});

test('a row changed by hand is named', () => {
  const measured = {
    react: { js: { gzip: 1000, budget: 2000 }, css: { gzip: 10, budget: 20 } },
    preact: { js: { gzip: 500, budget: 900 }, css: { gzip: 10, budget: 20 } },
  };
  const table = docs.sizesTable(measured);
  assert.match(table, '| `js` / `js.preact` | page JS, framework included (what `/` loads) | 1,000 B | 500 B | 2,000 B / 900 B |');
  const edited = table.replace('| 10 B | 10 B |', '| 9 B | 10 B |');
  const differing = differingRows(table, edited);
  assert.is(differing.length, 1);
  assert.match(differing[0] ?? '', /^row `css`: docs say/);
});

test('only the text between the markers is rewritten; missing markers are an error naming the file', () => {
  const text = 'before\n<!-- sizes:start (written) -->\nold\n<!-- sizes:end -->\nafter\n';
  assert.is(
    replaceBetweenMarkers(text, 'sizes', 'new', 'x.md'),
    'before\n<!-- sizes:start (written) -->\nnew\n<!-- sizes:end -->\nafter\n',
  );
  assert.throws(() => replaceBetweenMarkers('no markers', 'sizes', 'new', 'x.md'), /x\.md has no "<!-- sizes:start -->"/);
});

test.run();
