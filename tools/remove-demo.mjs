#!/usr/bin/env node
// `npm run remove-demo`: takes the demo notes app out of the template in one step, for a builder
// starting their own app: the notes store (src/notes/), the Notes screen and its parts, the demo's
// own tests, its CSS, its parts of the README (its section and its line), of docs/testing.md (its
// line in the layout) and of src/ui/later.ts (its line: the backup's code loaded on use); a minimal home screen
// takes the Notes screen's place and src/main.tsx stops starting the notes. It deletes only what
// the demo shipped (the SHA-256 of each version of each file and part, in demo-files.json, line
// endings aside: a CRLF checkout is the same demo): a demo file or part you changed is kept, and
// named. It never leaves a broken app: when a file it keeps (yours, or a demo file you changed)
// imports one it would delete, or src/main.tsx uses the notes in a way it cannot take out whole, it
// refuses in one line saying what to do, and changes nothing. Prints what it did; run again, it
// changes nothing and says so in one line.
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

/** How src/main.tsx imports the notes: the line goes whole with the calls. */
const MAIN_IMPORT = /^import \{ startNotes \} from ["']\.\/notes\/store["'];?\n/m;

/** A statement of src/main.tsx that calls startNotes, at the start of a line (its arguments may span lines). */
const MAIN_CALL_START = /^startNotes\(/m;

/** The README's parts about the demo: its section (to the next heading) and its lines. */
const README_SECTION = '## When the browser deletes your data\n';
const README_LINES = [
  { name: 'README.md#the-notes-screen-line', start: '- `/` **Notes**' },
  // Where the layout was before it moved to docs/testing.md: a project made from one has it there.
  { name: 'README.md#the-layout-line', start: 'src/notes/ ' },
];
/** docs/testing.md's line about the demo: its folder in the layout. */
const TESTING_DOC_LINES = [{ name: 'docs/testing.md#the-layout-line', start: 'src/notes/ ' }];

/** src/ui/later.ts's line about the demo: the backup's code, in the chunk loaded on use. */
const LATER_LINES = [{ name: 'src/ui/later.ts#the-notes-backup-line', start: 'export { downloadBackup, restoreFrom } ' }];

/** The demo's rules in src/ui/app.css: from their opening comment to their closing one. */
const CSS_START = '/* notes (issue #4)';
const CSS_END = '/* end notes */\n';

/** How demo-files.json names a part of a file: `<file>#<part>`. */
const PART = /#/;

/** Refused: nothing was changed; the message says what to do. */
export class RemoveDemoRefused extends Error {
  /** @override */
  name = 'RemoveDemoRefused';
}

/**
 * Text with LF line endings: a checkout with CRLF (Git for Windows' default) is the same demo.
 * @param {string | Buffer} contents
 */
const lf = (contents) => contents.toString().replace(/\r\n/g, '\n');

/**
 * Text written back with the line endings the file had.
 * @param {string} text with LF endings
 * @param {boolean} crlf
 */
const withEndings = (text, crlf) => (crlf ? text.replace(/\n/g, '\r\n') : text);

/**
 * The demo's parts that `text` (a README, LF endings) holds, each with its name in RECORD and its exact text.
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
  return [...parts, ...lineParts(text, README_LINES)];
}

/**
 * The lines of `text` (LF endings) that start as `lines` say, each with its name in RECORD.
 * @param {string} text
 * @param {{ name: string, start: string }[]} lines
 * @returns {{ name: string, text: string }[]}
 */
function lineParts(text, lines) {
  /** @type {{ name: string, text: string }[]} */
  const parts = [];
  for (const { name, start: lineStart } of lines) {
    const line = text.split('\n').find((candidate) => candidate.startsWith(lineStart));
    if (line !== undefined) parts.push({ name, text: `${line}\n` });
  }
  return parts;
}

/**
 * The demo's part of src/ui/app.css (LF endings), or none.
 * @param {string} text
 * @returns {{ name: string, text: string }[]}
 */
function cssParts(text) {
  const start = text.indexOf(CSS_START);
  const end = text.indexOf(CSS_END, start);
  if (start < 0 || end < 0) return [];
  // With the blank line before it, so none is left doubled.
  const from = text.slice(0, start).endsWith('\n\n') ? start - 1 : start;
  return [{ name: 'src/ui/app.css#notes', text: text.slice(from, end + CSS_END.length) }];
}

/** The files whose parts are the demo's, with how to find them. */
const PARTS_OF = [
  { file: 'README.md', parts: readmeParts },
  { file: 'docs/testing.md', parts: (/** @type {string} */ text) => lineParts(text, TESTING_DOC_LINES) },
  { file: 'src/ui/app.css', parts: cssParts },
  { file: 'src/ui/later.ts', parts: (/** @type {string} */ text) => lineParts(text, LATER_LINES) },
];

/**
 * The demo's files in the project at `root` (DEMO_FILES), relative, with "/" separators.
 * @param {string} root
 */
export function candidateFiles(root) {
  return sourceFiles(root).filter((file) => DEMO_FILES.some((pattern) => pattern.test(file)));
}

/**
 * Every file under src/ and test/ of the project at `root`, relative, with "/" separators, sorted.
 * @param {string} root
 */
function sourceFiles(root) {
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
  return found.sort();
}

/**
 * The SHA-256 of some text or bytes, hex, with LF line endings.
 * @param {string | Buffer} contents
 */
const sha256Of = (contents) => createHash('sha256').update(lf(contents)).digest('hex');

/**
 * A file's SHA-256, hex, with LF line endings.
 * @param {string} file
 */
const sha256 = (file) => sha256Of(readFileSync(file));

/**
 * Adds the demo's files and parts in `root` to RECORD: the SHA-256 of each beside those of the
 * versions recorded before, so a project made from an older template still has its demo removed.
 * @param {string} root
 * @returns {Record<string, string[]>}
 */
export function recordDemo(root) {
  const file = path.join(root, RECORD);
  /** @type {Record<string, string[]>} */
  const recorded = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const parts = PARTS_OF.flatMap(({ file: holder, parts: partsOf }) =>
    existsSync(path.join(root, holder)) ? partsOf(lf(readFileSync(path.join(root, holder)))) : [],
  );
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
 * src/main.tsx without the notes: the import and every statement that calls startNotes, each
 * whole (its arguments may be changed and span lines). Throws RemoveDemoRefused when a use of the
 * notes would be left (a call inside other code, another name imported from the notes).
 * @param {string} text LF endings
 */
function mainWithoutNotes(text) {
  let left = text.replace(MAIN_IMPORT, '');
  for (let match = MAIN_CALL_START.exec(left); match; match = MAIN_CALL_START.exec(left)) {
    let depth = 0;
    let end = match.index + 'startNotes'.length;
    for (; end < left.length; end++) {
      if (left[end] === '(') depth++;
      else if (left[end] === ')' && --depth === 0) break;
    }
    const statementEnd = /^\);?[ \t]*(\n|$)/.exec(left.slice(end));
    if (!statementEnd) break;
    left = left.slice(0, match.index) + left.slice(end + statementEnd[0].length);
  }
  if (/\bstartNotes\b|["']\.\/notes\//.test(left)) {
    const line = left.split('\n').findIndex((candidate) => /\bstartNotes\b|["']\.\/notes\//.test(candidate)) + 1;
    throw new RemoveDemoRefused(
      `src/main.tsx uses the notes where remove-demo cannot take them out whole (near line ${line}): make its start a statement of its own (startNotes(...);) or remove it and its import yourself, then run again`,
    );
  }
  return left;
}

/**
 * The files a module imports by relative path (`from './x'`, `import './x'`, `import('./x')`),
 * resolved to files of the project at `root` (relative), as TypeScript and esbuild resolve them.
 * @param {string} root
 * @param {string} file relative to `root`
 * @param {string} text its source
 */
function importsOf(root, file, text) {
  const specifiers = [...text.matchAll(/\bfrom\s+["'](\.{1,2}\/[^"']+)["']|\bimport\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map(
    (match) => match[1] ?? match[2],
  );
  return specifiers.flatMap((specifier) => {
    const base = path.posix.join(path.posix.dirname(file), specifier);
    const found = [base, ...['.ts', '.tsx', '.mjs', '.js', '/index.ts', '/index.tsx'].map((ending) => base + ending)].find(
      (candidate) => existsSync(path.join(root, candidate)) && !readdirSyncSafe(path.join(root, candidate)),
    );
    return found ? [found] : [];
  });
}

/**
 * Whether `full` is a folder (then its entries), else undefined.
 * @param {string} full
 */
function readdirSyncSafe(full) {
  try {
    return readdirSync(full);
  } catch {
    return undefined;
  }
}

/**
 * What removing the demo from the project at `root` would do, planned without changing anything:
 * the files to delete, the files to write (path -> text), what is kept and named. Throws
 * RemoveDemoRefused when it would leave a broken app.
 * @param {string} root
 * @param {Record<string, string[]>} shipped the demo's files and parts and the SHA-256 of each version shipped (RECORD)
 */
export function planRemoval(root, shipped) {
  /** @type {string[]} */
  const remove = [];
  /** @type {string[]} */
  const kept = [];
  /** @type {Map<string, string>} */
  const write = new Map();
  /** @type {string[]} */
  const changed = [];
  for (const [file, hashes] of Object.entries(shipped)) {
    if (PART.test(file)) continue;
    const full = path.join(root, file);
    if (!existsSync(full)) continue;
    if (!hashes.includes(sha256(full))) {
      // The home screen written by an earlier run is not the demo's: it stays, unnamed.
      if (file !== 'src/ui/screens/index.tsx' || lf(readFileSync(full)) !== HOME_SCREEN) kept.push(file);
      continue;
    }
    remove.push(file);
  }
  const crlf = existsSync(path.join(root, 'src/main.tsx')) && readFileSync(path.join(root, 'src/main.tsx'), 'utf8').includes('\r\n');
  if (remove.includes('src/ui/screens/index.tsx') || !existsSync(path.join(root, 'src/ui/screens/index.tsx'))) {
    write.set('src/ui/screens/index.tsx', withEndings(HOME_SCREEN, crlf));
    changed.push('src/ui/screens/index.tsx: a minimal home screen in place of Notes');
  }
  const main = path.join(root, 'src/main.tsx');
  if (existsSync(main)) {
    const raw = readFileSync(main, 'utf8');
    const mainText = lf(raw);
    const left = mainWithoutNotes(mainText);
    if (left !== mainText) {
      write.set('src/main.tsx', withEndings(left, raw.includes('\r\n')));
      changed.push('src/main.tsx: no longer starts the notes');
    }
  }
  for (const { file, parts } of PARTS_OF) {
    const full = path.join(root, file);
    if (!existsSync(full)) continue;
    const raw = readFileSync(full, 'utf8');
    const text = lf(raw);
    let left = text;
    for (const part of parts(text)) {
      if (shipped[part.name]?.includes(sha256Of(part.text))) left = left.replace(part.text, '');
      else kept.push(part.name);
    }
    if (left === text) continue;
    write.set(file, withEndings(left, raw.includes('\r\n')));
    changed.push(`${file}: the demo's part`);
  }
  // Nothing left may import what goes: the files kept (the builder's, and demo files they
  // changed), as they will be written.
  const removed = new Set(remove);
  for (const file of sourceFiles(root).filter((candidate) => !removed.has(candidate) && /\.(tsx?|mjs|js)$/.test(candidate))) {
    const text = write.get(file) ?? readFileSync(path.join(root, file), 'utf8');
    const needed = importsOf(root, file, text).find((imported) => removed.has(imported) && !write.has(imported));
    if (!needed) continue;
    const whose = kept.includes(file) ? ' (a demo file you changed, so it is kept)' : '';
    throw new RemoveDemoRefused(
      `${file}${whose} imports ${needed}, which is the demo's and would be deleted: delete ${file} or make it import nothing of the demo, then run again`,
    );
  }
  return { remove, write, kept, changed };
}

/**
 * Takes the demo out of the project at `root`; returns what it did, one line each: removed, kept
 * (changed since the demo shipped it), written. Nothing when the demo is gone already. Throws
 * RemoveDemoRefused, having changed nothing, when that would leave a broken app.
 * @param {string} root
 * @param {Record<string, string[]>} shipped the demo's files and the SHA-256 of each version shipped (RECORD)
 * @returns {{ removed: string[], kept: string[], changed: string[] }}
 */
export function removeDemo(root, shipped) {
  const plan = planRemoval(root, shipped);
  for (const file of plan.remove) {
    if (plan.write.has(file)) continue;
    rmSync(path.join(root, file));
    removeEmptyFolders(root, path.dirname(path.join(root, file)));
  }
  for (const [file, text] of plan.write) writeFileSync(path.join(root, file), text);
  return { removed: plan.remove, kept: plan.kept, changed: plan.changed };
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
    try {
      report(removeDemo(root, JSON.parse(readFileSync(path.join(root, RECORD), 'utf8'))));
    } catch (error) {
      if (!(error instanceof RemoveDemoRefused)) throw error;
      console.error(`remove-demo: nothing changed: ${error.message}`);
      process.exitCode = 1;
    }
  }
}
