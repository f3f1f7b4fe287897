#!/usr/bin/env node
// offline-shell's build: a minimal esbuild pipeline that writes the deployable site to dist/.
// Usage: node build.mjs [--preact] [--kill-switch] [--out DIR] [--serve] [--watch]
import { existsSync, promises as fs, watch } from 'node:fs';
import path from 'node:path';

/** Prints the one-line reason and exits 1; only unexpected errors get a stack. */
function fail(err) {
  console.error(`build failed: ${err?.name === 'BuildError' ? err.message : err?.stack ?? err}`);
  process.exit(1);
}

// Imported dynamically: Node reads package.json to resolve the helpers' packages, and a broken
// package.json must still give one line, not a loader stack trace.
const { BuildError, appIdentity, auditEntry, buildApp, listFiles, renderHtml, webManifest, typecheck, buildServiceWorker, networkOnlyOf } = await Promise.all([
  import('./tools/site.mjs'),
  import('./tools/typecheck.mjs'),
  import('./tools/worker.mjs'),
]).then(
  ([site, typecheckTool, worker]) => ({ ...site, ...worker, typecheck: typecheckTool.typecheck }),
  (error) => fail(error.code === 'ERR_INVALID_PACKAGE_CONFIG' ? { name: 'BuildError', message: `package.json is not valid JSON: ${error.message.split('. ').pop()}` } : error),
);

const FLAGS = ['--preact', '--kill-switch', '--serve', '--watch', '--out DIR'];
const root = process.cwd();

/** Parses argv strictly: an unknown flag is an error, not a silent no-op. */
function parseArgs(argv) {
  const opts = { preact: false, killSwitch: false, serve: false, watch: false, out: 'dist' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--preact') opts.preact = true;
    else if (a === '--kill-switch') opts.killSwitch = true;
    else if (a === '--serve') opts.serve = true;
    else if (a === '--watch') opts.watch = opts.serve = true;
    else if (a === '--out' && argv[i + 1] && !argv[i + 1].startsWith('--')) opts.out = argv[++i];
    else throw new BuildError(`unknown option ${a} (expected ${FLAGS.join(', ')})`);
  }
  return opts;
}

async function readRequired(rel) {
  try {
    return await fs.readFile(path.join(root, rel), 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') throw new BuildError(`missing ${rel}`);
    throw err;
  }
}

function parseJson(text, rel) {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new BuildError(`${rel} is not valid JSON: ${err.message}`);
  }
}

/** Builds every file of the site in memory: Map of posix path -> Buffer. */
async function buildSite(opts) {
  const dev = opts.watch;
  const template = await readRequired('static/index.html');
  const manifestTemplate = await readRequired('static/manifest.webmanifest');
  const routes = parseJson(await readRequired('src/routes.json'), 'src/routes.json');
  const pkg = parseJson(await readRequired('package.json'), 'package.json');
  const identity = appIdentity(pkg);
  const networkOnly = networkOnlyOf(pkg);
  const errors = typecheck(root, ['app', 'sw']);
  if (errors.length) throw new BuildError(`type error: ${errors[0]}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`);

  const files = new Map();
  const assets = await buildApp({ root, preact: opts.preact, dev, identity });
  for (const asset of assets) files.set(asset.path, asset.contents);
  for (const file of await listFiles(path.join(root, 'static'))) {
    if (file === 'index.html' || file === 'manifest.webmanifest') continue;
    files.set(file, await fs.readFile(path.join(root, 'static', file)));
  }
  files.set('manifest.webmanifest', Buffer.from(webManifest(manifestTemplate, identity.__APP_TITLE__)));
  // Stylesheets first so the first paint is styled; module scripts are deferred anyway.
  const pageAssets = [...assets.filter((a) => a.path.endsWith('.css')), ...assets.filter((a) => a.path.endsWith('.js'))];
  for (const route of [...routes, { path: '/404', title: 'Not found' }]) {
    const file = route.path === '/404' ? '404.html' : route.path.slice(1) + 'index.html';
    files.set(file, Buffer.from(renderHtml(template, { title: route.title, appTitle: identity.__APP_TITLE__, assets: pageAssets })));
  }

  const entries = [...files].map(([file, contents]) => auditEntry(file, contents));
  const { worker, manifest, version } = await buildServiceWorker({ root, entries, appDefines: identity, networkOnly, killSwitch: opts.killSwitch });
  files.set('precache.json', manifest);
  files.set('sw.js', worker);
  const audit = {
    name: pkg.name,
    version,
    build: opts.preact ? 'preact' : 'react',
    files: [...files].map(([file, contents]) => auditEntry(file, contents)).sort((a, b) => (a.path < b.path ? -1 : 1)),
  };
  files.set('audit.json', Buffer.from(JSON.stringify(audit, null, 2) + '\n'));
  return { files, audit, budgets: pkg.budgets ?? {}, appGzip: assets.appGzip };
}

/** Sums gzip bytes per budget group (`app` = the JS without React/Preact); returns rows [name, gzip, budget]. */
function budgetRows(audit, budgets, preact, appGzip) {
  const sum = (re) => audit.files.filter((f) => re.test(f.path)).reduce((n, f) => n + f.gzip, 0);
  const groups = { 'sw.js': sum(/^sw\.js$/), js: sum(/^assets\/.*\.js$/), css: sum(/^assets\/.*\.css$/) };
  const key = (g) => (g === 'js' && preact ? 'js.preact' : g);
  if (appGzip != null) groups.app = appGzip;
  return Object.entries(groups).map(([g, gz]) => [key(g), gz, budgets[key(g)]]);
}

function printTable(audit, rows) {
  const n = (x) => x.toLocaleString('en-US');
  const w = Math.max(...audit.files.map((f) => f.path.length), 8);
  const line = (a, b, c, d) => console.log(`${a.padEnd(w)}  ${b.padStart(9)}  ${c.padStart(9)}  ${d.padStart(9)}`);
  line('file', 'raw', 'gzip', 'brotli');
  for (const f of audit.files) line(f.path, n(f.bytes), n(f.gzip), n(f.brotli));
  for (const [g, gz, max] of rows) console.log(`budget ${g}: ${n(gz)} B gzip of ${max === undefined ? 'no budget' : n(max) + ' B'}${max !== undefined && gz > max ? '  OVER' : ''}`);
  console.log(`version ${audit.version} (${audit.build})`);
}

/** Writes the files to a temporary sibling of `out`, then swaps it in, so dist/ is never half-written. */
async function writeAtomically(out, files) {
  const tmp = `${out}.tmp-${process.pid}`;
  const old = `${out}.old-${process.pid}`;
  await fs.rm(tmp, { recursive: true, force: true });
  try {
    for (const [p, buf] of [...files].sort()) {
      await fs.mkdir(path.dirname(path.join(tmp, p)), { recursive: true });
      await fs.writeFile(path.join(tmp, p), buf);
    }
    if (existsSync(out)) await fs.rename(out, old);
    await fs.rename(tmp, out);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
    await fs.rm(old, { recursive: true, force: true });
  }
}

async function buildOnce(opts) {
  const { files, audit, budgets, appGzip } = await buildSite(opts);
  const rows = budgetRows(audit, budgets, opts.preact, appGzip);
  printTable(audit, rows);
  const over = rows.find(([, gz, max]) => max !== undefined && gz > max);
  if (over && !opts.watch) {
    const [group, gzip, budget] = over;
    throw new BuildError(`budget exceeded: ${group} is ${gzip} B gzip, budget ${budget} B; if the growth is wanted, raise "budgets"."${group}" in package.json`);
  }
  await writeAtomically(path.resolve(root, opts.out), files);
}

/** Rebuilds on change to src/, static/ or sw.ts; a failed rebuild keeps the last good dist/. */
function watchSources(opts) {
  let timer;
  const rebuild = () => {
    clearTimeout(timer);
    timer = setTimeout(() => buildOnce(opts).then(() => console.log('rebuilt'), (err) => console.error(`build failed: ${err?.name === 'BuildError' ? err.message : err?.stack}`)), 100);
  };
  for (const p of ['src', 'static', 'sw.ts']) watch(path.join(root, p), { recursive: p !== 'sw.ts' }, rebuild);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  await buildOnce(opts);
  if (opts.watch) watchSources(opts);
  if (opts.serve) {
    const { listen } = await import('./tools/serve.mjs');
    const { url } = await listen({ root: path.resolve(root, opts.out), host: process.env.HOST || '127.0.0.1', port: Number(process.env.PORT || 8080) });
    console.log(`serving ${opts.out}/ on ${url}${opts.watch ? ' (dev: rebuilds on change, no service worker)' : ''}`);
  }
}

main().catch(fail);
