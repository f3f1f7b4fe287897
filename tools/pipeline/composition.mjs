// What the page bundle is made of, dist/bundle.json: for each shipped script, stylesheet and imported file, every
// input module with the bytes it put into the output (esbuild's metafile), grouped by npm package
// (name and version, as in the SBOM) and by the app's own folders (src/reload, src/ui, …). What
// esbuild adds itself (the banner, its CommonJS wrappers and helpers) is the `esbuild` remainder:
// the output's size minus the modules' bytes. Deterministic: no paths outside the project, all sorted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ASSET_FILE } from './asset-files.mjs';
import { packageOfInput } from './packages.mjs';

/** The composition's file name in dist/. */
export const COMPOSITION_FILE = 'bundle.json';

/** @typedef {{ path: string, bytes: number }} ModuleBytes */
/** @typedef {{ name: string, version: string | null, own: boolean, bytes: number, modules: ModuleBytes[] }} Group */
/** @typedef {{ path: string, bytes: number, esbuild: number, groups: Group[] }} OutputComposition */
/** @typedef {{ build: string, outputs: OutputComposition[] }} Composition */

/**
 * Outputs that ship to the browser: scripts, stylesheets and the files they import (images,
 * fonts, media: tools/pipeline/asset-files.mjs); the legal side files do not.
 * @param {string} output
 */
const shipped = (output) => /\.(js|css)$/.test(output) || ASSET_FILE.test(output);

/**
 * The group an input of the bundle belongs to: its npm package, or the app's own folder — the
 * first two levels under src/ (src/ui, src/reload), `src` for its top-level files, and the
 * namespace for a plugin's generated module (`app-screens:app:routes` -> `app-screens`).
 * @param {string} input
 * @returns {{ key: string, name: string, own: boolean, module: string, dir?: string }}
 */
export function groupOfInput(input) {
  const owner = packageOfInput(input);
  if (owner) return { key: owner.dir, name: owner.name, own: false, module: owner.file, dir: owner.dir };
  const namespace = /^([\w-]+):/.exec(input);
  if (namespace) return { key: namespace[1], name: namespace[1], own: true, module: input };
  const folders = input.split('/').slice(0, -1);
  const name = folders.slice(0, 2).join('/') || '.';
  return { key: name, name, own: true, module: input };
}

/**
 * Sorts by bytes, largest first, then by name (ties in a stable, readable order).
 * @template {{ bytes: number }} T
 * @param {T[]} items
 * @param {(item: T) => string} nameOf
 */
const largestFirst = (items, nameOf) => items.sort((a, b) => b.bytes - a.bytes || (nameOf(a) < nameOf(b) ? -1 : 1));

/**
 * One output's composition from its metafile entry: modules with bytes grouped, and the remainder.
 * `versionOf` gives a package folder's version (read from its package.json by the build).
 * @param {string} outputPath the output's path in the site (assets/app-XXXX.js)
 * @param {{ bytes: number, inputs: Record<string, { bytesInOutput: number }> }} output
 * @param {(dir: string) => string} versionOf
 * @returns {OutputComposition}
 */
export function composeOutput(outputPath, output, versionOf) {
  /** @type {Map<string, Group>} */
  const groups = new Map();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    // A module esbuild read but tree-shook away entirely ships nothing (the SBOM leaves it out too).
    if (bytesInOutput === 0) continue;
    const { key, name, own, module, dir } = groupOfInput(input);
    const group = groups.get(key) ?? { name, version: dir ? versionOf(dir) : null, own, bytes: 0, modules: [] };
    group.bytes += bytesInOutput;
    group.modules.push({ path: module, bytes: bytesInOutput });
    groups.set(key, group);
  }
  const sorted = largestFirst([...groups.values()], (group) => group.name);
  for (const group of sorted) largestFirst(group.modules, (module) => module.path);
  const modulesBytes = sorted.reduce((total, group) => total + group.bytes, 0);
  return { path: outputPath, bytes: output.bytes, esbuild: output.bytes - modulesBytes, groups: sorted };
}

/**
 * The composition of every shipped script and stylesheet of the page bundle, from esbuild's
 * metafile (outputs named relative to `outDir`, as the site names them).
 * @param {{ metafile: import('esbuild').Metafile, outDir: string, build: string, versionOf: (dir: string) => string }} options
 * @returns {Composition}
 */
export function composition({ metafile, outDir, build, versionOf }) {
  const outputs = Object.entries(metafile.outputs)
    .filter(([output]) => shipped(output))
    .map(([output, entry]) => composeOutput(path.posix.relative(outDir, output), entry, versionOf))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  return { build, outputs };
}

/**
 * A package folder's version, from its package.json (the SBOM reads the same file).
 * @param {string} root
 * @returns {(dir: string) => string}
 */
export const packageVersions = (root) => (dir) => JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8')).version;

/**
 * dist/bundle.json for one build: the document and its bytes. `out` is the page bundle's outdir
 * (tools/pipeline/app-bundle.mjs), which the metafile's output paths start with.
 * @param {{ root: string, metafile: import('esbuild').Metafile, build: string }} options
 */
export function compositionFile({ root, metafile, build }) {
  const document = composition({ metafile, outDir: 'out', build, versionOf: packageVersions(root) });
  return { document, contents: Buffer.from(JSON.stringify(document, null, 2) + '\n') };
}

/**
 * The page's scripts' groups as the size table prints them, every script of the bundle together
 * (the entry and its chunks): the app's own folders as one line (named `own`), the five largest,
 * then the rest summed (null when there is none).
 * @param {Composition} document
 * @param {number} [count]
 * @returns {{ top: { name: string, bytes: number }[], rest: { groups: number, bytes: number } | null, esbuild: number, total: number } | null}
 */
export function largestGroups(document, count = 5) {
  const scripts = document.outputs.filter((output) => output.path.endsWith('.js'));
  if (!scripts.length) return null;
  const groups = scripts.flatMap((script) => script.groups);
  const own = groups.filter((group) => group.own).reduce((total, group) => total + group.bytes, 0);
  /** @type {Map<string, number>} */
  const packages = new Map();
  for (const group of groups.filter((group) => !group.own)) {
    const name = `${group.name} ${group.version}`;
    packages.set(name, (packages.get(name) ?? 0) + group.bytes);
  }
  const lines = [...packages].map(([name, bytes]) => ({ name, bytes }));
  if (own) lines.push({ name: 'own code (src/)', bytes: own });
  largestFirst(lines, (line) => line.name);
  const rest = lines.slice(count);
  return {
    top: lines.slice(0, count),
    rest: rest.length ? { groups: rest.length, bytes: rest.reduce((total, line) => total + line.bytes, 0) } : null,
    esbuild: scripts.reduce((total, script) => total + script.esbuild, 0),
    total: scripts.reduce((total, script) => total + script.bytes, 0),
  };
}
