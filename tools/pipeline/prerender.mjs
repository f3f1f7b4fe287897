// Prerendering: every route's HTML, rendered at build time from the same components the page
// hydrates. src/prerender.tsx is bundled for Node with the page's aliases and constants, and the
// frameworks left as imports (React's react-dom/server, or for --preact preact/compat's server,
// which is preact-render-to-string); Node loads it and it renders each route.
import { promises as fs, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pageDefines } from '../defines.mjs';
import { LATER_MODULE, screensPlugin } from '../screens.mjs';
import { frameworkAlias } from './app-bundle.mjs';
import { BuildError } from '../build-error.mjs';
import { assetFileOptions } from './asset-files.mjs';
import { bundle } from './bundle.mjs';

/** Where the bundle is written for Node to load (see below), relative to the project's root. */
const CACHE_FOLDER = 'node_modules/.cache/offline-shell';

/**
 * Renders each of `paths` (route paths with their trailing slash, '/404' for 404.html); resolves
 * to a Map of path -> the HTML that goes inside #root.
 * @param {{ root: string, preact: boolean, identity: import('../config.mjs').Identity, paths: string[] }} options
 * @returns {Promise<Map<string, string>>}
 */
export async function prerender({ root, preact, identity, paths }) {
  const bundled = bundle({
    absWorkingDir: root,
    entryPoints: ['src/prerender.tsx'],
    bundle: true,
    platform: 'node',
    // CommonJS, loaded with require(): React's server renderer is CommonJS, and an ES module
    // importing it makes Node scan its source for export names first (≈ 20 ms in a CPU profile).
    format: /** @type {const} */ ('cjs'),
    target: 'node20',
    packages: /** @type {const} */ ('external'),
    jsx: /** @type {const} */ ('automatic'),
    alias: frameworkAlias(preact),
    define: pageDefines({ dev: false, identity }),
    // The same URLs as the page bundle's for imported files (their hash is their content's), so
    // the prerendered HTML names the files the page ships; the copies made here are dropped.
    ...assetFileOptions(identity.__BASE__),
    outfile: 'prerender.cjs',
    // A screen that throws while it renders is named by its own file and line (sourceError()): the
    // map's paths are from the root, wherever the bundle is written (node_modules may be a link).
    sourcemap: /** @type {const} */ ('inline'),
    sourceRoot: root + path.sep,
    sourcesContent: false,
    plugins: [screensPlugin(root), laterLeftOut(root)],
  });
  // Awaited below; until then a failure (a syntax error) must not count as an unhandled rejection.
  bundled.catch(() => {});
  await loadServerRenderer(root, preact);
  const result = await bundled;
  // Written inside the project (node_modules/.cache, where tools keep such files) so that its
  // imports of the frameworks resolve from node_modules; removed once loaded.
  const file = path.join(root, CACHE_FOLDER, `prerender-${process.pid}-${Date.now()}.cjs`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  const script = result.outputFiles.find((output) => output.path.endsWith('.cjs'));
  if (!script) throw new BuildError('prerendering: esbuild wrote no script');
  await fs.writeFile(file, script.contents);
  // Stack traces through the bundle point at the sources (Node reads the inline source map).
  process.setSourceMapsEnabled(true);
  try {
    /** @type {{ renderRoute: (routePath: string) => string }} */
    let renderer;
    try {
      renderer = /** @type {typeof renderer} */ (requireInProduction(file, file));
    } catch (error) {
      throw sourceError(root, error, 'loading the screens for prerendering');
    }
    return new Map(
      paths.map((routePath) => {
        try {
          return [routePath, renderer.renderRoute(routePath)];
        } catch (error) {
          throw sourceError(root, error, `prerendering ${routePath}`);
        }
      }),
    );
  } finally {
    // Forgotten by Node too: the dev loop prerenders after every save, each time from a new file.
    delete createRequire(file).cache[file];
    await fs.rm(file, { force: true });
  }
}

/**
 * Leaves the page's `import()` of src/ui/later.ts (LATER_MODULE: what no first screen needs, run
 * only when a control or a screen is used) out of the Node bundle: prerendering never runs it.
 * Bundled, it would bring every screen in a second time, each wrapped to run when first imported,
 * and an error a screen throws while it loads would be named by the wrapper's column, not its own.
 * @param {string} root
 * @returns {import('esbuild').Plugin}
 */
function laterLeftOut(root) {
  // Both spellings of the root: esbuild names files by their real path, and the root may be a link.
  const later = [root, realpathSync(root)].map((dir) => path.join(dir, LATER_MODULE.replace(/\.ts$/, '')));
  return {
    name: 'later-left-out',
    setup(build) {
      build.onResolve({ filter: /later(\.ts)?$/ }, (args) => {
        if (args.kind !== 'dynamic-import' || !later.includes(path.join(args.resolveDir, args.path).replace(/\.ts$/, ''))) return undefined;
        return { path: args.path, external: true };
      });
    },
  };
}

/**
 * A one-line BuildError for an error thrown while prerendering: the first place in the project's
 * src/ that its stack names (`src/ui/screens/help.tsx:4:10`), what was being done, and the error.
 * Dev builds are not prerendered, so this is often the first time the builder sees it.
 * @param {string} root
 * @param {unknown} error
 * @param {string} doing
 */
export function sourceError(root, error, doing) {
  const { name = 'Error', message = String(error), stack = '' } = /** @type {Partial<Error>} */ (error ?? {});
  const sources = path.join(root, 'src') + path.sep;
  // A frame of a CommonJS module: `    at Help (/abs/src/ui/screens/help.tsx:4:14)` or `    at /abs/…:4:14`.
  const frame = stack
    .split('\n')
    .map((line) => /[( ](\/[^()\s]+):(\d+):(\d+)\)?$/.exec(line))
    .find((match) => match?.[1].startsWith(sources));
  const thrown = `${doing} threw ${name}: ${message.split('\n')[0]}`;
  if (!frame) return new BuildError(`${thrown} (in a package's code: the stack names no file of src/)`);
  const file = path.relative(root, frame[1]).split(path.sep).join('/');
  return new BuildError(`${file}:${frame[2]}:${frame[3]}: ${thrown}`);
}

/** The server renderer each build's prerendering imports (react-dom/server is aliased for Preact). */
const SERVER_RENDERER = { react: 'react-dom/server', preact: 'preact/compat/server' };

/**
 * Loads the server renderer into Node's module cache while esbuild bundles in its own process:
 * React's takes ≈ 70 ms of this thread to read and compile, which would otherwise wait for the
 * bundle. The bundle's own require() then finds it loaded. A failure here is left to that
 * require(), which reports it.
 * @param {string} root
 * @param {boolean} preact
 */
async function loadServerRenderer(root, preact) {
  // One turn first, so esbuild's requests (queued in promise callbacks) are sent before this blocks.
  await new Promise((resolve) => setImmediate(resolve));
  try {
    requireInProduction(path.join(root, 'package.json'), SERVER_RENDERER[preact ? 'preact' : 'react']);
  } catch {
    // Reported by the bundle's require() below.
  }
}

/**
 * Requires `request` from `fromFile` with NODE_ENV=production, then restores NODE_ENV. React's
 * packages pick their build by NODE_ENV when first required: unset, react-dom/server loads its
 * development renderers (880 KB of checks that only warn, ≈ 30 ms more to compile); the HTML they
 * render is the same.
 * @param {string} fromFile
 * @param {string} request
 * @returns {unknown}
 */
function requireInProduction(fromFile, request) {
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return createRequire(fromFile)(request);
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
}
