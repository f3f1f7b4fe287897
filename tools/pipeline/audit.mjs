// Each file's audit record (bytes raw, gzip, brotli, SHA-384) and its precompressed copies.
import { sri } from '../sri.mjs';
import { compress } from './compress.mjs';

/** Files that hosts serve compressed (text); images are compressed already. */
const COMPRESSIBLE = /\.(html|js|mjs|css|json|webmanifest|txt|svg)$/;

/**
 * One file's line of audit.json.
 * @typedef {{ path: string, bytes: number, gzip: number, brotli: number, sha384: string }} AuditEntry
 */

/**
 * A file's audit record (bytes raw, gzip, brotli and its SRI hash) and its precompressed copies,
 * `<file>.gz` and `<file>.br`, for hosts that serve them to browsers that accept them (the preview
 * server; a web server's gzip_static). Only text files get copies, and only smaller ones. The audit and
 * the SRI hashes describe the decoded bytes, the same whatever the encoding on the wire.
 * @param {string} filePath
 * @param {Buffer} contents
 * @returns {Promise<{ entry: AuditEntry, copies: Map<string, Buffer> }>}
 */
export async function auditAndCompress(filePath, contents) {
  const [gzipped, brotlied] = await compress(contents);
  const entry = { path: filePath, bytes: contents.length, gzip: gzipped.length, brotli: brotlied.length, sha384: sri(contents) };
  const copies = new Map();
  if (COMPRESSIBLE.test(filePath)) {
    if (gzipped.length < contents.length) copies.set(filePath + '.gz', gzipped);
    if (brotlied.length < contents.length) copies.set(filePath + '.br', brotlied);
  }
  return { entry, copies };
}
