import * as assert from 'uvu/assert';
import { APP_NAME, CACHE_PREFIX } from '../../src/contract/app-name';
import type { Audit } from '../../src/contract/audit';
import { logTransition } from '../../src/reload/connectivity';
import { urlOf, verifyPrecache } from '../../src/worker-client/precache-check';
import { sri } from '../../src/contract/sri';
import Status from '../../src/ui/screens/status';
import { mount, waitFor } from './mount';

const bytes = (s: string) => new TextEncoder().encode(s).buffer as ArrayBuffer;

/** An audit of the given files (contents as strings), hashed as the build does. */
async function auditOf(version: string, files: Record<string, string>): Promise<Audit> {
  const list = await Promise.all(
    Object.entries(files).map(async ([path, text]) => ({ path, bytes: text.length, gzip: 0, brotli: 0, sha384: await sri(bytes(text)) })),
  );
  return { name: APP_NAME, version, build: 'react', files: list };
}

describe('precache check in Chromium (Cache API, crypto.subtle)', () => {
  afterEach(async () => {
    for (const k of await caches.keys()) await caches.delete(k);
  });

  it('computes the same SRI value as the build (SHA-384 of "abc")', async () => {
    assert.is(await sri(bytes('abc')), 'sha384-ywB1P0WjXou1oD1pmsZQBycsMqsO3tFjGotgWkP/W+2AhgcroefMI1i67KE0yCWn');
  });

  it('maps route HTML to its directory URL, the way the worker caches it', () => {
    assert.is(urlOf('index.html'), '/');
    assert.is(urlOf('status/index.html'), '/status/');
    assert.is(urlOf('404.html'), '/404.html');
    assert.is(urlOf('assets/app-X.js'), '/assets/app-X.js');
  });

  it('says nothing is cached (null) when only other apps have caches on this origin', async () => {
    await (await caches.open('another-app-v1')).put('/a.txt', new Response('a'));
    assert.is(await verifyPrecache(await auditOf('v1', { 'a.txt': 'a' })), null);
  });

  it('verifies matching files, names missing and altered ones, and skips sw.js and audit.json', async () => {
    const audit = await auditOf('v2', {
      'index.html': '<p>home',
      'status/index.html': '<p>status',
      'a.txt': 'aaaa',
      'b.txt': 'b',
      'sw.js': 'x',
      'audit.json': '{}',
    });
    const cache = await caches.open(CACHE_PREFIX + 'v2');
    await cache.put('/', new Response('<p>home'));
    await cache.put('/status/', new Response('<p>status'));
    await cache.put('/a.txt', new Response('tampered'));
    assert.equal(await verifyPrecache(audit), {
      total: 4,
      verified: 2,
      bytes: 7 + 9,
      failed: ['a.txt: hash mismatch', 'b.txt: not cached'],
    });
  });

  it("checks the files the worker's manifest lists, and not those it leaves to the host", async () => {
    const manifest = JSON.stringify({ '/a.txt': await sri(bytes('a')), '/audit.json': '' });
    const audit = await auditOf('v3', { 'a.txt': 'a', 'robots.txt': 'User-agent: *', 'precache.json': manifest, 'audit.json': '{}' });
    const cache = await caches.open(CACHE_PREFIX + 'v3');
    await cache.put('/a.txt', new Response('a'));
    await cache.put('/precache.json', new Response(manifest));
    assert.equal(await verifyPrecache(audit), { total: 2, verified: 2, bytes: 1 + manifest.length, failed: [] });
    // A manifest that is not the build's cannot say what to skip: every file is checked.
    await cache.put('/precache.json', new Response(manifest.replace('audit', 'other')));
    assert.equal(await verifyPrecache(audit), {
      total: 3,
      verified: 1,
      bytes: 1,
      failed: ['robots.txt: not cached', 'precache.json: hash mismatch'],
    });
  });

  it("checks this version's cache when an older version's cache is still there", async () => {
    const audit = await auditOf('new1', { 'a.txt': 'new' });
    await (await caches.open(CACHE_PREFIX + 'old1')).put('/a.txt', new Response('old'));
    await (await caches.open(CACHE_PREFIX + 'new1')).put('/a.txt', new Response('new'));
    assert.equal(await verifyPrecache(audit), { total: 1, verified: 1, bytes: 3, failed: [] });
  });
});

describe('status screen in Chromium', () => {
  it('shows every section, and says why the precache check cannot run when audit.json is not served', async () => {
    const { host, unmount } = mount(<Status />);
    // The test server has no /audit.json: a host that does not serve it looks the same.
    await waitFor(() => host.textContent?.includes('Could not load /audit.json.'));
    assert.equal(
      [...host.querySelectorAll('h2')].map((h) => h.textContent),
      ['Network', 'Service worker', 'Precache check', 'Storage', 'Connectivity log'],
    );
    await waitFor(() => /[\d.]+ (B|KB|MB) of [\d.]+ (MB|GB)/.test(host.textContent ?? ''));
    assert.ok(host.querySelector('button'), 'Check for update');
    unmount();
  });

  it('names what a reload waits for in the connectivity log, and the reload when it happens', async () => {
    logTransition('reload-waits', 'typing');
    logTransition('reload-waits', 'hidden tab');
    logTransition('reload');
    const { host, unmount } = mount(<Status />);
    const lines = () => [...host.querySelectorAll('.log li')].map((item) => item.textContent ?? '');
    await waitFor(() => lines().length >= 3);
    // Each line is "<time> <what>"; the time's own format is the browser's locale.
    const expected = [' reload', ' reload waits: hidden tab', ' reload waits: typing'];
    assert.ok(
      expected.every((end, index) => lines()[index].endsWith(end)),
      `newest first: ${lines().slice(0, 3).join(' | ')}`,
    );
    unmount();
  });
});
