// The worker's install and activation, in-process (test/unit/lib/worker-under-test.ts): every file
// of the version verified and stored all or nothing, a stale copy asked again of the server, progress
// for the pages, and an activation that deletes only this app's older versions.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildWorker, smallSite, textOf, World, WorkerUnderTest } from './lib/worker-under-test';
import { cacheFailure } from './lib/worker-world';

const CACHE_PREFIX = '[app-under-test@/] ';

test('an install stores every file of the version, each fetched once, and tells the pages n of m', async () => {
  const world = new World();
  const v1 = await buildWorker(smallSite());
  world.host(v1);
  const worker = WorkerUnderTest.start(world, v1);
  await worker.install();
  const manifest = JSON.parse(v1.files['precache.json']) as Record<string, string>;
  const cache = world.storage.caches.get(CACHE_PREFIX + v1.version);
  assert.ok(cache, 'the version has its own cache');
  for (const url of [...Object.keys(manifest), '/precache.json']) {
    assert.ok(await cache.match(url), `${url} is stored`);
    assert.is(world.network.count(url), 1, `${url} crossed the network once`);
  }
  const progress = [...world.broadcasts.values()].flat() as [number, number][];
  assert.equal(progress.at(-1), [Object.keys(manifest).length, Object.keys(manifest).length], 'the last report is m of m');
});

test('a file that fails its hash from the HTTP cache is asked again of the server, and the install succeeds', async () => {
  const world = new World();
  const v1 = await buildWorker(smallSite());
  world.host(v1);
  world.network.script('/status/', { body: 'a stale copy' });
  const worker = WorkerUnderTest.start(world, v1);
  await worker.install();
  const requests = world.network.seen.filter((request) => request.path === '/status/');
  assert.equal(
    requests.map((request) => request.cache),
    ['force-cache', 'reload'],
    'first from any cache, then from the server',
  );
  assert.is(
    await textOf((await world.storage.caches.get(CACHE_PREFIX + v1.version)?.match('/status/')) ?? 'network'),
    v1.files['status/index.html'],
  );
});

test("audit.json, which has no hash, must name this version: another's, or bytes that are none, fail the install", async () => {
  for (const wrong of [JSON.stringify({ version: 'another-version', files: [] }), 'not json', 'null']) {
    const world = new World();
    const v1 = await buildWorker(smallSite());
    world.host(v1);
    // A deploy landing mid-install: the server answers another version's audit, or bytes that are none.
    world.network.script('/audit.json', { body: wrong });
    let failed = false;
    await WorkerUnderTest.start(world, v1)
      .install()
      .catch(() => {
        failed = true;
      });
    assert.ok(failed, `${wrong} fails the install`);
    assert.equal([...world.storage.caches.keys()], [], 'and leaves no cache behind');
    assert.equal(
      world.network.seen.filter((request) => request.path === '/audit.json').map((request) => request.cache),
      ['reload'],
      'asked of the server, never of the HTTP cache',
    );
  }
  const world = new World();
  const v1 = await buildWorker(smallSite());
  world.host(v1);
  await WorkerUnderTest.start(world, v1).install();
  const stored = await world.storage.caches.get(CACHE_PREFIX + v1.version)?.match('/audit.json');
  assert.is(await textOf(stored ?? 'network'), v1.files['audit.json'], "this version's audit is stored");
});

test('an install is all or nothing: one file that cannot be had intact fails it and leaves no cache behind', async () => {
  // The last: the very bytes, from another origin (a redirect there, CORS allowed), which fetch types 'cors'.
  const elsewhere = { body: smallSite()['assets/app.css'], type: 'cors' } as const;
  for (const failure of [{ body: 'gone', status: 404 }, { body: 'altered bytes' }, 'offline', elsewhere] as const) {
    const world = new World();
    const v1 = await buildWorker(smallSite());
    world.host(v1);
    // Both tries (the HTTP cache's, then the server's) get the failure.
    world.network.script('/assets/app.css', failure, failure);
    const worker = WorkerUnderTest.start(world, v1);
    let failed = false;
    await worker.install().catch(() => {
      failed = true;
    });
    assert.ok(failed, `the install fails on ${JSON.stringify(failure)}`);
    assert.equal([...world.storage.caches.keys()], [], 'its cache is deleted');
  }
});

test('an install refused for lack of room tells the pages so; another failure does not', async () => {
  const quotaExceeded = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  for (const [failure, reported, refused] of [
    [quotaExceeded, [{ failed: 'no-room' }], 'put /assets/app.css'],
    // The manifest's write, which starts before the downloads and is awaited with the others at the
    // end: refused first, it is reported like any other (and is no unhandled rejection meanwhile).
    [quotaExceeded, [{ failed: 'no-room' }], 'put /precache.json'],
    [cacheFailure, [], 'put /assets/app.css'],
  ] as const) {
    const world = new World();
    const v1 = await buildWorker(smallSite());
    world.host(v1);
    // One file's write fails, as the first one past the quota does.
    world.storage.failing = new Set([refused]);
    world.storage.failure = failure;
    const worker = WorkerUnderTest.start(world, v1);
    let failed = false;
    await worker.install().catch(() => {
      failed = true;
    });
    assert.ok(failed, 'the install fails');
    const reports = [...world.broadcasts.values()].flat().filter((message) => !Array.isArray(message));
    assert.equal(reports, reported, `${failure().name} on ${refused}`);
    assert.equal([...world.storage.caches.keys()], [], 'its cache is deleted');
  }
});

test('a failed update leaves the version in use serving, its cache whole', async () => {
  const world = new World();
  const v1 = await buildWorker(smallSite('v1'));
  world.host(v1);
  const first = WorkerUnderTest.start(world, v1);
  await first.install();
  await first.activate();
  const v2 = await buildWorker(smallSite('v2'));
  world.host(v2);
  world.network.script('/assets/app-v2.js', { body: 'x', status: 500 }, { body: 'x', status: 500 });
  const second = WorkerUnderTest.start(world, v2);
  await second.install().catch(() => {});
  assert.equal([...world.storage.caches.keys()], [CACHE_PREFIX + v1.version]);
  world.onLine = false;
  world.network.offline = true;
  assert.match(await textOf(await first.request('/', { navigate: true })), 'Home v1');
});

test("activation deletes this app's older versions only, and claims the pages on the first install alone", async () => {
  const world = new World();
  const v1 = await buildWorker(smallSite('v1'));
  world.host(v1);
  await world.storage.open('another-app-v9');
  await world.storage.open('[app-under-test@/other-base/] old');
  const first = WorkerUnderTest.start(world, v1);
  await first.install();
  await first.activate();
  assert.ok(first.claimed, 'the first install claims the open pages: nothing controlled them');

  const v2 = await buildWorker(smallSite('v2'));
  world.host(v2);
  const second = WorkerUnderTest.start(world, v2);
  await second.install();
  assert.is((await world.storage.keys()).length, 4, 'installing keeps the version in use');
  await second.activate();
  assert.equal(
    (await world.storage.keys()).sort(),
    [CACHE_PREFIX + v2.version, '[app-under-test@/other-base/] old', 'another-app-v9'].sort(),
  );
  assert.not.ok(second.claimed, 'an update never claims: the person chose to reload');
});

test('activation leaves the caches alone while a newer version installs', async () => {
  const world = new World();
  const v1 = await buildWorker(smallSite('v1'));
  const v2 = await buildWorker(smallSite('v2'));
  world.host(v1);
  const first = WorkerUnderTest.start(world, v1);
  await first.install();
  world.host(v2);
  const second = WorkerUnderTest.start(world, v2);
  await second.install();
  first.newerVersionPresent = true;
  await first.activate();
  assert.is((await world.storage.keys()).length, 2, "the newer version's cache is whole");
});

test('"Reload to update" is the page\'s choice: the worker skips waiting only when asked', async () => {
  const world = new World();
  const v1 = await buildWorker(smallSite());
  world.host(v1);
  const worker = WorkerUnderTest.start(world, v1);
  await worker.install();
  assert.not.ok(worker.skippedWaiting, 'no skipWaiting of its own');
  await worker.message({ type: 'SKIP_WAITING' });
  assert.ok(worker.skippedWaiting);
  assert.equal(await worker.ask({ type: 'GET_VERSION' }), { version: v1.version });
});

test.run();
