// npm packages only the lab uses, installed on first use into a folder of their own rather than
// as dev dependencies, so a template's `npm ci` stays small: Cloudflare Pages' runtime and the
// MDN HTTP Observatory's scanner (setup.mjs, into the test cache) and the bench's own packages
// (test/bench/package.json and its lock). Each is installed the first time it is needed, saying
// so in one line, and never again while the pinned version is there.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { onPath } from './on-path.mjs';

/**
 * What to install, where, and the words for saying so.
 * @typedef {object} FirstUse
 * @property {string} dir the folder npm installs in (its node_modules/ holds the packages)
 * @property {string} name the package whose version says whether the install is there
 * @property {string} version that package's pinned version
 * @property {Record<string, string>} [dependencies] a package.json of these is written and `npm install`ed; without, `dir`'s own package.json and lock are (`npm ci`)
 * @property {string} by who installs: `npm test`, `npm run bench`
 * @property {string} about what it is, said in the install line
 * @property {string} neededBy who needs it, said in every line
 * @property {string} [instead] what to do instead where npm is missing (`set WRANGLER_PATH`)
 */

/**
 * The version of package `name` installed in `dir`'s node_modules, or null.
 * @param {string} dir
 * @param {string} name
 * @returns {string | null}
 */
export function installedVersion(dir, name) {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

/**
 * Makes sure `wanted.name` is installed at `wanted.version` in `wanted.dir`: when it is not, says
 * once what is installed and why, and installs it with npm. Without install scripts: the packages
 * installed this way need none (workerd's binary comes as an optional package for this platform;
 * the Observatory's script only downloads a list from the internet), and browsers are never
 * downloaded. Returns whether the pinned version is there; never throws: whoever needed it fails
 * with its own line.
 * @param {FirstUse} wanted
 * @param {(line: string) => void} [say]
 */
export function installOnFirstUse(wanted, say = console.log) {
  const { dir, name, version, dependencies, by, about, neededBy, instead } = wanted;
  if (installedVersion(dir, name) === version) return true;
  const npm = onPath('npm');
  if (!npm) {
    say(`${name} ${version} not installed and npm not on PATH (${neededBy})${instead ? `: ${instead}` : ''}`);
    return false;
  }
  say(`${by}: installing ${name} ${version} (${about}) into ${dir} with npm, for ${neededBy}`);
  mkdirSync(dir, { recursive: true });
  if (dependencies) {
    const manifest = { private: true, description: `${name} for ${neededBy} (test/harness/install-on-first-use.mjs)`, dependencies };
    writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  }
  const result = spawnSync(npm, [dependencies ? 'install' : 'ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    // npm's own output goes to stderr: a command whose stdout is its result (observatory.mjs --json) stays readable.
    stdio: ['ignore', 2, 2],
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', PUPPETEER_SKIP_DOWNLOAD: '1' },
  });
  const installed = result.status === 0 && installedVersion(dir, name) === version;
  if (!installed) say(`${by}: installing ${name} ${version} failed; ${neededBy} will fail`);
  return installed;
}
