// Compression as static hosts and CDNs pre-compress: gzip level 9 and brotli, sized and placed
// (main thread or thread pool) for the build's speed. Deterministic: Node writes gzip's mtime as 0.
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** Gzip at level 9, as static hosts and CDNs pre-compress; Node writes mtime 0, so it is stable. */
const GZIP_OPTIONS = { level: 9 };
const gzipOnThreadPool = promisify(zlib.gzip);

/**
 * The gzip size of some bytes (the budgets' measure).
 * @param {Buffer} buf
 */
export const gzipSize = (buf) => zlib.gzipSync(buf, GZIP_OPTIONS).length;

const brotliOnThreadPool = promisify(zlib.brotliCompress);

/**
 * Brotli quality 7: the page bundle's compression is the build's last step, and above 7 each step
 * costs far more time than it saves bytes. On the React bundle (253 KB), best of 3 on a 2-core
 * machine with slow memory: quality 7 gives 75,478 B in 9 ms, 8 gives 75,240 B in 40 ms, 9 gives
 * 75,054 B in 126 ms (about 60 ms on a machine with normal memory), 11 gives 69,654 B in 373 ms;
 * gzip 9 gives 80,273 B. From 9 to 7 the whole site's brotli copies grew by 472 B (0.5 %) and the
 * React build's wall time fell from 0.70 to 0.56 s there (medians of 9).
 */
const BROTLI_QUALITY = 7;

/**
 * The smallest brotli window that holds the whole file (brotli's window is 2^bits - 16 bytes; 10 to
 * 24 bits). Node's brotli is the streaming encoder, which keeps the default 22-bit window whatever
 * the size: sized for 4 MB, its tables made a 1.5 KB page take 3.7 ms instead of 0.3 ms, and a
 * build compresses about 40 such files. The output differs by a few bytes of header at most.
 * @param {number} size
 */
const brotliWindowBits = (size) => Math.min(24, Math.max(10, Math.ceil(Math.log2(size + 16))));

/** @param {number} size */
const brotliOptions = (size) => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
    [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(size),
  },
});

/**
 * Files up to this size are compressed on the main thread. For them, handing the work to libuv's
 * thread pool costs more than the work: 16 small files of a build took 6 ms one after the other
 * and 12 to 27 ms through the pool. Larger files (the page bundle: ≈ 60 ms of brotli) go to the
 * pool, so the rest of the build goes on beside them.
 */
const MAIN_THREAD_LIMIT = 64 * 1024;

/**
 * Gzip and brotli copies of some bytes: [gzipped, brotlied].
 * @param {Buffer} contents
 * @returns {Promise<[Buffer, Buffer]>}
 */
export async function compress(contents) {
  if (contents.length <= MAIN_THREAD_LIMIT)
    return [zlib.gzipSync(contents, GZIP_OPTIONS), zlib.brotliCompressSync(contents, brotliOptions(contents.length))];
  return Promise.all([gzipOnThreadPool(contents, GZIP_OPTIONS), brotliOnThreadPool(contents, brotliOptions(contents.length))]);
}
