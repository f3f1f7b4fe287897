// `npm run dev`: one esbuild context rebuilt on every save, served by the preview server with live
// reload, and the type checker watching beside it. Nothing here ships: dev builds are not
// prerendered, register no service worker, and only they contain the live-reload client.
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BuildError } from '../build-error.mjs';
import { frameworkAlias } from '../build/app-bundle.mjs';
import { esbuild, esbuildReason } from '../build/bundle.mjs';
import { htmlFileOf, renderHtml } from '../build/html.mjs';
import { readProject } from '../build/project.mjs';
import { staticFiles } from '../build/static-files.mjs';
import { writeAtomically } from '../build/write-atomically.mjs';
import { pageDefines } from '../defines.mjs';
import { screensPlugin } from '../screens.mjs';
import { buildFramework, frameworkImportReason, frameworkShims } from './dev-framework.mjs';
import { liveReload } from './live-reload.mjs';
import { rebuildOnChange } from './rebuild-on-change.mjs';
import { listen } from './server.mjs';

/** The type checker's scheduling priority: it reports, it must not slow a rebuild or the reload. */
const TYPECHECK_NICENESS = 10;

/**
 * Starts the dev loop: builds into `out`, serves it on HOST:PORT (127.0.0.1:8080), rebuilds on
 * every change under src/, static/ or to sw.ts, and tells open pages to reload. A failed rebuild
 * prints one line and keeps the last good build served.
 * @param {{ root: string, preact: boolean, out: string }} options
 */
export async function startDev({ root, preact, out }) {
  const project = await readProject(root);
  const options = /** @satisfies {import('esbuild').BuildOptions} */ ({
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    target: 'es2020',
    define: pageDefines({ dev: true, identity: project.identity }),
    // Fixed names, no hashes: the HTML stays the same from one rebuild to the next.
    entryNames: 'assets/[name]',
    outdir: 'out',
    write: false,
    logLevel: 'silent',
  });
  const framework = await buildFramework({ ...options, alias: frameworkAlias(preact) });
  const shims = frameworkShims();
  const context = await esbuild.context({
    ...options,
    entryPoints: { app: 'src/main.tsx' },
    jsx: 'automatic',
    alias: shims.alias,
    plugins: [screensPlugin(root)],
  });
  const reloads = liveReload();
  let site = await buildDevSite(root, context, out, framework);
  // Served from memory: the reload right after a rebuild waits for no disk access.
  const server = await listen({
    root: out,
    files: () => site,
    host: process.env.HOST || '127.0.0.1',
    port: Number(process.env.PORT || 8080),
    intercept: reloads.intercept,
  });
  console.log(
    `serving ${path.relative(root, out) || '.'}/ on ${server.url} (dev: rebuilds on save and reloads the page; no service worker)`,
  );
  const typechecker = spawn(process.execPath, [path.join(root, 'tools/typecheck.mjs'), '--watch', 'app', 'sw'], {
    cwd: root,
    stdio: 'inherit',
  });
  lowerPriority(typechecker.pid);

  const changed = rebuildOnChange(
    async () => {
      const started = performance.now();
      site = await buildDevSite(root, context, out, framework, site);
      return Math.round(performance.now() - started);
    },
    ({ error, value: milliseconds }) => {
      if (error) {
        console.error(`build failed: ${error instanceof BuildError ? error.message : esbuildReason(error)}`);
        return;
      }
      reloads.notify();
      console.log(`rebuilt in ${milliseconds} ms`);
    },
  );
  const watchers = ['src', 'static', 'sw.ts', 'package.json'].map((entry) =>
    watch(path.join(root, entry), { recursive: !entry.includes('.') }, changed),
  );
  const stop = async () => {
    for (const watcher of watchers) watcher.close();
    typechecker.kill();
    await context.dispose();
    await server.close();
    shims.remove();
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => stop().then(() => process.exit(0)));
  return { url: server.url, stop };
}

/**
 * One dev build: rebuilds the app bundle in the context, adds the framework bundle, fills the
 * HTML template for every route (not prerendered: the page renders itself), copies static/.
 * Writes only what changed since `previous`, atomically on the first build. Resolves to the
 * files written (path -> Buffer).
 * @param {string} root
 * @param {import('esbuild').BuildContext<{ write: false }>} context
 * @param {string} out
 * @param {{ path: string, contents: Buffer }[]} framework
 * @param {Map<string, Buffer>} [previous]
 * @returns {Promise<Map<string, Buffer>>}
 */
async function buildDevSite(root, context, out, framework, previous) {
  const project = await readProject(root);
  let result;
  try {
    result = await context.rebuild();
  } catch (error) {
    throw new BuildError(frameworkImportReason(error) ?? esbuildReason(error));
  }
  const outDir = path.join(root, 'out');
  const assets = result.outputFiles.map((file) => ({
    path: path.relative(outDir, file.path).split(path.sep).join('/'),
    contents: Buffer.from(file.contents),
  }));
  const files = await staticFiles(root, project.manifestTemplate, project.identity);
  for (const asset of [...framework, ...assets]) files.set(asset.path, asset.contents);
  // Module scripts run in document order: the framework has filled FRAMEWORK_GLOBAL before app.js runs.
  const pageAssets = [...assets.filter((a) => a.path.endsWith('.css')), ...framework, ...assets.filter((a) => a.path.endsWith('.js'))];
  for (const route of project.screens) {
    // No integrity attributes in dev: the files change on every save.
    const html = renderHtml(project.template, {
      title: route.title,
      appTitle: project.identity.__APP_TITLE__,
      base: project.identity.__BASE__,
      assets: pageAssets,
      body: '',
      integrity: false,
    });
    files.set(htmlFileOf(route.path), Buffer.from(html));
  }
  // The reconnect probe asks HEAD /sw.js; in dev it is a file that registers nothing.
  files.set('sw.js', Buffer.from('// Dev build: no service worker.\n'));
  if (!previous) {
    await writeAtomically(out, files);
    return files;
  }
  for (const [file, contents] of files) {
    if (previous.get(file)?.equals(contents)) continue;
    await fs.mkdir(path.dirname(path.join(out, file)), { recursive: true });
    await fs.writeFile(path.join(out, file), contents);
  }
  return files;
}

/**
 * Lowers a child's CPU priority; where the system refuses, the child keeps the default one.
 * @param {number | undefined} pid
 */
function lowerPriority(pid) {
  // No pid: the child could not be started, and its 'error' says so.
  if (pid === undefined) return;
  try {
    os.setPriority(pid, TYPECHECK_NICENESS);
  } catch {
    // Not permitted (some containers): the type checker still runs, at the default priority.
  }
}
