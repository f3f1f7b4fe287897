// A build the engines' test processes share (test/e2e/lib/shared-build.ts): made once per run in
// the runner's shared folder, the others waiting for it and reading its result, or its failure.
// Two calls at once in one process take the same path as two processes: the folder that only one
// caller can create decides who builds.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sharedBuild } from '../e2e/lib/shared-build';

const test = suite('a build shared by the test processes of a run');
let shared = '';
test.before.each(() => {
  shared = mkdtempSync(path.join(os.tmpdir(), 'shared-build-'));
  process.env.E2E_SHARED = shared;
});
test.after.each(() => {
  delete process.env.E2E_SHARED;
  rmSync(shared, { recursive: true, force: true });
});

/** A build that takes a moment, counting how often it ran. */
function countedBuild() {
  const runs: string[] = [];
  const build = async (dir: string) => {
    runs.push(dir);
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { dist: path.join(dir, 'dist') };
  };
  return { runs, build };
}

test('asked by three at once, it is built once, in a folder of the run, and all three get its result', async () => {
  const { runs, build } = countedBuild();
  const results = await Promise.all([1, 2, 3].map(() => sharedBuild('an-app', build)));
  assert.is(runs.length, 1);
  assert.ok(runs[0].startsWith(shared), 'built in the run’s shared folder, which outlives the process');
  assert.ok(existsSync(runs[0]));
  assert.equal(
    results,
    [1, 2, 3].map(() => ({ dist: path.join(runs[0], 'dist') })),
  );
  const again = await sharedBuild('an-app', build);
  assert.is(runs.length, 1, 'a later ask in the run reads the same build');
  assert.equal(again, results[0]);
});

test('a build that fails fails every one that waited for it, with its reason', async () => {
  const failing = async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    throw new Error('build.mjs: budget js: 99,000 B gzip of 90,500 B');
  };
  const outcomes = await Promise.allSettled([sharedBuild('broken', failing), sharedBuild('broken', failing)]);
  const reasons = outcomes.map((outcome) => (outcome.status === 'rejected' ? (outcome.reason as Error).message : 'built'));
  assert.is(reasons[0], 'build.mjs: budget js: 99,000 B gzip of 90,500 B');
  assert.is(reasons[1], 'broken did not build (in another test process): build.mjs: budget js: 99,000 B gzip of 90,500 B');
});

test('without the runner (a test file run by hand), each asks builds its own', async () => {
  delete process.env.E2E_SHARED;
  const { runs, build } = countedBuild();
  await Promise.all([sharedBuild('an-app', build), sharedBuild('an-app', build)]);
  assert.is(runs.length, 2);
  assert.is.not(runs[0], runs[1]);
});

test.run();
