// The shared suite setup (test/e2e/lib/hooks.ts), run the way `npm test` runs a test file: a
// bundled file under test/harness/uvu-run.mjs, in its own Node process.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const root = process.cwd();

/** A test file whose suite setup throws, and one test that would pass. */
const FAILING_SETUP = `
import { suite } from 'uvu';
import { beforeAllTests } from ${JSON.stringify(path.join(root, 'test/e2e/lib/hooks.ts'))};
const test = suite('a suite whose host never starts');
beforeAllTests(test, async () => {
  throw new Error('nginx: address already in use');
});
test('would pass', () => {});
test.run();
`;

const hooks = suite('test helpers: suite setup');

hooks('a failed setup is printed with its suite and reason, and its tests count as not passed', async () => {
  // Inside the checkout, so the bundle finds uvu in node_modules like every bundled test file.
  mkdirSync(path.join(root, 'test-output'), { recursive: true });
  const dir = mkdtempSync(path.join(root, 'test-output', 'hooks-'));
  try {
    const source = path.join(dir, 'failing-setup.test.ts');
    const bundled = path.join(dir, 'failing-setup.test.mjs');
    writeFileSync(source, FAILING_SETUP);
    await build({
      entryPoints: [source],
      outfile: bundled,
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'error',
    });
    const result = spawnSync(process.execPath, [path.join(root, 'test/harness/uvu-run.mjs'), bundled], {
      encoding: 'utf8',
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    assert.match(result.stderr, 'a suite whose host never starts: setting up the suite failed');
    assert.match(result.stderr, 'nginx: address already in use');
    assert.match(result.stdout, /Total:\s+1\n/);
    assert.match(result.stdout, /Passed:\s+0\n/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

hooks.run();
