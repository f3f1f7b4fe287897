// `npm run dev`: one esbuild context rebuilt on every save, served by the preview server with live
// reload, and the type checker watching beside it. Nothing here ships: dev builds are not
// prerendered, register no service worker, and only they contain the live-reload client.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, watch, writeFileSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { listen } from './serve.mjs';
import { BuildError } from './build-error.mjs';
import { frameworkAlias } from './build/app-bundle.mjs';
import { esbuildReason } from './build/bundle.mjs';
import { htmlFileOf, renderHtml } from './build/html.mjs';
import { readProject } from './build/project.mjs';
import { staticFiles } from './build/static-files.mjs';
import { writeAtomically } from './build/write-atomically.mjs';
import { pageDefines } from './defines.mjs';

/** The path the page listens on for rebuilds: esbuild's own live-reload convention. */
const CHANGE_EVENTS = '/esbuild';

/**
 * The framework modules the page may import. In dev they are bundled once, at start, into
 * assets/framework-<hash>.js, which stays byte-identical from one save to the next: named by
 * its content, it is served `immutable` (tools/headers.mjs), so a reload takes it from the HTTP
 * cache without asking and reuses its compiled code (the script code caches of Chromium and
 * Firefox) instead of reparsing React's 1.2 MB development build, and a rebuild bundles only
 * our own code (about 10 ms instead of 40). Restart `npm run dev` after upgrading them.
 */
const FRAMEWORK_MODULES = ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/client'];

/** Where the framework bundle leaves the modules for app.js (dev builds only). */
const FRAMEWORK_GLOBAL = '__offlineShellDevFramework';

/** The type checker's scheduling priority: it reports, it must not slow a rebuild or the reload. */
const TYPECHECK_NICENESS = 10;

/**
 * Starts the dev loop: builds into `out`, serves it on HOST:PORT (127.0.0.1:8080), rebuilds on
 * every change under src/, static/ or to sw.ts, and tells open pages to reload. A failed rebuild
 * prints one line and keeps the last good build served.
 */
export async function startDev({ root, preact, out }) {
  const project = await readProject(root);
  const options = {
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
  };
  const framework = await buildFramework({ ...options, alias: frameworkAlias(preact) });
  const shims = frameworkShims();
  const context = await esbuild.context({ ...options, entryPoints: { app: 'src/main.tsx' }, jsx: 'automatic', alias: shims.alias });
  const reloads = liveReload();
  let site = await buildDevSite(root, context, out, framework);
  // Served from memory: the reload right after a rebuild waits for no disk access.
  const server = await listen({ root: out, files: () => site, host: process.env.HOST || '127.0.0.1', port: Number(process.env.PORT || 8080), intercept: reloads.intercept });
  console.log(`serving ${path.relative(root, out) || '.'}/ on ${server.url} (dev: rebuilds on save and reloads the page; no service worker)`);
  const typechecker = spawn(process.execPath, [path.join(root, 'tools/typecheck.mjs'), '--watch', 'app', 'sw'], { cwd: root, stdio: 'inherit' });
  lowerPriority(typechecker.pid);

  const changed = rebuildOnChange(
    async () => {
      const started = performance.now();
      site = await buildDevSite(root, context, out, framework, site);
      return Math.round(performance.now() - started);
    },
    ({ error, value: milliseconds }) => {
      if (error) {
        console.error(`build failed: ${error?.name === 'BuildError' ? error.message : esbuildReason(error)}`);
        return;
      }
      reloads.notify();
      console.log(`rebuilt in ${milliseconds} ms`);
    },
  );
  const watchers = ['src', 'static', 'sw.ts', 'package.json'].map((entry) => watch(path.join(root, entry), { recursive: !entry.includes('.') }, changed));
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
 * Returns the file watcher's callback: it starts `build` at once, with no settling delay. An
 * editor's save is often several events (truncate, write, rename): those of one write arrive in
 * the same turn of the event loop and make one build; one that arrives while a build runs makes
 * one more build, and only a build that started after the last event is reported to
 * `report({ error } | { value })`, so a half-written file never reloads the page. Builds never overlap.
 */
function rebuildOnChange(build, report) {
  let changedSinceStart = false;
  let running = false;
  async function runUntilUnchanged() {
    running = true;
    while (changedSinceStart) {
      await new Promise((resolve) => setImmediate(resolve));
      changedSinceStart = false;
      let outcome;
      try {
        outcome = { value: await build() };
      } catch (error) {
        outcome = { error };
      }
      if (!changedSinceStart) report(outcome);
    }
    running = false;
  }
  return () => {
    changedSinceStart = true;
    if (!running) runUntilUnchanged();
  };
}

/**
 * One dev build: rebuilds the app bundle in the context, adds the framework bundle, fills the
 * HTML template for every route (not prerendered: the page renders itself), copies static/.
 * Writes only what changed since `previous`, atomically on the first build. Resolves to the
 * files written (path -> Buffer).
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
  const assets = result.outputFiles.map((file) => ({ path: path.relative(outDir, file.path).split(path.sep).join('/'), contents: Buffer.from(file.contents) }));
  const files = await staticFiles(root, project.manifestTemplate, project.identity);
  for (const asset of [...framework, ...assets]) files.set(asset.path, asset.contents);
  // Module scripts run in document order: the framework has filled FRAMEWORK_GLOBAL before app.js runs.
  const pageAssets = [...assets.filter((a) => a.path.endsWith('.css')), ...framework, ...assets.filter((a) => a.path.endsWith('.js'))];
  for (const route of project.screens) {
    // No integrity attributes in dev: the files change on every save.
    const html = renderHtml(project.template, { title: route.title, appTitle: project.identity.__APP_TITLE__, base: project.identity.__BASE__, assets: pageAssets, body: '', integrity: false });
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
 * Bundles FRAMEWORK_MODULES (through the build's aliases: the Preact build gets preact/compat)
 * into assets/framework-<hash>.js, which puts them on FRAMEWORK_GLOBAL by their import names. Resolves
 * to its output files ([{ path, contents }] relative to the site root).
 */
async function buildFramework(options) {
  const modules = FRAMEWORK_MODULES.map((name) => `${JSON.stringify(name)}: require(${JSON.stringify(name)})`);
  let result;
  try {
    result = await esbuild.build({
      ...options,
      stdin: { contents: `globalThis.${FRAMEWORK_GLOBAL} = { ${modules.join(', ')} };`, resolveDir: options.absWorkingDir, sourcefile: 'framework.js' },
      entryNames: undefined,
      outfile: 'out/assets/framework.js',
      outdir: undefined,
    });
  } catch (error) {
    throw new BuildError(esbuildReason(error));
  }
  const contents = Buffer.from(result.outputFiles[0].contents);
  const hash = createHash('sha256').update(contents).digest('hex').slice(0, 12);
  return [{ path: `assets/framework-${hash}.js`, contents }];
}

/**
 * In the app bundle, each framework import resolves (esbuild `alias`) to a one-line CommonJS
 * module that reads the framework from FRAMEWORK_GLOBAL; esbuild's interop then serves named
 * imports (`import { useState }`) from it by property, so no export list is needed. The modules
 * are files in a temporary folder: `alias` is resolved inside esbuild, where a plugin's
 * resolve callback would cost a round trip to this process for every import on every rebuild
 * (18 → 12 ms per rebuild, measured). Returns { alias, remove() }.
 */
function frameworkShims() {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'offline-shell-dev-framework-'));
  const packages = new Set(FRAMEWORK_MODULES.map((name) => name.split('/')[0]));
  const alias = {};
  for (const name of packages) alias[name] = path.join(folder, name);
  for (const name of FRAMEWORK_MODULES) {
    // `react` -> react/index.js, `react/jsx-runtime` -> react/jsx-runtime.js: any other subpath
    // of the packages resolves to nothing and fails the build (frameworkImportReason).
    const [packageName, subpath = 'index'] = name.split(/\/(.*)/);
    const file = path.join(folder, packageName, `${subpath}.js`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `module.exports = globalThis.${FRAMEWORK_GLOBAL}[${JSON.stringify(name)}];\n`);
  }
  const remove = () => rmSync(folder, { recursive: true, force: true });
  // Also when the dev server stops on an error or a signal: `exit` handlers may only be synchronous.
  process.once('exit', remove);
  return { alias, remove };
}

/**
 * A framework import the dev bundle does not hold (say `react-dom/server`) fails to resolve
 * among the shims; this says so in one line, and where to add it. Undefined for other errors.
 */
function frameworkImportReason(error) {
  const message = error?.errors?.[0];
  const name = /\(originally "((?:react|react-dom)(?:\/[^"]*)?)"\)/.exec(message?.text ?? '')?.[1];
  if (!name) return undefined;
  // esbuild's own line (file:line:column: text), with our text.
  return esbuildReason(error).replace(message.text, `${name} is not in FRAMEWORK_MODULES (tools/dev.mjs): add it there`);
}

/** Lowers a child's CPU priority; where the system refuses, the child keeps the default one. */
function lowerPriority(pid) {
  try {
    os.setPriority(pid, TYPECHECK_NICENESS);
  } catch {
    // Not permitted (some containers): the type checker still runs, at the default priority.
  }
}

/**
 * esbuild's live-reload protocol on the preview server: pages open an EventSource on /esbuild
 * and reload on its `change` event. Returns the server's intercept and notify().
 */
function liveReload() {
  const clients = new Set();
  return {
    intercept(request, response) {
      if (request.url !== CHANGE_EVENTS) return false;
      response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
      response.write(': connected\n\n');
      clients.add(response);
      request.on('close', () => clients.delete(response));
      return true;
    },
    notify() {
      for (const client of clients) client.write('event: change\ndata: {}\n\n');
    },
  };
}
