// A builder who never shipped an earlier release of this template deletes its migrations as the
// README says: src/migrations/, the migrations/ folders of the tests, and each line marked
// "Delete with src/migrations/". In a copy of the project that done, every program with code of
// src/ still type-checks, both builds succeed, and nothing left names the module.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanup, copyProject } from './lib/site';

/** The mark on each line that uses the migrations module. */
const MARK = 'Delete with src/migrations/';

/** Every file under `dir` of `root` (relative, posix), node_modules and dist aside. */
function filesUnder(root: string, dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !/(^|\/)(node_modules|dist)(\/|$)/.test(path.relative(root, entry.parentPath)))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** Runs `node args` in `cwd`; fails with its output unless it exits 0. */
function succeeds(cwd: string, args: string[]): void {
  const run = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  assert.is(run.status, 0, `node ${args.join(' ')}: ${run.stdout}${run.stderr}`);
}

test.after(cleanup);

test('deleting src/migrations/, the tests of it and the marked lines leaves a project that type-checks and builds', () => {
  const copy = copyProject();
  for (const folder of ['src/migrations', 'test/unit/migrations', 'test/e2e/demo/migrations']) {
    rmSync(path.join(copy, folder), { recursive: true });
  }
  const code = (dirs: string[]) =>
    ['sw.ts', ...dirs.flatMap((dir) => filesUnder(copy, dir))].filter((file) => /\.(ts|tsx|mjs)$/.test(file));
  let marked = 0;
  for (const file of code(['src'])) {
    const lines = readFileSync(path.join(copy, file), 'utf8').split('\n');
    const kept = lines.filter((line) => !line.includes(MARK));
    marked += lines.length - kept.length;
    if (kept.length < lines.length) writeFileSync(path.join(copy, file), kept.join('\n'));
  }
  // The page's (import and call in src/main.tsx) and each worker entry's (sw.ts, the kill switch).
  assert.is(marked, 4, 'the marked lines');
  const naming = code(['src', 'test', 'tools']).filter((file) =>
    /from '[./]*\/?(src\/)?migrations\/|import '[./]*\/?(src\/)?migrations\//.test(readFileSync(path.join(copy, file), 'utf8')),
  );
  assert.equal(naming, [], 'nothing imports the module any more');
  // Every line the deletion touched is in src/ or the tests: the programs with that code (app, sw,
  // test) are type-checked. The other three (tools, harness, bench) import nothing of src/, which
  // is checked here, so the deletion cannot change them.
  const otherPrograms = ['build.mjs', ...['tools', 'test/harness', 'test/bench', 'deploy'].flatMap((dir) => filesUnder(copy, dir))].filter(
    (file) => /\.(ts|mjs)$/.test(file),
  );
  const reachingSrc = otherPrograms.filter((file) =>
    /(from |import\s*\(?\s*)'(\.\.?\/)+src\//.test(readFileSync(path.join(copy, file), 'utf8')),
  );
  assert.equal(reachingSrc, [], 'tools, harness and bench import nothing of src/');
  succeeds(copy, ['tools/typecheck.mjs', 'app', 'sw', 'test']);
  succeeds(copy, ['build.mjs', '--out', 'dist']);
  succeeds(copy, ['build.mjs', '--preact', '--out', 'dist']);
  // The worker no longer looks for an earlier release's cache (`<name>-<12 hex digits>`).
  assert.not.ok(readFileSync(path.join(copy, 'dist/sw.js'), 'utf8').includes('[0-9a-f]{12}'), 'sw.js has no migration left');
});

test.run();
