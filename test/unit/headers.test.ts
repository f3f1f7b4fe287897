// The header table (tools/headers.mjs) and the files generated from it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { headersFile, headersFor, nginxServerBlock } from '../../tools/headers.mjs';

const test = suite('header table');

test('deploy/nginx.conf is the one generated from the table (regenerate: node tools/headers.mjs --nginx > deploy/nginx.conf)', () => {
  assert.fixture(readFileSync(path.join(process.cwd(), 'deploy/nginx.conf'), 'utf8'), nginxServerBlock());
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
    assert.is(headersFor(urlPath)['Content-Security-Policy'], "default-src 'self'");
    assert.is(headersFor(urlPath)['X-Content-Type-Options'], 'nosniff');
  }
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

test.run();
