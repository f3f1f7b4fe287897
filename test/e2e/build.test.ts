// The build as a user runs it: `node build.mjs` in a copy of the project.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { statusFact } from './lib/app';
import { freshContext, launchChromium } from './lib/browser';
import { cleanup, copySources } from './lib/site';
import { until } from './lib/wait';

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
  assert.ok(Object.keys(a).length >= 10);
  assert.equal(a, b);
  assert.is(build(dir).code, 0);
  assert.equal(snapshot(path.join(dir, 'dist')), a);
});

test('writes each route, 404.html, sw.js and audit.json with hashes of every file', () => {
  const r = build(dir);
  assert.is(r.code, 0, r.stderr);
  for (const f of ['index.html', 'status/index.html', 'about/index.html', '404.html', 'sw.js', 'audit.json', 'manifest.webmanifest', 'robots.txt']) {
    assert.ok(existsSync(path.join(dir, 'dist', f)), f);
  }
  const audit = JSON.parse(readFileSync(path.join(dir, 'dist/audit.json'), 'utf8'));
  assert.match(audit.version, /^[0-9a-f]{12}$/);
  const paths = audit.files.map((f: { path: string }) => f.path);
  assert.ok(paths.includes('sw.js') && paths.some((p: string) => /^assets\/app-\w+\.js$/.test(p)));
  for (const f of audit.files) assert.match(f.sha384, /^sha384-[A-Za-z0-9+/]{64}$/);
  const html = readFileSync(path.join(dir, 'dist/status/index.html'), 'utf8');
  assert.match(html, /<script type="module" src="\/assets\/app-\w+\.js" integrity="sha384-/);
  assert.not.match(html, /<script>|<style|style=/);
  assert.match(r.stdout, /budget js: [\d,]+ B gzip of [\d,]+ B/);
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

const broken: [string, (d: string) => void, RegExp][] = [
  ['a missing static/index.html', (d) => rmSync(path.join(d, 'static/index.html')), /^build failed: missing static\/index\.html$/],
  ['a template without #root', (d) => writeFileSync(path.join(d, 'static/index.html'), readFileSync(path.join(d, 'static/index.html'), 'utf8').replace('id="root"', 'id="app"')), /^build failed: static\/index\.html has no element with id="root"$/],
  ['a syntax error in src/', (d) => writeFileSync(path.join(d, 'src/main.tsx'), 'const x = ;\n'), /^build failed: .*src\/main\.tsx:1:\d+: /],
  ['a type error in src/', (d) => writeFileSync(path.join(d, 'src/ui/bad.ts'), 'export const n: number = "text";\n'), /^build failed: type error: src\/ui\/bad\.ts:1:14: TS2322 /],
  ['a type error in sw.ts', (d) => writeFileSync(path.join(d, 'sw.ts'), readFileSync(path.join(d, 'sw.ts'), 'utf8') + '\nconst n: number = "x";\n'), /^build failed: type error: sw\.ts:\d+:7: TS2322 /],
  ['a "networkOnly" entry that is not a path', (d) => writeFileSync(path.join(d, 'package.json'), JSON.stringify({ ...JSON.parse(readFileSync(path.join(d, 'package.json'), 'utf8')), networkOnly: ['api/'] })), /^build failed: package\.json "networkOnly" must be a list of path prefixes starting with "\/"$/],
  ['broken JSON in package.json', (d) => writeFileSync(path.join(d, 'package.json'), '{ "name": '), /^build failed: package\.json is not valid JSON/],
];
for (const [what, breakIt, message] of broken) {
  test(`stops on ${what} with one clear line, exit 1, and no dist/`, () => {
    breakIt(dir);
    const r = build(dir);
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

test('--preact builds a much smaller bundle of the same app', () => {
  assert.is(build(dir, '--out', 'react').code, 0);
  assert.is(build(dir, '--preact', '--out', 'preact').code, 0);
  const js = (out: string) =>
    JSON.parse(readFileSync(path.join(dir, out, 'audit.json'), 'utf8')).files.filter((f: { path: string }) => f.path.endsWith('.js') && f.path !== 'sw.js')[0].gzip;
  assert.ok(js('preact') * 3 < js('react'), `preact ${js('preact')} B vs react ${js('react')} B`);
  assert.is(JSON.parse(readFileSync(path.join(dir, 'preact/audit.json'), 'utf8')).build, 'preact');
});

test.run();

const dev = suite('dev mode');
dev('`--watch` serves the site, registers no service worker, and rebuilds when a source file changes', async () => {
  const dir = copySources();
  const child = spawn(process.execPath, ['build.mjs', '--watch'], { cwd: dir, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  try {
    const url = (await until('the URL', () => /serving .* on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1], 30_000))!;
    const script = async () => /src="(\/assets\/app-\w+\.js)"/.exec(await (await fetch(url)).text())![1];
    const first = await script();
    assert.ok((await (await fetch(new URL(first, url))).text()).includes('Works offline'));
    // In Chromium with workers allowed: the dev page runs and registers nothing, so no stale copy can answer.
    const browser = await launchChromium();
    try {
      const page = await (await freshContext(browser)).newPage();
      await page.goto(url); // resolves after `load`, when a production page registers its worker
      await page.getByRole('link', { name: 'Offline readiness' }).click();
      // The worker state a page keeps only when it never started registering (that sets
      // "registering" before the first render): the decision was taken, and it was no.
      assert.is(await until('the worker state on the status screen', () => statusFact(page, 'State')), 'unsupported');
      assert.equal(await page.evaluate(async () => [(await navigator.serviceWorker.getRegistrations()).length, await caches.keys()]), [0, []]);
    } finally {
      await browser.close();
    }
    const app = path.join(dir, 'src/ui/App.tsx');
    writeFileSync(app, readFileSync(app, 'utf8').replace('Works offline.', 'Edited in dev mode.'));
    // A failed fetch is "not yet": Node's fetch may reuse a keep-alive connection the server
    // closed while the browser part ran (its idle timeout is 5 s), and the next poll retries.
    await until('a rebuild', async () => (await script().catch(() => first)) !== first, 30_000);
    assert.ok((await (await fetch(new URL(await script(), url))).text()).includes('Edited in dev mode.'));
  } catch (err) {
    (err as Error).message += `\n--watch output:\n${out}`;
    throw err;
  } finally {
    child.kill();
    cleanup();
  }
});
dev.run();
