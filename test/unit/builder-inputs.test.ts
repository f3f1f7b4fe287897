// Safe in a builder's hands (issue 42): every bad input to `node build.mjs`, run in a copy of the
// project that is a git repository, ends with exit 1 and one line saying what is wrong, and
// changes nothing: every file of the copy, .git included, is fingerprinted before and after.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { editPackageJson, fingerprint, gitCopy, runBuild } from '../e2e/lib/builder';
import { beforeAllTests } from '../e2e/lib/hooks';
import { cleanup } from '../e2e/lib/site';
import { PROBE, APP, APP_SCREEN, PROBE_FILE, screen, withBudgets, write } from './lib/builder-probe';

/** One bad input: what it is, the command's arguments, how the copy is changed first, and the one line. */
type Case = { what: string; args?: string[]; env?: Record<string, string>; change?: (dir: string) => void; line: string };

const DIST = '--out "dist" holds files no build wrote';
const cases: Case[] = [
  {
    what: '--out . (the project)',
    args: ['--out', '.'],
    line: `--out "." is the project's folder or holds it; the build replaces its output folder whole, so give it one of its own (such as dist)`,
  },
  {
    what: '--out .. (above the project)',
    args: ['--out', '..'],
    line: `--out ".." is the project's folder or holds it; the build replaces its output folder whole, so give it one of its own (such as dist)`,
  },
  ...['src', 'static', 'test', 'tools', 'deploy', 'node_modules', '.git', 'src/ui/screens'].map((out) => ({
    what: `--out ${out}`,
    args: ['--out', out],
    line: `--out "${out}" is in the project's ${out.split('/')[0]}/; give the build a folder of its own (such as dist)`,
  })),
  {
    what: '--out through a link to src/',
    args: ['--out', 'linked'],
    change: (dir) => spawnSync('ln', ['-s', 'src', path.join(dir, 'linked')]),
    line: `--out "linked" is in the project's src/; give the build a folder of its own (such as dist)`,
  },
  {
    what: '--out a file',
    args: ['--out', 'package.json'],
    line: '--out "package.json" is a file, not a folder; give the build a folder of its own (such as dist)',
  },
  {
    what: '--out a folder of other files (dist/ holding notes, no audit.json)',
    change: (dir) => write(dir, 'dist/my-notes.txt', 'mine\n'),
    line: `${DIST} (it has no audit.json), and the build would replace them: give it an empty or new folder`,
  },
  { what: '--out without its value', args: ['--out'], line: '--out needs a value (as in --out dist)' },
  { what: '--out followed by a flag', args: ['--out', '--preact'], line: '--out needs a value (as in --out dist)' },
  { what: '--base without its value', args: ['--base'], line: '--base needs a value (as in --base /my-app/)' },
  {
    what: '--watch with --out (dev keeps its build in memory)',
    args: ['--watch', '--out', 'dev'],
    line: '--out is for builds: the dev loop (--watch) keeps its build in memory',
  },
  ...[
    ['budget', 'budgets'],
    ['networkonly', 'networkOnly'],
    ['stallSecond', 'stallSeconds'],
  ].map(([key, meant]) => ({
    what: `a setting named "${key}" (a typo of "${meant}")`,
    change: (dir: string) => editPackageJson(dir, (pkg) => ({ ...pkg, [key]: meant === 'networkOnly' ? ['/api/'] : 1000 })),
    line: `package.json has "${key}", which is no setting: did you mean "${meant}"? (rename it, or remove it)`,
  })),
  {
    what: 'a budget for a kind of file no build has',
    change: withBudgets({ fonts: 20000 }),
    line: 'package.json "budgets" has "fonts", which no build measures (the keys are sw.js, js, js.preact, lazy, css, app, assets)',
  },
  {
    what: 'a "budgets" value that is no number',
    change: withBudgets({ js: 'abc' }),
    line: 'package.json "budgets"."js" must be a positive number of gzip bytes, not "abc"',
  },
  {
    what: 'a negative budget',
    change: withBudgets({ css: -1 }),
    line: 'package.json "budgets"."css" must be a positive number of gzip bytes, not -1',
  },
  {
    what: 'a mistyped budget key',
    change: withBudgets({ JS: 88300 }),
    line: 'package.json "budgets" has "JS", which no build measures (the keys are sw.js, js, js.preact, lazy, css, app, assets)',
  },
  ...[
    ['a string', '88300'],
    ['a list', [88300]],
  ].map(([what, budgets]) => ({
    what: `"budgets" as ${what}`,
    change: withBudgets(budgets),
    line: 'package.json "budgets" must be an object of gzip bytes by group (sw.js, js, js.preact, lazy, css, app, assets)',
  })),
  {
    what: 'an empty "description"',
    change: (dir) => editPackageJson(dir, (pkg) => ({ ...pkg, description: ' ' })),
    line: 'package.json "description" must be a non-empty string',
  },
  {
    what: 'a manifest template "name" other than package.json\'s',
    change: (dir) =>
      write(
        dir,
        'static/manifest.webmanifest',
        readFileSync(path.join(dir, 'static/manifest.webmanifest'), 'utf8').replace('{', '{\n  "name": "Old Name",'),
      ),
    line: `static/manifest.webmanifest has "name": "Old Name", but package.json makes it "${APP.displayName ?? APP.name}": remove it from the template (the build writes it from package.json)`,
  },
  ...['-1', '4.5', "'4'"].map((navOrder) => ({
    what: `navOrder = ${navOrder}`,
    change: (dir: string) => write(dir, PROBE_FILE, screen(PROBE.title, navOrder)),
    line: `${PROBE_FILE}: navOrder must be a whole number, 0 or more, written as digits (lowest first), not ${navOrder}`,
  })),
  {
    what: 'a title repeated by a screen whose name sorts first (the new one is named)',
    change: (dir) => write(dir, 'src/ui/screens/aaa-aardvark.tsx', screen(APP_SCREEN.title.replace(/'/g, "\\'"), PROBE.navOrder)),
    line: `src/ui/screens/aaa-aardvark.tsx: title ${JSON.stringify(APP_SCREEN.title)} is also ${APP_SCREEN.file}'s; each screen needs its own`,
  },
  {
    what: 'a screen written as .ts',
    change: (dir) => write(dir, `src/ui/screens/${PROBE.name}.ts`, 'export const title = 1;\n'),
    line: `src/ui/screens/${PROBE.name}.ts is not a screen: only .tsx files go in src/ui/screens/ (a screen's own parts go in a sub-folder)`,
  },
  {
    what: 'a screen that reads window while it is prerendered',
    change: (dir) => write(dir, PROBE_FILE, screen(PROBE.title, PROBE.navOrder, '<p>{window.innerWidth}</p>')),
    line: `${PROBE_FILE}:5:14: prerendering /${PROBE.name}/ threw ReferenceError: window is not defined`,
  },
  {
    what: '"networkOnly" written with the base in it (the paths are relative to the base)',
    args: ['--base', '/my-app/'],
    change: (dir) => editPackageJson(dir, (pkg) => ({ ...pkg, networkOnly: ['/.well-known/', '/my-app/api/'] })),
    line: 'package.json "networkOnly" has "/my-app/api/", which starts with the base /my-app/: its paths are relative to the base (write "/api/")',
  },
  {
    what: 'a screen importing a file of a kind the build does not know (.psd)',
    change: (dir) => {
      write(dir, `src/ui/screens/${PROBE.name}/logo.psd`, 'not an image a browser draws\n');
      write(dir, PROBE_FILE, `import logo from './${PROBE.name}/logo.psd';\n${screen(PROBE.title, PROBE.navOrder, '<p>{logo}</p>')}`);
    },
    line: `${PROBE_FILE}:1:18: cannot import src/ui/screens/${PROBE.name}/logo.psd: the build does not know ".psd" files (it imports svg, png, jpg, jpeg, webp, avif, gif, ico, woff2, wav, mp3, mp4, webm)`,
  },
  {
    what: 'a screen that reads window when it is loaded',
    change: (dir) => write(dir, PROBE_FILE, `const width = window.innerWidth;\n${screen(PROBE.title, PROBE.navOrder, '<p>{width}</p>')}`),
    line: `${PROBE_FILE}:1:15: loading the screens for prerendering threw ReferenceError: window is not defined`,
  },
  {
    what: 'PORT=abc',
    args: ['--serve'],
    env: { PORT: 'abc' },
    line: 'PORT must be a whole number from 0 to 65535 (0 picks a free one), not "abc"',
  },
  {
    what: 'PORT=70000 for the dev loop',
    args: ['--watch'],
    env: { PORT: '70000' },
    line: 'PORT must be a whole number from 0 to 65535 (0 picks a free one), not "70000"',
  },
];

const test = suite<{ dir: string }>('builder: bad input is one line, exit 1, and nothing deleted (issue 42)');
let dir: string;
beforeAllTests(test, () => {
  dir = gitCopy();
});
test.after(cleanup);
test.after.each(() => {
  // Back to the committed template for the next case (the copy's own git: checkout and clean).
  spawnSync('git', ['checkout', '--quiet', '--', '.'], { cwd: dir });
  spawnSync('git', ['clean', '-fdxq', '--exclude=node_modules'], { cwd: dir });
});

for (const { what, args = [], env, change, line } of cases) {
  test(`${what}: exit 1, "${line.slice(0, 50)}…", nothing changed`, () => {
    change?.(dir);
    const before = fingerprint(dir);
    const outcome = runBuild(dir, args, env);
    assert.is(outcome.code, 1, outcome.stderr);
    const prefix = /^PORT/.test(line) ? 'cannot serve' : 'build failed';
    assert.is(outcome.stderr, `${prefix}: ${line}`);
    assert.equal(fingerprint(dir), before);
  });
}

test('--help and -h print every option, exit 0 and build nothing; --nope names --help among the options', () => {
  const before = fingerprint(dir);
  for (const flag of ['--help', '-h']) {
    const outcome = runBuild(dir, [flag]);
    assert.is(outcome.code, 0, outcome.stderr);
    for (const option of ['--preact', '--kill-switch', '--check', '--out DIR', '--base /PATH/', '--serve', '--watch', '-h, --help'])
      assert.match(outcome.stdout, `  ${option} `, `${flag} lists ${option}`);
  }
  assert.equal(fingerprint(dir), before, 'nothing built');
  assert.match(runBuild(dir, ['--nope']).stderr, /^build failed: unknown option --nope \(expected .*, --help\)$/);
});

test('a port in use: "cannot serve", one line, exit 1, for --serve (the build is written: it did not fail) and --watch', async () => {
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as net.AddressInfo;
  try {
    const outcome = runBuild(dir, ['--serve'], { PORT: String(port) });
    assert.is(outcome.code, 1);
    assert.is(outcome.stderr, `cannot serve: port ${port} on 127.0.0.1 is in use (set PORT to another)`);
    assert.ok(fingerprint(dir)['dist/audit.json'], 'dist/ built');
    const dev = runBuild(dir, ['--watch'], { PORT: String(port) });
    assert.is(dev.code, 1);
    assert.is(dev.stderr, `cannot serve: port ${port} on 127.0.0.1 is in use (set PORT to another)`);
  } finally {
    taken.close();
  }
});

test('an earlier build, a dev build on disk and an empty folder are output folders the build replaces, and nothing beside them changes', () => {
  write(dir, 'old-dev/sw.js', '// Dev build: no service worker.\n');
  write(dir, 'old-dev/index.html', '<!doctype html>\n');
  mkdirSync(path.join(dir, 'empty'));
  /** The copy's entries but the output folders: what a build must leave as it is. */
  const rest = () => Object.entries(fingerprint(dir)).filter(([file]) => !/^(dist|empty|old-dev)(\/|$)/.test(file));
  const before = rest();
  for (const args of [[], [], ['--out', 'empty'], ['--out', 'old-dev']]) {
    const outcome = runBuild(dir, args);
    assert.is(outcome.code, 0, outcome.stderr);
  }
  const built = fingerprint(dir);
  assert.ok(built['dist/audit.json'] && built['empty/audit.json'] && built['old-dev/audit.json']);
  assert.equal(rest(), before, 'nothing outside the output folders added, moved or deleted');
});

test.run();
