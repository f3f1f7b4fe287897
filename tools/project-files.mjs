// Reading the project's own files (templates, package.json, the routes): a missing file or
// invalid JSON is a one-line BuildError naming the file, never a stack.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { BuildError } from './build-error.mjs';

/**
 * Reads a file of the project; a missing one is a one-line BuildError naming it.
 * @param {string} root
 * @param {string} relativePath
 */
export async function readRequired(root, relativePath) {
  try {
    return await fs.readFile(path.join(root, relativePath), 'utf8');
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') throw new BuildError(`missing ${relativePath}`);
    throw error;
  }
}

/**
 * Parses JSON; invalid JSON is a one-line BuildError naming the file.
 * @param {string} text
 * @param {string} relativePath
 * @returns {unknown}
 */
export function parseJson(text, relativePath) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BuildError(`${relativePath} is not valid JSON: ${/** @type {Error} */ (error).message}`);
  }
}
