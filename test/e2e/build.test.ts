// The build as a user runs it: `node build.mjs` in a copy of the project.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanup, copySources, readPrecache } from './lib/site';
import { listScreens } from '../../tools/screens.mjs';

/** Runs `node build.mjs` in `dir`; returns its exit code (null if a signal ended it, named in stderr) and output. */
function build(dir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['build.mjs', ...args], { cwd: dir, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.signal ? `ended by ${r.signal}` : r.stderr.trim() };
}

/** Every file of a folder with its bytes, for byte-for-byte comparison. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out[path.relative(dir, full)] = readFileSync(full).toString('base64');
    }
  };
  walk(dir);
  return out;
}

const test = suite('build');
let dir: string;
test.before.each(() => {
  dir = copySources();
});
test.after.each(cleanup);

test('is deterministic: two builds, in two folders, give byte-identical dist/', () => {
  const other = copySources();
  for (const copy of [dir, other]) {
    const r = build(copy);
    assert.is(r.code, 0, r.stderr);
  }
  const a = snapshot(path.join(dir, 'dist'));
  const b = snapshot(path.join(other, 'dist'));
  assert.ok(Object.keys(a).length >= 10 && 'bundle.json' in a, 'the composition is one of the files compared');
  assert.equal(a, b);
  assert.is(build(dir).code, 0);
  assert.equal(snapshot(path.join(dir, 'dist')), a);
});

test('writes each route, 404.html, sw.js, _headers, sbom.cdx.json, bundle.json and audit.json with hashes of every file', () => {
  const r = build(dir);
  assert.is(r.code, 0, r.stderr);
  for (const f of [
    ...listScreens(dir).map((screen) => screen.path.slice(1) + 'index.html'),
    '404.html',
    'sw.js',
    'audit.json',
    'manifest.webmanifest',
    'robots.txt',
    '_headers',
    'sbom.cdx.json',
    'bundle.json',
  ]) {
    assert.ok(existsSync(path.join(dir, 'dist', f)), f);
  }
  const audit = JSON.parse(readFileSync(path.join(dir, 'dist/audit.json'), 'utf8'));
  assert.match(audit.version, /^[0-9a-f]{12}$/);
  const paths = audit.files.map((f: { path: string }) => f.path);
  assert.ok(paths.includes('sw.js') && paths.some((p: string) => /^assets\/app-\w+\.js$/.test(p)));
  for (const f of audit.files) assert.match(f.sha384, /^sha384-[A-Za-z0-9+/]{64}$/);
  // The hosts' header file and the SBOM are files of the version: listed, hashed; the SBOM is
  // precached (/about links it), _headers is not (Netlify and Cloudflare Pages never serve it).
  assert.ok(paths.includes('_headers') && paths.includes('sbom.cdx.json'));
  const precached = Object.keys(readPrecache(path.join(dir, 'dist')));
  assert.ok(precached.includes('/sbom.cdx.json') && precached.includes('/bundle.json'));
  assert.not.ok(precached.includes('/_headers'));
  const html = readFileSync(path.join(dir, 'dist/status/index.html'), 'utf8');
  assert.match(html, /<script type="module" src="\/assets\/app-\w+\.js" integrity="sha384-/);
  assert.not.match(html, /<script>|<style|style=/);
  assert.match(r.stdout, /budget js: [\d,]+ B gzip of [\d,]+ B/);
  // The live-reload client is dev-only: production code has no trace of it.
  const script = readFileSync(
    path.join(
      dir,
      'dist',
      paths.find((p: string) => /^assets\/app-\w+\.js$/.test(p)),
    ),
    'utf8',
  );
  assert.not.match(script, /\/esbuild|EventSource/);
  // V8 reads its compile hint only on a file's first line: with it, Chromium compiles the bundle
  // off the main thread as it arrives (the bench's Lighthouse blocking time shows the difference).
  assert.ok(script.startsWith('//# allFunctionsCalledOnLoad\n'), 'the page bundle opens with the compile hint');
});

test('a line appended to src/main.tsx still builds within every budget, in both builds', () => {
  // What a new user does first when making the app their own.
  writeFileSync(
    path.join(dir, 'src/main.tsx'),
    readFileSync(path.join(dir, 'src/main.tsx'), 'utf8') + "\nconsole.info('my app starts here');\n",
  );
  for (const flags of [[], ['--preact']]) {
    const r = build(dir, ...flags);
    assert.is(r.code, 0, r.stderr);
    assert.not.match(r.stdout, /OVER/);
  }
});

test('--check refuses a type error in src/ with one line and no dist/; without it (esbuild strips types) the build succeeds', () => {
  writeFileSync(path.join(dir, 'src/ui/bad.ts'), 'export const n: number = "text";\n');
  const checked = build(dir, '--check');
  assert.is(checked.code, 1);
  assert.match(checked.stderr, /^build failed: type error: src\/ui\/bad\.ts:1:14: TS2322 /);
  assert.is(checked.stderr.split('\n').length, 1, checked.stderr);
  assert.not.ok(existsSync(path.join(dir, 'dist')));
  assert.is(build(dir).code, 0);
});

test('fails with one line when the worker or the page calls an API beyond the minimum engines (README), naming the source file, line and column', () => {
  const sw = path.join(dir, 'sw.ts');
  const workerCode = readFileSync(sw, 'utf8');
  writeFileSync(sw, workerCode + "\nself.addEventListener('push', (event) => console.info(Object.hasOwn(event, 'data')));\n");
  const workerLine = workerCode.split('\n').length + 1;
  const worker = build(dir);
  assert.is(worker.code, 1);
  assert.match(
    worker.stderr,
    new RegExp(
      `^build failed: sw\\.ts:${workerLine}:55: calls Object\\.hasOwn \\(.*Safari 15\\.4\\), beyond the minimum engines .*safari15.*, in sw\\.js$`,
    ),
  );
  assert.is(worker.stderr.split('\n').length, 1);
  writeFileSync(sw, workerCode);
  const main = path.join(dir, 'src/main.tsx');
  const mainCode = readFileSync(main, 'utf8');
  writeFileSync(main, mainCode + '\nconsole.info(location.pathname.split("/").at(-1));\n');
  const page = build(dir);
  assert.is(page.code, 1);
  assert.match(
    page.stderr,
    new RegExp(
      `^build failed: src/main\\.tsx:${mainCode.split('\n').length + 1}:43: calls Array\\.prototype\\.at .*, in assets/app-\\w+\\.js$`,
    ),
  );
  writeFileSync(main, mainCode);
  // The issue's case: an id made where the screen is loaded, which the page's oldest engines lack.
  const screen = path.join(dir, 'src/ui/screens/ids-probe.tsx');
  writeFileSync(
    screen,
    "export const title = 'Ids probe';\nexport const navOrder = 999;\n\nconst id = crypto.randomUUID();\n\nexport default function Ids() {\n  return <p>{id}</p>;\n}\n",
  );
  const ids = build(dir);
  rmSync(screen);
  assert.is(ids.code, 1);
  assert.match(
    ids.stderr,
    /^build failed: src\/ui\/screens\/ids-probe\.tsx:4:19: calls crypto\.randomUUID \(Chrome 92, Firefox 95, Safari 15\.4\)/,
  );
});

test('fails with one line when a budget is exceeded, and leaves the last dist/ alone', () => {
  assert.is(build(dir).code, 0);
  const before = snapshot(path.join(dir, 'dist'));
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  pkg.budgets.js = 1000;
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg));
  writeFileSync(path.join(dir, 'src/ui/extra.ts'), 'export const x = 1;\n');
  const r = build(dir);
  assert.is(r.code, 1);
  assert.match(r.stderr, /^build failed: budget exceeded: js is [\d]+ B gzip, budget 1000 B/);
  assert.is(r.stderr.split('\n').length, 1);
  assert.equal(snapshot(path.join(dir, 'dist')), before);
});

const broken: [string, (d: string) => void, RegExp, string[]?][] = [
  ['a missing static/index.html', (d) => rmSync(path.join(d, 'static/index.html')), /^build failed: missing static\/index\.html$/],
  [
    'a template without #root',
    (d) =>
      writeFileSync(
        path.join(d, 'static/index.html'),
        readFileSync(path.join(d, 'static/index.html'), 'utf8').replace('id="root"', 'id="app"'),
      ),
    /^build failed: static\/index\.html has no element with id="root" \(an empty <div id="root"><\/div>\)$/,
  ],
  [
    'a syntax error in src/',
    (d) => writeFileSync(path.join(d, 'src/main.tsx'), 'const x = ;\n'),
    /^build failed: .*src\/main\.tsx:1:\d+: /,
  ],
  [
    'a type error in sw.ts (--check)',
    (d) => writeFileSync(path.join(d, 'sw.ts'), readFileSync(path.join(d, 'sw.ts'), 'utf8') + '\nconst n: number = "x";\n'),
    /^build failed: type error: sw\.ts:\d+:7: TS2322 /,
    ['--check'],
  ],
  [
    'a package.json name that cannot name caches and storage keys',
    (d) =>
      writeFileSync(
        path.join(d, 'package.json'),
        JSON.stringify({ ...JSON.parse(readFileSync(path.join(d, 'package.json'), 'utf8')), name: 'My App' }),
      ),
    /^build failed: package\.json "name" must be lowercase letters, digits, "\.", "_" or "-" \(it names caches and storage keys\)$/,
  ],
  [
    'a "networkOnly" entry that is not a path',
    (d) =>
      writeFileSync(
        path.join(d, 'package.json'),
        JSON.stringify({ ...JSON.parse(readFileSync(path.join(d, 'package.json'), 'utf8')), networkOnly: ['api/'] }),
      ),
    /^build failed: package\.json "networkOnly" must be a list of path prefixes starting with "\/"$/,
  ],
  [
    'a screen file without a title',
    (d) =>
      writeFileSync(
        path.join(d, 'src/ui/screens/help.tsx'),
        'export const navOrder = 9;\nexport default function Help() {\n  return null;\n}\n',
      ),
    /^build failed: src\/ui\/screens\/help\.tsx has no title: add `export const title = 'Its title';`/,
  ],
  [
    'a screen file whose name is no URL segment',
    (d) =>
      writeFileSync(
        path.join(d, 'src/ui/screens/Help Me.tsx'),
        "export const title = 'Help';\nexport const navOrder = 9;\nexport default function Help() {\n  return null;\n}\n",
      ),
    /^build failed: src\/ui\/screens\/Help Me\.tsx: a screen's file name is its URL/,
  ],
  [
    'an icon the page and the manifest name that static/ lacks',
    (d) => rmSync(path.join(d, 'static/icons/icon-192.png')),
    /^build failed: (static\/index\.html \(or a screen\)|static\/manifest\.webmanifest) names \/icons\/icon-192\.png, but the build writes no icons\/icon-192\.png \(add it to static\/, or fix the reference\)$/,
  ],
  [
    'a manifest icon that static/ lacks',
    (d) =>
      writeFileSync(
        path.join(d, 'static/manifest.webmanifest'),
        readFileSync(path.join(d, 'static/manifest.webmanifest'), 'utf8').replace('/icons/icon-512.png', '/icons/icon-1024.png'),
      ),
    /^build failed: static\/manifest\.webmanifest names \/icons\/icon-1024\.png, but the build writes no icons\/icon-1024\.png/,
  ],
  [
    'broken JSON in package.json',
    (d) => writeFileSync(path.join(d, 'package.json'), '{ "name": '),
    /^build failed: package\.json is not valid JSON/,
  ],
];
for (const [what, breakIt, message, flags = []] of broken) {
  test(`stops on ${what} with one clear line, exit 1, and no dist/`, () => {
    breakIt(dir);
    const r = build(dir, ...flags);
    assert.is(r.code, 1);
    assert.match(r.stderr, message);
    assert.is(r.stderr.split('\n').length, 1, r.stderr);
    assert.not.ok(existsSync(path.join(dir, 'dist')));
  });
}

test('rejects an unknown flag with one line naming it', () => {
  const r = build(dir, '--nope');
  assert.is(r.code, 1);
  assert.match(r.stderr, /^build failed: unknown option --nope \(expected .*--preact/);
});

test('refuses a --base that does not start and end with "/", or has a "." or ".." segment, with one line, and writes no dist/', () => {
  for (const base of ['my-app/', '/my-app', '/my app/', '/a/../b/', '/./', '/my-app/../']) {
    const r = build(dir, '--base', base);
    assert.is(r.code, 1, base);
    assert.is(
      r.stderr,
      `build failed: --base must start and end with "/" and hold only plain path segments (for example /my-app/), not ${JSON.stringify(base)}`,
    );
    assert.not.ok(existsSync(path.join(dir, 'dist')));
  }
});

test('--preact builds a much smaller bundle of the same app', () => {
  assert.is(build(dir, '--out', 'react').code, 0);
  assert.is(build(dir, '--preact', '--out', 'preact').code, 0);
  const js = (out: string) =>
    JSON.parse(readFileSync(path.join(dir, out, 'audit.json'), 'utf8')).files.filter(
      (f: { path: string }) => f.path.endsWith('.js') && f.path !== 'sw.js',
    )[0].gzip;
  assert.ok(js('preact') * 3 < js('react'), `preact ${js('preact')} B vs react ${js('react')} B`);
  assert.is(JSON.parse(readFileSync(path.join(dir, 'preact/audit.json'), 'utf8')).build, 'preact');
});

test.run();
