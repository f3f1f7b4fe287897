// The MDN HTTP Observatory's scanner (npm @mdn/mdn-http-observatory, through test/harness/observatory.mjs)
// scores what the hosts really send: the preview server, nginx with deploy/nginx.conf and Cloudflare
// Pages' runtime with `_headers` (which adds `Access-Control-Allow-Origin: *` to every file) over
// plain HTTP, where only the two tests that need TLS may fail (redirection to HTTPS, HSTS), and nginx
// with deploy/nginx-https.conf and a self-signed certificate made here by openssl, where every
// test passes and the score is the scanner's maximum without HSTS preload; and python, which sends
// no headers, where the scanner still finds the page's own policy in its <meta>. The scores are printed.
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { observatoryScore } from '../harness/observatory.mjs';
import { startHost, startNginxHttps, type HostKind } from './lib/hosts';
import { freePort } from './lib/processes';
import { site, temp } from './lib/site';

/** A whole scan, as test/harness/observatory.mjs prints it with --json: the graded score and every test. */
type Scan = Awaited<ReturnType<typeof observatoryScore>>;

/**
 * Runs test/harness/observatory.mjs in a process of its own (asynchronously: the preview server answers
 * in this one), with `env` added: NODE_EXTRA_CA_CERTS is read only when Node starts.
 */
function scan(httpPort: number, httpsPort: number, env: Record<string, string> = {}): Promise<Scan> {
  return new Promise((resolve, reject) => {
    const args = [
      'test/harness/observatory.mjs',
      '127.0.0.1',
      '--http-port',
      String(httpPort),
      '--https-port',
      String(httpsPort),
      '--json',
    ];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(stdout) as Scan) : reject(new Error(`observatory exited ${code}: ${stderr.trim()}`)),
    );
  });
}

/** The scan as one line a person reads in the test output. */
const printed = (what: string, result: Scan) =>
  console.log(
    `\n  observatory ${what}: ${result.score} (${result.grade}); ${result.tests.map((test) => `${test.pass ? '' : 'FAILED '}${test.name} ${test.scoreModifier >= 0 ? '+' : ''}${test.scoreModifier}`).join(', ')}`,
  );

/** Each test's result by its name. */
const resultsOf = (result: Scan): Record<string, string> => Object.fromEntries(result.tests.map((test) => [test.name, test.result]));

/** The tests that only a host answering over TLS can pass. */
const NEEDS_TLS = ['redirection', 'strict-transport-security'];

/** The bonuses our headers earn on any scheme (the SRI bonus needs HTTPS: the scanner grants it only to scripts it loaded over TLS). */
const BONUSES = {
  'content-security-policy': 'csp-implemented-with-no-unsafe-default-src-none',
  'x-frame-options': 'x-frame-options-implemented-via-csp',
  'referrer-policy': 'referrer-policy-private',
  'cross-origin-resource-policy': 'corp-implemented-with-same-origin',
};

const dist = site('react', 'v1');
const test = suite('MDN HTTP Observatory');

for (const kind of ['preview', 'nginx', 'pages'] as HostKind[]) {
  test(`${kind} over plain HTTP: every test passes but redirection and HSTS, with the CSP, frame-ancestors, referrer and CORP bonuses`, async () => {
    const host = await startHost(kind, dist);
    try {
      // Nothing listens on the HTTPS port: the scanner sees a host without TLS.
      const result = await scan(Number(new URL(host.url).port), await freePort());
      printed(`${kind} (http)`, result);
      const failed = result.tests.filter((outcome) => !outcome.pass).map((outcome) => outcome.name);
      assert.equal(failed.sort(), NEEDS_TLS);
      assert.is(resultsOf(result)['strict-transport-security'], 'hsts-not-implemented-no-https');
      for (const [name, bonus] of Object.entries(BONUSES)) assert.is(resultsOf(result)[name], bonus, name);
      // The two failures (-20 each) cap the score: no bonus counts below 90 (the scanner's grader).
      assert.is(result.score, 60);
    } finally {
      await host.close();
    }
  });
}

test("python (no headers at all): the scanner finds the page's own policy in its <meta>, default-src 'none', and nothing else", async () => {
  const host = await startHost('python', dist);
  try {
    const result = await scan(Number(new URL(host.url).port), await freePort());
    printed('python (http)', result);
    // The same bonus as from the header (a page without the <meta> scored csp-not-implemented, -25: 10, F).
    assert.is(resultsOf(result)['content-security-policy'], BONUSES['content-security-policy']);
    // What only headers can say stays missing: framing (frame-ancestors is dropped from a meta
    // policy, and X-Frame-Options is a header) and nosniff.
    assert.is(resultsOf(result)['x-frame-options'], 'x-frame-options-not-implemented');
    assert.is(resultsOf(result)['x-content-type-options'], 'x-content-type-options-not-implemented');
  } finally {
    await host.close();
  }
});

test('nginx with deploy/nginx-https.conf and a self-signed certificate: every test passes, 135 (A+)', async () => {
  const folder = temp();
  const certificate = path.join(folder, 'cert.pem');
  const key = path.join(folder, 'key.pem');
  // A certificate for the loopback address, valid for a day: the scanner's Node trusts it through NODE_EXTRA_CA_CERTS.
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      certificate,
    ],
    { stdio: 'ignore' },
  );
  const host = await startNginxHttps(dist, { certificate, key });
  try {
    const result = await scan(host.httpPort, host.httpsPort, { NODE_EXTRA_CA_CERTS: certificate });
    printed('nginx (https)', result);
    assert.equal(
      result.tests.filter((outcome) => !outcome.pass).map((outcome) => `${outcome.name}: ${outcome.result}`),
      [],
    );
    assert.is(resultsOf(result).redirection, 'redirection-to-https');
    assert.is(resultsOf(result)['strict-transport-security'], 'hsts-implemented-max-age-at-least-six-months');
    assert.is(resultsOf(result)['subresource-integrity'], 'sri-implemented-and-all-scripts-loaded-securely');
    for (const [name, bonus] of Object.entries(BONUSES)) assert.is(resultsOf(result)[name], bonus, name);
    assert.is(result.score, 135);
    assert.is(result.grade, 'A+');
  } finally {
    await host.close();
  }
});

test.run();
