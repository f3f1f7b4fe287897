// The built sites the end-to-end tests run against, made once per `npm test` run by runner.mjs
// (not once per test file): for each build (React, Preact) this checkout (`v1`), a new version of
// it (`v2`), its kill switch (`kill`), the same app under another package name (`renamed`), this
// checkout built for the sub-paths /my-app/ (`base`) and /other-app/ (`base2`), the last
// released version, at the root and under /my-app/ (`released`, `released-base`), to update from,
// and this checkout with a builder's screens added (test/fixtures/screens/), with its new version
// and its kill switch (`form`, `form-v2`, `form-kill`), and with a screen that ships media
// (test/fixtures/media/: imported images, a sound and a video from static/) under /my-app/ (`media`).
// Also the one list of what a copy of the project needs to build, for tests that break a copy.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  promises as fs,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInGroup } from './process-group.mjs';
import { addFixtureScreens, needsFixtureScreens } from './field-screen.mjs';
import { fixtureFontWoff2 } from './fixture-font.mjs';

/** @typedef {'react' | 'preact'} BuildName */
/** @typedef {'v1' | 'v2' | 'kill' | 'renamed' | 'base' | 'base2' | 'released' | 'released-base' | 'form' | 'form-v2' | 'form-kill' | 'media'} Variant */

/**
 * The two builds every browser-facing test runs against.
 * @type {readonly { name: BuildName, preact: boolean }[]}
 */
export const BUILDS = [
  { name: 'react', preact: false },
  { name: 'preact', preact: true },
];

/**
 * The versions of each build: this checkout, a new version of it, its kill switch, another name.
 * @type {readonly Variant[]}
 */
export const VARIANTS = [
  'v1',
  'v2',
  'kill',
  'renamed',
  'base',
  'base2',
  'released',
  'released-base',
  'form',
  'form-v2',
  'form-kill',
  'media',
];

/** The sub-path the `base` and `released-base` variants are built for. */
export const TEST_BASE = '/my-app/';

/** The sub-path of `base2`: a second copy of the app on the same origin. */
export const SECOND_BASE = '/other-app/';

/**
 * The last released version's sources (the main branch at 5993b5a, before one app became its name
 * and its base): people update from it, keeping their notes and their offline copy. A fixture, not
 * this repository's history, so the tests run in a fresh history, a shallow clone or a folder
 * without `.git`. It holds exactly the files that version's `node build.mjs` reads (82 files,
 * 84 KB gzip; its build from them is byte for byte its build from the whole commit).
 */
export const RELEASED_SOURCES = fileURLToPath(new URL('../fixtures/released-5993b5a.tar.gz', import.meta.url));

/** Top-level entries a build never reads: outputs, tests, docs, git's own. */
const NOT_SOURCES = new Set(['node_modules', 'dist', 'test', '.git', '.cache', 'README.md', 'docs']);

/** Top-level entries that are never sources where git cannot say (the template's .gitignore holds them too). */
const NEVER_SOURCES = ['node_modules', 'dist', 'dist.tmp-*', 'dist.old-*', '.cache*', 'test-output'];

/**
 * The top-level entries of the project a build needs: every one git tracks, or, where git cannot
 * list them (no `.git`, no git, or a folder inside another repository), every entry that is not
 * ignored (NEVER_SOURCES and the root's .gitignore); NOT_SOURCES left out.
 * @param {string} root
 */
export function sources(root) {
  const top = trackedTopLevel(root) ?? unignoredTopLevel(root);
  // A tracked file deleted in the working tree is still listed until the deletion is staged.
  return top.filter((entry) => !NOT_SOURCES.has(entry) && existsSync(path.join(root, entry))).sort();
}

/**
 * The top-level entries git tracks in `root`, or undefined when `root` is not the top of a git work tree.
 * @param {string} root
 * @returns {string[] | undefined}
 */
function trackedTopLevel(root) {
  const top = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: root, encoding: 'utf8' });
  if (top.status !== 0 || path.resolve(top.stdout.trim()) !== realpathSync(root)) return undefined;
  const tracked = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  if (tracked.status !== 0) return undefined;
  return [
    ...new Set(
      tracked.stdout
        .split('\0')
        .filter(Boolean)
        .map((file) => file.split('/')[0]),
    ),
  ];
}

/**
 * The top-level entries of `root` that neither NEVER_SOURCES nor a top-level pattern of its .gitignore names.
 * @param {string} root
 */
function unignoredTopLevel(root) {
  const ignoreFile = path.join(root, '.gitignore');
  const ignored = [...NEVER_SOURCES, ...(existsSync(ignoreFile) ? topLevelPatterns(readFileSync(ignoreFile, 'utf8')) : [])].map(
    globToRegExp,
  );
  return readdirSync(root).filter((entry) => !ignored.some((pattern) => pattern.test(entry)));
}

/**
 * The .gitignore lines that name top-level entries (`name`, `/name`, `name/`, `prefix-*`): the
 * ones that decide what to copy; negations, comments and deeper paths are left out.
 * @param {string} text
 */
function topLevelPatterns(text) {
  return text
    .split('\n')
    .map((line) => line.trim().replace(/^\//, '').replace(/\/$/, ''))
    .filter((line) => line && !line.startsWith('#') && !line.startsWith('!') && !line.includes('/'));
}

/**
 * A whole-name matcher for a .gitignore glob of one path segment (`*` and `?`).
 * @param {string} glob
 */
function globToRegExp(glob) {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${body}$`);
}

/**
 * Copies the project's sources into `dest` (created), with node_modules linked, so `node build.mjs` runs there.
 * @param {string} root
 * @param {string} dest
 */
export function copySources(root, dest) {
  mkdirSync(dest, { recursive: true });
  for (const entry of sources(root)) cpSync(path.join(root, entry), path.join(dest, entry), { recursive: true });
  symlinkSync(path.join(root, 'node_modules'), path.join(dest, 'node_modules'));
  return dest;
}

/**
 * The released version's sources (RELEASED_SOURCES) unpacked into `dest` (created), with
 * node_modules linked, so its `node build.mjs` runs there.
 * @param {string} root
 * @param {string} dest
 */
export function releasedSources(root, dest) {
  mkdirSync(dest, { recursive: true });
  const unpacked = spawnSync('tar', ['-xzf', RELEASED_SOURCES, '-C', dest], { encoding: 'utf8' });
  if (unpacked.status !== 0) throw new Error(`tar could not unpack the released version (${RELEASED_SOURCES}): ${unpacked.stderr}`);
  symlinkSync(path.join(root, 'node_modules'), path.join(dest, 'node_modules'));
  return dest;
}

/**
 * Rewrites one text file of a copy in place.
 * @param {string} dir
 * @param {string} file
 * @param {(text: string) => string} change
 */
function edit(dir, file, change) {
  const full = path.join(dir, file);
  writeFileSync(full, change(readFileSync(full, 'utf8')));
}

/**
 * A new version of the app: its page title gets ` v2` and its script marks
 * `<html data-variant="v2">`, so the HTML, the hashed JS and the version id all change.
 * @param {string} dir
 */
export function makeV2(dir) {
  edit(dir, 'static/index.html', (html) => html.replace('%TITLE%', '%TITLE% v2'));
  edit(dir, 'src/main.tsx', (code) => code + "\ndocument.documentElement.dataset.variant = 'v2';\n");
}

/**
 * The name and display name the `renamed` test sites take: "field-notes", unless the app at `root`
 * is named so already (then "field-notes-2"): always another app than the one under test.
 * @param {string} root
 */
export function renamedApp(root) {
  const { name } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return name === 'field-notes'
    ? { name: 'field-notes-2', displayName: 'Field Notes 2' }
    : { name: 'field-notes', displayName: 'Field Notes' };
}

/**
 * A WAV file (RIFF, 16-bit PCM, mono, 8 kHz) of a 440 Hz tone `seconds` long: a sound to play and
 * seek, made here rather than shipped as a binary.
 * @param {number} seconds
 */
export function toneWav(seconds) {
  const rate = 8000;
  const samples = Math.round(rate * seconds);
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16); // the fmt chunk's size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28); // bytes per second
  wav.writeUInt16LE(2, 32); // bytes per frame
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return wav;
}

/** The fixture of a screen that ships media (test/fixtures/media/). */
export const MEDIA_FIXTURE = 'test/fixtures/media';

/**
 * Adds the media fixture to a copy of the project: its screen (with the images, the stylesheet and
 * the generated font it imports) in
 * src/ui/screens/, its video, a generated 4-second sound and their captions in static/fixture-media/.
 * @param {string} root
 * @param {string} dir
 */
function addMediaFixture(root, dir) {
  const fixture = path.join(root, MEDIA_FIXTURE);
  cpSync(path.join(fixture, 'media-fixture.tsx'), path.join(dir, 'src/ui/screens/media-fixture.tsx'));
  cpSync(path.join(fixture, 'media-fixture'), path.join(dir, 'src/ui/screens/media-fixture'), { recursive: true });
  writeFileSync(path.join(dir, 'src/ui/screens/media-fixture/fixture.woff2'), fixtureFontWoff2());
  mkdirSync(path.join(dir, 'static/fixture-media'), { recursive: true });
  cpSync(path.join(fixture, 'clip.webm'), path.join(dir, 'static/fixture-media/clip.webm'));
  writeFileSync(path.join(dir, 'static/fixture-media/tone.wav'), toneWav(4));
  writeFileSync(path.join(dir, 'static/fixture-media/tone.vtt'), 'WEBVTT\n\n00:00.000 --> 00:04.000\n[a steady tone]\n');
  writeFileSync(path.join(dir, 'static/fixture-media/clip.vtt'), 'WEBVTT\n\n00:00.000 --> 00:02.000\n[a ball moves, no sound]\n');
  raiseBudgetsForFixtures(dir);
}

/**
 * The fixture screens a test site adds grow the app's CSS and the chunk loaded on use, as a
 * builder's screen would: the copy's budgets grow with them, as the docs tell a builder to do (an
 * app near its own `lazy` budget would otherwise fail its test sites' build, not its own).
 * @param {string} dir
 */
function raiseBudgetsForFixtures(dir) {
  edit(dir, 'package.json', (json) => {
    const pkg = JSON.parse(json);
    const budgets = pkg.budgets ?? {};
    const raised = {
      ...budgets,
      ...(budgets.css ? { css: budgets.css + 500 } : {}),
      ...(budgets.lazy ? { lazy: budgets.lazy + 3000 } : {}),
    };
    return `${JSON.stringify({ ...pkg, budgets: raised }, null, 2)}\n`;
  });
}

/**
 * The same app deployed under another package name, for tests of what the name controls.
 * @param {string} root
 * @param {string} dir
 */
function makeRenamed(root, dir) {
  edit(dir, 'package.json', (json) => JSON.stringify({ ...JSON.parse(json), ...renamedApp(root) }, null, 2) + '\n');
}

/**
 * Runs `node build.mjs` in `cwd`; rejects with its output when it fails.
 * @param {string} cwd
 * @param {string[]} args
 */
async function build(cwd, args) {
  const { code, out } = await runInGroup(process.execPath, ['build.mjs', ...args], { cwd, capture: true });
  if (code !== 0) throw new Error(`node build.mjs ${args.join(' ')} failed in ${cwd}:\n${out}`);
}

/**
 * Runs the jobs, at most `parallel` at a time (builds are CPU-bound; these machines have 2 cores).
 * @param {(() => Promise<void>)[]} jobs
 * @param {number} parallel
 */
async function runAll(jobs, parallel) {
  const queue = [...jobs];
  const worker = async () => {
    for (;;) {
      const job = queue.shift();
      if (!job) return;
      await job();
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

/**
 * Builds every variant of every build into `out`/<build>/<variant>/ and writes `out`/sites.json,
 * `{ react: { v1, v2, kill, renamed, base }, preact: {...} }` (absolute folders); returns that file's path.
 * @param {string} root
 * @param {string} out
 * @param {{ parallel?: number, builds?: readonly { name: BuildName, preact: boolean }[], variants?: readonly Variant[] }} [options] BUILDS, VARIANTS unless told
 * @returns {Promise<string>}
 */
export async function buildTestSites(root, out, options = {}) {
  const { parallel = Math.min(2, os.availableParallelism()), builds = BUILDS, variants = VARIANTS } = options;
  await fs.rm(out, { recursive: true, force: true });
  const copies = mkdtempSync(path.join(os.tmpdir(), 'test-sites-'));
  try {
    // An app with no text field gets the fixture screens in every version built from it (its own
    // is `root` itself otherwise), so the guarantees about typed text run on it (field-screen.mjs).
    const withFixtures = needsFixtureScreens(root);
    const app = withFixtures ? copySources(root, path.join(copies, 'v1')) : root;
    /** Whether a variant that needs a copy of its own is built: only those get one. */
    const wanted = (/** @type {Variant[]} */ ...needing) => needing.some((variant) => variants.includes(variant));
    /** @type {Record<Variant, string>} */
    const checkouts = {
      v1: app,
      kill: app,
      base: app,
      base2: app,
      v2: wanted('v2') ? copySources(root, path.join(copies, 'v2')) : '',
      renamed: wanted('renamed') ? copySources(root, path.join(copies, 'renamed')) : '',
      released: wanted('released', 'released-base') ? releasedSources(root, path.join(copies, 'released')) : '',
      'released-base': '',
      form: wanted('form', 'form-kill') ? copySources(root, path.join(copies, 'form')) : '',
      'form-v2': wanted('form-v2') ? copySources(root, path.join(copies, 'form-v2')) : '',
      'form-kill': '',
      media: wanted('media') ? copySources(root, path.join(copies, 'media')) : '',
    };
    checkouts['form-kill'] = checkouts.form;
    // Every folder given fixtures here is a copy (`app` is one when withFixtures): root is never edited.
    const withFixtureScreens = (/** @type {string} */ dir) => {
      if (!dir) return;
      addFixtureScreens(root, dir);
      raiseBudgetsForFixtures(dir);
    };
    if (withFixtures) for (const variant of /** @type {const} */ (['v1', 'v2', 'renamed'])) withFixtureScreens(checkouts[variant]);
    withFixtureScreens(checkouts.form);
    if (checkouts.media) addMediaFixture(root, checkouts.media);
    withFixtureScreens(checkouts['form-v2']);
    if (checkouts['form-v2']) makeV2(checkouts['form-v2']);
    checkouts['released-base'] = checkouts.released;
    if (checkouts.v2) makeV2(checkouts.v2);
    if (checkouts.renamed) makeRenamed(root, checkouts.renamed);
    /** @type {Partial<Record<BuildName, Partial<Record<Variant, string>>>>} */
    const sites = {};
    /** @type {{ v1: (() => Promise<void>)[], deploys: (() => Promise<void>)[] }} */
    const jobs = { v1: [], deploys: [] };
    for (const { name, preact } of builds) {
      sites[name] = {};
      for (const variant of VARIANTS.filter((v) => variants.includes(v))) {
        const dir = path.join(out, name, variant);
        sites[name][variant] = dir;
        const flags = [
          ...(preact ? ['--preact'] : []),
          ...(variant === 'kill' || variant === 'form-kill' ? ['--kill-switch'] : []),
          ...(variant === 'base' || variant === 'released-base' || variant === 'media' ? ['--base', TEST_BASE] : []),
          ...(variant === 'base2' ? ['--base', SECOND_BASE] : []),
        ];
        // The released version is what a host served before an update: built with v1, before the deploys.
        jobs[variant === 'v1' || variant === 'form' || variant.startsWith('released') ? 'v1' : 'deploys'].push(() =>
          build(checkouts[variant], ['--out', dir, ...flags]),
        );
      }
    }
    // The other variants are deployed over v1 in the tests, so their files must be newer, as on
    // a real host: python's http.server answers a conditional GET with 304 when the file is not
    // newer (to the second) than the browser's copy, and the update would go unseen.
    await runAll(jobs.v1, parallel);
    // A build takes about half a second: wait for the next whole second, or v1 and a deploy
    // could share one, and python would answer the deploy's sw.js with 304.
    if (jobs.deploys.length) await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 50));
    await runAll(jobs.deploys, parallel);
    const file = path.join(out, 'sites.json');
    writeFileSync(file, JSON.stringify(sites, null, 2) + '\n');
    return file;
  } finally {
    rmSync(copies, { recursive: true, force: true });
  }
}
