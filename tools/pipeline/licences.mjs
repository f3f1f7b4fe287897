// licenses.txt: the licences of the third-party code in the page bundle.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { packageOfInput } from './packages.mjs';

/**
 * The licences of the third-party packages in the bundle, sorted by name: each package's name,
 * version, licence and LICENSE file, then the legal comments esbuild extracted. Only files the
 * bundle really contains count (esbuild's metafile), so it is exact and deterministic.
 * @param {string} root
 * @param {import('esbuild').Metafile} metafile
 * @param {{ path: string, contents: Buffer }[]} legal esbuild's extracted legal comments, one file per output
 */
export async function licenses(root, metafile, legal) {
  const dirs = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const owner = packageOfInput(input);
    if (owner) dirs.set(owner.name, path.join(root, owner.dir));
  }
  // Packages with the same licence text (react, react-dom, scheduler) share one copy of it.
  /** @type {Map<string, string[]>} */
  const byText = new Map();
  for (const name of [...dirs.keys()].sort()) {
    const dir = dirs.get(name);
    const pkg = JSON.parse(await fs.readFile(path.join(dir, 'package.json'), 'utf8'));
    const file = (await fs.readdir(dir)).sort().find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const text = file
      ? (await fs.readFile(path.join(dir, file), 'utf8')).trim()
      : `(no licence file; package.json says ${pkg.license ?? 'nothing'})`;
    byText.set(text, [...(byText.get(text) ?? []), `== ${name} ${pkg.version} (${pkg.license ?? 'unknown'}) ==`]);
  }
  const parts = ['Third-party code bundled into this app, and its licences.\n'];
  for (const [text, heads] of byText) parts.push(`${heads.join('\n')}\n\n${text}\n`);
  for (const f of legal)
    parts.push(
      `== Legal comments in ${f.path.replace(/\.LEGAL\.txt$/, '')} ==\n\n${f.contents
        .toString('utf8')
        .replace(/^Bundled license information:\n\n/, '')
        .trim()}\n`,
    );
  return parts.join('\n');
}
