// Writing the site to its folder in one swap, so the folder is never half-written.
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Writes the files to a temporary sibling of `out`, then swaps it in, so `out` is never half-written.
 * @param {string} out
 * @param {Map<string, Buffer>} files
 */
export async function writeAtomically(out, files) {
  const temporary = `${out}.tmp-${process.pid}`;
  const old = `${out}.old-${process.pid}`;
  await fs.rm(temporary, { recursive: true, force: true });
  try {
    const folders = new Set([...files.keys()].map((file) => path.dirname(path.join(temporary, file))));
    for (const folder of [...folders].sort()) await fs.mkdir(folder, { recursive: true });
    await Promise.all([...files].map(([file, contents]) => fs.writeFile(path.join(temporary, file), contents)));
    if (existsSync(out)) await fs.rename(out, old);
    await fs.rename(temporary, out);
  } finally {
    await fs.rm(temporary, { recursive: true, force: true });
    await fs.rm(old, { recursive: true, force: true });
  }
}
