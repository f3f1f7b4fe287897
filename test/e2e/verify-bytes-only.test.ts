// `npm run verify -- URL --bytes-only` (issue 50): hosts that send no headers (python, S3 without
// metadata, GitHub Pages) pass when every byte matches; missing headers are warnings.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startHost } from './lib/hosts';
import { audit, brokenCopy, copySite, site } from './lib/site';
import { verify, dist, fileCount } from './lib/verify-run';
import { present } from '../present';

const bytesOnly = suite('npm run verify --bytes-only: hosts that send no headers (python), issue 50');

bytesOnly('python: every byte matches, so exit 0; each missing header is one WARNING line with its count', async () => {
  const host = await startHost('python', dist);
  try {
    const strict = await verify(host.url, dist);
    assert.is(strict.code, 1, 'without --bytes-only, the missing headers fail');
    const result = await verify(host.url, dist, '--bytes-only');
    assert.equal(result.stderr, []);
    const summary = present(result.stdout.pop(), 'the summary');
    assert.match(
      summary,
      new RegExp(
        `^verify: OK \\(bytes only\\), ${fileCount} files of version \\w+ \\(react build\\) at ${host.url}: every SHA-384 matches`,
      ),
    );
    assert.ok(result.stdout.length > 0 && result.stdout.every((line) => line.startsWith('WARNING ')), result.stdout.join('\n'));
    assert.ok(
      result.stdout.some(
        (line) => line.startsWith(`WARNING HEADER (${fileCount} files, `) && line.includes('Content-Security-Policy is missing'),
      ),
      'the policy, missing on every file, is one line',
    );
    assert.is(result.code, 0);
  } finally {
    await host.close();
  }
});

bytesOnly('python: one altered byte still fails: one ALTERED line, exit 1', async () => {
  const altered = brokenCopy(dist, (copy) => {
    const file = path.join(copy, 'robots.txt');
    writeFileSync(file, `${readFileSync(file, 'utf8')}# altered\n`);
  });
  const host = await startHost('python', altered);
  try {
    const result = await verify(host.url, dist, '--bytes-only');
    assert.equal(
      result.stdout.filter((line) => !line.startsWith('WARNING ')).map((line) => line.split(':')[0]),
      ['ALTERED robots.txt (identity)', 'verify'],
    );
    assert.match(present(result.stdout.at(-1), 'the summary'), /^verify: FAILED, 1 problem \(1 altered\)/);
    assert.is(result.code, 1);
  } finally {
    await host.close();
  }
});

bytesOnly(
  'python serving a folder that holds my-app/: a --base /my-app/ build passes there, and fails with one SCOPE line at the root',
  async () => {
    const base = site('react', 'base');
    const root = path.join(copySite(dist), '..', 'www-python');
    mkdirSync(root);
    symlinkSync(base, path.join(root, 'my-app'));
    const host = await startHost('python', root);
    try {
      const result = await verify(new URL('my-app/', host.url).href, base, '--bytes-only');
      assert.match(present(result.stdout.at(-1), 'the summary'), `verify: OK (bytes only), ${audit(base).files.length + 1} files`);
      assert.is(result.code, 0);
      await host.setRoot(base);
      const misplaced = await verify(host.url, base, '--bytes-only');
      assert.ok(
        misplaced.stdout.includes(
          'SCOPE sw.js: dist/ is built for --base /my-app/, served at /: its worker would control / and precache /my-app/; build with --base /',
        ),
        misplaced.stdout.join('\n'),
      );
      assert.is(misplaced.code, 1);
    } finally {
      await host.close();
    }
  },
);

bytesOnly.run();
