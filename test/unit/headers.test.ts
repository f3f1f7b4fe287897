// The header table (tools/headers.mjs) and the files generated from it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderHtml } from '../../tools/pipeline/html.mjs';
import { sri } from '../../tools/sri.mjs';
import {
  CSP_META_ELEMENT,
  cspMetaElement,
  HEADER_ONLY_DIRECTIVES,
  headersFile,
  headersFor,
  META_CONTENT_SECURITY_POLICY,
  metaPolicyFor,
  TRUSTED_TYPES_POLICIES,
} from '../../tools/headers.mjs';
import { WORKER_URL_POLICY } from '../../src/worker-client/worker-script-url';
import { nginxHttpsConfig, nginxServerBlock, nginxSubpathServerBlock } from '../../deploy/nginx.mjs';

const test = suite('header table');

/** The policy, spelled out: what the README promises. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; media-src 'self'; font-src 'self'; connect-src 'self'; manifest-src 'self'; worker-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'; require-trusted-types-for 'script'; trusted-types service-worker-url";

test('deploy/nginx.conf is the one generated from the table (regenerate: node deploy/nginx.mjs --nginx > deploy/nginx.conf)', () => {
  assert.fixture(readFileSync(path.join(process.cwd(), 'deploy/nginx.conf'), 'utf8'), nginxServerBlock());
});

test('deploy/nginx-https.conf is the one generated from the table (regenerate: node deploy/nginx.mjs --nginx-https > deploy/nginx-https.conf)', () => {
  assert.fixture(readFileSync(path.join(process.cwd(), 'deploy/nginx-https.conf'), 'utf8'), nginxHttpsConfig());
});

test('deploy/nginx-subpath.conf is the one generated from the table (regenerate: node deploy/nginx.mjs --nginx-subpath > deploy/nginx-subpath.conf)', () => {
  assert.fixture(readFileSync(path.join(process.cwd(), 'deploy/nginx-subpath.conf'), 'utf8'), nginxSubpathServerBlock());
});

test('nginx-https.conf: plain HTTP only redirects to HTTPS; the TLS block sends every header of nginx.conf, plus HSTS for two years', () => {
  const [redirect, tls] = nginxHttpsConfig()
    .split(/\n(?=server \{)/)
    .slice(1);
  assert.match(redirect, /listen 80;/);
  assert.match(redirect, /return 301 https:\/\/\$host\$request_uri;/);
  assert.not.match(redirect, /add_header|root /, 'the HTTP block serves nothing');
  assert.match(tls, /listen 443 ssl/);
  assert.match(tls, /ssl_certificate \S+;/);
  assert.match(tls, /ssl_certificate_key \S+;/);
  const headerLines = (text: string) => text.split('\n').filter((line) => line.includes('add_header'));
  const hsts = '        add_header Strict-Transport-Security "max-age=63072000; includeSubDomains" always;';
  const tlsHeaders = headerLines(tls);
  assert.equal(
    tlsHeaders.filter((line) => line !== hsts),
    headerLines(nginxServerBlock()),
    'the same headers as over HTTP',
  );
  assert.is(tlsHeaders.filter((line) => line === hsts).length, 3, 'HSTS in each of the three locations');
});

test('the promised headers: no-cache for the worker, the HTML and the rest, immutable for hashed names under /assets/, the manifest type', () => {
  for (const urlPath of ['/sw.js', '/', '/status/', '/about/index.html', '/precache.json', '/icons/icon-192.png'])
    assert.is(headersFor(urlPath)['Cache-Control'], 'no-cache', urlPath);
  assert.is(headersFor('/assets/app-ABCD1234.js')['Cache-Control'], 'public, max-age=31536000, immutable');
  // Only a hashed name is immutable: a dev build's /assets/app.js changes on every save.
  assert.is(headersFor('/assets/app.js')['Cache-Control'], 'no-cache');
  assert.is(headersFor('/manifest.webmanifest')['Content-Type'], 'application/manifest+json');
  assert.is(headersFor('/sw.js')['Content-Type'], undefined, 'other types are left to the host');
  for (const urlPath of ['/', '/assets/app-ABCD1234.js']) {
    assert.is(headersFor(urlPath)['Content-Security-Policy'], CSP);
    assert.is(headersFor(urlPath)['X-Content-Type-Options'], 'nosniff');
  }
});

test('the security headers: a CSP from nothing, no framing, an opener and resource policy of our own, unused features denied', () => {
  const headers = headersFor('/');
  assert.is(headers['Referrer-Policy'], 'no-referrer');
  assert.is(headers['X-Frame-Options'], 'DENY');
  assert.is(headers['Cross-Origin-Opener-Policy'], 'same-origin');
  assert.is(headers['Cross-Origin-Resource-Policy'], 'same-origin');
  assert.is(
    headers['Permissions-Policy'],
    'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), midi=(), display-capture=()',
  );
  assert.is(headers['Strict-Transport-Security'], undefined, 'HSTS only in the HTTPS server block');
});

test("Trusted Types: every script sink needs a policy's value, and the only policy allowed is the app's own, the one for the worker's URL", () => {
  const directives = directivesOf(headersFor('/')['Content-Security-Policy']);
  assert.ok(directives.includes("require-trusted-types-for 'script'"));
  assert.equal(TRUSTED_TYPES_POLICIES, [WORKER_URL_POLICY]);
  // Exactly the one name: no 'allow-duplicates', no `default` policy (which every sink would call on its own).
  assert.equal(
    directives.filter((directive) => directive.startsWith('trusted-types ')),
    [`trusted-types ${WORKER_URL_POLICY}`],
  );
});

test('_headers never sets one header in two rules that match the same path', () => {
  const text = headersFile(['index.html', 'status/index.html', 'sw.js', 'assets/app-ABCD1234.js', 'manifest.webmanifest']);
  const rules = text
    .split(/\n(?=\/)/)
    .filter((block) => block.startsWith('/'))
    .map((block) => {
      const [pattern, ...lines] = block.trim().split('\n');
      return { pattern, names: lines.map((line) => line.trim().split(':')[0]) };
    });
  const matches = (pattern: string, urlPath: string) =>
    pattern.endsWith('*') ? urlPath.startsWith(pattern.slice(0, -1)) : urlPath === pattern;
  for (const urlPath of ['/', '/index.html', '/status/', '/sw.js', '/assets/app-ABCD1234.js', '/manifest.webmanifest']) {
    const names = rules.filter((rule) => matches(rule.pattern, urlPath)).flatMap((rule) => rule.names);
    assert.equal(names.length, new Set(names).size, `${urlPath}: ${names.join(', ')}`);
    assert.ok(names.includes('Cache-Control') && names.includes('Content-Security-Policy'), urlPath);
  }
});

test("_headers has a rule for each path Cloudflare Pages serves a page at: its pretty URLs (/404 for 404.html, /status/ for status/index.html) as well as the files' own", () => {
  const patterns = headersFile(['index.html', 'status/index.html', '404.html', 'sw.js'])
    .split('\n')
    .filter((line) => line.startsWith('/'));
  assert.equal(patterns, ['/*', '/404.html', '/404', '/', '/index.html', '/status/', '/status/index.html', '/sw.js']);
  assert.ok(
    headersFile(['404.html']).includes('/404\n  Cache-Control: no-cache\n'),
    'the page Pages answers /404.html with is revalidated',
  );
});

/** The directives of a policy, as `name sources` strings in the order written. */
const directivesOf = (policy: string): string[] =>
  policy
    .split(';')
    .map((directive) => directive.trim())
    .filter(Boolean);

test("the page's own policy (<meta>) is the header's without the directives CSP drops from a meta element: frame-ancestors, report-uri, sandbox", () => {
  // CSP Level 3, 3.3 "The <meta> element", spelled out: a change to the spec list is a change here.
  assert.equal(HEADER_ONLY_DIRECTIVES, ['frame-ancestors', 'report-uri', 'sandbox']);
  const header = directivesOf(headersFor('/')['Content-Security-Policy']);
  assert.equal(
    directivesOf(META_CONTENT_SECURITY_POLICY),
    header.filter((directive) => !HEADER_ONLY_DIRECTIVES.includes(directive.split(' ')[0])),
  );
  assert.ok(header.includes("frame-ancestors 'none'"), 'the header still forbids framing');
  assert.is(META_CONTENT_SECURITY_POLICY, CSP.replace("; frame-ancestors 'none'", ''));
  assert.is(CSP_META_ELEMENT, `<meta http-equiv="Content-Security-Policy" content="${META_CONTENT_SECURITY_POLICY}">`);
});

test("a page whose scripts are known by their SRI gets the strict form of script-src: them by hash, 'strict-dynamic', 'self' kept; nothing else changes", () => {
  const hashes = ['sha384-AAAA', 'sha384-BBBB'];
  assert.is(
    metaPolicyFor(hashes),
    META_CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'strict-dynamic' 'sha384-AAAA' 'sha384-BBBB'"),
  );
  assert.is(metaPolicyFor([]), META_CONTENT_SECURITY_POLICY, 'without hashes (a dev build), the plain form');
  // The header stays as the hosts' configurations say it: they do not change with each build.
  assert.is(headersFor('/')['Content-Security-Policy'], CSP);
});

/** A template as small as static/index.html can be: what renderHtml() needs, a manifest link and the assets marker. */
const TEMPLATE =
  '<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>%TITLE%</title>\n<link rel="manifest" href="%BASE%manifest.webmanifest">\n<!--assets-->\n</head>\n<body><div id="root"></div></body>\n</html>\n';
const PAGE = {
  title: 'Notes',
  appTitle: 'offline-shell',
  assets: [{ path: 'assets/app-ABCD1234.js', contents: Buffer.from('') }],
  body: '',
};

test('every page gets the policy first in <head>, right after <meta charset>: before any element that loads something, as a meta policy governs only what follows it', () => {
  for (const template of [TEMPLATE, readFileSync(path.join(process.cwd(), 'static/index.html'), 'utf8')]) {
    for (const base of ['/', '/my-app/']) {
      const html = renderHtml(template, { ...PAGE, base });
      // The page's one script by its hash (its integrity attribute's).
      const element = cspMetaElement([sri(PAGE.assets[0].contents)]);
      assert.ok(html.includes(`integrity="${sri(PAGE.assets[0].contents)}"`));
      assert.is(html.split('http-equiv="Content-Security-Policy"').length, 2, 'exactly one policy');
      assert.ok(html.includes(`<head>\n<meta charset="utf-8">\n${element}\n`), `right after <meta charset> (base ${base})`);
      const at = html.indexOf(element);
      for (const loads of ['<link', '<script', '<style', '<img', '<base'])
        assert.ok(!html.includes(loads) || html.indexOf(loads) > at, `${loads} comes after the policy (base ${base})`);
    }
  }
});

test('a template with a Content-Security-Policy of its own, or without <head>, stops the build with one line', () => {
  assert.throws(
    () => renderHtml(TEMPLATE.replace('<title>', `<meta http-equiv="content-security-policy" content="default-src *">\n<title>`), PAGE),
    /^static\/index\.html has a Content-Security-Policy of its own; the build writes the one of tools\/headers\.mjs$/,
  );
  assert.throws(
    () => renderHtml(TEMPLATE.replace('<head>', '').replace('</head>', ''), PAGE),
    /^static\/index\.html has no <head> for the page's own Content-Security-Policy$/,
  );
});

test.run();
