// The service worker's pure decisions and the build's half of it: which cache key answers a
// request, which bytes a Range header asks for, and what the build injects into sw.js.
import { createHash } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { urlOf as pageUrlOf } from '../../src/worker-client/precache-check';
import { cacheKeys } from '../../src/sw/cache-keys';
import { parseRange } from '../../src/sw/range';
import { filesLeftToTheHost, precacheManifest, urlOf } from '../../tools/pipeline/precache-manifest.mjs';
import { buildServiceWorker } from '../../tools/pipeline/worker.mjs';
import { claimedPathsOf, networkOnlyOf, stallSecondsOf } from '../../tools/config.mjs';

const keys = suite('sw cache keys');
const NETWORK_ONLY = ['/.well-known/'];

keys('a navigation tries the path and its slash form; the not-found page only under a claimed prefix', () => {
  assert.equal(cacheKeys('/status', true, NETWORK_ONLY), ['/status', '/status/']);
  assert.equal(cacheKeys('/status/', true, NETWORK_ONLY), ['/status/', '/status/']);
  assert.equal(cacheKeys('/', true, NETWORK_ONLY), ['/', '/']);
  assert.equal(cacheKeys('/other-site/', true, NETWORK_ONLY), ['/other-site/', '/other-site/']);
  assert.equal(cacheKeys('/no/such/page', true, NETWORK_ONLY, ['/']), ['/no/such/page', '/no/such/page/', '/404.html']);
  assert.equal(cacheKeys('/notes/x', true, NETWORK_ONLY, ['/notes/']), ['/notes/x', '/notes/x/', '/404.html']);
  assert.equal(cacheKeys('/other-site/', true, NETWORK_ONLY, ['/notes/']), ['/other-site/', '/other-site/']);
});

keys('a file request tries only its own path: a missing file is not answered with the shell', () => {
  assert.equal(cacheKeys('/assets/app-X.js', false, NETWORK_ONLY), ['/assets/app-X.js']);
  assert.equal(cacheKeys('/status', false, NETWORK_ONLY), ['/status']);
});

keys('network-only prefixes go to the network, navigations included', () => {
  assert.equal(cacheKeys('/.well-known/acme-challenge/x', true, NETWORK_ONLY), []);
  assert.equal(cacheKeys('/.well-known/security.txt', false, NETWORK_ONLY), []);
  assert.equal(cacheKeys('/api/x', true, ['/api/', '/.well-known/']), []);
  assert.equal(cacheKeys('/apiary', true, ['/api/']), ['/apiary', '/apiary/']);
  assert.equal(cacheKeys('/api/x', true, ['/api/'], ['/']), [], 'network-only wins over claimed');
});
keys.run();

const range = suite('sw range parsing (RFC 9110)');

range('a closed range gives those bytes, clamped to the file', () => {
  assert.equal(parseRange('bytes=0-0', 10), [0, 0]);
  assert.equal(parseRange('bytes=2-5', 10), [2, 5]);
  assert.equal(parseRange('bytes=2-500', 10), [2, 9]);
});

range('an open range runs to the end; a suffix range is the last N bytes', () => {
  assert.equal(parseRange('bytes=7-', 10), [7, 9]);
  assert.equal(parseRange('bytes=-3', 10), [7, 9]);
  assert.equal(parseRange('bytes=-30', 10), [0, 9]);
});

range('an unsatisfiable or malformed range is ignored (undefined: the whole file answers)', () => {
  for (const h of ['bytes=10-', 'bytes=5-2', 'bytes=-0', 'bytes=-', 'bytes=0-1,4-5', 'items=0-1', 'bytes=a-b', ' bytes=0-1', ''])
    assert.is(parseRange(h, 10), undefined, h);
  assert.is(parseRange('bytes=0-', 0), undefined, 'an empty file has no byte 0');
});
range.run();

const manifest = suite('precache manifest and worker injection');
const sri = (s: string) => 'sha384-' + createHash('sha384').update(s).digest('base64');
const APP = { __APP_NAME__: 'my-app', __APP_TITLE__: 'My App' };
const ENTRIES = [
  'index.html',
  'status/index.html',
  '404.html',
  'assets/app-AB12CD34.js',
  'icons/icon-192.png',
  'sw.js',
  'audit.json',
  'precache.json',
].map((p) => ({ path: p, sha384: sri(p) }));

manifest('files map to the URL paths they are served under, as the page maps them too', () => {
  for (const [file, url] of [
    ['index.html', '/'],
    ['status/index.html', '/status/'],
    ['404.html', '/404.html'],
    ['assets/app-X.js', '/assets/app-X.js'],
  ]) {
    assert.is(urlOf(file), url, file);
    assert.is(pageUrlOf(file), url, `the status page agrees on ${file}`);
  }
});

manifest('lists every file of the version with its hash, but not sw.js, and audit.json unhashed', () => {
  const m = precacheManifest(ENTRIES);
  assert.equal(
    Object.keys(m).sort(),
    ['/', '/404.html', '/assets/app-AB12CD34.js', '/audit.json', '/icons/icon-192.png', '/status/'].sort(),
  );
  assert.is(m['/'], sri('index.html'));
  assert.is(m['/assets/app-AB12CD34.js'], sri('assets/app-AB12CD34.js'));
  assert.is(m['/audit.json'], '');
});

manifest("leaves robots.txt and the icons only the web manifest names to the host; a builder's own files stay precached", () => {
  const base = '/my-app/';
  const webManifest = {
    icons: [{ src: '/my-app/icons/icon-192.png' }, { src: '/my-app/icons/icon-512.png' }, { src: '/my-app/icons/splash.png' }],
  };
  const files = new Map(
    Object.entries({
      'index.html': '<link rel="icon" href="/my-app/icons/icon-192.png"><link rel="manifest" href="/my-app/manifest.webmanifest">',
      'status/index.html': '<img src="/my-app/icons/splash.png" alt="">',
      'manifest.webmanifest': JSON.stringify(webManifest),
      'icons/icon-192.png': 'png',
      'icons/icon-512.png': 'png',
      'icons/splash.png': 'png',
      'robots.txt': 'User-agent: *',
      'data/catalog.json': '[]',
    }).map(([file, text]) => [file, Buffer.from(text)]),
  );
  const leftToHost = filesLeftToTheHost(files, base);
  assert.equal(leftToHost.sort(), ['icons/icon-512.png', 'robots.txt']);
  const entries = [...files.keys()].map((path) => ({ path, sha384: sri(path), leftToHost: leftToHost.includes(path) }));
  assert.equal(
    Object.keys(precacheManifest(entries, base)).sort(),
    [
      '/my-app/',
      '/my-app/audit.json',
      '/my-app/data/catalog.json',
      '/my-app/icons/icon-192.png',
      '/my-app/icons/splash.png',
      '/my-app/manifest.webmanifest',
      '/my-app/status/',
    ].sort(),
  );
});

manifest('sw.js is pinned to the manifest by its SHA-384 and names its version; any change is a new version', async () => {
  const root = process.cwd();
  const a = await buildServiceWorker({ root, entries: ENTRIES, appDefines: APP });
  const code = a.worker.toString();
  assert.is(code.includes(sri(a.manifest.toString())), true, 'the manifest hash is in sw.js');
  assert.is(code.includes(a.version), true, 'the version id is in sw.js');
  assert.not.match(code, /@@version@@|__VERSION__|__MANIFEST_INTEGRITY__|__APP_NAME__/);
  assert.ok(code.includes('"my-app"'), 'the app name (the cache prefix) is in sw.js');
  assert.match(a.version, /^[0-9a-f]{12}$/);
  assert.equal(JSON.parse(a.manifest.toString()), precacheManifest(ENTRIES));

  const same = await buildServiceWorker({ root, entries: ENTRIES, appDefines: APP });
  assert.is(same.worker.equals(a.worker), true, 'deterministic');
  const changed = ENTRIES.map((e) => (e.path === 'index.html' ? { ...e, sha384: sri('other') } : e));
  assert.is.not((await buildServiceWorker({ root, entries: changed, appDefines: APP })).version, a.version, 'one file changed');
  const killed = await buildServiceWorker({ root, entries: ENTRIES, appDefines: APP, killSwitch: true });
  assert.is.not(killed.version, a.version, 'the kill switch is a version of its own');
  assert.match(killed.worker.toString(), /unregister/);
  assert.not.match(killed.worker.toString(), /cache:"reload"/, 'the kill switch precaches nothing');
});
manifest.run();

const config = suite('worker configuration (package.json)');

config('"networkOnly" defaults to none, and must be a list of paths', () => {
  assert.equal(networkOnlyOf({}), []);
  assert.equal(networkOnlyOf({ networkOnly: ['/api/', '/.well-known/'] }), ['/api/', '/.well-known/']);
  for (const bad of ['/api/', ['api/'], [1], {}]) {
    assert.throws(
      () => networkOnlyOf({ networkOnly: bad }),
      /"networkOnly" must be a list of path prefixes starting with "\/"/,
      JSON.stringify(bad),
    );
  }
});
config('"claimedPaths" defaults to none, and must be a list of paths', () => {
  assert.equal(claimedPathsOf({}), []);
  assert.equal(claimedPathsOf({ claimedPaths: ['/'] }), ['/']);
  assert.throws(() => claimedPathsOf({ claimedPaths: 'everything' }), /"claimedPaths" must be a list of path prefixes starting with "\/"/);
});

config('"networkOnly" and "claimedPaths" are both relative to the base; the absolute form is refused with one line', () => {
  for (const [field, check] of [
    ['networkOnly', networkOnlyOf],
    ['claimedPaths', claimedPathsOf],
  ] as const) {
    assert.equal(check({ [field]: ['/.well-known/', '/api/'] }, '/my-app/'), ['/.well-known/', '/api/']);
    assert.throws(
      () => check({ [field]: ['/api/', '/my-app/notes/'] }, '/my-app/'),
      (error: Error) =>
        error.message ===
        `package.json "${field}" has "/my-app/notes/", which starts with the base /my-app/: its paths are relative to the base (write "/notes/")`,
    );
  }
});

config('the worker gets both under the base: the default /.well-known/ is /my-app/.well-known/ under --base /my-app/', async () => {
  const root = process.cwd();
  const { worker } = await buildServiceWorker({
    root,
    entries: [{ path: 'index.html', sha384: sri('x') }],
    appDefines: { __APP_NAME__: 'my-app', __APP_TITLE__: 'My app', __BASE__: '/my-app/' },
    networkOnly: ['/.well-known/'],
    claimedPaths: ['/notes/'],
  });
  const code = worker.toString();
  assert.ok(code.includes('"/my-app/.well-known/"') && code.includes('"/my-app/notes/"'), 'both prefixes under the base');
  assert.not.ok(code.includes('"/.well-known/"') || code.includes('"/notes/"'), 'neither left at the root');
});

config('"stallSeconds" defaults to 10, and must be a number of seconds', () => {
  assert.is(stallSecondsOf({}), 10);
  assert.is(stallSecondsOf({ stallSeconds: 30 }), 30);
  for (const bad of ['10', 0, -1, 601, Number.NaN]) {
    assert.throws(() => stallSecondsOf({ stallSeconds: bad }), /"stallSeconds" must be a number of seconds/, String(bad));
  }
});
config.run();
