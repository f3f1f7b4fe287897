// The two ways a host sends a built site, made from any built folder alike (ours, or the site
// `--compare` names): with precompressed copies (`file.br`, `file.gz`, as the build writes them and
// as nginx's gzip_static or a CDN sends them) and without (every file as it is, as
// `python3 -m http.server` sends it). Both are temporary copies, so the folder given is never touched.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { auditAndCompress } from '../../tools/pipeline/audit.mjs';
import { listFiles } from '../../tools/pipeline/list-files.mjs';

/** A precompressed copy, which the identity variant leaves out. */
const ENCODED_COPY = /\.(br|gz)$/;

/**
 * A site as two folders: `compressed` (text files with .br and .gz copies, made the way the build
 * makes them) and `identity` (no copies), and `remove()` for both.
 * @typedef {{ compressed: string, identity: string, remove(): Promise<void> }} SiteVariants
 */

/**
 * Copies the built site in `dir` twice: once without any precompressed copy, once with fresh
 * copies of every text file (the same compression as the build's, so two sites compare alike).
 * @param {string} dir
 * @returns {Promise<SiteVariants>}
 */
export async function siteVariants(dir) {
  const stat = await fs.stat(dir).catch(() => null);
  if (!stat?.isDirectory()) throw new Error(`bench: ${dir} is not a folder with a built site in it`);
  const files = (await listFiles(dir)).filter((file) => !ENCODED_COPY.test(file));
  if (!files.includes('index.html')) throw new Error(`bench: ${dir} has no index.html: is it a built site?`);
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'offline-shell-bench-site-'));
  const identity = path.join(base, 'identity');
  const compressed = path.join(base, 'compressed');
  for (const file of files) {
    const contents = await fs.readFile(path.join(dir, file));
    await writeFile(path.join(identity, file), contents);
    await writeFile(path.join(compressed, file), contents);
    const { copies } = await auditAndCompress(file, contents);
    for (const [copyPath, copy] of copies) await writeFile(path.join(compressed, copyPath), copy);
  }
  return { compressed, identity, remove: () => fs.rm(base, { recursive: true, force: true }) };
}

/**
 * Writes a file, making its folder first.
 * @param {string} file
 * @param {Buffer} contents
 */
async function writeFile(file, contents) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, contents);
}
