// The one test bundler: test files bundled by esbuild with the build's constants, for Node
// (packages stay external) or for the browser. runner.mjs and engines.mjs both use it.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { esbuild } from '../../tools/pipeline/bundle.mjs';
import { listFiles } from '../../tools/pipeline/list-files.mjs';
import { appIdentity, readPackageJson } from '../../tools/config.mjs';
import { pageDefines } from '../../tools/defines.mjs';
import { screensPlugin } from '../../tools/screens.mjs';

/** The uvu the Node test files import: uvu's, with each suite saying where it is for uvu-run.mjs's time limit. */
const TIMED_UVU = fileURLToPath(new URL('./uvu-timed.mjs', import.meta.url));

/**
 * Points the test files' `uvu` imports at uvu-timed.mjs, whose own `uvu` import stays the package.
 * @returns {import('esbuild').Plugin}
 */
function timedUvu() {
  return {
    name: 'timed-uvu',
    setup(build) {
      build.onResolve({ filter: /^uvu$/ }, ({ importer }) =>
        importer === TIMED_UVU ? { path: 'uvu', external: true } : { path: TIMED_UVU },
      );
    },
  };
}

/**
 * Bundles every *.test.ts(x) under test/`dir` (or every file `entries` matches) whose path
 * contains `grep` into `outdir` (emptied first), with the constants a production build defines
 * (the app's names from package.json, at the root path); returns the bundled files, [] when none matches.
 * @param {{ root: string, dir: string, outdir: string, grep?: string, entries?: RegExp, platform?: 'node' | 'browser', alias?: Record<string, string> }} options
 * @returns {Promise<string[]>}
 */
export async function bundleTests({
  root,
  dir,
  outdir,
  grep = '',
  entries: entryPattern = /\.test\.tsx?$/,
  platform = 'node',
  alias = {},
}) {
  const src = path.join(root, 'test', dir);
  const entries = (await listFiles(src)).filter((f) => entryPattern.test(f) && f.includes(grep)).map((f) => path.join(src, f));
  await fs.rm(outdir, { recursive: true, force: true });
  if (!entries.length) return [];
  const identity = appIdentity(await readPackageJson(root));
  await esbuild.build({
    entryPoints: entries,
    outdir,
    outbase: src,
    bundle: true,
    platform,
    format: 'esm',
    target: platform === 'node' ? 'node20' : 'es2020',
    packages: platform === 'node' ? 'external' : undefined,
    alias,
    jsx: 'automatic',
    sourcemap: 'inline',
    outExtension: { '.js': '.mjs' },
    define: pageDefines({ dev: false, identity }),
    logLevel: 'error',
    plugins: [screensPlugin(root), ...(platform === 'node' ? [timedUvu()] : [])],
  });
  return entries.map((e) => path.join(outdir, path.relative(src, e).replace(/\.tsx?$/, '.mjs')));
}
