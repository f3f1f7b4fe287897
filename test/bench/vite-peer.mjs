#!/usr/bin/env node
// Builds the site the README compares against: the smallest React app on Vite 8 + vite-plugin-pwa 2
// (Workbox), from test/bench/vite-peer/, in a folder of its own outside the project (it is not a
// dependency: npm installs its packages there). Prints the built folder's path, so that
//   npm run bench -- --compare "$(node test/bench/vite-peer.mjs)"
// repeats the comparison in one command. --same-files copies this project's other precached files
// (icons, the other pages, the audit files) into the peer's public/ and has Workbox precache them
// too: the same install, file for file, done by Workbox. Needs the npm registry.
// Usage: node test/bench/vite-peer.mjs [--same-files] [--out DIR]
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runInGroup } from '../harness/process-group.mjs';
import { BENCH, ROOT } from './root.mjs';
import { PEER_STAMP } from './timings-doc.mjs';

const TEMPLATE = path.join(BENCH, 'vite-peer');
// The versions the README's comparison was measured with; React is this project's own version
// (read from node_modules), so both sides ship the same framework.
const PEER_PACKAGES = { vite: '8.3.8', '@vitejs/plugin-react': '6.3.0', 'vite-plugin-pwa': '2.0.0' };
/** npm install and the two builds; generous for a slow link to the registry. */
const STEP_LIMIT_MS = 10 * 60_000;
/** Our files the peer has its own of: its page, its bundle and style, its web manifest. */
const PEER_HAS_ITS_OWN = (/** @type {string} */ url) => url === '/' || url.startsWith('/assets/') || url === '/manifest.webmanifest';

/** @param {string[]} argv */
function parseArgs(argv) {
  const options = { sameFiles: false, out: '' };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--same-files') options.sameFiles = true;
    else if (argv[i] === '--out' && argv[i + 1]) options.out = path.resolve(argv[++i]);
    else throw new Error(`vite-peer: unknown option ${argv[i]} (expected --same-files, --out DIR)`);
  }
  options.out ||= path.join(os.tmpdir(), options.sameFiles ? 'offline-shell-vite-peer-same-files' : 'offline-shell-vite-peer');
  return options;
}

/**
 * Runs one step in `cwd`; a failure throws with the step's output.
 * @param {string} what
 * @param {string} cmd
 * @param {string[]} argv
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv }} options
 */
async function step(what, cmd, argv, { cwd, env = {} }) {
  console.error(`vite-peer: ${what}…`);
  const { code, out } = await runInGroup(cmd, argv, { cwd, env, capture: true, timeout: STEP_LIMIT_MS });
  if (code !== 0) throw new Error(`vite-peer: ${what} failed (exit ${code}):\n${out.trim()}`);
}

/** The package.json of the peer: its pinned packages, React at this project's version. */
function peerPackageJson() {
  const versionOf = (/** @type {string} */ name) =>
    JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  const dependencies = { react: versionOf('react'), 'react-dom': versionOf('react-dom'), ...PEER_PACKAGES };
  return `${JSON.stringify({ name: 'vite-peer', private: true, type: 'module', dependencies }, null, 2)}\n`;
}

/**
 * Builds this project (React) into a temporary folder and copies every precached file the peer
 * has no counterpart of into `publicDir`, where Vite copies it to the peer's build as it is.
 * @param {string} work
 * @param {string} publicDir
 */
async function copyOurOtherFiles(work, publicDir) {
  const ours = path.join(work, 'ours');
  await step('building offline-shell for its files', process.execPath, ['build.mjs', '--out', ours], { cwd: ROOT });
  const precached = Object.keys(JSON.parse(readFileSync(path.join(ours, 'precache.json'), 'utf8')));
  for (const url of precached.filter((url) => !PEER_HAS_ITS_OWN(url))) {
    const file = url.endsWith('/') ? `${url}index.html` : url;
    mkdirSync(path.dirname(path.join(publicDir, file)), { recursive: true });
    cpSync(path.join(ours, file), path.join(publicDir, file));
  }
}

/** Builds the peer and prints where. */
async function main() {
  const { sameFiles, out } = parseArgs(process.argv.slice(2));
  refuseForeignFolder(out);
  const work = mkdtempSync(path.join(os.tmpdir(), 'offline-shell-vite-peer-work-'));
  try {
    const peer = path.join(work, 'peer');
    cpSync(TEMPLATE, peer, { recursive: true });
    writeFileSync(path.join(peer, 'package.json'), peerPackageJson());
    if (sameFiles) await copyOurOtherFiles(work, path.join(peer, 'public'));
    await step('npm install (Vite, vite-plugin-pwa, React)', 'npm', ['install', '--no-audit', '--no-fund'], {
      cwd: peer,
      env: { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', PUPPETEER_SKIP_DOWNLOAD: '1' },
    });
    await step('vite build', process.execPath, [path.join('node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
      cwd: peer,
      env: { PEER_SAME_FILES: sameFiles ? '1' : '0' },
    });
    rmSync(out, { recursive: true, force: true });
    cpSync(path.join(peer, 'dist'), out, { recursive: true });
    // Which peer this is, for the bench's ratios (timings-doc.mjs).
    writeFileSync(path.join(out, PEER_STAMP), `${JSON.stringify({ peer: 'vite', sameFiles })}\n`);
    console.log(out);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Stops before anything is built when `out` holds files this script did not write: it replaces the
 * folder whole, which is only safe for a peer site it built before (its stamp says so) or none.
 * @param {string} out
 */
function refuseForeignFolder(out) {
  if (!existsSync(out) || readdirSync(out).length === 0 || existsSync(path.join(out, PEER_STAMP))) return;
  throw new Error(`vite-peer: ${out} holds files vite-peer did not build; give --out an empty or new folder`);
}

main().catch((error) => {
  console.error(error?.message?.startsWith('vite-peer:') ? error.message : (error?.stack ?? error));
  process.exit(1);
});
