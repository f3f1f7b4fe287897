// Where a build may write: the build replaces what an earlier build wrote in its output folder
// (write-atomically.mjs) and keeps every other entry, so `--out` must name a folder that holds an
// earlier build or only a host's files (a gh-pages worktree's .git, CNAME), checked before anything is built.
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { BuildError } from '../build-error.mjs';
import { DEV_WORKER_MARK } from '../serve/dev-worker.mjs';

/** The project's own folders: no build goes into them or any folder inside them. */
export const PROJECT_FOLDERS = ['src', 'static', 'test', 'tools', 'deploy', 'node_modules', '.git'];

/** The file every build writes, by which a folder is known as an earlier build of this project. */
export const BUILD_MARK = 'audit.json';

/**
 * Entries a folder may hold before its first build: a git checkout's (a `git worktree` of a
 * gh-pages branch has a `.git` file) and GitHub Pages' own files (a custom domain, Jekyll off).
 */
export const HOST_ENTRIES = ['.git', 'CNAME', '.nojekyll'];

/** The encoded copies the build writes beside a file (tools/pipeline/compress.mjs). */
const COPIES = ['.gz', '.br'];

/**
 * The real path of `file`, symlinks resolved, also when its last parts do not exist yet.
 * @param {string} file an absolute path
 * @returns {string}
 */
function realPathOf(file) {
  const missing = [];
  let existing = file;
  for (;;) {
    try {
      return path.join(realpathSync(existing), ...missing.reverse());
    } catch {
      const parent = path.dirname(existing);
      // The file system's root always exists; this guard only ends the loop on a broken one.
      if (parent === existing) return file;
      missing.push(path.basename(existing));
      existing = parent;
    }
  }
}

/**
 * True when `folder` holds an earlier build: its audit.json names the build's files, or it is a
 * dev build on disk (its sw.js's first line says so).
 * @param {string} folder
 */
function isEarlierBuild(folder) {
  try {
    if (readFileSync(path.join(folder, 'sw.js'), 'utf8').startsWith(DEV_WORKER_MARK)) return true;
  } catch {
    // No sw.js: not a dev build.
  }
  try {
    const audit = JSON.parse(readFileSync(path.join(folder, BUILD_MARK), 'utf8'));
    return typeof audit.version === 'string' && Array.isArray(audit.files);
  } catch {
    return false;
  }
}

/**
 * Checks `--out` before the build starts; returns the folder's absolute path. Throws a one-line
 * BuildError for the project's folder or one above it, a folder of the project's own (src/,
 * .git, …) or inside one, a file, and a folder holding anything but an earlier build.
 * @param {string} root the project's folder
 * @param {string} out `--out` as given, relative to the root
 * @returns {string}
 */
export function checkedOutput(root, out) {
  const folder = path.resolve(root, out);
  const real = realPathOf(folder);
  const shown = JSON.stringify(out);
  // As written and as resolved: a link may lead out of the project, or into one of its folders.
  const pairs = [
    [path.resolve(root), folder],
    [realPathOf(path.resolve(root)), real],
  ];
  /**
   * @param {string} outer
   * @param {string} inner
   */
  const within = (outer, inner) => inner === outer || inner.startsWith(outer + path.sep);
  if (pairs.some(([project, output]) => within(output, project)))
    throw new BuildError(
      `--out ${shown} is the project's folder or holds it; the build replaces its output folder whole, so give it one of its own (such as dist)`,
    );
  const own = PROJECT_FOLDERS.find((name) => pairs.some(([project, output]) => within(path.join(project, name), output)));
  if (own) throw new BuildError(`--out ${shown} is in the project's ${own}/; give the build a folder of its own (such as dist)`);
  let stat;
  try {
    stat = lstatSync(real);
  } catch {
    return folder;
  }
  if (!stat.isDirectory())
    throw new BuildError(`--out ${shown} is a file, not a folder; give the build a folder of its own (such as dist)`);
  const entries = readdirSync(real);
  if (entries.some((entry) => !HOST_ENTRIES.includes(entry)) && !isEarlierBuild(real))
    throw new BuildError(
      `--out ${shown} holds files no build wrote (it has no ${BUILD_MARK}), and the build would replace them: give it an empty or new folder`,
    );
  return folder;
}

/**
 * The entries of an output folder that no earlier build wrote, as posix paths relative to it,
 * each the outermost such entry (a `.git` folder whole, `blog/` whole, `assets/logo.png` alone):
 * what its audit.json does not list, nor audit.json itself, nor their encoded copies.
 * A dev build on disk (no audit.json) was wholly the build's; a missing folder holds nothing.
 * @param {string} folder an output folder that checkedOutput() accepted
 * @returns {string[]}
 */
function entriesNoBuildWrote(folder) {
  let audit;
  try {
    audit = JSON.parse(readFileSync(path.join(folder, BUILD_MARK), 'utf8'));
  } catch {
    if (isEarlierBuild(folder)) return [];
    try {
      return readdirSync(folder).sort();
    } catch {
      return [];
    }
  }
  const written = new Set();
  for (const { path: file } of [...audit.files, { path: BUILD_MARK }]) for (const suffix of ['', ...COPIES]) written.add(file + suffix);
  /**
   * @param {string} relative
   * @returns {string[]}
   */
  const foreignIn = (relative) => {
    const found = [];
    for (const entry of readdirSync(path.join(folder, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (written.has(name)) continue;
      const holdsWritten = entry.isDirectory() && [...written].some((file) => file.startsWith(`${name}/`));
      if (holdsWritten) found.push(...foreignIn(name));
      else found.push(name);
    }
    return found;
  };
  return foreignIn('');
}

/**
 * What a build into `folder` keeps (entriesNoBuildWrote()); throws a one-line BuildError, before
 * anything is written, naming the first such entry that one of the new `files` would replace or
 * stand in the way of (the same path, a file inside it, or a file it is inside of).
 * @param {string} folder the output folder's absolute path
 * @param {string} shown the folder as the person named it
 * @param {Iterable<string>} files the posix paths the build writes
 * @returns {string[]}
 */
export function keptEntries(folder, shown, files) {
  const keep = entriesNoBuildWrote(folder);
  const paths = [...files];
  for (const entry of keep) {
    const collision = paths.find((file) => file === entry || file.startsWith(`${entry}/`) || entry.startsWith(`${file}/`));
    if (collision)
      throw new BuildError(
        `--out ${JSON.stringify(shown)} holds ${entry}, which no earlier build wrote, and this build writes ${collision}: move it away or give the build another folder`,
      );
  }
  return keep;
}
