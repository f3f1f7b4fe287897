// The shape of tools/ (and build.mjs) and of the lab's JavaScript (test/harness/, test/bench/): no
// import cycle, no file over 400 lines, tools/ (what a template user runs) imports nothing from
// test/, `npm run verify` loads no bundler, and the icons module draws the committed icons without
// writing on import. Imports are read from the source text (static `import … from`, `export …
// from`, bare `import '…'` and `import('…')` with a literal), which is how every module here
// imports; comments are left out first, so JSDoc's type-only `import('…')` loads nothing here, as
// at run time.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { draw } from '../../tools/pipeline/icons.mjs';

const root = process.cwd();
const LINE_LIMIT = 400;
const COMMENTS = /\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm;
const IMPORT = /(?:\bimport|\bexport)\s*(?:[^'"`;]*?\bfrom\s*)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The folders of node-side JavaScript: the template's tools, then the lab's test harness and bench. */
const FOLDERS = ['tools', 'test/harness', 'test/bench'];

/** The tools' own modules: build.mjs and every .mjs under FOLDERS, as paths relative to the root. */
function toolModules(): string[] {
  const found = ['build.mjs'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(relative);
      else if (entry.name.endsWith('.mjs')) found.push(relative);
    }
  };
  for (const folder of FOLDERS) walk(folder);
  return found.sort();
}

/** Every specifier a module imports (relative ones resolved to root-relative paths; packages as named). */
function importsOf(file: string): { modules: string[]; packages: string[] } {
  const text = readFileSync(path.join(root, file), 'utf8').replace(COMMENTS, '');
  const modules: string[] = [];
  const packages: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2];
    if (specifier.startsWith('.')) modules.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
    else packages.push(specifier);
  }
  return { modules, packages };
}

/** The first import cycle found, as the chain of modules that closes it, or undefined. */
function firstCycle(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const visit = (file: string, chain: string[]): string[] | undefined => {
    const start = chain.indexOf(file);
    if (start >= 0) return [...chain.slice(start), file];
    if (done.has(file)) return undefined;
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next, [...chain, file]);
      if (cycle) return cycle;
    }
    done.add(file);
    return undefined;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file, []);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Every module `entry` loads, itself included, following static and dynamic imports. */
function reachable(graph: Map<string, string[]>, entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  // A for...of over an array also visits what is pushed while it runs: a breadth-first walk.
  for (const file of queue) {
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...(graph.get(file) ?? []));
  }
  return seen;
}

const modules = toolModules();
const graph = new Map(modules.map((file) => [file, importsOf(file).modules]));

const shape = suite('tools: layers');

shape('the import reader sees the imports (a check that reads nothing would pass anything)', () => {
  assert.ok(graph.get('tools/pipeline/worker.mjs')?.includes('tools/pipeline/precache-manifest.mjs'));
  assert.ok(graph.get('build.mjs')?.includes('tools/pipeline/build.mjs'), 'a dynamic import');
  assert.ok(importsOf('tools/pipeline/bundle.mjs').packages.includes('node:module'));
  assert.not.ok(graph.get('tools/verify.mjs')?.includes('tools/pipeline/site.mjs'), "a JSDoc type's import() loads nothing");
  assert.equal(
    firstCycle(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a']],
      ]),
    ),
    ['a', 'b', 'c', 'a'],
  );
});

shape('every import of tools/, test/harness/ and test/bench/ names a module that exists', () => {
  for (const [file, imported] of graph) {
    for (const target of imported)
      assert.ok(graph.has(target), `${file} imports ${target}, which is not a module of ${FOLDERS.join(' or ')}`);
  }
});

shape('tools/ and build.mjs import nothing from test/: the template runs without the lab', () => {
  assert.ok(graph.get('test/harness/test-bundle.mjs')?.includes('tools/pipeline/bundle.mjs'), 'the harness is read too');
  for (const [file, imported] of graph) {
    if (file.startsWith('test/')) continue;
    for (const target of imported) assert.not.ok(target.startsWith('test/'), `${file} imports ${target}`);
  }
});

shape('no import cycle in tools/, test/harness/, test/bench/ and build.mjs', () => {
  const cycle = firstCycle(graph);
  assert.is(cycle, undefined, `import cycle: ${cycle?.join(' -> ')}`);
});

shape(`no file in tools/, test/harness/ or test/bench/ is over ${LINE_LIMIT} lines`, () => {
  for (const file of modules) {
    const lines = readFileSync(path.join(root, file), 'utf8').split('\n').length - 1;
    assert.ok(lines <= LINE_LIMIT, `${file} has ${lines} lines`);
  }
});

shape('npm run verify loads no bundler and no type checker', () => {
  const loaded = reachable(graph, 'tools/verify.mjs');
  assert.ok(loaded.has('tools/sri.mjs'), 'the walk reaches the modules verify imports');
  for (const file of loaded) {
    const text = readFileSync(path.join(root, file), 'utf8').replace(COMMENTS, '');
    assert.not.match(text, /['"](esbuild|typescript)['"]/, `${file} (loaded by verify) loads a bundler or the type checker`);
  }
});
shape.run();

const icons = suite('tools: icons');

icons('the icons drawn are the committed ones', () => {
  for (const [file, size, maskable] of [
    ['icon-192.png', 192, false],
    ['icon-512.png', 512, false],
    ['icon-maskable-512.png', 512, true],
  ] as const) {
    assert.ok(draw(size, maskable).equals(readFileSync(path.join(root, 'static/icons', file))), file);
  }
});

icons('importing the icons module writes nothing', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'offline-shell-icons-'));
  try {
    const url = pathToFileURL(path.join(root, 'tools/pipeline/icons.mjs')).href;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(url)})`], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.is(result.status, 0, result.stderr);
    assert.equal(readdirSync(dir), [], 'nothing written in the working directory');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
icons.run();
