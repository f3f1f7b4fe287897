#!/usr/bin/env node
// `npm run remove-demo`: takes the demo notes app out of the template in one step, for a builder
// starting their own app: the notes store (src/notes/), the Notes screen and its parts, the demo's
// own tests, its parts of the README (its section and its screen's line); a minimal home screen
// takes the Notes screen's place and src/main.tsx stops starting the notes. It deletes only what
// the demo shipped, byte for byte (the SHA-256 of each version of each file and README part, in
// demo-files.json): a demo file or README part you changed is kept, and named. Prints what it did;
// run again, it changes nothing and says so in one line.
// `node tools/remove-demo.mjs --record` (the template's maintainers, after changing the demo)
// adds this checkout's demo files and README parts to demo-files.json.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where the demo's files and their hashes are recorded, from the project's root. */
export const RECORD = 'tools/demo-files.json';

/** The demo's files: its data and screen, its own tests and their library (no other test imports them). */
const DEMO_FILES = [
  /^src\/notes\/[^/]+\.tsx?$/,
  /^src\/ui\/screens\/index\.tsx$/,
  /^src\/ui\/screens\/notes\/[^/]+\.tsx?$/,
  // The demo's tests, its test library and the test of this tool on this checkout (once the demo is
  // gone it has nothing to remove).
  /^test\/(unit|e2e)\/demo\/.+\.tsx?$/,
  // Where the versions before kept the demo's tests: a project made from one has them there.
  /^test\/(unit|e2e)\/notes[\w-]*\.test\.ts$/,
  /^test\/unit\/backup\.test\.ts$/,
  /^test\/e2e\/lib\/(backup|notes)\.ts$/,
  /^test\/e2e\/remove-demo\.test\.ts$/,
];

/** The Notes screen's place: the home screen a builder's app starts from. */
export const HOME_SCREEN = `// /, the home screen: your app's first screen (each .tsx file in this folder is one screen).
export const title = 'Home';
export const navOrder = 1;

/** The home screen, until your app has its own. */
export default function Home() {
  return <p>This app works offline once it has loaded: every screen is kept on this device.</p>;
}
`;

/** The lines of src/main.tsx that start the notes: the import and the call. */
const MAIN_LINES = [/^import \{ startNotes \} from ["']\.\/notes\/store["'];\n/m, /^startNotes\(\);\n/m];

/** The README's parts about the demo: its section (to the next heading) and its screen's line. */
const README_SECTION = '## When the browser deletes your data\n';
const README_LINE = '- `/` **Notes**:';

/** How demo-files.json names a README part: `README.md#<part>`. */
const README_PART = /^README\.md#/;

/**
 * The demo's parts that `text` (a README) holds, each with its name in RECORD and its exact text.
 * @param {string} text
 * @returns {{ name: string, text: string }[]}
 */
function readmeParts(text) {
  /** @type {{ name: string, text: string }[]} */
  const parts = [];
  const start = text.indexOf(README_SECTION);
  if (start >= 0) {
    const next = text.indexOf('\n## ', start + README_SECTION.length);
    parts.push({ name: 'README.md#when-the-browser-deletes-your-data', text: text.slice(start, next >= 0 ? next + 1 : text.length) });
  }
  const line = text.split('\n').find((candidate) => candidate.startsWith(README_LINE));
  if (line !== undefined) parts.push({ name: 'README.md#the-notes-screen-line', text: `${line}\n` });
  return parts;
}

/**
 * The demo's files in the project at `root` (DEMO_FILES), relative, with "/" separators.
 * @param {string} root
 */
export function candidateFiles(root) {
  /** @type {string[]} */
  const found = [];
  for (const top of ['src', 'test']) {
    const dir = path.join(root, top);
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      found.push(path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
    }
  }
  return found.filter((file) => DEMO_FILES.some((pattern) => pattern.test(file))).sort();
}

/**
 * The SHA-256 of some text or bytes, hex.
 * @param {string | Buffer} contents
 */
const sha256Of = (contents) => createHash('sha256').update(contents).digest('hex');

/**
 * A file's SHA-256, hex.
 * @param {string} file
 */
const sha256 = (file) => sha256Of(readFileSync(file));

/**
 * Adds the demo's files and README parts in `root` to RECORD: the SHA-256 of each beside those of
 * the versions recorded before, so a project made from an older template still has its demo removed.
 * @param {string} root
 * @returns {Record<string, string[]>}
 */
export function recordDemo(root) {
  const file = path.join(root, RECORD);
  /** @type {Record<string, string[]>} */
  const recorded = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const readme = path.join(root, 'README.md');
  const parts = existsSync(readme) ? readmeParts(readFileSync(readme, 'utf8')) : [];
  const hashes = [
    ...candidateFiles(root).map((demoFile) => [demoFile, sha256(path.join(root, demoFile))]),
    ...parts.map((part) => [part.name, sha256Of(part.text)]),
  ];
  for (const [name, hash] of hashes) recorded[name] = [...new Set([...(recorded[name] ?? []), hash])];
  const sorted = Object.fromEntries(Object.entries(recorded).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(file, JSON.stringify(sorted, null, 2) + '\n');
  return sorted;
}

/**
 * Removes `dir` and its parents up to `root` while they are empty.
 * @param {string} root
 * @param {string} dir
 */
function removeEmptyFolders(root, dir) {
  for (let at = dir; at !== root && existsSync(at) && readdirSync(at).length === 0; at = path.dirname(at)) rmdirSync(at);
}

/**
 * Takes the demo out of the project at `root`; returns what it did, one line each: removed, kept
 * (changed since the demo shipped it), written, edited. Nothing when the demo is gone already.
 * @param {string} root
 * @param {Record<string, string[]>} shipped the demo's files and the SHA-256 of each version shipped (RECORD)
 * @returns {{ removed: string[], kept: string[], changed: string[] }}
 */
export function removeDemo(root, shipped) {
  const done = { removed: /** @type {string[]} */ ([]), kept: /** @type {string[]} */ ([]), changed: /** @type {string[]} */ ([]) };
  for (const [file, hashes] of Object.entries(shipped)) {
    if (README_PART.test(file)) continue;
    const full = path.join(root, file);
    if (!existsSync(full)) continue;
    if (!hashes.includes(sha256(full))) {
      // The home screen written by an earlier run is not the demo's: it stays, unnamed.
      if (file !== 'src/ui/screens/index.tsx' || readFileSync(full, 'utf8') !== HOME_SCREEN) done.kept.push(file);
      continue;
    }
    rmSync(full);
    done.removed.push(file);
    removeEmptyFolders(root, path.dirname(full));
  }
  const home = path.join(root, 'src/ui/screens/index.tsx');
  if (!existsSync(home)) {
    writeFileSync(home, HOME_SCREEN);
    done.changed.push('src/ui/screens/index.tsx: a minimal home screen in place of Notes');
  }
  const main = path.join(root, 'src/main.tsx');
  const mainText = existsSync(main) ? readFileSync(main, 'utf8') : '';
  if (MAIN_LINES.some((line) => line.test(mainText))) {
    writeFileSync(
      main,
      MAIN_LINES.reduce((text, line) => text.replace(line, ''), mainText),
    );
    done.changed.push('src/main.tsx: no longer starts the notes');
  }
  const readme = path.join(root, 'README.md');
  const readmeText = existsSync(readme) ? readFileSync(readme, 'utf8') : '';
  let readmeLeft = readmeText;
  for (const part of readmeParts(readmeText)) {
    if (shipped[part.name]?.includes(sha256Of(part.text))) readmeLeft = readmeLeft.replace(part.text, '');
    else done.kept.push(part.name);
  }
  if (readmeLeft !== readmeText) {
    writeFileSync(readme, readmeLeft);
    done.changed.push("README.md: the demo's part");
  }
  return done;
}

/** Prints what removeDemo() did, or one line when it did nothing. @param {ReturnType<typeof removeDemo>} done */
function report({ removed, kept, changed }) {
  if (!removed.length && !changed.length) {
    console.log(
      `remove-demo: nothing to do, the demo is already removed${kept.length ? ` (kept, changed by you: ${kept.join(', ')})` : ''}`,
    );
    return;
  }
  for (const file of removed) console.log(`removed ${file}`);
  for (const line of changed) console.log(`wrote ${line}`);
  for (const file of kept) console.log(`kept ${file}: changed since the demo shipped it; delete it yourself if it is still the demo's`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = process.cwd();
  if (process.argv.includes('--record')) {
    console.log(`recorded ${Object.keys(recordDemo(root)).length} demo files in ${RECORD}`);
  } else {
    report(removeDemo(root, JSON.parse(readFileSync(path.join(root, RECORD), 'utf8'))));
  }
}
