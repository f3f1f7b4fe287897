// The tests run in any builder's repository: a fresh one-commit history (GitHub's "Use this
// template"), a shallow clone (GitHub Actions' checkout) and a folder without `.git` (a download).
// In each, the copy's own harness lists the sources and builds every test site, the released
// version to update from included, without reading this repository's history.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sources } from '../harness/test-sites.mjs';
import { audit, cleanup, copyProject, temp, type Variant } from './lib/site';

const repo = process.cwd();

/** What the copy's own harness found and built: its sources, and the folder of each variant of the React build. */
interface HarnessRun {
  sources: string[];
  sites: Record<Variant, string>;
}

/** Runs git in `cwd`; throws its output when it fails. */
function git(cwd: string, ...args: string[]): void {
  const result = spawnSync('git', ['-c', 'user.name=Builder', '-c', 'user.email=builder@example.com', ...args], { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${cwd}: ${result.stderr}`);
}

/** A download with a history of its own: one commit, as "Use this template" makes. */
function freshHistory(): string {
  const copy = copyProject();
  git(copy, 'init', '--quiet', '--initial-branch=main');
  git(copy, 'add', '.');
  git(copy, 'commit', '--quiet', '--message', 'Initial commit');
  return copy;
}

/** A clone at depth 1 of a two-commit history: the first commit is not in it. */
function shallowClone(): string {
  const origin = freshHistory();
  git(origin, 'commit', '--quiet', '--allow-empty', '--message', 'Second commit');
  // At the same depth as the other copies: a build's hashes depend on where node_modules is from the project.
  const clone = temp();
  git(repo, 'clone', '--quiet', '--depth', '1', `file://${origin}`, clone);
  rmSync(origin, { recursive: true, force: true });
  symlinkSync(path.join(repo, 'node_modules'), path.join(clone, 'node_modules'));
  return clone;
}

/** Runs the copy's own test-sites.mjs: its sources, and the React build's test sites. */
function runHarness(copy: string): HarnessRun {
  const script = `
    import { BUILDS, buildTestSites, sources } from './test/harness/test-sites.mjs';
    import { readFileSync } from 'node:fs';
    import path from 'node:path';
    const file = await buildTestSites(process.cwd(), path.resolve('.cache/sites'), { builds: BUILDS.filter((build) => build.name === 'react') });
    console.log(JSON.stringify({ sources: sources(process.cwd()), sites: JSON.parse(readFileSync(file, 'utf8')).react }));
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: copy, encoding: 'utf8' });
  assert.is(result.status, 0, `the harness failed in ${copy}: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '');
}

const test = suite('the tests run in any repository');
test.after(cleanup);

const expectedSources = sources(repo);
const runs: Record<string, HarnessRun> = {};

for (const [kind, make] of [
  ['a folder without .git', copyProject],
  ['a fresh one-commit history', freshHistory],
  ['a shallow clone', shallowClone],
] as const) {
  test(`${kind}: the harness lists the same sources and builds every test site, the released version included`, () => {
    const copy = make();
    assert.is(existsSync(path.join(copy, '.git', 'shallow')), kind === 'a shallow clone', 'only the clone is shallow');
    const run = runHarness(copy);
    assert.equal(run.sources, expectedSources);
    for (const [variant, dir] of Object.entries(run.sites)) assert.ok(existsSync(path.join(dir, 'index.html')), `${variant} has its page`);
    assert.is.not(audit(run.sites.released).version, audit(run.sites.v1).version, 'the released version is another version');
    assert.match(readFileSync(path.join(run.sites['released-base'], 'index.html'), 'utf8'), '/my-app/');
    runs[kind] = run;
  });
}

test('the three copies build the same released version and the same current version', () => {
  const versions = Object.values(runs).map((run) => [audit(run.sites.released).version, audit(run.sites.v1).version].join(' '));
  assert.is(versions.length, 3);
  assert.equal(new Set(versions).size, 1, versions.join(', '));
});

test.run();
