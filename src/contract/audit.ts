// The build's audit, dist/audit.json (written by build.mjs), as the page reads it.

/** One shipped file: bytes raw, gzip and brotli, and its SRI hash. */
export interface AuditFile {
  path: string;
  bytes: number;
  gzip: number;
  brotli: number;
  sha384: string;
}

/** dist/audit.json. `name` is the package.json name, the prefix of the worker's cache names. */
export interface Audit {
  name: string;
  version: string;
  build: 'react' | 'preact';
  files: AuditFile[];
}
