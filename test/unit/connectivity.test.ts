// The connectivity store and its log, fed by happy-dom's window; the probe against a real local
// HTTP server (Node's fetch), so it meets real status codes and a real refused connection.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LOG_KEY, connectivity, connectivityLog, logTransition, probe, startConnectivity } from '../../src/reload/connectivity';
import { beforeAllTests } from '../e2e/lib/hooks';
import { domPerTest, installDom, type FakeDom } from './dom';
import { present } from '../present';

const test = suite('connectivity store');
const env = domPerTest(test);
/** The log's entries; null (not read yet) only before the first start, so [] then. */
const logEntries = () => connectivityLog.getSnapshot() ?? [];
const kinds = () => logEntries().map((e) => e.kind);

test('follows online/offline events, with the time of the change, and logs each transition', async () => {
  env.stop = startConnectivity();
  const seen: boolean[] = [];
  const unsubscribe = connectivity.subscribe(() => seen.push(connectivity.getSnapshot().online));
  const before = kinds().length;
  await env.dom.tick(5000);
  env.dom.setOnline(false);
  assert.is(connectivity.getSnapshot().online, false);
  assert.is(connectivity.getSnapshot().since, Date.now());
  await env.dom.tick(3000);
  env.dom.setOnline(true);
  assert.equal(connectivity.getSnapshot().online, true);
  assert.is(connectivity.getSnapshot().since, Date.now());
  assert.equal(seen, [false, true]);
  assert.equal(kinds().slice(before), ['offline', 'online']);
  unsubscribe();
});

test('a page loaded offline starts offline and logs it (it never gets an offline event)', () => {
  env.reinstall({ online: false });
  env.stop = startConnectivity();
  assert.is(connectivity.getSnapshot().online, false);
  assert.is(kinds().at(-1), 'offline');
});

test('the last entries of the log survive a reload (sessionStorage); the in-memory log is bounded', () => {
  env.stop = startConnectivity();
  for (let i = 0; i < 60; i++) logTransition('probe-failed', `attempt ${i}`);
  assert.is(logEntries().length, 50);
  logTransition('reload', 'back online');
  env.stop();
  // The next page of this tab: same sessionStorage, fresh start.
  env.stop = startConnectivity();
  const after = logEntries();
  assert.is(after.length, 8);
  assert.equal(after.at(-1)?.kind, 'reload');
  assert.equal(after.at(-2)?.detail, 'attempt 59');
  assert.is(JSON.parse(present(sessionStorage.getItem(LOG_KEY), 'the log in sessionStorage')).length, 8);
});

test('stop() detaches from the window events', () => {
  env.stop = startConnectivity();
  env.stop();
  env.stop = undefined;
  const before = kinds().length;
  env.dom.setOnline(false);
  assert.is(kinds().length, before);
  assert.is(connectivity.getSnapshot().online, true);
});

const probes = suite('reachability probe (real HTTP)');
let server: http.Server;
let base: string;
let dom: FakeDom;
let status = 200;
const seen: { method?: string; url?: string; cache?: string }[] = [];
beforeAllTests(probes, async () => {
  server = http.createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, cache: req.headers['cache-control'] });
    res.writeHead(status).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Node's timers: the probe's request goes through Node's fetch.
  dom = installDom({ nodeTimers: true });
});
probes.after(async () => {
  dom.uninstall();
  await new Promise((r) => server.close(r));
});

probes('is ok when the file answers, and asks with HEAD past every cache', async () => {
  status = 200;
  assert.is(await probe(base + '/sw.js'), true);
  assert.equal(seen.at(-1), { method: 'HEAD', url: '/sw.js', cache: 'no-cache' });
  assert.is(connectivity.getSnapshot().probe, 'ok');
  assert.is(connectivity.getSnapshot().probeAt, Date.now());
  assert.is(logEntries().at(-1)?.kind, 'probe-ok');
});

probes('fails on a server error (a proxy whose origin is down), with the status in the log', async () => {
  status = 503;
  assert.is(await probe(base + '/sw.js'), false);
  assert.is(connectivity.getSnapshot().probe, 'failed');
  assert.equal(logEntries().at(-1), { at: Date.now(), kind: 'probe-failed', detail: 'HTTP 503' });
});

probes('fails when nothing answers (connection refused)', async () => {
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  assert.is(await probe(`http://127.0.0.1:${port}/sw.js`), false);
  assert.equal(logEntries().at(-1)?.detail, 'no answer');
});

test.run();
probes.run();
