// The house's shape, read from the imports of src/ and sw.ts: no import cycle, and no folder imports
// one above it, so each layer can be read, tested and replaced from the bottom up. The layers, from
// the bottom: core (store, clock), contract (what page and worker share: names, base, reports, the
// audit's shape), then the worker (src/sw/, which the page never imports) beside the page's side:
// stored-data, reload (what a reload carries), worker-client (the page's side of the worker), the
// app's data (src/notes/, the demo), ui, then the migrations from earlier releases (src/migrations/,
// which only the entries import, so a builder can delete it) and the entries (main.tsx,
// prerender.tsx, sw.ts and the kill switch's src/sw/kill-switch.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = process.cwd();

/** Each folder's layer: a module may import its own folder and folders of a lower layer only. */
const PAGE_LAYERS = ['core', 'contract', 'stored-data', 'reload', 'worker-client', '*', 'ui', 'migrations', '.'];
const WORKER_LAYERS = ['core', 'contract', 'sw', 'migrations', '.'];

/** The worker's files: its entries, src/sw/, and its part of the migrations. */
const isWorkerFile = (file: string): boolean => file === 'sw.ts' || file.startsWith('src/sw/') || file === 'src/migrations/worker.ts';

/** The entries: what the build bundles (a worker's or the page's), the top layer. */
const ENTRIES = ['sw.ts', 'src/sw/kill-switch.ts', 'src/main.tsx', 'src/prerender.tsx'];

/** Every .ts/.tsx file under `dir`, relative to the project. */
function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const relative = path.posix.join(dir, name);
    if (statSync(path.join(root, relative)).isDirectory()) return sources(relative);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [relative] : [];
  });
}

/** The project files `file` imports (relative specifiers only: packages are not our layers). */
function importsOf(file: string, known: Set<string>): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g),
  ].map((match) => match[1] ?? match[2]);
  return specifiers.map((specifier) => {
    const base = path.posix.join(path.posix.dirname(file), specifier);
    const found = ['', '.ts', '.tsx', '/index.ts'].map((ending) => base + ending).find((candidate) => known.has(candidate));
    if (!found) throw new Error(`${file} imports ${specifier}, which is no source file`);
    return found;
  });
}

/** The folder under src/ that holds `file` ('.' for the entries). */
const folderOf = (file: string) => (!ENTRIES.includes(file) && file.split('/').length > 2 ? file.split('/')[1] : '.');

const files = ['sw.ts', ...sources('src')];
const known = new Set(files);
const graph = new Map(files.map((file) => [file, importsOf(file, known)]));

test('no module imports one above its layer, and the page never imports the worker', () => {
  const wrong: string[] = [];
  for (const [file, imports] of graph) {
    const worker = isWorkerFile(file);
    const layers = worker ? WORKER_LAYERS : PAGE_LAYERS;
    const rank = (folder: string) => {
      const at = layers.indexOf(folder);
      return at >= 0 ? at : layers.indexOf('*');
    };
    for (const imported of imports) {
      const from = folderOf(file);
      const to = folderOf(imported);
      if (isWorkerFile(imported) && !worker) wrong.push(`${file} imports ${imported}: the page never imports the worker`);
      else if (from === to && from !== '.') continue;
      else if (rank(to) < 0 || rank(to) >= rank(from))
        wrong.push(`${file} (${from}) imports ${imported} (${to}), a layer above or beside it`);
    }
  }
  assert.equal(wrong, []);
});

test('no import cycle', () => {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, trail: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of files) visit(file, []);
  assert.equal(cycles, []);
});

test("src/'s root holds only the entries and declaration files", () => {
  const loose = readdirSync(path.join(root, 'src')).filter(
    (name) =>
      !statSync(path.join(root, 'src', name)).isDirectory() && !['main.tsx', 'prerender.tsx'].includes(name) && !name.endsWith('.d.ts'),
  );
  assert.equal(loose, []);
});

test.run();
