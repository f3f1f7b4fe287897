// The preview server: serves dist/ the way a well-configured static host does, with node:http only.
// Everything a request names is checked before any file is opened: the decoded path must be a
// plain relative path, and its real path (symlinks resolved) must stay inside the root.
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CACHE_CONTROL, CONTENT_TYPES, SECURITY_HEADERS as SECURITY, headersFor } from '../headers.mjs';

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */

/**
 * Answers a request before the server does (return true), or leaves it (false).
 * @typedef {(req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>} Intercept
 */

/**
 * A slow network for the bench: each answer waits delayMs, then its body flows at bytesPerSecond.
 * @typedef {{ delayMs: number, bytesPerSecond: number }} Pace
 */

/**
 * Dev: the site's files in memory (site path -> contents), served instead of `root`.
 * @typedef {() => Map<string, Buffer>} MemoryFiles
 */

/**
 * The preview server, its request log and a way to serve another folder (a deploy).
 * @typedef {object} PreviewServer
 * @property {import('node:http').Server} server
 * @property {{ method: string, url: string, revalidation?: boolean }[]} log
 * @property {(dir: string) => void} setRoot
 */

/**
 * A preview server listening at `url`.
 * @typedef {PreviewServer & { url: string, close(): Promise<void> }} Listening
 */

/**
 * What a request finds: a folder, or a file with its body and its precompressed copies.
 * @typedef {{ directory: true } | { directory?: undefined, name: string, body: Body, encoded: Partial<Record<'br' | 'gzip', Body>> }} Found
 */

/**
 * A file's bytes as the server sends them: size, a tag for its ETag, and a stream (or the bytes).
 * @typedef {{ size: number, tag: string, contents?: Buffer, open: (options?: { highWaterMark?: number }) => import('node:stream').Readable }} Body
 */

/**
 * The security headers a root is served with, or undefined for the table's (tests of older releases).
 * @typedef {(root: string) => Record<string, string> | undefined} SecurityOf
 */

/** Where the server finds files: a folder on disk or (dev) a Map in memory. @typedef {{ find(rel: string): Promise<Found | null> }} Source */

const MAX_URL = 2048;

/**
 * The encoding to answer with: brotli where the request accepts it, else gzip, else none (the
 * file itself). Only encodings with a precompressed copy count; `q=0` refuses one (RFC 9110 12.5.3).
 * @param {string | undefined} acceptEncoding
 * @param {Partial<Record<string, unknown>>} variants
 * @returns {'br' | 'gzip' | undefined}
 */
export function preferredEncoding(acceptEncoding = '', variants) {
  const accepted = new Set();
  for (const part of String(acceptEncoding).toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const refused = params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param));
    if (name && !refused) accepted.add(name.trim());
  }
  return /** @type {const} */ (['br', 'gzip']).find((encoding) => variants[encoding] && accepted.has(encoding));
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Bytes per write when pacing: small enough that the rate is even at 200 KB/s. */
const PACED_CHUNK = 8 * 1024;

/**
 * Sends a stream's chunks at `bytesPerSecond`, as a slow link would deliver them.
 * @param {import('node:stream').Readable} stream
 * @param {ServerResponse} res
 * @param {number} bytesPerSecond
 */
async function pipePaced(stream, res, bytesPerSecond) {
  try {
    for await (const chunk of stream) {
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
      await sleep((chunk.length / bytesPerSecond) * 1000);
    }
    res.end();
  } catch {
    res.destroy();
  }
}

/**
 * Maps a request target to a safe relative path, or returns an HTTP status for bad input.
 * Rejects (400): overlong or malformed URLs, NUL, backslashes, encoded slashes, `.`/`..` segments.
 * @param {unknown} target
 * @returns {string | number}
 */
export function safePath(target) {
  if (typeof target !== 'string' || target.length > MAX_URL || !target.startsWith('/')) return 400;
  const pathname = target.split(/[?#]/, 1)[0];
  if (/%(2f|5c|00)/i.test(pathname)) return 400;
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return 400;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return 400;
  const segments = decoded.split('/').slice(1);
  if (segments.some((s) => s === '.' || s === '..')) return 400;
  if (segments.slice(0, -1).some((s) => s === '')) return 400; // `//` would name the root again
  return decoded;
}

/**
 * The real path of `file` (symlinks resolved) when it exists and stays inside `realBase`, else null.
 * @param {string} realBase
 * @param {string} file
 */
async function realPathInside(realBase, file) {
  const real = await fs.realpath(file).catch(() => null);
  if (!real || (real !== realBase && !real.startsWith(realBase + path.sep))) return null;
  return real;
}

/**
 * The files of a directory on disk. A request's real path (symlinks resolved) must stay inside
 * the directory, and a file is answered with the precompressed copies the build wrote beside it
 * (`<file>.br`, `<file>.gz`). `directory()` is read on every request, so tests can swap it.
 * @param {() => string} directory
 * @returns {Source}
 */
function directorySource(directory) {
  /**
   * @param {string} file
   * @param {import('node:fs').Stats} stat
   * @returns {Body}
   */
  const body = (file, stat) => ({
    size: stat.size,
    tag: `${stat.size}-${stat.mtimeMs}-${file}`,
    open: (options) => createReadStream(file, options),
  });
  return {
    async find(rel) {
      const realBase = await fs.realpath(directory());
      const real = await realPathInside(realBase, path.join(realBase, rel));
      if (!real) return null;
      const stat = await fs.stat(real);
      if (stat.isDirectory()) return { directory: true };
      if (!stat.isFile()) return null;
      /** @type {Partial<Record<'br' | 'gzip', Body>>} */
      const encoded = {};
      for (const [encoding, suffix] of /** @type {const} */ ([
        ['br', '.br'],
        ['gzip', '.gz'],
      ])) {
        // A copy is a file of its own: a symlink out of the root must not answer for a file inside it.
        const realCopy = await realPathInside(realBase, real + suffix);
        const copy = realCopy ? await fs.stat(realCopy) : null;
        if (realCopy && copy?.isFile()) encoded[encoding] = body(realCopy, copy);
      }
      return { name: real, body: body(real, stat), encoded };
    },
  };
}

/**
 * Files kept in memory (`files()` returns a Map of site path -> Buffer): the dev loop serves
 * each rebuild from here, so a reload right after a save waits for no disk access. A folder is
 * any prefix of a file's path.
 * @param {MemoryFiles} files
 * @returns {Source}
 */
function memorySource(files) {
  /** @type {WeakMap<Buffer, string>} */
  const tags = new WeakMap();
  /** @param {Buffer} contents */
  const tagOf = (contents) => {
    if (!tags.has(contents)) tags.set(contents, createHash('sha1').update(contents).digest('base64url'));
    return /** @type {string} */ (tags.get(contents));
  };
  return {
    async find(rel) {
      const key = rel.replace(/^\.?\/+/, '').replace(/\/$/, '');
      const current = files();
      const contents = current.get(key);
      if (contents)
        return {
          name: key,
          body: { size: contents.length, tag: tagOf(contents), contents, open: () => Readable.from([contents]) },
          encoded: {},
        };
      const isFolder = key === '' || [...current.keys()].some((file) => file.startsWith(key + '/'));
      return isFolder ? { directory: true } : null;
    },
  };
}

/**
 * Creates the preview server. It serves `root`, or with `files` (dev) a Map kept in memory.
 * Options for tests: `root` can be swapped with setRoot() (a deploy), `intercept(req, res)` may
 * answer a request first (return true), and `log` records every request.
 * For the bench, `pace: { delayMs, bytesPerSecond }` makes it a slow network: each file answer
 * waits delayMs, then its body flows at bytesPerSecond. For tests of an update from an older
 * release, `securityOf(root)` gives the security headers a root was served with in its time (the
 * table's when it gives none): a page of that release never ran under today's policy.
 * @param {{ root: string, files?: MemoryFiles, intercept?: Intercept, pace?: Pace, securityOf?: SecurityOf }} options
 * @returns {PreviewServer}
 */
export function createPreviewServer({ root, files, intercept, pace, securityOf }) {
  let base = path.resolve(root);
  /** The security headers of every answer: the one table's, or those of the root's own time. */
  const security = () => securityOf?.(base) ?? SECURITY;
  /** @type {PreviewServer['log']} */
  const log = [];
  const source = files ? memorySource(files) : directorySource(() => base);

  /**
   * Answers with a file found, its best encoding, ETag and caching.
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {number} status
   * @param {Exclude<Found, { directory: true }>} found
   * @param {string} rel
   */
  async function send(req, res, status, found, rel) {
    const encoding = preferredEncoding(req.headers['accept-encoding'], found.encoded);
    // preferredEncoding() names only encodings that have a copy.
    const body = (encoding && found.encoded[encoding]) || found.body;
    const etag = `"${createHash('sha1').update(body.tag).digest('base64url')}"`;
    const headers = {
      ...security(),
      'Content-Type': CONTENT_TYPES[path.extname(found.name)] ?? 'application/octet-stream',
      // The one header table (tools/headers.mjs); an error answer is never kept for long.
      'Cache-Control': status === 200 ? headersFor('/' + rel)['Cache-Control'] : CACHE_CONTROL.revalidate,
      ETag: etag,
      // Caches must keep the encodings apart when the answer depends on Accept-Encoding.
      ...(Object.keys(found.encoded).length ? { Vary: 'Accept-Encoding' } : {}),
      ...(encoding ? { 'Content-Encoding': encoding } : {}),
    };
    if (pace) await sleep(pace.delayMs);
    if (status === 200 && req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    res.writeHead(status, { ...headers, 'Content-Length': body.size });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    if (body.contents && !pace) {
      res.end(body.contents);
      return;
    }
    // The file can vanish between stat and read (a build swaps dist/ atomically): end this one
    // response; an unhandled stream error would take the whole server down.
    const stream = body.open(pace ? { highWaterMark: PACED_CHUNK } : {});
    stream.on('error', () => res.destroy());
    if (pace) pipePaced(stream, res, pace.bytesPerSecond);
    else stream.pipe(res);
  }

  /**
   * Answers with the site's 404 page, or a plain one.
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   */
  async function notFound(req, res) {
    const page = await source.find('404.html');
    if (page && !page.directory) return send(req, res, 404, page, '404.html');
    res.writeHead(404, { ...security(), 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
  }

  /**
   * Answers one request.
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   */
  async function handle(req, res) {
    // A revalidation (If-None-Match, If-Modified-Since) may be answered 304, with no body.
    // A server's requests always have both (Node's type also serves client responses, which do not).
    const { method, url } = /** @type {{ method: string, url: string }} */ (req);
    log.push({ method, url, revalidation: Boolean(req.headers['if-none-match'] || req.headers['if-modified-since']) });
    if (intercept && (await intercept(req, res))) return;
    // An intercept may have rewritten the target: a site served under a base path (--base).
    const target = /** @type {string} */ (req.url);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...security(), Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    const rel = safePath(target);
    if (typeof rel === 'number') {
      res.writeHead(rel, { ...security(), 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request\n');
      return;
    }
    const found = await source.find('.' + rel);
    if (found?.directory) {
      if (!rel.endsWith('/')) {
        // The path as asked (under the base, if any), with its slash added.
        const asked = url.split(/[?#]/, 1)[0];
        res
          .writeHead(301, { ...security(), Location: asked + '/' + url.slice(asked.length), 'Cache-Control': CACHE_CONTROL.revalidate })
          .end();
        return;
      }
      const index = await source.find('.' + rel + 'index.html');
      if (index && !index.directory) return send(req, res, 200, index, rel.slice(1) + 'index.html');
      return notFound(req, res);
    }
    if (found) return send(req, res, 200, found, rel.slice(1));
    return notFound(req, res);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end();
      console.error(`serve: ${req.method} ${req.url}: ${err.message}`);
    });
  });
  // Node answers malformed request lines (bad characters, overlong headers) itself with 400.
  server.on('clientError', (_err, socket) => socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'));
  return {
    server,
    log,
    /**
     * Serves another directory from now on: a deploy, as tests use it.
     * @param {string} dir
     */
    setRoot(dir) {
      base = path.resolve(dir);
    },
  };
}

/**
 * Starts a preview server on host:port (port 0 = a free one); resolves to its URL.
 * @param {{ root: string, files?: MemoryFiles, host?: string, port?: number, intercept?: Intercept, pace?: Pace, securityOf?: SecurityOf }} options
 * @returns {Promise<Listening>}
 */
export function listen({ root, files, host = '127.0.0.1', port = 8080, intercept, pace, securityOf }) {
  const preview = createPreviewServer({ root, files, intercept, pace, securityOf });
  return new Promise((resolve, reject) => {
    preview.server.once('error', (/** @type {NodeJS.ErrnoException} */ err) =>
      reject(
        err.code === 'EADDRINUSE'
          ? Object.assign(new Error(`port ${port} on ${host} is in use (set PORT to another)`), { code: err.code, name: 'ServeError' })
          : err,
      ),
    );
    preview.server.listen(port, host, () => {
      // Listening on a TCP port: the address is an AddressInfo, never a pipe's name.
      const { port: actual } = /** @type {import('node:net').AddressInfo} */ (preview.server.address());
      resolve({
        ...preview,
        url: `http://${host}:${actual}/`,
        close: () =>
          new Promise((r) => {
            preview.server.close(() => r());
            // close() waits for open keep-alive sockets, which a browser may hold indefinitely.
            preview.server.closeAllConnections();
          }),
      });
    });
  });
}
