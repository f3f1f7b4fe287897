// Prerendering: every route's HTML, rendered at build time from the same components the page
// hydrates. src/prerender.tsx is bundled for Node with the page's aliases and constants, and the
// frameworks left as imports (React's react-dom/server, or for --preact preact/compat's server,
// which is preact-render-to-string); Node loads it and it renders each route.
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { bundle, frameworkAlias, pageDefines } from './site.mjs';

/**
 * Renders each of `paths` (route paths with their trailing slash, '/404' for 404.html); resolves
 * to a Map of path -> the HTML that goes inside #root.
 */
export async function prerender({ root, preact, identity, paths }) {
  const result = await bundle({
    absWorkingDir: root,
    entryPoints: ['src/prerender.tsx'],
    bundle: true,
    platform: 'node',
    // CommonJS, loaded with require(): React's server renderer is CommonJS, and an ES module
    // importing it makes Node scan its source for export names first (≈ 20 ms in a CPU profile).
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    jsx: 'automatic',
    alias: frameworkAlias(preact),
    define: pageDefines({ dev: false, identity }),
    outfile: 'prerender.cjs',
  });
  // Written inside the project (node_modules/.cache, where tools keep such files) so that its
  // imports of the frameworks resolve from node_modules; removed once loaded.
  const file = path.join(root, 'node_modules', '.cache', 'offline-shell', `prerender-${process.pid}-${Date.now()}.cjs`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, result.outputFiles[0].contents);
  try {
    const { renderRoute } = createRequire(file)(file);
    return new Map(paths.map((routePath) => [routePath, renderRoute(routePath)]));
  } finally {
    await fs.rm(file, { force: true });
  }
}
