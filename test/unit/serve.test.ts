import { mkdtempSync, mkdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { gzipSync, brotliCompressSync, gunzipSync, brotliDecompressSync } from 'node:zlib';
import { SECURITY_HEADERS } from '../../tools/headers.mjs';
import { beforeAllTests } from '../e2e/lib/hooks';
import { listen, preferredEncoding, safePath, type Listening } from '../../tools/serve/server.mjs';

const SECRET = 'TOP-SECRET-OUTSIDE-DIST';
const tmp = mkdtempSync(path.join(os.tmpdir(), 'serve-'));
const root = path.join(tmp, 'dist');
mkdirSync(path.join(root, 'status'), { recursive: true });
mkdirSync(path.join(root, 'assets'), { recursive: true });
writeFileSync(path.join(tmp, 'secret.txt'), SECRET);
writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>home</title>');
writeFileSync(path.join(root, 'status', 'index.html'), '<!doctype html><title>status</title>');
writeFileSync(path.join(root, '404.html'), '<!doctype html><title>not found page</title>');
writeFileSync(path.join(root, 'sw.js'), '// worker');
writeFileSync(path.join(root, 'assets', 'app-ABCD1234.js'), 'console.log(1)');
writeFileSync(path.join(root, 'manifest.webmanifest'), '{}');
symlinkSync(path.join(tmp, 'secret.txt'), path.join(root, 'link-out.txt'));
// Precompressed copies, as the build writes them beside text files.
const LICENCES = 'MIT License. '.repeat(200);
writeFileSync(path.join(root, 'licenses.txt'), LICENCES);
writeFileSync(path.join(root, 'licenses.txt.gz'), gzipSync(LICENCES));
writeFileSync(path.join(root, 'licenses.txt.br'), brotliCompressSync(LICENCES));

let server: Listening;

/** Sends bytes exactly as given (no client-side normalisation) and returns the raw response. */
function raw(request: string): Promise<{ status: number; headers: Record<string, string>; body: string; text: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d) => (text += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n'), text });
    });
  });
}
const get = (target: string, method = 'GET') => raw(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);

/**
 * What every preview server answers alike, whether it serves dist/ from disk or (dev) a
 * rebuild's files from memory: registers those tests on a new suite and returns it.
 */
function previewServerSuite(name: string, start: () => Promise<Listening>) {
  const serve = suite(name);
  beforeAllTests(serve, async () => {
    server = await start();
  });
  serve.after(() => server.close());

  serve('serves index.html for / with no-cache and a strict CSP', async () => {
    const r = await get('/');
    assert.is(r.status, 200);
    assert.ok(r.body.includes('<title>home</title>'));
    assert.is(r.headers['content-type'], 'text/html; charset=utf-8');
    assert.is(r.headers['cache-control'], 'no-cache');
    assert.is(r.headers['content-security-policy'], SECURITY_HEADERS['Content-Security-Policy']);
    assert.match(String(r.headers['content-security-policy']), /^default-src 'none';/);
    assert.is(r.headers['x-content-type-options'], 'nosniff');
  });

  serve('sends sw.js with no-cache and hashed assets as immutable', async () => {
    assert.is((await get('/sw.js')).headers['cache-control'], 'no-cache');
    const asset = await get('/assets/app-ABCD1234.js');
    assert.is(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.is(asset.headers['content-type'], 'text/javascript; charset=utf-8');
  });

  serve('labels the web manifest with its own content type', async () => {
    assert.is((await get('/manifest.webmanifest')).headers['content-type'], 'application/manifest+json; charset=utf-8');
  });

  serve('redirects a directory without its slash to the slash form, keeping the query', async () => {
    const r = await get('/status?x=1');
    assert.is(r.status, 301);
    assert.is(r.headers.location, '/status/?x=1');
    assert.ok((await get('/status/')).body.includes('<title>status</title>'));
  });

  serve('answers unknown paths with 404.html and status 404', async () => {
    const r = await get('/no/such/page');
    assert.is(r.status, 404);
    assert.ok(r.body.includes('not found page'));
  });

  serve('answers HEAD without a body and other methods with 405 and Allow', async () => {
    const head = await get('/', 'HEAD');
    assert.is(head.status, 200);
    assert.is(head.body, '');
    for (const m of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const r = await get('/', m);
      assert.is(r.status, 405, m);
      assert.is(r.headers.allow, 'GET, HEAD');
    }
  });

  serve('revalidates with ETag: a matching If-None-Match gets 304', async () => {
    const etag = (await get('/sw.js')).headers.etag;
    assert.ok(etag);
    const r = await raw(`GET /sw.js HTTP/1.1\r\nHost: x\r\nIf-None-Match: ${etag}\r\nConnection: close\r\n\r\n`);
    assert.is(r.status, 304);
  });

  const attacks = [
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/%2E%2E/secret.txt',
    '/..%2fsecret.txt',
    '/..%2Fsecret.txt',
    '/..%5csecret.txt',
    '/..\\secret.txt',
    '/%00',
    '/index.html%00.png',
    '/%E0%A4%A',
    '/%',
    '//etc/passwd',
    '/./index.html',
    'http://127.0.0.1/../secret.txt',
    '*',
    '/' + 'a'.repeat(3000),
  ];
  for (const target of attacks) {
    serve(
      `refuses ${JSON.stringify(target.length > 40 ? target.slice(0, 20) + '…' : target)} with 400 or 404 and never leaks a file`,
      async () => {
        const r = await get(target);
        assert.ok(r.status === 400 || r.status === 404, `status ${r.status}`);
        assert.not.ok(r.text.includes(SECRET));
      },
    );
  }
  return serve;
}

const serve = previewServerSuite('preview server (dist/ on disk)', () => listen({ root, port: 0 }));

serve('never follows a symlink out of the root', async () => {
  const r = await get('/link-out.txt');
  assert.is(r.status, 404);
  assert.not.ok(r.text.includes(SECRET));
});

serve('never answers with a precompressed copy that is a symlink out of the root', async () => {
  const outside = path.join(tmp, 'robots-outside.txt.gz');
  writeFileSync(outside, gzipSync(SECRET));
  writeFileSync(path.join(root, 'robots.txt'), 'User-agent: *\n');
  symlinkSync(outside, path.join(root, 'robots.txt.gz'));
  try {
    const answer = await getEncoded('/robots.txt', 'gzip');
    assert.is(answer.status, 200);
    assert.is(answer.headers.get('content-encoding'), null, 'the file itself, not the linked copy');
    assert.is(answer.bytes.toString(), 'User-agent: *\n');
  } finally {
    unlinkSync(path.join(root, 'robots.txt.gz'));
    unlinkSync(path.join(root, 'robots.txt'));
  }
});

serve('survives a malformed request line with a 400', async () => {
  const r = await raw('GET /\x01bad HTTP/1.1\r\nHost: x\r\n\r\n');
  assert.is(r.status, 400);
});

/** GETs a path with an Accept-Encoding header; resolves to the status, headers and raw body bytes. */
async function getEncoded(target: string, acceptEncoding: string) {
  const response = await fetch(new URL(target, server.url), { headers: { 'Accept-Encoding': acceptEncoding } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

serve('answers with the precompressed copy the request accepts (brotli first), and Vary: Accept-Encoding', async () => {
  // Node's fetch decodes bodies itself; the headers tell which encoding was sent.
  const brotli = await getEncoded('/licenses.txt', 'gzip, br');
  assert.is(brotli.headers.get('content-encoding'), 'br');
  assert.is(brotli.bytes.toString(), LICENCES);
  assert.is(brotli.headers.get('vary'), 'Accept-Encoding');
  assert.is(brotli.headers.get('content-type'), 'text/plain; charset=utf-8');
  const gzip = await getEncoded('/licenses.txt', 'gzip');
  assert.is(gzip.headers.get('content-encoding'), 'gzip');
  assert.is(gzip.bytes.toString(), LICENCES);
  const plain = await raw('GET /licenses.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  assert.is(plain.headers['content-encoding'], undefined);
  assert.is(plain.body, LICENCES);
  assert.is(plain.headers.vary, 'Accept-Encoding');
});

serve('a compressed answer has its own length and ETag, and decodes to the same bytes', async () => {
  const socketGet = (encoding: string) =>
    raw(`GET /licenses.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: ${encoding}\r\nConnection: close\r\n\r\n`);
  const [brotli, gzip] = [await socketGet('br'), await socketGet('gzip')];
  assert.is(brotliDecompressSync(Buffer.from(brotli.body, 'latin1')).toString(), LICENCES);
  assert.is(gunzipSync(Buffer.from(gzip.body, 'latin1')).toString(), LICENCES);
  assert.is(Number(brotli.headers['content-length']), Buffer.from(brotli.body, 'latin1').length);
  assert.ok(Number(brotli.headers['content-length']) < LICENCES.length / 10);
  assert.is.not(brotli.headers.etag, gzip.headers.etag);
});

serve.run();

/** The same site as dist/ above, as the dev loop holds it: site path -> contents, no compressed copies. */
const memoryFiles = new Map(
  ['index.html', 'status/index.html', '404.html', 'sw.js', 'assets/app-ABCD1234.js', 'manifest.webmanifest', 'licenses.txt'].map((file) => [
    file,
    readFileSync(path.join(root, file)),
  ]),
);
const memory = previewServerSuite('preview server (dev: the files in memory)', () => listen({ root, files: () => memoryFiles, port: 0 }));

memory('serves the files it is given, not the folder on disk', async () => {
  writeFileSync(path.join(root, 'only-on-disk.txt'), 'on disk');
  try {
    assert.is((await get('/only-on-disk.txt')).status, 404);
    memoryFiles.set('only-in-memory.txt', Buffer.from('a rebuild'));
    assert.is((await get('/only-in-memory.txt')).body, 'a rebuild');
  } finally {
    unlinkSync(path.join(root, 'only-on-disk.txt'));
    memoryFiles.delete('only-in-memory.txt');
  }
});

memory('a changed file gets a new ETag, so a revalidation downloads it again', async () => {
  const before = await get('/sw.js');
  memoryFiles.set('sw.js', Buffer.from('// worker, rebuilt'));
  try {
    const after = await raw(`GET /sw.js HTTP/1.1\r\nHost: x\r\nIf-None-Match: ${before.headers.etag}\r\nConnection: close\r\n\r\n`);
    assert.is(after.status, 200);
    assert.is(after.body, '// worker, rebuilt');
  } finally {
    memoryFiles.set('sw.js', readFileSync(path.join(root, 'sw.js')));
  }
});

memory.run();

const encodings = suite('preferredEncoding');
encodings('picks brotli, then gzip, among the copies that exist and the request accepts', () => {
  const both = { br: {}, gzip: {} };
  assert.is(preferredEncoding('gzip, deflate, br', both), 'br');
  assert.is(preferredEncoding('gzip', both), 'gzip');
  assert.is(preferredEncoding('br', { gzip: {} }), undefined);
  assert.is(preferredEncoding('br;q=0, gzip;q=0.5', both), 'gzip', 'q=0 refuses brotli');
  assert.is(preferredEncoding('', both), undefined);
  assert.is(preferredEncoding(undefined, both), undefined);
  assert.is(preferredEncoding('identity', both), undefined);
});
encodings.run();

const paths = suite('safePath');
paths('keeps plain paths and decodes percent-escapes', () => {
  assert.is(safePath('/status/'), '/status/');
  assert.is(safePath('/a%20b.txt?x=1#y'), '/a b.txt');
});
paths('rejects dot segments, encoded slashes and NUL', () => {
  for (const t of ['/..', '/a/./b', '/a%2fb', '/a%5Cb', '/%00']) assert.is(safePath(t), 400, t);
});
paths.run();
