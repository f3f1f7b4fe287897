// The unit files run in two processes at once, shared out by the last run's times
// (test/harness/unit-groups.mjs): the longest first, each to the group with the least so far; every
// file's counts and failures reach the runner, and each run's times are kept for the next.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runUnitGroups, shareByTime } from '../harness/unit-groups.mjs';

const test = suite('unit files in two processes');
const root = process.cwd();
let dir = '';
test.before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'unit-groups-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('shares files out longest first, each to the group with the least time; a file not timed yet counts a second', () => {
  const known = { 'a.test.mjs': 5000, 'b.test.mjs': 3000, 'c.test.mjs': 2500, 'e.test.mjs': 100 };
  const files = ['e.test.mjs', 'd.test.mjs', 'c.test.mjs', 'b.test.mjs', 'a.test.mjs'];
  // a (5000) | b (3000), c (5500) | d (6000) to the first, e to the second: 6000 and 5600.
  assert.equal(shareByTime(files, known, 2), [
    ['a.test.mjs', 'd.test.mjs'],
    ['b.test.mjs', 'c.test.mjs', 'e.test.mjs'],
  ]);
  assert.equal(shareByTime(['x.test.mjs'], {}, 2), [['x.test.mjs']], 'no empty group');
});

/** Writes a bundled-like test file that waits `ms`, then passes or fails. */
function testFile(name: string, ms: number, passes: boolean): string {
  const timed = pathToFileURL(path.join(root, 'test/harness/uvu-timed.mjs')).href;
  const file = path.join(dir, 'unit', name);
  writeFileSync(
    file,
    `import { suite } from ${JSON.stringify(timed)};
const test = suite(${JSON.stringify(name)});
test('waits ${ms} ms', () => new Promise((resolve, reject) => setTimeout(() => (${passes} ? resolve() : reject(new Error('failed on purpose'))), ${ms})));
test.run();
`,
  );
  return file;
}

test("runs every file, reports each process's counts and failures, and keeps each file's time for the next run", async () => {
  rmSync(path.join(dir, 'unit'), { recursive: true, force: true });
  mkdirSync(path.join(dir, 'unit'), { recursive: true });
  const files = [testFile('slow.test.mjs', 400, true), testFile('quick.test.mjs', 10, true), testFile('failing.test.mjs', 10, false)];
  // Times cut short (a run stopped while writing them) only cost the balance.
  writeFileSync(path.join(dir, 'unit-times.json'), '{"slow.test');
  const runs = await runUnitGroups({ root, cache: dir, outdir: path.join(dir, 'unit'), files });
  assert.ok(runs.length >= 1 && runs.length <= 2, `${runs.length} processes`);
  const out = runs.map((run) => run.out).join('');
  for (const name of ['slow.test.mjs', 'quick.test.mjs', 'failing.test.mjs']) assert.match(out, name);
  assert.match(out, 'failed on purpose');
  assert.ok(
    runs.some((run) => run.code !== 0),
    'the process with the failing file exits non-zero',
  );
  const totals = [...out.matchAll(/Total:\s+(\d+)\n\s+Passed:\s+(\d+)/g)].reduce(
    (sum, [, total, passed]) => ({ total: sum.total + Number(total), passed: sum.passed + Number(passed) }),
    { total: 0, passed: 0 },
  );
  assert.equal(totals, { total: 3, passed: 2 });
  const times = JSON.parse(readFileSync(path.join(dir, 'unit-times.json'), 'utf8')) as Record<string, number>;
  assert.equal(Object.keys(times).sort(), ['failing.test.mjs', 'quick.test.mjs', 'slow.test.mjs']);
  assert.ok(times['slow.test.mjs'] >= 400 && times['quick.test.mjs'] < times['slow.test.mjs'], JSON.stringify(times));
});

test.run();
