// The preview server: serves dist/ the way a well-configured static host does, with node:http only.
// Everything a request names is checked before any file is opened: the decoded path must be a
// plain relative path, and its real path (symlinks resolved) must stay inside the root.
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** Headers every response carries: CSP with nothing inline, no MIME sniffing, no referrer leaks. */
const SECURITY = {
  'Content-Security-Policy': "default-src 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

const MAX_URL = 2048;

/**
 * Maps a request target to a safe relative path, or returns an HTTP status for bad input.
 * Rejects (400): overlong or malformed URLs, NUL, backslashes, encoded slashes, `.`/`..` segments.
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

/** Cache policy: HTML and the worker revalidate every time; content-hashed assets never change. */
function cacheControl(rel) {
  if (rel === 'sw.js' || rel.endsWith('.html')) return 'no-cache';
  if (/^assets\/.+-[A-Z0-9]{8,}\.[a-z0-9]+$/i.test(rel)) return 'public, max-age=31536000, immutable';
  return 'no-cache';
}

/**
 * Creates the preview server. Options for tests: `root` can be swapped with setRoot() (a deploy),
 * `intercept(req, res)` may answer a request first (return true), and `log` records every request.
 */
export function createPreviewServer({ root, intercept } = {}) {
  let base = path.resolve(root);
  const log = [];

  async function resolveFile(rel) {
    const real = await fs.realpath(path.join(base, rel)).catch(() => null);
    const realBase = await fs.realpath(base);
    if (!real || (real !== realBase && !real.startsWith(realBase + path.sep))) return null;
    const stat = await fs.stat(real);
    return { real, stat };
  }

  async function send(req, res, status, file, stat, rel) {
    const etag = `"${createHash('sha1').update(`${stat.size}-${stat.mtimeMs}-${file}`).digest('base64url')}"`;
    const headers = {
      ...SECURITY,
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Cache-Control': status === 200 ? cacheControl(rel) : 'no-cache',
      ETag: etag,
    };
    if (status === 200 && req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    res.writeHead(status, { ...headers, 'Content-Length': stat.size });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    // The file can vanish between stat and read (dev mode swaps dist/ on every rebuild): end this
    // one response; an unhandled stream error would take the whole server down.
    const stream = createReadStream(file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }

  async function notFound(req, res) {
    const page = await resolveFile('404.html');
    if (page?.stat.isFile()) return send(req, res, 404, page.real, page.stat, '404.html');
    res.writeHead(404, { ...SECURITY, 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
  }

  async function handle(req, res) {
    log.push({ method: req.method, url: req.url });
    if (intercept && (await intercept(req, res))) return;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...SECURITY, Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    const rel = safePath(req.url);
    if (typeof rel === 'number') {
      res.writeHead(rel, { ...SECURITY, 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request\n');
      return;
    }
    let found = await resolveFile('.' + rel);
    if (found?.stat.isDirectory()) {
      if (!rel.endsWith('/')) {
        const query = req.url.slice(req.url.split(/[?#]/, 1)[0].length);
        res.writeHead(301, { ...SECURITY, Location: rel + '/' + query, 'Cache-Control': 'no-cache' }).end();
        return;
      }
      found = await resolveFile('.' + rel + 'index.html');
      if (found && !found.stat.isFile()) found = null;
      if (found) return send(req, res, 200, found.real, found.stat, rel.slice(1) + 'index.html');
    }
    if (found?.stat.isFile()) return send(req, res, 200, found.real, found.stat, rel.slice(1));
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
    /** Serves another directory from now on: a deploy, as tests use it. */
    setRoot(dir) {
      base = path.resolve(dir);
    },
  };
}

/** Starts a preview server on host:port (port 0 = a free one); resolves to its URL. */
export function listen({ root, host = '127.0.0.1', port = 8080, intercept } = {}) {
  const preview = createPreviewServer({ root, intercept });
  return new Promise((resolve, reject) => {
    preview.server.once('error', (err) =>
      reject(err.code === 'EADDRINUSE' ? Object.assign(new Error(`port ${port} on ${host} is in use (set PORT to another)`), { code: err.code }) : err),
    );
    preview.server.listen(port, host, () => {
      const { port: actual } = preview.server.address();
      resolve({ ...preview, url: `http://${host}:${actual}/`, close: () =>
          new Promise((r) => {
            preview.server.close(() => r());
            // close() waits for open keep-alive sockets, which a browser may hold indefinitely.
            preview.server.closeAllConnections();
          }),
      });
    });
  });
}
