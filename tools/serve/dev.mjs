// `npm run dev`: one esbuild context rebuilt on every save, served from memory by the preview
// server with live reload, and the type checker watching beside it. Nothing here ships or is
// written to disk (dist/ keeps the production build): dev builds are not prerendered, register no
// service worker (their sw.js takes a production build's worker out of the way), and only they
// contain the live-reload client.
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BuildError } from '../build-error.mjs';
import { frameworkAlias } from '../pipeline/app-bundle.mjs';
import { assetFileOptions } from '../pipeline/asset-files.mjs';
import { esbuild, esbuildReason } from '../pipeline/bundle.mjs';
import { htmlFileOf, renderHtml } from '../pipeline/html.mjs';
import { prerender } from '../pipeline/prerender.mjs';
import { readProject } from '../pipeline/project.mjs';
import { staticFiles } from '../pipeline/static-files.mjs';
import { pageDefines } from '../defines.mjs';
import { screensPlugin } from '../screens.mjs';
import { buildDevClient, buildProblem } from './dev-client.mjs';
import { buildFramework, frameworkImportReason, frameworkShims } from './dev-framework.mjs';
import { liveReload } from './live-reload.mjs';
import { rebuildOnChange } from './rebuild-on-change.mjs';
import { servedUnder } from './address.mjs';
import { devWorker, workerNotice } from './dev-worker.mjs';
import { listen } from './server.mjs';

/** How long after a rebuild the screens are prerendered: after the page's reload, which it would slow. */
const PRERENDER_CHECK_DELAY_MS = 1000;

/** The type checker's scheduling priority: it reports, it must not slow a rebuild or the reload. */
const TYPECHECK_NICENESS = 10;

/**
 * Starts the dev loop: builds in memory, serves it under `base` on host:port, rebuilds on every
 * change under src/, static/ or to sw.ts, and tells open pages to reload. A failed rebuild prints
 * one line and keeps the last good build served.
 * @param {{ root: string, preact: boolean, base?: string, host?: string, port?: number }} options
 */
export async function startDev({ root, preact, base = '/', host = '127.0.0.1', port = 8080 }) {
  const project = await readProject(root, { base });
  const options = /** @satisfies {import('esbuild').BuildOptions} */ ({
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    target: 'es2020',
    define: pageDefines({ dev: true, identity: project.identity }),
    // Fixed names, no hashes: the HTML stays the same from one rebuild to the next.
    entryNames: 'assets/[name]',
    // Imported images, fonts and media: hashed as in the build (the HTML does not name them).
    ...assetFileOptions(base),
    outdir: 'out',
    write: false,
    logLevel: 'silent',
  });
  const framework = await buildFramework({ ...options, alias: frameworkAlias(preact) });
  // First in the page: it hears rebuilds and shows problems even when the app's script fails.
  const client = await buildDevClient(options);
  const pageFiles = [...client, ...framework];
  const shims = frameworkShims();
  const context = await esbuild.context({
    ...options,
    entryPoints: { app: 'src/main.tsx' },
    jsx: 'automatic',
    alias: shims.alias,
    plugins: [screensPlugin(root)],
  });
  const reloads = liveReload();
  let site = await buildDevSite(root, context, pageFiles, base);
  // Served from memory: the reload right after a rebuild waits for no disk access.
  const server = await listen({
    root,
    files: () => site,
    host,
    port,
    intercept: servedUnder(base, workerNotice(base, reloads.intercept)),
  });
  console.log(
    `serving the dev build (in memory; dist/ is left as it is) on ${new URL(base, server.url)} (rebuilds on save and reloads the page; no service worker)`,
  );
  const typechecker = spawn(process.execPath, [path.join(root, 'tools/typecheck.mjs'), '--watch', 'app', 'sw'], {
    cwd: root,
    stdio: 'inherit',
  });
  lowerPriority(typechecker.pid);

  // Dev pages render themselves; a screen that cannot render at build time (one that reads
  // `window` as it renders) is said here, after each good build, not first at `npm run build`.
  const checkPrerender = rebuildOnChange(
    () => prerenderEveryScreen(root, preact, base),
    ({ error }) => {
      if (error)
        console.error(`prerender failed (npm run build stops here): ${error instanceof BuildError ? error.message : esbuildReason(error)}`);
    },
  );
  checkPrerender();
  const changed = rebuildOnChange(
    async () => {
      const started = performance.now();
      const files = await buildDevSite(root, context, pageFiles, base);
      return { files, milliseconds: Math.round(performance.now() - started) };
    },
    ({ error, value }) => {
      if (error || !value) {
        const reason = error instanceof BuildError ? error.message : esbuildReason(error);
        console.error(`build failed: ${reason}`);
        // And in the open pages, until a good build reloads them.
        reloads.fail(buildProblem(root, reason));
        return;
      }
      // Served only once reported: a build of a half-written file (an editor's truncate, then
      // write) can succeed (an empty module), and is replaced by the build the write started.
      const { files, milliseconds } = value;
      site = files;
      reloads.notify();
      console.log(`rebuilt in ${milliseconds} ms`);
      // Once the reload's requests are served: the check takes this thread for a moment.
      setTimeout(checkPrerender, PRERENDER_CHECK_DELAY_MS);
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
 * One dev build, in memory: rebuilds the app bundle in the context, adds the framework bundle,
 * fills the HTML template for every route (not prerendered: the page renders itself), copies
 * static/. Resolves to the site's files (path -> Buffer).
 * @param {string} root
 * @param {import('esbuild').BuildContext<{ write: false }>} context
 * @param {{ path: string, contents: Buffer }[]} framework the dev client's files and the framework bundle, built at start
 * @param {string} base
 * @returns {Promise<Map<string, Buffer>>}
 */
async function buildDevSite(root, context, framework, base) {
  const project = await readProject(root, { base });
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
  const files = await staticFiles(root, project.manifestTemplate, project.identity, project.description);
  for (const asset of [...framework, ...assets]) files.set(asset.path, asset.contents);
  // Module scripts run in document order: the dev client listens for errors before the framework
  // and app.js run, and the framework has filled FRAMEWORK_GLOBAL before app.js runs.
  const pageAssets = [
    ...assets.filter((a) => a.path.endsWith('.css')),
    ...framework.filter((a) => a.path.endsWith('.css')),
    ...framework.filter((a) => a.path.endsWith('.js')),
    ...assets.filter((a) => a.path.endsWith('.js')),
  ];
  for (const route of project.screens) {
    // No integrity attributes in dev: the files change on every save.
    const html = renderHtml(project.template, {
      title: route.title,
      appTitle: project.identity.__APP_TITLE__,
      description: project.description,
      base: project.identity.__BASE__,
      assets: pageAssets,
      body: '',
      integrity: false,
    });
    files.set(htmlFileOf(route.path), Buffer.from(html));
  }
  // The reconnect probe asks HEAD /sw.js; in dev it is a worker that only removes a production one.
  files.set('sw.js', Buffer.from(devWorker(project.identity)));
  return files;
}

/**
 * Prerenders every screen as the production build does, to find a screen that throws there.
 * @param {string} root
 * @param {boolean} preact
 * @param {string} base
 */
async function prerenderEveryScreen(root, preact, base) {
  const { identity, screens } = await readProject(root, { base });
  await prerender({ root, preact, identity, paths: screens.map((screen) => screen.path) });
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
