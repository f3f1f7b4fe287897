#!/usr/bin/env node
// offline-shell's build: a minimal esbuild pipeline that writes the deployable site to dist/.
// This file is its command line; the steps are in tools/pipeline/, one job per file, and the dev loop
// and preview server in tools/serve/. It does not type-check (esbuild strips types); `npm test`
// and `npm run typecheck` do, and `--check` type-checks before building.
// Usage: node build.mjs [--preact] [--kill-switch] [--check] [--out DIR] [--base /PATH/] [--serve] [--watch] [--help]

/** What `--help` prints: every option, one line each. */
const USAGE = `Usage: node build.mjs [options]   (npm run build, npm start = --serve, npm run dev = --watch)
Builds the site into dist/ (a fresh folder each time; nothing is type-checked unless --check).
  --preact        build with Preact (preact/compat) in place of React
  --kill-switch   build a sw.js that removes the app's service worker and caches (for a bad release)
  --check         type-check (npm run typecheck) before building; stop on a type error
  --out DIR       write the build to DIR instead of dist/ (a new folder, or an earlier build's)
  --base /PATH/   serve the site under /PATH/ (for example /my-app/ on GitHub Pages), not at /
  --serve         build, then serve the build (HOST and PORT from the environment; 127.0.0.1:8080)
  --watch         the dev loop: build in memory, serve, rebuild and reload the page on every save
  -h, --help      print this and exit
Settings in package.json: name, displayName, description, budgets, networkOnly, claimedPaths,
stallSeconds (README "Make it your own", docs/build.md, docs/offline-layer.md); a key that looks like one of these but is not one stops the build.`;

// Before anything is read: help needs no project, not even a valid package.json.
if (process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) {
  console.log(USAGE);
  process.exit(0);
}

/**
 * Prints the one-line reason and exits 1; only unexpected errors get a stack.
 * @param {unknown} error
 * @returns {never}
 */
function fail(error) {
  const known = /** @type {{ name?: string, message?: string, stack?: string } | undefined} */ (error);
  // Serving is not building: a port in use or a bad PORT says so, and the build stays written.
  if (known?.name === 'ServeError') console.error(`cannot serve: ${known.message}`);
  else console.error(`build failed: ${known?.name === 'BuildError' ? known.message : (known?.stack ?? error)}`);
  process.exit(1);
}

/**
 * The reason Node gives for a package.json it cannot parse, or undefined for any other error.
 * Resolving a package reads it: ES imports fail with ERR_INVALID_PACKAGE_CONFIG, require() with
 * a SyntaxError "Error parsing …/package.json: <reason>".
 * @param {unknown} error
 */
function brokenPackageJsonReason(error) {
  const nodeError = /** @type {{ code?: string, message?: string } | undefined} */ (error);
  if (nodeError?.code === 'ERR_INVALID_PACKAGE_CONFIG') return nodeError.message?.split('. ').pop();
  return /^Error parsing .*package\.json: (.*)$/.exec(nodeError?.message ?? '')?.[1];
}

// Imported dynamically: Node reads package.json to resolve the build's packages, and a broken
// package.json must still give one line, not a loader stack trace.
const { BuildError, checkedBase, buildOnce, checkedOutput, serveAddress, servedUnder } = await Promise.all([
  import('./tools/build-error.mjs'),
  import('./tools/config.mjs'),
  import('./tools/pipeline/build.mjs'),
  import('./tools/pipeline/output-folder.mjs'),
  import('./tools/serve/address.mjs'),
]).then(
  ([errors, config, build, output, address]) => ({ ...errors, ...config, ...build, ...output, ...address }),
  (error) => {
    const reason = brokenPackageJsonReason(error);
    fail(reason ? { name: 'BuildError', message: `package.json is not valid JSON: ${reason}` } : error);
  },
);

const FLAGS = ['--preact', '--kill-switch', '--check', '--serve', '--watch', '--out DIR', '--base /PATH/', '--help'];
const root = process.cwd();

/** The options that take a value, with an example of one. */
const VALUE_EXAMPLES = { '--out': 'dist', '--base': '/my-app/' };

/**
 * Parses argv strictly: an unknown flag is an error, not a silent no-op, and so is an option
 * without its value.
 * @param {string[]} argv
 */
function parseArgs(argv) {
  /** @type {{ preact: boolean, killSwitch: boolean, check: boolean, serve: boolean, watch: boolean, out?: string, base: string }} */
  const opts = { preact: false, killSwitch: false, check: false, serve: false, watch: false, base: '/' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--preact') opts.preact = true;
    else if (arg === '--kill-switch') opts.killSwitch = true;
    else if (arg === '--check') opts.check = true;
    else if (arg === '--serve') opts.serve = true;
    else if (arg === '--watch') opts.watch = opts.serve = true;
    else if (arg === '--out' || arg === '--base') {
      const value = argv[i + 1];
      if (value === undefined || value === '' || value.startsWith('--'))
        throw new BuildError(`${arg} needs a value (as in ${arg} ${VALUE_EXAMPLES[arg]})`);
      i++;
      if (arg === '--out') opts.out = value;
      else opts.base = checkedBase(value);
    } else throw new BuildError(`unknown option ${arg} (expected ${FLAGS.join(', ')})`);
  }
  return opts;
}

/** Builds once (then serves with --serve), or runs the dev loop (--watch). */
async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const address = opts.serve ? serveAddress(process.env) : undefined;
  if (opts.watch) {
    if (opts.out !== undefined) throw new BuildError('--out is for builds: the dev loop (--watch) keeps its build in memory');
    const { startDev } = await import('./tools/serve/dev.mjs');
    await startDev({ root, preact: opts.preact, base: opts.base, ...address });
    return;
  }
  const outOption = opts.out ?? 'dist';
  const out = checkedOutput(root, outOption);
  await buildOnce(root, { ...opts, out });
  if (!address) return;
  const { listen } = await import('./tools/serve/server.mjs');
  const { url } = await listen({ root: out, intercept: servedUnder(opts.base), ...address });
  console.log(`serving ${outOption}/ on ${new URL(opts.base, url)}`);
}

main().catch(fail);
