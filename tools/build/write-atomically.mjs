// Writing the site to its folder in one swap, so the folder is never half-written.
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Writes the files to a new temporary sibling of `out`, then swaps it in, so `out` is never
 * half-written. The siblings are made new (mkdtemp), so nothing but `out` and what this call
 * made is ever moved or deleted; `out` itself was checked by output-folder.mjs.
 * @param {string} out
 * @param {Map<string, Buffer>} files
 */
export async function writeAtomically(out, files) {
  await fs.mkdir(path.dirname(out), { recursive: true });
  const temporary = await fs.mkdtemp(`${out}.tmp-`);
  const old = await fs.mkdtemp(`${out}.old-`);
  try {
    const folders = new Set([...files.keys()].map((file) => path.dirname(path.join(temporary, file))));
    for (const folder of [...folders].sort()) await fs.mkdir(folder, { recursive: true });
    await Promise.all([...files].map(([file, contents]) => fs.writeFile(path.join(temporary, file), contents)));
    if (existsSync(out)) await fs.rename(out, path.join(old, 'previous'));
    await fs.rename(temporary, out);
  } finally {
    await fs.rm(temporary, { recursive: true, force: true });
    await fs.rm(old, { recursive: true, force: true });
  }
}
