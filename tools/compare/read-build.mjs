// One built site as the compare command reads it: audit.json (files and version), bundle.json
// (what the page's script and stylesheet are made of) and sbom.cdx.json (packages and licences).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** @typedef {{ path: string, bytes: number, gzip: number, sha384: string }} AuditedFile */
/** @typedef {{ name: string, version: string, build: string, files: AuditedFile[] }} AuditFile */
/** @typedef {{ name: string, version: string, licences: string[] }} SbomPackage */
/** @typedef {{ dir: string, audit: AuditFile, composition: import('../pipeline/composition.mjs').Composition | null, packages: SbomPackage[] }} Build */

/** A folder the command cannot compare; its message is the one line the command prints. */
export class NotABuild extends Error {
  /** @override */
  name = 'NotABuild';
}

/**
 * Reads and parses a JSON file of the build, or undefined when the file is missing.
 * @param {string} dir
 * @param {string} file
 * @returns {unknown}
 */
function readJson(dir, file) {
  const full = path.join(dir, file);
  if (!existsSync(full)) return undefined;
  try {
    return JSON.parse(readFileSync(full, 'utf8'));
  } catch (error) {
    throw new NotABuild(`${full} is not valid JSON: ${/** @type {Error} */ (error).message}`);
  }
}

/**
 * The SBOM's components as packages with their licences (an SPDX id or an expression each).
 * @param {unknown} sbom
 * @returns {SbomPackage[]}
 */
function packagesOf(sbom) {
  const components =
    /** @type {{ components?: { name: string, version: string, licenses?: { license?: { id?: string, name?: string }, expression?: string }[] }[] } | undefined} */ (
      sbom
    )?.components;
  return (components ?? []).map((component) => ({
    name: component.name,
    version: component.version,
    licences: (component.licenses ?? []).map((choice) => choice.license?.id ?? choice.license?.name ?? choice.expression ?? '?'),
  }));
}

/**
 * Reads a built site; throws NotABuild when `dir` is not one (no folder, no audit.json with files).
 * A build from before bundle.json existed compares too: its modules are unknown (null).
 * @param {string} dir
 * @returns {Build}
 */
export function readBuild(dir) {
  if (!existsSync(dir)) throw new NotABuild(`${dir} does not exist`);
  const audit = /** @type {AuditFile | undefined} */ (readJson(dir, 'audit.json'));
  if (!audit || !Array.isArray(audit.files) || typeof audit.version !== 'string') {
    throw new NotABuild(`${dir} is not a build of this app: it has no audit.json with a version and files`);
  }
  const composition = /** @type {import('../pipeline/composition.mjs').Composition | undefined} */ (readJson(dir, 'bundle.json'));
  return { dir, audit, composition: composition ?? null, packages: packagesOf(readJson(dir, 'sbom.cdx.json')) };
}
