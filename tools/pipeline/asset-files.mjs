// Files a screen or a stylesheet imports (`import logo from './logo.svg'`, `url(./font.woff2)`):
// images, fonts, sounds and videos. esbuild's file loader copies each to assets/<name>-<hash>.<ext>
// (content-hashed, so cached for a year like the scripts) and the import is its URL under the base;
// from there it is one more file of the site: precached, audited, in bundle.json and the budgets.

/** The kinds of file the app may import, by extension (lower case, no dot). */
export const ASSET_KINDS = ['svg', 'png', 'jpg', 'jpeg', 'webp', 'avif', 'gif', 'ico', 'woff2', 'wav', 'mp3', 'mp4', 'webm'];

/** esbuild's `loader` option: the file loader for every kind of ASSET_KINDS. */
const LOADERS = /** @type {Record<string, 'file'>} */ (Object.fromEntries(ASSET_KINDS.map((kind) => [`.${kind}`, 'file'])));

/**
 * The esbuild options that make imported files assets of the site served under `base`: each
 * at assets/<name>-<hash>.<ext>, its import the absolute URL there (in a script, a relative URL
 * would resolve against the page's, /my-app/status/, not the script's).
 * @param {string} base
 */
export const assetFileOptions = (base) =>
  /** @satisfies {import('esbuild').BuildOptions} */ ({ loader: LOADERS, assetNames: 'assets/[name]-[hash]', publicPath: base });

/** The shipped outputs of a bundle that are imported files (by extension), beside its scripts and stylesheets. */
export const ASSET_FILE = new RegExp(`\\.(${ASSET_KINDS.join('|')})$`, 'i');

/**
 * The one line for esbuild's "No loader is configured" (an import of a kind the build does not
 * know), naming the file; undefined for any other message.
 * @param {string} text esbuild's message text
 */
export function unknownKindReason(text) {
  const match = /^No loader is configured for "([^"]+)" files: (.+)$/.exec(text);
  if (!match) return undefined;
  return `cannot import ${match[2]}: the build does not know "${match[1]}" files (it imports ${ASSET_KINDS.join(', ')})`;
}
