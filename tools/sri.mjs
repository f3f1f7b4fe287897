// The SRI value of some bytes, in a module of its own: `npm run verify` needs it and must load
// no bundler, and the build, the worker's manifest and the tests share it.
import { createHash } from 'node:crypto';

/**
 * SRI value of a buffer: `sha384-<base64>` (https://www.w3.org/TR/SRI/).
 * @param {Uint8Array | string} buf
 */
export const sri = (buf) => 'sha384-' + createHash('sha384').update(buf).digest('base64');
