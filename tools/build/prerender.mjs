// Prerendering: every route's HTML, rendered at build time from the same components the page
// hydrates. src/prerender.tsx is bundled for Node with the page's aliases and constants, and the
// frameworks left as imports (React's react-dom/server, or for --preact preact/compat's server,
// which is preact-render-to-string); Node loads it and it renders each route.
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pageDefines } from '../defines.mjs';
import { screensPlugin } from '../screens.mjs';
import { frameworkAlias } from './app-bundle.mjs';
import { bundle } from './bundle.mjs';

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
    outfile: 'prerender.cjs',
    plugins: [screensPlugin(root)],
  });
  // Awaited below; until then a failure (a syntax error) must not count as an unhandled rejection.
  bundled.catch(() => {});
  await loadServerRenderer(root, preact);
  const result = await bundled;
  // Written inside the project (node_modules/.cache, where tools keep such files) so that its
  // imports of the frameworks resolve from node_modules; removed once loaded.
  const file = path.join(root, 'node_modules', '.cache', 'offline-shell', `prerender-${process.pid}-${Date.now()}.cjs`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, result.outputFiles[0].contents);
  try {
    const { renderRoute } = /** @type {{ renderRoute: (routePath: string) => string }} */ (requireInProduction(file, file));
    return new Map(paths.map((routePath) => [routePath, renderRoute(routePath)]));
  } finally {
    await fs.rm(file, { force: true });
  }
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
