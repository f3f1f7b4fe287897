// How the installed worker answers, in-process (test/unit/lib/worker-under-test.ts): this version's
// routes from its cache with no request to the host, what it does not own from the network, Range
// from a whole cached copy, and the network's answer whenever the Cache API fails.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildWorker, smallSite, textOf, type WorkerOptions, World, WorkerUnderTest } from './lib/worker-under-test';

/** A world with one installed, activated version of the small site; the host's requests counted from then on. */
async function installed(options: WorkerOptions = {}) {
  const world = new World();
  const build = await buildWorker(smallSite(), options);
  world.host(build);
  const worker = WorkerUnderTest.start(world, build);
  await worker.install();
  await worker.activate();
  world.network.seen.length = 0;
  return { world, build, worker };
}

test("this version's routes come from the cache, with and without their slash, and no request reaches the host", async () => {
  const { world, worker } = await installed();
  assert.match(await textOf(await worker.request('/', { navigate: true })), 'Home v1');
  assert.match(await textOf(await worker.request('/status', { navigate: true })), 'Status v1');
  assert.match(await textOf(await worker.request('/status/', { navigate: true })), 'Status v1');
  assert.match(await textOf(await worker.request('/assets/app-v1.js')), 'console.log');
  assert.equal(
    world.network.seen.map((request) => request.path),
    [],
  );
});

test('offline, every route still loads', async () => {
  const { world, worker } = await installed();
  world.onLine = false;
  world.network.offline = true;
  for (const [path, title] of [
    ['/', 'Home v1'],
    ['/status/', 'Status v1'],
  ]) {
    assert.match(await textOf(await worker.request(path, { navigate: true })), title);
  }
});

test("a page the version does not own is the host's online, and the app's not-found page offline", async () => {
  const { world, worker } = await installed();
  world.network.files.set('/owner-page/index.html', 'the owner of the origin');
  assert.is(await textOf(await worker.request('/owner-page/', { navigate: true })), 'the owner of the origin');
  assert.is(world.network.count('/owner-page/'), 1);
  world.network.offline = true;
  assert.match(await textOf(await worker.request('/owner-page/', { navigate: true })), 'Not found v1');
});

test('under a claimed path, a route this version does not know is its not-found page even online', async () => {
  const { world, worker } = await installed({ claimedPaths: ['/'] });
  assert.match(await textOf(await worker.request('/no/such/page', { navigate: true })), 'Not found v1');
  assert.is(world.network.count('/no/such/page'), 0);
});

test('requests the worker must leave alone reach the network untouched: other methods, other origins, network-only paths', async () => {
  const { worker } = await installed({ networkOnly: ['/.well-known/', '/api/'] });
  assert.is(await worker.request('/', { method: 'HEAD' }), 'network');
  assert.is(await worker.request('/api/notes', { method: 'POST', body: '{}' }), 'network');
  assert.is(await worker.request('https://other.test/assets/app-v1.js'), 'network');
  assert.is(await worker.request('/.well-known/security.txt', { navigate: true }), 'network');
  assert.is(await worker.request('/api/notes'), 'network');
});

test('a Range request for a cached file is answered 206 from the whole copy; one it cannot serve gets the whole file', async () => {
  const { world, build, worker } = await installed();
  const file = build.files['assets/app-v1.js'];
  const answer = await worker.request('/assets/app-v1.js', { headers: { range: 'bytes=4-11' } });
  assert.ok(answer !== 'network');
  assert.is(answer.status, 206);
  assert.is(answer.headers.get('content-range'), `bytes 4-11/${file.length}`);
  assert.is(await answer.text(), file.slice(4, 12));
  const beyond = await worker.request('/assets/app-v1.js', { headers: { range: `bytes=${file.length + 5}-` } });
  assert.ok(beyond !== 'network');
  assert.is(beyond.status, 200, 'RFC 9110 lets a server ignore a range it cannot serve');
  assert.is(await beyond.text(), file);
  assert.is(world.network.seen.length, 0, 'both from the cache');
});

test("a Range request for a file the version does not hold gets the host's answer untouched: a 404, the host's own 206", async () => {
  const { world, worker } = await installed();
  world.network.script('/media/missing.mp3', { body: 'Not found', status: 404 });
  const answer = await worker.request('/media/missing.mp3', { headers: { range: 'bytes=0-' } });
  assert.is(answer === 'network' ? 'network' : answer.status, 404, 'a 404 stays a 404, never sliced into a 206');
  assert.equal(
    world.network.seen.map((request) => [request.path, request.range]),
    [['/media/missing.mp3', 'bytes=0-']],
    'asked once, with its Range',
  );
  // A host that answers ranges itself: its 206 goes through as sent, bytes and offsets.
  world.network.script('/media/clip.bin', { body: 'ABCDEFGHIJ', status: 206, headers: { 'content-range': 'bytes 10-19/100' } });
  const part = await worker.request('/media/clip.bin', { headers: { range: 'bytes=10-19' } });
  assert.ok(part !== 'network');
  assert.equal([part.status, part.headers.get('content-range'), await part.text()], [206, 'bytes 10-19/100', 'ABCDEFGHIJ']);
});

test("with the Cache API failing, every request gets the network's answer: an online person is never locked out", async () => {
  const { world, worker } = await installed();
  world.storage.failing = true;
  assert.match(await textOf(await worker.request('/status/', { navigate: true })), 'Status v1');
  assert.match(await textOf(await worker.request('/assets/app-v1.js')), 'console.log');
  // The host's answer, not a cached one: the cache cannot be read. (The worker first tries a
  // verified download, then, seeing storage fail, asks again plainly: two requests.)
  assert.ok(world.network.count('/status/') >= 1, 'the host answered');
});

test('an evicted file is fetched again, verified, put back, and served from the cache after', async () => {
  const { world, build, worker } = await installed();
  const cache = world.storage.caches.get(`[app-under-test@/] ${build.version}`);
  cache?.alter('/assets/app.css', null);
  assert.is(await textOf(await worker.request('/assets/app.css')), build.files['assets/app.css']);
  assert.is(await textOf(await worker.request('/assets/app.css')), build.files['assets/app.css']);
  assert.is(world.network.count('/assets/app.css'), 1, 'fetched once, then served from the cache');
  assert.ok(await cache?.match('/assets/app.css'));
});

test('a damaged copy is never served: it is replaced by verified bytes, and altered bytes from the host are refused', async () => {
  const { world, build, worker } = await installed();
  const cache = world.storage.caches.get(`[app-under-test@/] ${build.version}`);
  cache?.alter('/status/', 'damaged on disk');
  assert.match(await textOf(await worker.request('/status/', { navigate: true })), 'Status v1');

  cache?.alter('/status/', 'damaged again');
  world.network.script('/status/', { body: 'altered by a proxy' }, { body: 'altered by a proxy' });
  const answer = await textOf(await worker.request('/status/', { navigate: true }));
  assert.not.match(answer, 'altered');
  assert.match(answer, 'Home v1', 'the navigation gets the verified app shell');
  assert.is(await worker.request('/assets/app-v1.js').then((response) => (response === 'network' ? 0 : response.status)), 200);
});

test('a navigation checks every entry afterwards and repairs the missing ones while online, not offline', async () => {
  const { world, build, worker } = await installed();
  const cache = world.storage.caches.get(`[app-under-test@/] ${build.version}`);
  cache?.alter('/assets/app.css', null);
  world.onLine = false;
  world.network.offline = true;
  await worker.request('/', { navigate: true });
  assert.is(world.network.count('/assets/app.css'), 0, 'no repair offline');
  assert.not.ok(await cache?.match('/assets/app.css'));
  world.onLine = true;
  world.network.offline = false;
  await worker.request('/', { navigate: true });
  assert.ok(await cache?.match('/assets/app.css'), 'put back after the navigation online');
});

test('the kill switch deletes our caches, unregisters and reloads its pages, even when deleting fails', async () => {
  for (const failing of [false, true]) {
    const { world } = await installed();
    const kill = await buildWorker(smallSite(), { killSwitch: true });
    const worker = WorkerUnderTest.start(world, kill);
    worker.pages = ['http://app.test/status/'];
    await worker.install();
    assert.ok(worker.skippedWaiting, 'it takes over at once');
    world.storage.failing = failing ? new Set(['delete']) : false;
    await worker.activate();
    assert.ok(worker.unregistered, 'unregistered');
    assert.equal(worker.navigated, ['http://app.test/status/'], 'its page reloaded');
    if (!failing) assert.equal(await world.storage.keys(), []);
  }
});

test.run();
