// The headers the README promises, on real responses of the preview server, of Debian's nginx
// running the shipped deploy/nginx.conf and of Cloudflare Pages' runtime reading `_headers`: all
// three come from one table (tools/headers.mjs), and these tests read what each host actually
// sends. No browser: plain HTTP requests, with no decoding, so the bytes are the wire's. Every
// page also carries its own policy in a <meta> (for hosts that send no headers): the build writes
// it into each HTML file, and each host's page answers carry it beside the header, the same policy
// without the directives a meta element cannot carry.
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HEADER_ONLY_DIRECTIVES, META_CONTENT_SECURITY_POLICY } from '../../tools/headers.mjs';
import { beforeAllTests } from './lib/hooks';
import { startHost, startNginxUnprivileged, type Host, type HostKind } from './lib/hosts';
import { ROUTES } from './lib/screens';
import { audit, BUILDS, cleanup, site, temp } from './lib/site';
import { present } from '../present';

/** What one request got: status, headers (lower-case names), and the body as sent (not decoded). */
interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** GETs `urlPath` from the host (or asks with `method`), asking for `encoding` (none by default). */
function get(host: Host, urlPath: string, encoding = 'identity', method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(urlPath, host.url), { method, headers: { 'Accept-Encoding': encoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/**
 * Asserts the host answers the page's reconnect probe (src/reload/connectivity.ts: a HEAD of /sw.js, past
 * the worker) with a 200 and no body: the reload waits for that answer, so a host that refused HEAD
 * would keep a page from ever reloading. Returns the answer, for what else a test reads of it.
 */
async function assertAnswersProbe(host: Host): Promise<Answer> {
  const answer = await get(host, '/sw.js', 'identity', 'HEAD');
  assert.is(answer.status, 200, `${host.kind}: HEAD /sw.js`);
  assert.is(answer.body.length, 0, `${host.kind}: no body for HEAD`);
  return answer;
}

/** One rule of a `_headers` file: a path pattern (`*` matches any rest) and its headers. */
interface Rule {
  pattern: string;
  headers: [string, string][];
}

/**
 * Parses `_headers` as Netlify and Cloudflare Pages read it: a line starting with `/` opens a
 * rule, indented `Name: value` lines belong to it, `#` lines are comments.
 */
function parseHeadersFile(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (line.startsWith('/')) {
      rules.push({ pattern: line.trim(), headers: [] });
      continue;
    }
    const colon = line.indexOf(':');
    assert.ok(/^\s+\S/.test(line) && colon > 0 && rules.length > 0, `a header line belongs to a rule: ${JSON.stringify(line)}`);
    present(rules.at(-1), 'a rule before the header line').headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

/** The headers `_headers` gives a path: every matching rule's, none set twice (hosts would join or override). */
function headersFromFile(rules: Rule[], urlPath: string): Record<string, string> {
  const matches = (pattern: string) => (pattern.endsWith('*') ? urlPath.startsWith(pattern.slice(0, -1)) : urlPath === pattern);
  const headers: Record<string, string> = {};
  for (const rule of rules.filter((candidate) => matches(candidate.pattern))) {
    for (const [name, value] of rule.headers) {
      assert.not.ok(name in headers, `${urlPath}: ${name} is set by two rules of _headers`);
      headers[name] = value;
    }
  }
  return headers;
}

/** The promised headers as a host sent them, under the names `_headers` uses; Content-Type as its media type only. */
function promisedFrom(answer: Answer, names: string[]): Record<string, string> {
  const sent: Record<string, string> = {};
  for (const name of names) {
    const value = answer.headers[name.toLowerCase()];
    if (value === undefined) continue;
    sent[name] = name === 'Content-Type' ? String(value).split(';')[0].trim() : String(value);
  }
  return sent;
}

/** The URL paths the site is used at: every file of audit.json, and each route's folder URL. */
function urlPathsOfSite(dir: string): string[] {
  return audit(dir).files.flatMap(({ path: file }) =>
    file.endsWith('index.html') ? ['/' + file.slice(0, -'index.html'.length), '/' + file] : ['/' + file],
  );
}

const PROMISED = [
  'Cache-Control',
  'Content-Security-Policy',
  'X-Content-Type-Options',
  'Referrer-Policy',
  'X-Frame-Options',
  'Cross-Origin-Opener-Policy',
  'Cross-Origin-Resource-Policy',
  'Permissions-Policy',
  'Content-Type',
];
/** The policy the README promises, spelled out: a change to the table must change this too. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; media-src 'self'; font-src 'self'; connect-src 'self'; manifest-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; require-trusted-types-for 'script'; trusted-types service-worker-url";
const HEADER_HOSTS: HostKind[] = ['preview', 'nginx', 'pages'];

/** The policies of a page's `<meta http-equiv="Content-Security-Policy">` elements, in document order. */
const metaPoliciesOf = (html: string): string[] =>
  [...html.matchAll(/<meta\s+http-equiv="?Content-Security-Policy"?\s+content="([^"]*)"/gi)].map((match) =>
    match[1].replaceAll('&quot;', '"').replaceAll('&amp;', '&'),
  );

/** A policy without the directives CSP drops from a meta element (frame-ancestors, report-uri, sandbox). */
const withoutHeaderOnly = (policy: string): string =>
  policy
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive && !HEADER_ONLY_DIRECTIVES.includes(directive.split(/\s+/)[0]))
    .join('; ');

/**
 * The page's own policy the build writes for a header `policy`: without the header-only directives,
 * and with the page's scripts by their hashes (their `integrity`: the chunks it preloads, then its
 * script) and 'strict-dynamic' in script-src.
 */
function pagePolicyFor(policy: string, html: string): string {
  const scripts = /<(?:script\b|link\b(?=[^>]*\srel="modulepreload"))[^>]*\sintegrity="([^"]+)"/g;
  const hashes = [...html.matchAll(scripts)].map((match) => `'${match[1]}'`);
  assert.ok(/<script\b[^>]*\sintegrity=/.test(html), 'the page loads its script with integrity');
  return withoutHeaderOnly(policy).replace("script-src 'self'", `script-src 'self' 'strict-dynamic' ${hashes.join(' ')}`);
}

const pages = suite("the page's own policy, in every HTML file the build writes");

for (const build of BUILDS) {
  for (const variant of ['v1', 'base'] as const) {
    pages(
      `${build.name}, ${variant}: each page has one <meta> policy, the header's without frame-ancestors and with its script by hash, first in <head> after <meta charset>; nothing inline`,
      () => {
        const dir = site(build.name, variant);
        const files = audit(dir)
          .files.map((file) => file.path)
          .filter((file) => file.endsWith('.html'));
        assert.ok(files.includes('index.html') && files.includes('404.html') && files.length >= 4, files.join(', '));
        assert.is(META_CONTENT_SECURITY_POLICY, withoutHeaderOnly(CSP));
        for (const file of files) {
          const html = readFileSync(path.join(dir, file), 'utf8');
          assert.equal(metaPoliciesOf(html), [pagePolicyFor(CSP, html)], file);
          // A meta policy governs only what the parser meets after it: nothing comes before it but the charset.
          assert.is(
            html.slice(0, html.indexOf('<meta http-equiv')),
            '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
            file,
          );
          // `script-src 'self'` and `style-src 'self'` hold only while nothing is inline.
          for (const [tag] of html.matchAll(/<[a-z][^>]*>/gi)) {
            assert.not.match(tag, /\s(on[a-z]+|style)\s*=/i, `${file}: ${tag}`);
            if (/^<script\b/i.test(tag)) assert.match(tag, /\ssrc="/, `${file}: ${tag}`);
          }
          assert.not.match(html, /<style\b|javascript:/i, file);
        }
      },
    );
  }
}
pages.run();

/**
 * What a page's URL answers: on Cloudflare Pages `/x.html` and `/dir/index.html` answer 308 to
 * their pretty URL (`/x`, `/dir/`), and a visitor gets what that answers; other hosts answer at once.
 */
async function getFollowingPrettyUrl(host: Host, urlPath: string): Promise<{ answer: Answer; servedAt: string }> {
  const answer = await get(host, urlPath);
  if (answer.status !== 308 || host.kind !== 'pages') return { answer, servedAt: urlPath };
  const pretty = urlPath.endsWith('/index.html') ? urlPath.slice(0, -'index.html'.length) : urlPath.replace(/\.html$/, '');
  assert.is(answer.headers.location, pretty, `${urlPath}: Pages' pretty URL`);
  return { answer: await get(host, pretty), servedAt: pretty };
}

for (const build of BUILDS) {
  const dir = site(build.name, 'v1');
  const rules = parseHeadersFile(readFileSync(path.join(dir, '_headers'), 'utf8'));
  for (const kind of HEADER_HOSTS) {
    const test = suite<{ host: Host }>(`promised headers (${build.name}, ${kind})`);
    beforeAllTests(test, async (context) => {
      context.host = await startHost(kind, dir);
    });
    test.after(async ({ host }) => host?.close());

    test('every file answers 200 with exactly the headers _headers gives its path (one table for all three)', async ({ host }) => {
      const urlPaths = urlPathsOfSite(dir).filter((urlPath) => urlPath !== '/_headers');
      assert.ok(urlPaths.length >= 15, `${urlPaths.length} paths`);
      for (const urlPath of urlPaths) {
        const { answer, servedAt } = await getFollowingPrettyUrl(host, urlPath);
        assert.is(answer.status, 200, urlPath);
        // Pages adds this to every file it serves; _headers cannot remove it.
        if (kind === 'pages') assert.is(answer.headers['access-control-allow-origin'], '*', urlPath);
        const fromFile = headersFromFile(rules, servedAt);
        // Content-Type is in _headers only where the host's own guess is not enough (the manifest).
        const sent = promisedFrom(
          answer,
          PROMISED.filter((name) => name !== 'Content-Type' || name in fromFile),
        );
        assert.equal(sent, fromFile, urlPath);
      }
    });

    test("the README's promises, on real responses: no-cache on sw.js and the HTML, immutable on /assets/, CSP, nosniff, no framing, COOP, CORP, Permissions-Policy, the manifest type", async ({
      host,
    }) => {
      const files = audit(dir).files.map((file) => file.path);
      const script = present(
        files.find((file) => /^assets\/app-\w+\.js$/.test(file)),
        'the app script in the audit',
      );
      for (const urlPath of ['/sw.js', '/', '/index.html', '/status/', '/about/', '/404.html'])
        assert.is((await get(host, urlPath)).headers['cache-control'], 'no-cache', urlPath);
      const asset = await get(host, '/' + script);
      assert.is(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
      for (const urlPath of ['/', '/' + script, '/sw.js', '/manifest.webmanifest']) {
        const answer = await get(host, urlPath);
        assert.is(answer.headers['content-security-policy'], CSP, urlPath);
        assert.is(answer.headers['x-content-type-options'], 'nosniff', urlPath);
        assert.is(answer.headers['x-frame-options'], 'DENY', urlPath);
        assert.is(answer.headers['cross-origin-opener-policy'], 'same-origin', urlPath);
        assert.is(answer.headers['cross-origin-resource-policy'], 'same-origin', urlPath);
        assert.match(String(answer.headers['permissions-policy']), /(^|, )camera=\(\)(,|$)/, urlPath);
      }
      assert.match(String((await get(host, '/manifest.webmanifest')).headers['content-type']), /^application\/manifest\+json(;|$)/);
    });

    test("every page answer has one policy header and the page's own <meta> policy, the header's without frame-ancestors and with its script by hash (the 404 page too)", async ({
      host,
    }) => {
      for (const urlPath of [...ROUTES.map((route) => route.path), '/no-such-page']) {
        const answer = await get(host, urlPath);
        assert.is(answer.status, urlPath === '/no-such-page' ? 404 : 200, urlPath);
        const header = String(answer.headers['content-security-policy']);
        assert.is(header, CSP, `${urlPath}: one policy, the table's`);
        const body = answer.body.toString('utf8');
        assert.equal(metaPoliciesOf(body), [pagePolicyFor(header, body)], urlPath);
      }
    });

    test('the reconnect probe (HEAD /sw.js) answers 200 with no body, no-cache', async ({ host }) => {
      const answer = await assertAnswersProbe(host);
      assert.is(answer.headers['cache-control'], 'no-cache');
    });

    // Pages sends its own `no-store` with a 404 (no _headers rule can name "any unknown path"
    // without also matching every file): never stored at all, stricter than revalidated.
    const notFoundCaching = kind === 'pages' ? 'no-store' : 'no-cache';
    test(`an unknown path answers 404 with the app's 404.html, ${notFoundCaching}, with the same CSP and framing rules`, async ({
      host,
    }) => {
      for (const urlPath of ['/no-such-page', '/assets/app-NOSUCHFILE.js']) {
        const answer = await get(host, urlPath);
        assert.is(answer.status, 404, urlPath);
        assert.ok(answer.body.equals(readFileSync(path.join(dir, '404.html'))), `${urlPath}: the body is 404.html`);
        assert.is(answer.headers['cache-control'], notFoundCaching, `${urlPath}: a missing file is never cached for a year`);
        assert.is(answer.headers['content-security-policy'], CSP, urlPath);
        assert.is(answer.headers['x-frame-options'], 'DENY', urlPath);
      }
    });

    if (kind === 'pages')
      test("text goes out compressed by Pages itself, gzip or br as asked, from the file (not the build's copies)", async ({ host }) => {
        const file = readFileSync(path.join(dir, 'index.html'));
        const gzip = await get(host, '/', 'gzip');
        assert.is(gzip.headers['content-encoding'], 'gzip');
        assert.ok(gunzipSync(gzip.body).equals(file), 'gzip decodes to index.html');
        assert.not.ok(gzip.body.equals(readFileSync(path.join(dir, 'index.html.gz'))), 'compressed on the fly, not index.html.gz');
        const brotli = await get(host, '/', 'br');
        assert.is(brotli.headers['content-encoding'], 'br');
        assert.ok(brotliDecompressSync(brotli.body).equals(file), 'br decodes to index.html');
      });
    else
      test('text goes out as the precompressed copy the build wrote beside it, with Vary: Accept-Encoding', async ({ host }) => {
        const answer = await get(host, '/', 'gzip');
        assert.is(answer.headers['content-encoding'], 'gzip');
        assert.match(String(answer.headers.vary), /Accept-Encoding/i);
        assert.ok(answer.body.equals(readFileSync(path.join(dir, 'index.html.gz'))), 'the bytes of index.html.gz');
      });

    test.run();
  }
}

const python = suite<{ host: Host }>("python's http.server, which sends no headers of ours");
beforeAllTests(python, async (context) => {
  context.host = await startHost('python', site('react', 'v1'));
});
python.after(async ({ host }) => host?.close());
python('the reconnect probe (HEAD /sw.js) answers 200 with no body', async ({ host }) => {
  await assertAnswersProbe(host);
});
python.run();

const copied = suite<{ parent: string; dir: string }>('a copy of the build on nginx whose workers run as nobody (issue 50)');
beforeAllTests(copied, (context) => {
  // A folder others may enter, as /srv or /var/www is (temp() makes its own 0700).
  context.parent = temp();
  chmodSync(context.parent, 0o755);
  context.dir = site('react', 'v1');
});
copied.after(cleanup);

for (const [how, copy] of [
  ['cp -r', (from: string, to: string) => ['cp', '-r', from, to]],
  ['rsync -a', (from: string, to: string) => ['rsync', '-a', `${from}/`, `${to}/`]],
] as const) {
  copied(`a ${how} copy answers 200 for every file in audit.json`, async ({ parent, dir }) => {
    const served = path.join(parent, how.replace(/\W/g, ''));
    const [command, ...args] = copy(dir, served);
    const copying = spawnSync(command, args, { encoding: 'utf8' });
    assert.is(copying.status, 0, copying.stderr);
    const nginx = await startNginxUnprivileged(served);
    try {
      // A worker is forked as root and drops to nobody while it starts; one that has answered has started.
      assert.is((await fetch(nginx.url)).status, 200);
      assert.equal(nginx.workerUsers(), ['nobody'], 'one worker, as nobody');
      const statuses: Record<string, number> = {};
      for (const { path: file } of audit(served).files) statuses[file] = (await fetch(new URL(file, nginx.url))).status;
      const failing = Object.entries(statuses).filter(([, status]) => status !== 200);
      assert.ok(Object.keys(statuses).length > 10, 'every file of a whole site');
      assert.equal(failing, [], 'every file 200');
      // The same nginx refuses a file its worker may not read: the 200s above are the modes' doing.
      for (const name of readdirSync(served).filter((entry) => entry.startsWith('robots.txt'))) chmodSync(path.join(served, name), 0o600);
      assert.is((await fetch(new URL('robots.txt', nginx.url))).status, 403);
    } finally {
      await nginx.close();
    }
  });
}

copied.run();
