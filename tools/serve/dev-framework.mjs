// The frameworks in dev: bundled once at start into a file of their own that stays the same from
// one save to the next, and read by the app bundle through one-line shims.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BuildError } from '../build-error.mjs';
import { esbuild, esbuildReason } from '../pipeline/bundle.mjs';

/**
 * The framework modules the page may import. In dev they are bundled once, at start, into
 * assets/framework-<hash>.js, which stays byte-identical from one save to the next: named by
 * its content, it is served `immutable` (tools/headers.mjs), so a reload takes it from the HTTP
 * cache without asking and reuses its compiled code (the script code caches of Chromium and
 * Firefox) instead of reparsing React's 1.2 MB development build, and a rebuild bundles only
 * our own code (about 10 ms instead of 40). Restart `npm run dev` after upgrading them.
 */
export const FRAMEWORK_MODULES = ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/client'];

/** Where the framework bundle leaves the modules for app.js (dev builds only). */
const FRAMEWORK_GLOBAL = '__offlineShellDevFramework';

/**
 * Bundles FRAMEWORK_MODULES (through the build's aliases: the Preact build gets preact/compat)
 * into assets/framework-<hash>.js, which puts them on FRAMEWORK_GLOBAL by their import names. Resolves
 * to its output files ([{ path, contents }] relative to the site root).
 * @param {import('esbuild').BuildOptions & { absWorkingDir: string, write: false }} options the dev bundle's options, with the build's aliases
 * @returns {Promise<{ path: string, contents: Buffer }[]>}
 */
export async function buildFramework(options) {
  const modules = FRAMEWORK_MODULES.map((name) => `${JSON.stringify(name)}: require(${JSON.stringify(name)})`);
  let result;
  try {
    result = await esbuild.build({
      ...options,
      stdin: {
        contents: `globalThis.${FRAMEWORK_GLOBAL} = { ${modules.join(', ')} };`,
        resolveDir: options.absWorkingDir,
        sourcefile: 'framework.js',
      },
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
export function frameworkShims() {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'offline-shell-dev-framework-'));
  const packages = new Set(FRAMEWORK_MODULES.map((name) => name.split('/')[0]));
  /** @type {Record<string, string>} */
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
 * @param {unknown} error
 */
export function frameworkImportReason(error) {
  const message = /** @type {Partial<import('esbuild').BuildFailure> | undefined} */ (error)?.errors?.[0];
  const name = /\(originally "((?:react|react-dom)(?:\/[^"]*)?)"\)/.exec(message?.text ?? '')?.[1];
  if (!name || !message) return undefined;
  // esbuild's own line (file:line:column: text), with our text.
  return esbuildReason(error).replace(message.text, `${name} is not in FRAMEWORK_MODULES (tools/serve/dev-framework.mjs): add it there`);
}
