// What a build writes into its output folder and what it leaves there (issue 50): the site is
// readable by a server running as another user (folders 0755, files 0644 under the usual umask,
// whatever the umask says otherwise), and an entry the folder's own audit.json does not list (a
// gh-pages worktree's .git file, CNAME, .nojekyll, an owner's page) is kept, or the build refuses
// with one line naming it and changes nothing.
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fingerprint, gitCopy, runBuild } from '../e2e/lib/builder';
import { beforeAllTests } from '../e2e/lib/hooks';
import { cleanup, temp } from '../e2e/lib/site';
import { listScreens } from '../../tools/screens.mjs';

/** A screen name and title no app would take, placed after the app's last. */
const PROBE = 'output-probe';
const probeScreen = () =>
  `export const title = 'Output probe';\nexport const navOrder = ${Math.max(...listScreens(process.cwd()).map((s) => s.navOrder)) + 1};\n\nexport default function Screen() {\n  return <p>A probe.</p>;\n}\n`;

/** Runs git in `cwd` as a builder would; throws with git's own words when it fails. */
function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', ['-c', 'user.name=Builder', '-c', 'user.email=builder@example.com', ...args], { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** Every folder and file under `dir` with its permission bits, as `path mode` lines. */
function modes(dir: string): Map<string, number> {
  const found = new Map<string, number>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const full = path.join(folder, name);
      const stat = lstatSync(full);
      found.set(path.relative(dir, full), stat.mode & 0o777);
      if (stat.isDirectory()) walk(full);
    }
  };
  found.set('.', lstatSync(dir).mode & 0o777);
  walk(dir);
  return found;
}

const test = suite('output folder: readable by any server, and nothing of another kept out (issue 50)');
let dir: string;
beforeAllTests(test, () => {
  dir = gitCopy();
});
test.after(cleanup);

for (const [umask, folder, file] of [
  ['022', 0o755, 0o644],
  ['027', 0o750, 0o640],
] as const) {
  test(`under umask ${umask} the output folder and every folder in it are ${folder.toString(8)}, every file ${file.toString(8)}`, () => {
    const out = path.join(temp(), 'site');
    const result = spawnSync('sh', ['-c', `umask ${umask} && exec "$0" build.mjs --out "$1"`, process.execPath, out], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.is(result.status, 0, result.stderr);
    const found = modes(out);
    assert.ok(found.size > 20 && found.has('assets') && found.has('index.html'), 'a whole site');
    for (const [entry, mode] of found) {
      const expected = lstatSync(path.join(out, entry)).isDirectory() ? folder : file;
      assert.is(mode.toString(8), expected.toString(8), entry);
    }
  });
}

test('a git worktree of a gh-pages branch keeps its .git, CNAME, .nojekyll and the owner page, build after build', () => {
  const pages = path.join(temp(), 'pages');
  git(dir, 'worktree', 'add', '--quiet', '--detach', pages);
  git(pages, 'checkout', '--quiet', '--orphan', 'gh-pages');
  git(pages, 'rm', '-rfq', '.');
  writeFileSync(path.join(pages, 'CNAME'), 'notes.example.org\n');
  writeFileSync(path.join(pages, '.nojekyll'), '');
  git(pages, 'add', '-A');
  git(pages, 'commit', '--quiet', '-m', 'Pages settings');

  const first = runBuild(dir, ['--out', pages]);
  assert.is(first.code, 0, first.stderr);
  assert.is(readFileSync(path.join(pages, 'CNAME'), 'utf8'), 'notes.example.org\n');
  assert.ok(readFileSync(path.join(pages, '.git'), 'utf8').startsWith('gitdir: '), 'the worktree keeps its .git file');
  // The worktree still works: git sees the build's files as new, the branch's own as they were.
  const status = git(pages, 'status', '--porcelain');
  assert.match(status, '?? audit.json');
  assert.not.match(status, /CNAME|nojekyll/);
  git(pages, 'add', '-A');
  writeFileSync(path.join(pages, 'owner.html'), '<!doctype html><title>Mine</title>\n');
  mkdirSync(path.join(pages, 'talks'));
  writeFileSync(path.join(pages, 'talks', 'slides.pdf'), 'slides\n');
  writeFileSync(path.join(pages, 'assets', 'owner-logo.png'), 'logo\n');
  git(pages, 'add', '-A');
  git(pages, 'commit', '--quiet', '-m', 'The build, and pages of my own');

  const second = runBuild(dir, ['--out', pages]);
  assert.is(second.code, 0, second.stderr);
  // The same sources build the same bytes, so a worktree that kept everything has nothing to commit.
  assert.is(git(pages, 'status', '--porcelain'), '');
  assert.is(git(pages, 'log', '--format=%s', '-1').trim(), 'The build, and pages of my own');
});

test('an entry no build wrote where this build writes a file: one line naming both, exit 1, nothing changed', () => {
  const out = path.join(temp(), 'site');
  assert.is(runBuild(dir, ['--out', out]).code, 0);
  mkdirSync(path.join(out, PROBE));
  writeFileSync(path.join(out, PROBE, 'index.html'), '<!doctype html><title>Mine</title>\n');
  writeFileSync(path.join(dir, `src/ui/screens/${PROBE}.tsx`), probeScreen());
  try {
    const before = fingerprint(out);
    const refused = runBuild(dir, ['--out', out]);
    assert.is(refused.code, 1);
    assert.is(
      refused.stderr,
      `build failed: --out ${JSON.stringify(out)} holds ${PROBE}, which no earlier build wrote, and this build writes ${PROBE}/index.html: move it away or give the build another folder`,
    );
    assert.equal(fingerprint(out), before);
    assert.equal(
      readdirSync(path.dirname(out)).filter((name) => name !== 'site'),
      [],
      'no temporary folder left beside it',
    );
  } finally {
    git(dir, 'clean', '-fq', '--', 'src');
  }
});

test.run();
