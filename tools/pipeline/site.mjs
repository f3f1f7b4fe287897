// Every file of the site, built in memory: static files, the page bundle and its licences, the
// SBOM and the bundle's composition, each screen's prerendered HTML, the precache manifest and sw.js, the host's headers file
// and audit.json, with each file's precompressed copies.
import path from 'node:path';
import { HEADERS_FILE, headersFile } from '../headers.mjs';
import { sri } from '../sri.mjs';
import { buildApp } from './app-bundle.mjs';
import { auditAndCompress } from './audit.mjs';
import { htmlFileOf, renderHtml } from './html.mjs';
import { prerender } from './prerender.mjs';
import { LATER_MODULE } from '../screens.mjs';
import { readProject } from './project.mjs';
import { COMPOSITION_FILE, compositionFile } from './composition.mjs';
import { checkReferences } from './references.mjs';
import { SBOM_FILE, sbom } from './sbom.mjs';
import { staticFiles } from './static-files.mjs';
import { buildServiceWorker } from './worker.mjs';
import { filesLeftToTheHost } from './precache-manifest.mjs';
import { checkTargets } from './targets.mjs';
import { listFiles } from './list-files.mjs';

/** @typedef {import('./audit.mjs').AuditEntry} AuditEntry */
/** @typedef {{ name: string, version: string, build: string, files: AuditEntry[] }} Audit */

/**
 * The site's files (posix path -> Buffer), each one audited and compressed as soon as it is
 * added: the page bundle's compression (the longest) runs on the thread pool while the rest of
 * the site is made.
 */
function siteFiles() {
  /** @type {Map<string, Buffer>} */
  const files = new Map();
  /** @type {Map<string, ReturnType<typeof auditAndCompress>>} */
  const audits = new Map();
  return {
    files,
    /**
     * @param {string} file
     * @param {Buffer} contents
     */
    add(file, contents) {
      files.set(file, contents);
      audits.set(file, auditAndCompress(file, contents));
    },
    /** Every file's { entry, copies }, in the order the files were added. */
    audited: () => Promise.all([...files.keys()].map((file) => /** @type {ReturnType<typeof auditAndCompress>} */ (audits.get(file)))),
  };
}

/**
 * Builds every file of the site in memory: Map of posix path -> Buffer, and its audit.
 * @param {string} root
 * @param {{ preact: boolean, killSwitch: boolean, base: string }} opts
 * @returns {Promise<{ files: Map<string, Buffer>, audit: Audit, budgets: Record<string, number>, appGzip: number | null, composition: import('./composition.mjs').Composition, pageScripts: string[] }>}
 */
export async function buildSite(root, opts) {
  const { template, manifestTemplate, screens, pkg, identity, description, networkOnly, claimedPaths, stallSeconds, budgets } =
    await readProject(root, {
      base: opts.base,
    });
  // The page bundle and the prerendering are independent: both at once, in esbuild's process.
  const [statics, assets, bodies] = await Promise.all([
    staticFiles(root, manifestTemplate, identity, description),
    buildApp({ root, preact: opts.preact, dev: false, identity }),
    prerender({ root, preact: opts.preact, identity, paths: screens.map((route) => route.path) }),
  ]);
  const site = siteFiles();
  for (const [file, contents] of statics) site.add(file, contents);
  for (const asset of assets) site.add(asset.path, asset.contents);
  // Precached like licenses.txt: /about links it, and the link works offline too.
  const build = opts.preact ? 'preact' : 'react';
  site.add(SBOM_FILE, await sbom({ root, metafile: assets.metafile, pkg, build }));
  // Precached too: /about draws it, offline as well.
  const composition = compositionFile({ root, metafile: assets.metafile, build });
  site.add(COMPOSITION_FILE, composition.contents);
  // Stylesheets first so the first paint is styled; module scripts are deferred anyway. Each page
  // runs the entry and preloads what it imports, and the scripts of its own screen when that one
  // is loaded on use (every screen but `/` is in src/ui/later.ts: tools/screens.mjs); every page
  // names those of all lazily loaded modules (see renderHtml).
  const assetOf = (/** @type {string} */ file) => /** @type {{ path: string, contents: Buffer }} */ (assets.find((a) => a.path === file));
  const [entry, ...imported] = assets.scripts.page.map(assetOf);
  const pageAssets = [...assets.filter((a) => a.path.endsWith('.css')), entry];
  const lazy = Object.fromEntries(Object.entries(assets.scripts.lazy).map(([module, files]) => [module, files.map(assetOf)]));
  for (const route of screens) {
    const html = renderHtml(template, {
      title: route.title,
      appTitle: identity.__APP_TITLE__,
      description,
      base: opts.base,
      assets: pageAssets,
      preloads: [...imported, ...(route.path === '/' || route.path === '/404' ? [] : (lazy[LATER_MODULE] ?? []))],
      lazy,
      body: bodies.get(route.path),
    });
    site.add(htmlFileOf(route.path), Buffer.from(html));
  }

  const leftToHost = filesLeftToTheHost(site.files, opts.base);
  const hashes = [...site.files].map(([file, contents]) => ({ path: file, sha384: sri(contents), leftToHost: leftToHost.includes(file) }));
  const { worker, manifest, version } = await buildServiceWorker({
    root,
    entries: hashes,
    appDefines: identity,
    networkOnly,
    claimedPaths,
    stallSeconds,
    killSwitch: opts.killSwitch,
  });
  site.add('precache.json', manifest);
  site.add('sw.js', worker);
  // The page's scripts and the worker run on the minimum engines, or the build fails.
  // Named by the builder's file and line: the page's from the bundle's inputs, the worker's from its sources.
  const sources = {
    page: Object.keys(assets.metafile.inputs),
    worker: [
      'sw.ts',
      ...(await listFiles(path.join(root, 'src/sw'))).map((file) => `src/sw/${file}`),
      ...Object.keys(assets.metafile.inputs),
    ],
  };
  for (const [file, contents] of site.files)
    if (file.endsWith('.js')) checkTargets(file, contents, { root, sources: file === 'sw.js' ? sources.worker : sources.page });
  // The host's own configuration (Netlify, Cloudflare Pages): after every file it names, outside the precache.
  site.add(HEADERS_FILE, Buffer.from(headersFile([...site.files.keys(), 'audit.json'], opts.base)));
  const audited = await site.audited();
  const audit = {
    name: pkg.name,
    version,
    build,
    files: audited.map(({ entry }) => entry).sort((a, b) => (a.path < b.path ? -1 : 1)),
  };
  site.add('audit.json', Buffer.from(JSON.stringify(audit, null, 2) + '\n'));
  // Every file the pages and the manifest name is one of ours: checked once the last file exists.
  checkReferences(site.files, opts.base);
  // Precompressed copies go beside the files, outside the audit and the precache (same bytes, encoded).
  const { files } = site;
  for (const { copies } of await site.audited()) {
    for (const [file, contents] of copies) files.set(file, contents);
  }
  return { files, audit, budgets, appGzip: assets.appGzip, composition: composition.document, pageScripts: assets.scripts.page };
}
