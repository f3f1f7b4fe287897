// The end-to-end files start longest first by the last run's times (test/harness/run-times.mjs):
// a file with no time yet keeps its place at the front, and a missing or broken record orders
// nothing, fails nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { longestFirst, readTimes, timesToOrderBy } from '../harness/run-times.mjs';

const test = suite('e2e files, longest first');
let dir = '';
test.before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'run-times-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('files with no time keep their order at the front; the timed ones follow, the longest first', () => {
  const known = { 'webkit engines.test.mjs': 120_000, 'sw-update.test.mjs': 50_000, 'sbom.test.mjs': 1_500 };
  const files = ['webkit engines.test.mjs', 'sbom.test.mjs', 'new-b.test.mjs', 'sw-update.test.mjs', 'new-a.test.mjs'];
  assert.equal(
    longestFirst(files, (file) => file, known),
    ['new-b.test.mjs', 'new-a.test.mjs', 'webkit engines.test.mjs', 'sw-update.test.mjs', 'sbom.test.mjs'],
  );
  assert.equal(
    longestFirst(files, (file) => file, {}),
    files,
    'a first run keeps the order it was given',
  );
});

test('a missing or unreadable record is no times at all', async () => {
  assert.equal(await readTimes(path.join(dir, 'none.json')), {});
  const broken = path.join(dir, 'broken.json');
  writeFileSync(broken, '{"sbom.test.mjs": 15');
  assert.equal(await readTimes(broken), {});
  const good = path.join(dir, 'good.json');
  writeFileSync(good, '{"sbom.test.mjs": 1500}');
  assert.equal(await readTimes(good), { 'sbom.test.mjs': 1500 });
});

test("this machine's record wins; the shipped times fill in the files it lacks, and order a fresh clone", async () => {
  const shipped = path.join(dir, 'shipped.json');
  writeFileSync(shipped, '{"sw-update.test.mjs": 55000, "verify.test.mjs": 43000}');
  const recorded = path.join(dir, 'recorded.json');
  assert.equal(await timesToOrderBy(path.join(dir, 'none.json'), shipped), { 'sw-update.test.mjs': 55000, 'verify.test.mjs': 43000 });
  writeFileSync(recorded, '{"sw-update.test.mjs": 20000, "sbom.test.mjs": 1500}');
  assert.equal(await timesToOrderBy(recorded, shipped), {
    'sw-update.test.mjs': 20000,
    'verify.test.mjs': 43000,
    'sbom.test.mjs': 1500,
  });
  assert.equal(await timesToOrderBy(recorded, path.join(dir, 'none.json')), { 'sw-update.test.mjs': 20000, 'sbom.test.mjs': 1500 });
});

test.run();
