// Safe in a builder's hands (issue 42): every bad input to `node build.mjs`, run in a copy of the
// project that is a git repository, ends with exit 1 and one line saying what is wrong, and
// changes nothing: every file of the copy, .git included, is fingerprinted before and after.
// Then what a builder's own files must not break: editors' files beside the screens, a rename
// reaching every shipped text, and --serve under --base.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { editPackageJson, fingerprint, gitCopy, runBuild, startServing } from '../e2e/lib/builder';
import { beforeAllTests } from '../e2e/lib/hooks';
import { cleanup } from '../e2e/lib/site';
import { until } from '../e2e/lib/wait';
import { listScreens } from '../../tools/screens.mjs';

/**
 * The screen the cases add: a file name and title no app would take, and a place in the
 * navigation after the app's last, so that what is reported is the case's fault alone, whatever
 * screens the app has.
 */
const PROBE = {
  name: 'build-probe',
  title: 'Build probe',
  navOrder: Math.max(...listScreens(process.cwd()).map((appScreen) => appScreen.navOrder)) + 1,
};
/** The app as this checkout has it: its package.json and a screen of it, whatever the builder named them. */
const APP = JSON.parse(readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')) as {
  name: string;
  displayName?: string;
  description?: string;
};
const APP_SCREEN = listScreens(process.cwd())[0];
/** The name the rename test gives the app: never the one it has. */
const RENAMED = APP.name === 'field-notes' ? 'field-notes-renamed' : 'field-notes';

/** The probe screen's file. */
const PROBE_FILE = `src/ui/screens/${PROBE.name}.tsx`;

/** A screen file's source. */
const screen = (title: string, navOrder: string | number, body = '<p>A probe.</p>') =>
  `export const title = '${title}';\nexport const navOrder = ${navOrder};\n\nexport default function Screen() {\n  return ${body};\n}\n`;

/** Writes a file of the copy. */
function write(dir: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

/** The budgets of the copy's package.json replaced by `budgets`. */
const withBudgets = (budgets: unknown) => (dir: string) => editPackageJson(dir, (pkg) => ({ ...pkg, budgets }));

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

const files = suite<{ dir: string }>("builder: editors' files, a rename, --serve --base (issue 42)");
beforeAllTests(files, () => {
  dir = gitCopy();
});
files.after(cleanup);

files("editors' files beside the screens are ignored: .DS_Store, vim's swap, emacs' backup and autosave, sed -i's temporary", () => {
  for (const name of ['.DS_Store', '.help.tsx.swp', 'index.tsx~', '#index.tsx#', 'sedAb12Cd', 'status.tsx.orig'])
    write(dir, `src/ui/screens/${name}`, 'not a screen\n');
  const outcome = runBuild(dir, []);
  assert.is(outcome.code, 0, outcome.stderr);
  const fingerprints = fingerprint(path.join(dir, 'dist'));
  assert.ok(fingerprints['index.html'] && fingerprints['status/index.html']);
  assert.not.ok(
    Object.keys(fingerprints).some((file) => /DS_Store|swp|sedAb|orig|~|#/.test(file)),
    'no page of theirs',
  );
});

files("a rename reaches every shipped text: the pages' description and <noscript>, the manifest's name and description", () => {
  editPackageJson(dir, (pkg) => ({
    ...pkg,
    name: RENAMED,
    displayName: 'Field Notes',
    description: 'Notes from the field, offline.',
  }));
  const outcome = runBuild(dir, []);
  assert.is(outcome.code, 0, outcome.stderr);
  const html = readFileSync(path.join(dir, 'dist/status/index.html'), 'utf8');
  assert.match(html, '<meta name="description" content="Notes from the field, offline.">');
  assert.match(html, '<noscript>Field Notes needs JavaScript; without it you can read these pages only.</noscript>');
  const manifest = JSON.parse(readFileSync(path.join(dir, 'dist/manifest.webmanifest'), 'utf8'));
  assert.equal(
    [manifest.name, manifest.short_name, manifest.description],
    ['Field Notes', 'Field Notes', 'Notes from the field, offline.'],
  );
  // Every text file shipped, but the precompressed copies (the same bytes); the SBOM's own
  // property names (`offline-shell:build`, …) name the template's CycloneDX properties, not the app.
  const dist = fingerprint(path.join(dir, 'dist'));
  const shipped = Object.keys(dist).filter((file) => dist[file] !== 'folder' && !/\.(gz|br|png)$/.test(file));
  assert.ok(shipped.includes('sbom.cdx.json') && shipped.some((file) => /^assets\/app-\w+\.js$/.test(file)));
  for (const file of shipped) {
    const text = readFileSync(path.join(dir, 'dist', file), 'utf8').replace(/offline-shell:[a-z-]+/g, '');
    // The old name as a whole word (a name is [a-z0-9._-]): the new one may contain it ("notes" in "field-notes").
    const withoutNew = text.replaceAll(RENAMED, '');
    assert.not.match(withoutNew, new RegExp(`(?<![a-z0-9._-])${APP.name.replace(/\./g, '\\.')}(?![a-z0-9_-]|\\.[a-z0-9])`), file);
    if (APP.description) assert.not.ok(text.includes(APP.description), `${file} still has the old description`);
  }
});

files(
  'imported files under --base /my-app/: each hashed in assets/, in the page, the precache, audit.json, bundle.json and the assets budget',
  () => {
    const fixture = path.join(process.cwd(), 'test/fixtures/media/media-fixture');
    write(dir, `src/ui/screens/${PROBE.name}/mark.svg`, readFileSync(path.join(fixture, 'mark.svg'), 'utf8'));
    mkdirSync(path.join(dir, `src/ui/screens/${PROBE.name}`), { recursive: true });
    writeFileSync(path.join(dir, `src/ui/screens/${PROBE.name}/dot.png`), readFileSync(path.join(fixture, 'dot.png')));
    // A font from a stylesheet: the file loader copies its bytes, whatever they are.
    write(dir, `src/ui/screens/${PROBE.name}/probe.woff2`, 'wOF2 a font for the test\n');
    write(dir, `src/ui/screens/${PROBE.name}/probe.css`, `@font-face { font-family: Probe; src: url(./probe.woff2) format('woff2'); }\n`);
    const imports = ['mark.svg', 'dot.png', 'probe.css'].map(
      (file, index) => `import ${index < 2 ? `a${index} from ` : ''}'./${PROBE.name}/${file}';`,
    );
    write(
      dir,
      PROBE_FILE,
      `${imports.join('\n')}\n${screen(PROBE.title, PROBE.navOrder, '<p><img src={a0} alt="A" /><img src={a1} alt="B" /></p>')}`,
    );
    // A builder whose screen brings a stylesheet raises the css budget, as the README says.
    const packageFile = path.join(dir, 'package.json');
    const pkg = JSON.parse(readFileSync(packageFile, 'utf8'));
    writeFileSync(packageFile, `${JSON.stringify({ ...pkg, budgets: { ...pkg.budgets, css: pkg.budgets.css + 300 } }, null, 2)}\n`);
    const outcome = runBuild(dir, ['--base', '/my-app/', '--out', 'dist-assets']);
    spawnSync('git', ['checkout', '--', 'package.json'], { cwd: dir });
    assert.is(outcome.code, 0, outcome.stderr);
    const out = path.join(dir, 'dist-assets');
    const audited = JSON.parse(readFileSync(path.join(out, 'audit.json'), 'utf8')).files.map((file: { path: string }) => file.path);
    const assets = audited.filter((file: string) => /^assets\/(mark|dot|probe)-[A-Z0-9]{8}\.(svg|png|woff2)$/.test(file)).sort();
    assert.is(assets.length, 3, audited.join(', '));
    const html = readFileSync(path.join(out, PROBE.name, 'index.html'), 'utf8');
    const precache = Object.keys(JSON.parse(readFileSync(path.join(out, 'precache.json'), 'utf8')));
    const composition = readFileSync(path.join(out, 'bundle.json'), 'utf8');
    // The screen's stylesheet: in the page's, or in the one of the chunk loaded on use.
    const stylesheets = audited.filter((file: string) => /^assets\/\w+-\w+\.css$/.test(file));
    const css = stylesheets.map((file: string) => readFileSync(path.join(out, file), 'utf8')).join('\n');
    for (const asset of assets) {
      assert.ok(precache.includes(`/my-app/${asset}`), `${asset} precached`);
      assert.ok(composition.includes(`"path": "${asset}"`), `${asset} in bundle.json`);
      if (asset.endsWith('.woff2')) assert.match(css, `url("/my-app/${asset}")`);
      else assert.match(html, `src="/my-app/${asset}"`);
    }
    assert.match(outcome.stdout, /^budget assets: [1-9][\d,]* B gzip/m);
    spawnSync('git', ['clean', '-fdxq', '--exclude=node_modules'], { cwd: dir });
  },
);

files('--serve --base /my-app/ serves the site under /my-app/: / is a 404 that says where, /my-app is redirected', async () => {
  const served = await startServing(dir, ['--serve', '--base', '/my-app/']);
  try {
    assert.match(served.url, /\/my-app\/$/);
    const page = await fetch(served.url);
    assert.is(page.status, 200);
    assert.match(await page.text(), 'href="/my-app/manifest.webmanifest"');
    assert.is((await fetch(new URL('/my-app/status/', served.url))).status, 200);
    assert.is((await fetch(new URL('/my-app/sw.js', served.url))).status, 200);
    const root = await fetch(new URL('/', served.url));
    assert.is(root.status, 404);
    assert.is(await root.text(), 'Not found: this server serves the site under /my-app/\n');
    const bare = await fetch(new URL('/my-app', served.url), { redirect: 'manual' });
    assert.equal([bare.status, bare.headers.get('location')], [301, '/my-app/']);
    const folder = await fetch(new URL('/my-app/status', served.url), { redirect: 'manual' });
    assert.equal([folder.status, folder.headers.get('location')], [301, '/my-app/status/']);
  } finally {
    await served.stop();
  }
});

files('--watch --base /my-app/ serves the dev build under /my-app/, live reload included, and writes nothing', async () => {
  const before = fingerprint(dir);
  const dev = await startServing(dir, ['--watch', '--base', '/my-app/']);
  try {
    assert.match(dev.url, /\/my-app\/$/);
    const page = await fetch(dev.url);
    assert.is(page.status, 200);
    assert.match(await page.text(), 'src="/my-app/assets/app.js"');
    assert.is((await fetch(new URL('/', dev.url))).status, 404);
    const changes = await fetch(new URL('/esbuild', dev.url));
    assert.is(changes.headers.get('content-type'), 'text/event-stream');
    await changes.body?.cancel();
  } finally {
    await dev.stop();
  }
  assert.equal(fingerprint(dir), before);
});

files('npm run verify refuses a dev server with one line, exit 2', async () => {
  const dev = await startServing(dir, ['--watch']);
  try {
    const result = spawnSync(process.execPath, ['tools/verify.mjs', dev.url], { cwd: dir, encoding: 'utf8' });
    assert.is(result.status, 2, result.stdout);
    assert.is(result.stderr, `verify: ${dev.url} serves a dev build (npm run dev), not a release: deploy what npm run build writes\n`);
  } finally {
    await dev.stop();
  }
});

files('the dev loop prerenders after each build and names a screen that throws there, beside the live reload', async () => {
  write(dir, PROBE_FILE, screen(PROBE.title, PROBE.navOrder, '<p>{window.innerWidth}</p>'));
  const dev = await startServing(dir, ['--watch']);
  try {
    const line = `prerender failed (npm run build stops here): ${PROBE_FILE}:5:14: prerendering /${PROBE.name}/ threw ReferenceError: window is not defined`;
    await until('the prerender line', () => dev.output().includes(line), 15_000);
    assert.is((await fetch(new URL(`${PROBE.name}/`, dev.url))).status, 200, 'the dev build is served all the same');
  } finally {
    await dev.stop();
  }
});

files.run();
