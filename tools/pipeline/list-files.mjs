// The files of a folder, in a stable order: the build's inputs and the test runners' test files.
import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Lists files under dir as sorted posix paths relative to it.
 * @param {string} dir
 * @param {string} [base]
 * @returns {Promise<string[]>}
 */
export async function listFiles(dir, base = dir) {
  const out = [];
  for (const ent of (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, ent.name);
    if (ent.isDirectory()) out.push(...(await listFiles(full, base)));
    else if (ent.isFile()) out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out;
}
