// The esbuild wrapper every bundle of the build goes through: esbuild loaded once, its failures
// turned into one-line BuildErrors.
import { createRequire } from 'node:module';
import { BuildError } from '../build-error.mjs';
import { unknownKindReason } from './asset-files.mjs';

/** @typedef {import('esbuild').BuildOptions} BuildOptions */

// Required, not imported: esbuild's API is CommonJS, and an ES module importing it makes Node scan
// its 97 KB for export names first (cjs-module-lexer, ≈ 30 ms of every build's start on Node 20).
/** @type {typeof import('esbuild')} */
export const esbuild = createRequire(import.meta.url)('esbuild');

/** The esbuild version that bundles the site (the SBOM names its tools). */
export const esbuildVersion = esbuild.version;

/**
 * One line from esbuild's first message: `file:line:col: text`.
 * @param {unknown} err an esbuild failure ({ errors: Message[] }) or any other error
 */
export function esbuildReason(err) {
  const failure = /** @type {Partial<import('esbuild').BuildFailure> | undefined} */ (err);
  const m = failure?.errors?.[0];
  if (!m) return String(failure?.message ?? err).split('\n')[0];
  const where = m.location ? `${m.location.file}:${m.location.line}:${m.location.column + 1}: ` : '';
  return where + (unknownKindReason(m.text) ?? m.text);
}

/**
 * Runs esbuild (in memory, silent, no legal comments unless asked) and turns its failure into a
 * one-line BuildError.
 * @template {BuildOptions} Options
 * @param {Options} options
 * @returns {Promise<import('esbuild').BuildResult<Options & { write: false }>>}
 */
export async function bundle(options) {
  try {
    // Cast both ways: esbuild's SameShape check (no unknown option) cannot see through a spread of a type parameter.
    const result = await esbuild.build(
      /** @type {BuildOptions} */ ({ logLevel: 'silent', write: false, legalComments: 'none', ...options }),
    );
    return /** @type {import('esbuild').BuildResult<Options & { write: false }>} */ (result);
  } catch (err) {
    throw new BuildError(esbuildReason(err));
  }
}
