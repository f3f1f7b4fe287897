#!/usr/bin/env node
// offline-shell's build: a minimal esbuild pipeline that writes the deployable site to dist/.
// It does not type-check (esbuild strips types); `npm test` and `npm run typecheck` do, and
// `--check` type-checks before building.
// Usage: node build.mjs [--preact] [--kill-switch] [--check] [--out DIR] [--base /PATH/] [--serve] [--watch]
import path from 'node:path';

/** Prints the one-line reason and exits 1; only unexpected errors get a stack. */
function fail(error) {
  console.error(`build failed: ${error?.name === 'BuildError' ? error.message : (error?.stack ?? error)}`);
  process.exit(1);
}

/**
 * The reason Node gives for a package.json it cannot parse, or undefined for any other error.
 * Resolving a package reads it: ES imports fail with ERR_INVALID_PACKAGE_CONFIG, require() with
 * a SyntaxError "Error parsing …/package.json: <reason>".
 */
function brokenPackageJsonReason(error) {
  if (error?.code === 'ERR_INVALID_PACKAGE_CONFIG') return error.message.split('. ').pop();
  return /^Error parsing .*package\.json: (.*)$/.exec(error?.message ?? '')?.[1];
}

// Imported dynamically: Node reads package.json to resolve the helpers' packages, and a broken
// package.json must still give one line, not a loader stack trace.
const { BuildError, checkedBase, auditAndCompress, buildApp, htmlFileOf, readProject, renderHtml, sri, staticFiles, writeAtomically, buildServiceWorker, prerender, headersFile, HEADERS_FILE, sbom, SBOM_FILE } = await Promise.all([
  import('./tools/site.mjs'),
  import('./tools/worker.mjs'),
  import('./tools/prerender.mjs'),
  import('./tools/headers.mjs'),
  import('./tools/sbom.mjs'),
]).then(
  ([site, worker, prerendering, headers, bom]) => ({ ...site, ...worker, ...prerendering, ...headers, ...bom }),
  (error) => {
    const reason = brokenPackageJsonReason(error);
    fail(reason ? { name: 'BuildError', message: `package.json is not valid JSON: ${reason}` } : error);
  },
);

const FLAGS = ['--preact', '--kill-switch', '--check', '--serve', '--watch', '--out DIR', '--base /PATH/'];
const root = process.cwd();

/** Parses argv strictly: an unknown flag is an error, not a silent no-op. */
function parseArgs(argv) {
  const opts = { preact: false, killSwitch: false, check: false, serve: false, watch: false, out: 'dist', base: '/' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--preact') opts.preact = true;
    else if (arg === '--kill-switch') opts.killSwitch = true;
    else if (arg === '--check') opts.check = true;
    else if (arg === '--serve') opts.serve = true;
    else if (arg === '--watch') opts.watch = opts.serve = true;
    else if (arg === '--out' && argv[i + 1] && !argv[i + 1].startsWith('--')) opts.out = argv[++i];
    else if (arg === '--base' && argv[i + 1] !== undefined) opts.base = checkedBase(argv[++i]);
    else throw new BuildError(`unknown option ${arg} (expected ${FLAGS.join(', ')})`);
  }
  return opts;
}

/**
 * The site's files (posix path -> Buffer), each one audited and compressed as soon as it is
 * added: the page bundle's compression (the longest) runs on the thread pool while the rest of
 * the site is made.
 */
function siteFiles() {
  const files = new Map();
  const audits = new Map();
  return {
    files,
    add(file, contents) {
      files.set(file, contents);
      audits.set(file, auditAndCompress(file, contents));
    },
    /** Every file's { entry, copies }, in the order the files were added. */
    audited: () => Promise.all([...files.keys()].map((file) => audits.get(file))),
  };
}

/** Builds every file of the site in memory: Map of posix path -> Buffer, and its audit. */
async function buildSite(opts) {
  const { template, manifestTemplate, routes, pkg, identity, networkOnly } = await readProject(root, { base: opts.base });
  // The page bundle and the prerendering are independent: both at once, in esbuild's process.
  const [statics, assets, bodies] = await Promise.all([
    staticFiles(root, manifestTemplate, identity),
    buildApp({ root, preact: opts.preact, dev: false, identity }),
    prerender({ root, preact: opts.preact, identity, paths: routes.map((route) => route.path) }),
  ]);
  const site = siteFiles();
  for (const [file, contents] of statics) site.add(file, contents);
  for (const asset of assets) site.add(asset.path, asset.contents);
  // Precached like licenses.txt: /about links it, and the link works offline too.
  site.add(SBOM_FILE, await sbom({ root, metafile: assets.metafile, pkg, build: opts.preact ? 'preact' : 'react' }));
  // Stylesheets first so the first paint is styled; module scripts are deferred anyway.
  const pageAssets = [...assets.filter((a) => a.path.endsWith('.css')), ...assets.filter((a) => a.path.endsWith('.js'))];
  for (const route of routes) {
    const html = renderHtml(template, { title: route.title, appTitle: identity.__APP_TITLE__, base: opts.base, assets: pageAssets, body: bodies.get(route.path) });
    site.add(htmlFileOf(route.path), Buffer.from(html));
  }

  const hashes = [...site.files].map(([file, contents]) => ({ path: file, sha384: sri(contents) }));
  const { worker, manifest, version } = await buildServiceWorker({ root, entries: hashes, appDefines: identity, networkOnly, killSwitch: opts.killSwitch });
  site.add('precache.json', manifest);
  site.add('sw.js', worker);
  // The host's own configuration (Netlify, Cloudflare Pages): after every file it names, outside the precache.
  site.add(HEADERS_FILE, Buffer.from(headersFile([...site.files.keys(), 'audit.json'], opts.base)));
  const audited = await site.audited();
  const audit = {
    name: pkg.name,
    version,
    build: opts.preact ? 'preact' : 'react',
    files: audited.map(({ entry }) => entry).sort((a, b) => (a.path < b.path ? -1 : 1)),
  };
  site.add('audit.json', Buffer.from(JSON.stringify(audit, null, 2) + '\n'));
  // Precompressed copies go beside the files, outside the audit and the precache (same bytes, encoded).
  const { files } = site;
  for (const { copies } of await site.audited()) {
    for (const [file, contents] of copies) files.set(file, contents);
  }
  return { files, audit, budgets: pkg.budgets ?? {}, appGzip: assets.appGzip };
}

/** Sums gzip bytes per budget group (`app` = the JS without React/Preact); returns rows [key, gzip, budget]. */
function budgetRows(audit, budgets, preact, appGzip) {
  const sum = (pattern) => audit.files.filter((f) => pattern.test(f.path)).reduce((total, f) => total + f.gzip, 0);
  const groups = { 'sw.js': sum(/^sw\.js$/), js: sum(/^assets\/.*\.js$/), css: sum(/^assets\/.*\.css$/), app: appGzip };
  const keyOf = (group) => (group === 'js' && preact ? 'js.preact' : group);
  return Object.entries(groups).map(([group, gzip]) => [keyOf(group), gzip, budgets[keyOf(group)]]);
}

/** Prints every file's raw, gzip and brotli bytes, then the budgets and the version. */
function printTable(audit, rows) {
  // Thousands grouped by hand: the first toLocaleString() of a process loads ICU's data (≈ 25 ms).
  const number = (n) => String(n).replace(/\B(?=(\d{3})+$)/g, ',');
  const width = Math.max(...audit.files.map((f) => f.path.length), 8);
  const line = (a, b, c, d) => console.log(`${a.padEnd(width)}  ${b.padStart(9)}  ${c.padStart(9)}  ${d.padStart(9)}`);
  line('file', 'raw', 'gzip', 'brotli');
  for (const f of audit.files) line(f.path, number(f.bytes), number(f.gzip), number(f.brotli));
  for (const [key, gzip, budget] of rows) {
    const over = budget !== undefined && gzip > budget ? '  OVER' : '';
    console.log(`budget ${key}: ${number(gzip)} B gzip of ${budget === undefined ? 'no budget' : number(budget) + ' B'}${over}`);
  }
  console.log(`version ${audit.version} (${audit.build})`);
}

/** Type-checks the page and the worker (`--check`); the first error is the one-line reason. */
async function typecheckFirst() {
  const { typecheck } = await import('./tools/typecheck.mjs');
  const errors = typecheck(root, ['app', 'sw']);
  if (errors.length) throw new BuildError(`type error: ${errors[0]}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`);
}

/** One production build into `opts.out`: fails on a budget, never leaves a half-written folder. */
async function buildOnce(opts) {
  if (opts.check) await typecheckFirst();
  const { files, audit, budgets, appGzip } = await buildSite(opts);
  const rows = budgetRows(audit, budgets, opts.preact, appGzip);
  printTable(audit, rows);
  const over = rows.find(([, gzip, budget]) => budget !== undefined && gzip > budget);
  if (over) {
    const [key, gzip, budget] = over;
    throw new BuildError(`budget exceeded: ${key} is ${gzip} B gzip, budget ${budget} B; if the growth is wanted, raise "budgets"."${key}" in package.json`);
  }
  await writeAtomically(path.resolve(root, opts.out), files);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.watch) {
    const { startDev } = await import('./tools/dev.mjs');
    await startDev({ root, preact: opts.preact, out: path.resolve(root, opts.out) });
    return;
  }
  await buildOnce(opts);
  if (opts.serve) {
    const { listen } = await import('./tools/serve.mjs');
    const { url } = await listen({ root: path.resolve(root, opts.out), host: process.env.HOST || '127.0.0.1', port: Number(process.env.PORT || 8080) });
    console.log(`serving ${opts.out}/ on ${url}`);
  }
}

main().catch(fail);
