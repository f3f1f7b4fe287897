// The built sites the tests run against (built once per run by test/harness/runner.mjs, see
// test/harness/test-sites.mjs), what the build says about them, and temporary copies to tamper with.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Audit } from '../../../src/contract/audit';
import { BUILDS, copySources as copySourcesTo, type BuildName, type Variant } from '../../harness/test-sites.mjs';
import { urlOf } from '../../../tools/pipeline/precache-manifest.mjs';

export { headersOfItsTime } from '../../harness/site-headers.mjs';

export { BUILDS, type BuildName, type Variant };

const repo = process.cwd();

/** The package.json `name` of this checkout: the app's cache prefix and storage key prefix. */
export const APP_NAME: string = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')).name;

let sites: Record<BuildName, Record<Variant, string>> | undefined;

/** The folder of one built site (from the JSON file that TEST_SITES names). */
export function site(build: BuildName, variant: Variant): string {
  if (!sites) {
    const file = process.env.TEST_SITES;
    if (!file) throw new Error('TEST_SITES is not set: run the end-to-end tests with `npm test -- e2e`, which builds the sites');
    sites = JSON.parse(readFileSync(file, 'utf8')) as Record<BuildName, Record<Variant, string>>;
  }
  return sites[build][variant];
}

/** Reads a built site's audit.json (typed as the app reads it). */
export const audit = (dir: string): Audit => JSON.parse(readFileSync(path.join(dir, 'audit.json'), 'utf8'));

/** Reads a built site's precache manifest (precache.json): URL path -> SRI hash ('' for a file it does not hash-check). */
export const readPrecache = (dir: string): Record<string, string> => JSON.parse(readFileSync(path.join(dir, 'precache.json'), 'utf8'));

/**
 * The files of a built site's audit that /status checks in the cache: those the precache manifest
 * lists with a hash, and the manifest itself (src/worker-client/precache-check.ts).
 */
export function precachedFiles(dir: string): Audit['files'] {
  const manifest = readPrecache(dir);
  return audit(dir).files.filter((file) => file.path === 'precache.json' || manifest[urlOf(file.path)]);
}

/** The app's hashed script of a built site (`assets/app-XXXX.js`). */
export function appScript(dir: string): string {
  const script = audit(dir).files.find((file) => /^assets\/app-\w+\.js$/.test(file.path));
  if (!script) throw new Error(`no assets/app-*.js in ${dir}/audit.json`);
  return script.path;
}

const temps: string[] = [];

/** A new temporary folder, removed by cleanup() (and when the process exits). */
export function temp(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `${APP_NAME}-test-`));
  temps.push(dir);
  return dir;
}

/** Removes every folder temp() made so far. */
export function cleanup(): void {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}
process.on('exit', cleanup);

/** A temporary copy of a built site, to tamper with. */
export function copySite(dir: string): string {
  const out = path.join(temp(), 'dist');
  cpSync(dir, out, { recursive: true });
  return out;
}

/** A copy of a built site with `change` applied: a broken deploy. */
export function brokenCopy(dir: string, change: (copy: string) => void): string {
  const copy = copySite(dir);
  change(copy);
  return copy;
}

/** Removes a file of a site and its precompressed copies (a host such as nginx serves `file.gz` alone). */
export function removeWithCopies(dir: string, file: string): void {
  for (const suffix of ['', '.gz', '.br']) rmSync(path.join(dir, file + suffix), { force: suffix !== '' });
}

/**
 * Alters one representation of a site's file, the others left as built: the file itself, or only
 * its `.gz` or `.br` copy (written from the altered text, so it still decodes).
 */
export function alterRepresentation(dir: string, file: string, encoding: 'identity' | 'gzip' | 'br'): void {
  const original = readFileSync(path.join(dir, file), 'utf8');
  const altered = Buffer.from(original.replace(/.$/s, (last) => (last === ';' ? ' ' : ';')));
  if (encoding === 'identity') writeFileSync(path.join(dir, file), altered);
  if (encoding === 'gzip') writeFileSync(path.join(dir, file + '.gz'), gzipSync(altered));
  if (encoding === 'br') writeFileSync(path.join(dir, file + '.br'), brotliCompressSync(altered));
}

/**
 * A temporary web root serving a copy of each built site of `sites` at its sub-path
 * (`{ '/a/': dir }`): apps sharing one origin. Copies, not links: the preview server serves
 * nothing whose real path is outside its root.
 */
export function sharedOrigin(sites: Record<string, string>): string {
  const root = path.join(temp(), 'www');
  for (const [base, dir] of Object.entries(sites)) cpSync(dir, path.join(root, base), { recursive: true });
  return root;
}

/**
 * A copy of the project's sources (node_modules linked) in `dest` (a temporary folder unless
 * given), where `node build.mjs` runs and may be broken.
 */
export const copySources = (dest: string = temp()): string => copySourcesTo(repo, dest);

/**
 * A copy of the whole project as a download has it, in `dest` (a temporary folder unless given):
 * the sources, the tests, the README and docs/ (node_modules linked), no `.git`, and none of the
 * bench's own packages (test/bench/node_modules, about 190 MB once `npm run bench` has run:
 * copying and reading it made remove-demo's tests take 96 s instead of 6).
 */
export function copyProject(dest?: string): string {
  const copy = copySources(dest);
  const notPackages = (source: string) => path.basename(source) !== 'node_modules';
  cpSync(path.join(repo, 'test'), path.join(copy, 'test'), { recursive: true, filter: notPackages });
  cpSync(path.join(repo, 'README.md'), path.join(copy, 'README.md'));
  cpSync(path.join(repo, 'docs'), path.join(copy, 'docs'), { recursive: true });
  return copy;
}
