// The dev loop's page client (src/dev/client.ts): bundled once at start into files of its own,
// which only dev pages load, and the problems it shows, made from a failed build.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BuildError } from '../build-error.mjs';
import { esbuild, esbuildReason } from '../pipeline/bundle.mjs';

/** The client's entry, from the project's root. */
const CLIENT_ENTRY = 'src/dev/client.ts';

/** Lines of code shown before and after the failing one. */
const FRAME_BEFORE = 2;
const FRAME_AFTER = 1;

/**
 * Bundles the dev client into assets/dev-client.js and its stylesheet assets/dev-client.css,
 * apart from the app: a syntax error in the app never takes the client that shows it away.
 * @param {import('esbuild').BuildOptions & { absWorkingDir: string, write: false }} options the dev bundle's options
 * @returns {Promise<{ path: string, contents: Buffer }[]>}
 */
export async function buildDevClient(options) {
  let result;
  try {
    result = await esbuild.build({ ...options, entryPoints: { 'dev-client': CLIENT_ENTRY } });
  } catch (error) {
    throw new BuildError(`the dev client (${CLIENT_ENTRY}): ${esbuildReason(error)}`);
  }
  const outDir = path.join(options.absWorkingDir, 'out');
  return result.outputFiles.map((file) => ({
    path: path.relative(outDir, file.path).split(path.sep).join('/'),
    contents: Buffer.from(file.contents),
  }));
}

/**
 * The lines around `line` (1-based) of `file`, numbered, the failing one marked and a caret under
 * `column` (0-based); '' when the file cannot be read.
 * @param {string} root
 * @param {string} file from the root
 * @param {number} line
 * @param {number} column
 */
export function codeFrame(root, file, line, column) {
  let lines;
  try {
    lines = readFileSync(path.resolve(root, file), 'utf8').split(/\r?\n/);
  } catch {
    return '';
  }
  const first = Math.max(1, line - FRAME_BEFORE);
  const last = Math.min(lines.length, line + FRAME_AFTER);
  const width = String(last).length;
  const out = [];
  for (let at = first; at <= last; at++) {
    out.push(`${at === line ? '>' : ' '} ${String(at).padStart(width)} | ${lines[at - 1]}`);
    if (at === line) out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, column))}^`);
  }
  return out.join('\n');
}

/**
 * What the page shows for a failed build: the place (file:line:column), the message and the code
 * around it, read from esbuild's first error or from a one-line reason that starts with its place.
 * @param {string} root
 * @param {string} reason the build's one-line reason, as the terminal prints it
 * @returns {import('./live-reload.mjs').DevProblem}
 */
export function buildProblem(root, reason) {
  const placed = /^(.+?):(\d+):(\d+): ([\s\S]*)$/.exec(reason);
  if (!placed) return { kind: 'build', message: reason, location: '', frame: '' };
  const [, file, line, column, message] = placed;
  return {
    kind: 'build',
    message,
    location: `${file}:${line}:${column}`,
    // esbuildReason() counts columns from 1, as editors do.
    frame: codeFrame(root, file, Number(line), Number(column) - 1),
  };
}
