// Which npm package an input of the bundle belongs to (esbuild's metafile names inputs by path).

/**
 * An esbuild input path's package: the folder under the last `node_modules/` (`@scope/name` or `name`), or null for app code.
 * @param {string} input
 * @returns {{ dir: string, name: string, file: string } | null}
 */
export function packageOfInput(input) {
  const match = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\/(.+)$/.exec(input);
  return match ? { dir: match[1], name: match[2], file: match[3] } : null;
}
