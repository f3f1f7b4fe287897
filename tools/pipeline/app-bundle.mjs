// The page bundle: src/main.tsx to hashed assets, with its licences and the size of the app's
// own code (the frameworks left out), for the `app` budget.
import path from 'node:path';
import { pageDefines } from '../defines.mjs';
import { screensPlugin } from '../screens.mjs';
import { assetFileOptions } from './asset-files.mjs';
import { bundle } from './bundle.mjs';
import { gzipSize } from './compress.mjs';
import { licenses } from './licences.mjs';
import { TARGETS } from './targets.mjs';

/** @typedef {import('../config.mjs').Identity} Identity */
/** @typedef {{ path: string, contents: Buffer }} OutputFile */

// preact/compat implements the React API the app uses; esbuild's alias also maps subpaths
// (react/jsx-runtime -> preact/compat/jsx-runtime, react-dom/client -> preact/compat/client).
const PREACT_ALIAS = { react: 'preact/compat', 'react-dom': 'preact/compat' };

/**
 * The import aliases of a build: none for React, React -> preact/compat for `--preact`.
 * @param {boolean} preact
 * @returns {Record<string, string>}
 */
export const frameworkAlias = (preact) => (preact ? PREACT_ALIAS : {});

/**
 * The esbuild options of the page bundle (shared by the real build and the app-only measure).
 * @param {{ root: string, preact: boolean, dev: boolean, identity: Identity }} options
 */
export const appOptions = ({ root, preact, dev, identity }) =>
  /** @satisfies {import('esbuild').BuildOptions} */ ({
    absWorkingDir: root,
    entryPoints: { app: 'src/main.tsx' },
    // The banner's first line is V8's explicit compile hint (Chrome 136+; a plain comment
    // elsewhere): compile every function of the file on a background thread while it streams in.
    // Without it, each function React calls on load (its CommonJS module bodies first) is compiled
    // on the main thread at its first call, in the long task that evaluates the bundle. Lighthouse's
    // total blocking time, 3 runs each: 36-78 ms without, 0-10 ms with. It must be the first line.
    // The second, `export {};`, is a no-op in this module that ends a classic-script parse at its
    // first statement. Chromium compiles each JavaScript file a worker stores while installing as
    // a classic script, to keep a code cache beside it (Blink's cache.cc,
    // ShouldGenerateV8CodeCache; its opt-out header is behind a flag that is off by default): 35-47
    // ms on the worker thread for this bundle, the install's longest step. The page loads the bundle as a module, and Chromium keeps
    // a module code cache beside the cached file from the first controlled visit on, which later
    // visits use as they used the install's (repeat visits measured: same load and first paint).
    banner: { js: '//# allFunctionsCalledOnLoad\nexport {};' },
    bundle: true,
    format: 'esm',
    target: TARGETS,
    minify: !dev,
    jsx: 'automatic',
    alias: frameworkAlias(preact),
    define: pageDefines({ dev, identity }),
    entryNames: 'assets/[name]-[hash]',
    ...assetFileOptions(identity.__BASE__),
    // Every screen but `/` is a chunk of its own, loaded when first shown (screensPlugin `lazy`,
    // src/ui/screen-loader.ts); code they share with the page goes into chunks the page imports.
    // Dev builds stay one script (the dev server serves one).
    splitting: !dev,
    chunkNames: 'assets/[name]-[hash]',
    outdir: 'out',
    metafile: true,
    plugins: [screensPlugin(root, { lazy: !dev })],
  });

// The UI frameworks; everything else in the bundle is "app code", budgeted on its own.
const FRAMEWORKS = ['react', 'react-dom', 'scheduler', 'preact'];

/**
 * Which scripts a page loads: `page`, what every page loads (the entry first, then the chunks it
 * imports); `lazy`, for each module loaded on use (a screen's file, `src/ui/screens/status.tsx`),
 * the scripts it adds to those (its chunk first). Paths relative to the site root.
 * @typedef {{ page: string[], lazy: Record<string, string[]> }} PageScripts
 */

/**
 * The scripts of the bundle by how they load, from esbuild's metafile (see PageScripts).
 * @param {import('esbuild').Metafile} metafile
 * @returns {PageScripts}
 */
export function pageScripts(metafile) {
  const site = (/** @type {string} */ output) => output.replace(/^out\//, '');
  /** @param {string} output */
  const withStaticImports = (output, seen = new Set()) => {
    if (seen.has(output)) return seen;
    seen.add(output);
    for (const imported of metafile.outputs[output].imports)
      if (imported.kind === 'import-statement' && !imported.external) withStaticImports(imported.path, seen);
    return seen;
  };
  const scripts = Object.entries(metafile.outputs).filter(([output]) => output.endsWith('.js'));
  const [entry] = scripts.find(([, output]) => output.entryPoint === 'src/main.tsx') ?? [];
  if (!entry) return { page: [], lazy: {} };
  const page = withStaticImports(entry);
  const dynamic = new Set(scripts.flatMap(([, output]) => output.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path)));
  /** @type {Record<string, string[]>} */
  const lazy = {};
  for (const [output, { entryPoint }] of scripts)
    if (entryPoint && dynamic.has(output)) lazy[entryPoint] = [...withStaticImports(output)].filter((file) => !page.has(file)).map(site);
  return { page: [...page].map(site), lazy };
}

/**
 * Bundles src/main.tsx to hashed assets; returns [{ path, contents }] relative to the site root,
 * plus `licenses.txt` (third-party licences of the bundle). `appGzip` on the array is the gzip
 * size of the app code alone (frameworks left out), or null in dev builds; `metafile` is esbuild's
 * account of what went into the bundle (the SBOM's source); `scripts` which scripts a page loads.
 * @param {{ root: string, preact: boolean, dev: boolean, identity: Identity }} options
 * @returns {Promise<OutputFile[] & { appGzip: number | null, metafile: import('esbuild').Metafile, scripts: PageScripts }>}
 */
export async function buildApp({ root, preact, dev, identity }) {
  const options = appOptions({ root, preact, dev, identity });
  // 'external' makes esbuild collect the bundled code's legal comments (/*! */, @license,
  // @preserve) into a side file instead of dropping them; licenses.txt carries them.
  const [result, appGzip] = await Promise.all([bundle({ ...options, legalComments: 'external' }), dev ? null : appCodeGzip(options)]);
  const outDir = path.join(root, 'out');
  const files = result.outputFiles.map((f) => ({
    path: path.relative(outDir, f.path).split(path.sep).join('/'),
    contents: Buffer.from(f.contents),
  }));
  const legal = files.filter((f) => f.path.endsWith('.LEGAL.txt'));
  const copies = stylesheetCopies(files, result.metafile);
  // Not shipped, so not in what bundle.json and the SBOM describe either.
  for (const copy of copies) delete result.metafile.outputs[`out/${copy}`];
  const assets = files.filter((f) => !legal.includes(f) && !copies.has(f.path));
  assets.push({ path: 'licenses.txt', contents: Buffer.from(await licenses(root, result.metafile, legal)) });
  return Object.assign(assets, { appGzip, metafile: result.metafile, scripts: pageScripts(result.metafile) });
}

/**
 * The stylesheets of chunks loaded on use that only repeat the page's own: esbuild writes the CSS
 * such a chunk imports into the chunk's stylesheet and into the entry's as well (measured with
 * esbuild 0.28: a screen's @font-face in both), and every page links the entry's, so the copy
 * would declare each rule twice and ship its bytes twice. A chunk's stylesheet that is not a copy
 * is kept (and linked by every page).
 * @param {OutputFile[]} files
 * @param {import('esbuild').Metafile} metafile
 * @returns {Set<string>} their paths
 */
function stylesheetCopies(files, metafile) {
  const entry = Object.entries(metafile.outputs).find(
    ([output, { entryPoint }]) => output.endsWith('.js') && entryPoint === 'src/main.tsx',
  );
  const pageStylesheet = entry?.[1].cssBundle?.replace(/^out\//, '');
  const page = files.find((f) => f.path === pageStylesheet)?.contents.toString();
  if (!page) return new Set();
  const isCopy = (/** @type {OutputFile} */ f) =>
    f.path.endsWith('.css') && f.path !== pageStylesheet && page.includes(f.contents.toString().trim());
  return new Set(files.filter(isCopy).map((f) => f.path));
}

/**
 * The gzip size of the app's own code: the same bundle with the frameworks left out.
 * @param {ReturnType<typeof appOptions>} options
 */
async function appCodeGzip(options) {
  // Every script it makes, as they ship: the entry, its chunks and those loaded on use.
  const alone = await bundle({ ...options, external: FRAMEWORKS, metafile: false });
  // esbuild keeps one `import{…}from"react…"` per module for externals; the real bundle has none
  // (it references the bundled framework), so they are not counted as app code.
  const glue = new RegExp(`import\\s*(\\{[^}]*\\}|\\*\\s*as\\s*[\\w$]+|[\\w$]+)\\s*from\\s*"(${FRAMEWORKS.join('|')})(/[^"]*)?";`, 'g');
  const scripts = alone.outputFiles.filter((f) => f.path.endsWith('.js'));
  return scripts.reduce((total, f) => total + gzipSize(Buffer.from(f.text.replace(glue, ''))), 0);
}
