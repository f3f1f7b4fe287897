// Writing the site to its folder in one swap, so the folder is never half-written, readable by a
// server that runs as another user, and keeping every entry of the folder that no build wrote.
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Moves `entries` (relative posix paths) from folder `from` to the same place in `to`.
 * @param {string[]} entries
 * @param {string} from
 * @param {string} to
 */
async function moveEntries(entries, from, to) {
  for (const entry of entries) {
    const target = path.join(to, entry);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(path.join(from, entry), target);
  }
}

/**
 * Writes the files to a new temporary sibling of `out`, then swaps it in, so `out` is never
 * half-written. The siblings are made new (mkdtemp), so nothing but `out` and what this call
 * made is ever moved or deleted; `out` itself was checked by output-folder.mjs. Each entry of
 * `keep` (what no earlier build wrote there: a worktree's `.git`, `CNAME`, an owner's page) moves
 * into the new folder before the swap (output-folder.mjs's keptEntries() checked that no file of
 * this build takes its place). The site's folder is made by mkdir and its files by writeFile,
 * so they get the modes the umask gives (0755 and 0644 with the usual 022): mkdtemp makes its
 * folder 0700, and a copy keeping that (`cp -r`, `rsync -a`) is a 403 for every file from a server
 * whose workers run as another user (nginx's www-data).
 * @param {string} out
 * @param {Map<string, Buffer>} files
 * @param {string[]} [keep]
 */
export async function writeAtomically(out, files, keep = []) {
  await fs.mkdir(path.dirname(out), { recursive: true });
  const holder = await fs.mkdtemp(`${out}.tmp-`);
  const old = await fs.mkdtemp(`${out}.old-`);
  const temporary = path.join(holder, 'site');
  let kept = false;
  try {
    await fs.mkdir(temporary);
    const folders = new Set([...files.keys()].map((file) => path.dirname(path.join(temporary, file))));
    for (const folder of [...folders].sort()) await fs.mkdir(folder, { recursive: true });
    await Promise.all([...files].map(([file, contents]) => fs.writeFile(path.join(temporary, file), contents)));
    const exists = existsSync(out);
    if (exists) {
      kept = true;
      await moveEntries(keep, out, temporary);
      await fs.rename(out, path.join(old, 'previous'));
    }
    await fs.rename(temporary, out);
    kept = false;
  } catch (error) {
    // Whatever failed, the kept entries go back where they were (into the old folder, if moved).
    if (kept) {
      const previous = existsSync(out) ? out : path.join(old, 'previous');
      const back = keep.filter((entry) => existsSync(path.join(temporary, entry)));
      await moveEntries(back, temporary, previous).catch(() => {});
      if (previous !== out) await fs.rename(previous, out).catch(() => {});
    }
    throw error;
  } finally {
    await fs.rm(holder, { recursive: true, force: true });
    await fs.rm(old, { recursive: true, force: true });
  }
}
