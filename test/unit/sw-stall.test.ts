// Downloads that stop moving, in-process (test/unit/lib/worker-under-test.ts), with the stall limit
// built at 100 ms: a response whose bytes stop is asked again; a slow one that keeps moving, and a
// request still waiting for a connection while others move, are never cut (those two with a 400 ms
// limit: the real timers of a busy machine were seen 40 ms late, which a 60 ms pace against a
// 100 ms limit could not absorb).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildWorker, smallSite, World, WorkerUnderTest } from './lib/worker-under-test';

const STALL_SECONDS = 0.1;

/** The limit for downloads that keep moving, a byte every 60 ms: far from it however late a timer fires. */
const MOVING_STALL_SECONDS = 0.4;

/** The small site's worker, built with a 100 ms stall limit (unless told), on a fresh host. */
async function worldWithStallLimit(stallSeconds = STALL_SECONDS) {
  const world = new World();
  const build = await buildWorker(smallSite(), { stallSeconds });
  world.host(build);
  return { world, build, worker: WorkerUnderTest.start(world, build) };
}

test('a response whose bytes stop moving is abandoned and asked again; the install succeeds', async () => {
  const { world, worker } = await worldWithStallLimit();
  world.network.script('/assets/app.css', 'stall-body');
  await worker.install();
  assert.is(world.network.count('/assets/app.css'), 2);
});

test('a file that keeps stalling fails the install after three tries', async () => {
  const { world, worker } = await worldWithStallLimit();
  world.network.script('/assets/app.css', 'stall-body', 'stall-body', 'stall-body');
  let failure = '';
  await worker.install().catch((error: Error) => {
    failure = error.message;
  });
  assert.match(failure, 'stalled');
  assert.is(world.network.count('/assets/app.css'), 3);
});

test('a slow download that keeps moving is never cut, however long it takes in all', async () => {
  const { world, build, worker } = await worldWithStallLimit(MOVING_STALL_SECONDS);
  // Ten chunks 60 ms apart: 600 ms in all, past the stall limit, never 400 ms without a byte.
  world.network.script('/assets/app-v1.js', { body: build.files['assets/app-v1.js'], chunks: 10, chunkMs: 60 });
  await worker.install();
  assert.is(world.network.count('/assets/app-v1.js'), 1);
});

test('a request waiting for a connection is not timed while the downloads ahead of it move', async () => {
  const { world, build, worker } = await worldWithStallLimit(MOVING_STALL_SECONDS);
  // The script moves for 600 ms; the stylesheet's headers come only when the script is done, as
  // for a request queued behind it on a busy HTTP/1.1 connection.
  let scriptDone = () => {};
  const queued = new Promise<void>((resolve) => {
    scriptDone = resolve;
  });
  world.network.script('/assets/app-v1.js', { body: build.files['assets/app-v1.js'], chunks: 10, chunkMs: 60 });
  world.network.script('/assets/app.css', { body: build.files['assets/app.css'], headersAfter: queued });
  const installed = worker.install();
  // The script's last chunk: the queue moves on.
  setTimeout(scriptDone, 620);
  await installed;
  assert.is(world.network.count('/assets/app.css'), 1, 'asked once: never taken for a stall');
});

test('headers that never come while nothing moves are a stall too, asked again', async () => {
  const { world, worker } = await worldWithStallLimit();
  world.network.script('/status/', 'stall-headers');
  await worker.install();
  assert.is(world.network.count('/status/'), 2);
});

test.run();
