// Modules loaded on use (src/ui/later.ts: the screens other than `/`, the restore after the app's own
// reloads, what a control does): each is a chunk of its own, checked by SHA-384 before it runs like every other script
// of the page. The build names the scripts of each such module, by its source file, with their
// hashes in a meta element of every page.
import { withBase } from '../contract/base';

/** src/ui/later.ts, what no first screen needs, as the page names it (tools/screens.mjs LATER_MODULE is the build's side). */
export const LATER_MODULE = 'src/ui/later.ts';

/** The name of the meta element that carries source file -> [[script file, SRI hash], …] as JSON (tools/pipeline/html.mjs writes it). */
export const LAZY_SCRIPTS_META = 'lazy-scripts';

/**
 * Runs `load` (an `import()` of the module at `source`, its path from the project's root) once its
 * scripts are in the page's module map, each checked against its hash. Rejects when one cannot be
 * loaded or fails its hash: then none of it runs. Dev builds are one script: `load` runs at once.
 */
export async function importChecked<T>(source: string, load: () => Promise<T>): Promise<T> {
  if (!__DEV__) await Promise.all(scriptsOf(source).map(([file, integrity]) => preloadChecked(file, integrity)));
  return load();
}

/** Every module loaded on use: source file -> its scripts with their SRI hashes, as the page names them (URLs relative to the page's base). */
function lazyModules(): Record<string, [file: string, integrity: string][]> {
  const content = document.querySelector(`meta[name="${LAZY_SCRIPTS_META}"]`)?.getAttribute('content');
  return content ? JSON.parse(content) : {};
}

/** The URL of every script of the modules loaded on use, as this page names them. */
export const lazyScriptUrls = (): string[] =>
  Object.values(lazyModules()).flatMap((scripts) => scripts.map(([file]) => withBase(`/${file}`)));

/** The scripts of a module loaded on use, with their SRI hashes, as the page names them (URLs relative to the page's base). */
function scriptsOf(source: string): [file: string, integrity: string][] {
  const all = lazyModules();
  // biome-ignore lint/suspicious/noPrototypeBuiltins: Object.hasOwn is Safari 15.4+, beyond the minimum engines (tools/pipeline/targets.mjs).
  if (!Object.prototype.hasOwnProperty.call(all, source)) throw new Error(`${source}: this page names no scripts for it`);
  return all[source];
}

/**
 * Fetches the module script `file` into the page's module map, checked against `integrity`; the
 * import() that follows takes it from there (HTML: modules are mapped by URL, and import() has no
 * integrity of its own). A script that fails its hash is refused: `error`, and nothing of it runs.
 * Engines without modulepreload (Firefox before 115, Safari before 17) skip this: their import
 * fetches the script unchecked, and once the worker is installed it is the worker's checked copy.
 */
function preloadChecked(file: string, integrity: string): Promise<void> {
  const link = document.createElement('link');
  if (!link.relList.supports('modulepreload')) return Promise.resolve();
  return new Promise((resolve, reject) => {
    link.rel = 'modulepreload';
    link.integrity = integrity;
    link.href = withBase(`/${file}`);
    link.onload = () => resolve();
    link.onerror = () => reject(new Error(`${file} could not be loaded, or its bytes are not this version's`));
    document.head.append(link);
  });
}
